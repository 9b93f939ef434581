// A run's own record (results/run_meta.h): the build, the machine, the clock, the command line,
// every codec library's runtime version and the engine's settings.
#include "commands/run_metadata.h"

#include <fmt/format.h>

#include <cstdlib>
#include <string>

#include "bench/cell.h"
#include "bench/sysinfo.h"
#include "bench/timer.h"
#include "codecs/registry.h"
#include "commands/address_layout.h"
#include "kvz_build_info.h"
#include "results/run_meta.h"
#include "util/text.h"

namespace kvz {

void fill_run_meta(RunMeta& m, const RunPlan& p, const RunArgs& a, const CodecRegistry& reg, int argc, char** argv) {
  m.kvzbench_version = KVZ_VERSION;
  m.git_revision = KVZ_GIT_REV;
  m.compiler = KVZ_CXX_COMPILER;
  m.build_type = KVZ_BUILD_TYPE;
  m.cxx_flags = KVZ_CXX_FLAGS;
  const SystemFacts sys = read_system_facts();
  m.cpu_model = sys.cpu_model;
  m.cpu_flags = sys.cpu_flags;
  m.cores = sys.cores;
  m.llc_bytes = sys.llc_bytes;
  // A pod's hostname is the pod's, not the node's: a fleet survey's Job hands run the node's name
  // (the downward API's spec.nodeName) in KVZ_NODE_NAME, and merge keys each node's files by it.
  const char* node = std::getenv("KVZ_NODE_NAME");
  m.hostname = node && *node ? std::string(node) : sys.hostname;
  const TickClockInfo& tc = tick_clock_info();
  m.timer = tc.name;
  m.tsc_ghz = tc.ghz;
  m.timer_overhead_ns = tc.overhead_ns;
  m.started_at = utc_timestamp_iso();
  // main() hands `run` its own argv: argv[0] is "run" for `kvzbench run ...`.
  if (argc > 0 && std::string(argv[0]) == "run") m.command_line = "kvzbench ";
  for (int i = 0; i < argc; ++i) m.command_line += (i ? " " : "") + std::string(argv[i]);
  m.seed = p.sources.seed;
  m.repetitions = p.engine.repetitions;
  m.profile = a.profile;
  for (const auto& c : reg.codecs())
    m.codec_versions.push_back({c->info().name, c->info().library, c->info().version, c->info().has_levels});
  m.extra["cache"] = p.engine.cache;
  if (!p.dict_sizes.empty()) m.extra["dict_method"] = p.engine.dict_method;
  m.extra["threads"] = std::to_string(p.engine.threads);
  m.extra["seconds_per_cell"] = fmt::format("{}", p.engine.seconds_per_cell);
  m.extra["random_interleaving"] = p.engine.random_interleaving ? "true" : "false";
  m.extra["mbps_unit"] = "1e6 bytes/s of uncompressed data";
  m.extra["latency_note"] = "per-call times include the timer overhead; nothing is subtracted";
  if (p.engine.shard_count > 1) m.extra["shard"] = fmt::format("{}/{}", p.engine.shard_index, p.engine.shard_count);
  if (!p.shard_scheduler.empty()) m.extra["shard_scheduler"] = p.shard_scheduler;
  if (!a.pin.empty()) m.extra["pinned_cpus"] = a.pin;
  m.extra["cold_working_set_bytes"] = std::to_string(cold_working_set_bytes(p.engine));
  m.extra["address_layout"] = address_layout();
}

}  // namespace kvz
