#pragma once
// What a run records about itself (results/results.h RunResults::meta): the build, the machine,
// the codec libraries' runtime versions and the corpora. Its own header so code that reads only
// these (check's header lines) does not rebuild when a cell gains a field.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kvz {

struct CodecVersion {
  std::string codec;
  std::string library;
  std::string version;
  bool has_levels = true;  // false: the level means nothing (memcpy, snappy) and is not shown
};

struct CorpusInfo {
  std::string name;
  std::string path;
  uint64_t bytes = 0;
  std::string sha256;
  std::string detail{};  // a store file: what it is and its bytes on disk ("" for a corpus file)
  // A store file: the table it belongs to, from the store's metadata or path ("ks.events",
  // "/var/lib/rocksdb/db:default", "default:usertable/cf", "table:orders"); "" for a corpus file.
  std::string table{};
  std::string host{};  // set by `merge` of several hosts: the host the file is on
  // A store's part read as one source (a DB's level, from its MANIFEST): the LSM level (-1:
  // none). A store file or part: how many files (bytes is their sizes, stat), the data blocks'
  // bytes on disk in them (all of them, read or not, dictionary blocks included; 0: not known)
  // and how many files use each codec ("lz4" -> 3).
  int level = -1;
  uint64_t files = 0;
  uint64_t data_bytes = 0;
  std::map<std::string, uint64_t> codecs{};
  // The part's options as its store wrote them (a RocksDB column family's, from the DB's OPTIONS
  // file: "compaction_style=kCompactionStyleLevel;level_compaction_dynamic_level_bytes=false;...").
  std::string options{};
};

// How busy the machine was while the run measured (bench/machine_load.h samples it around the
// measuring; judgement/machine_verdict.h judges it). JSON: meta.machine_load. A figure that could
// not be read is negative (the frequency: empty) and prints as "not readable".
struct MachineLoad {
  bool recorded = false;                    // false: a run written before the record existed
  double load_avg_start[3] = {-1, -1, -1};  // /proc/loadavg: 1, 5 and 15 minutes
  double load_avg_end[3] = {-1, -1, -1};
  double wall_seconds = 0;                    // the measuring span
  double process_cpu_seconds = 0;             // this process's CPU time over it
  int threads = 1;                            // the run's worker threads (the CPU it could use)
  double others_cores = -1;                   // CPU the rest of the machine used over it, in cores (/proc/stat)
  double steal_share = -1;                    // steal over all CPU time of the span (/proc/stat), 0..1
  double cpu_mhz_min = -1, cpu_mhz_max = -1;  // cpufreq scaling_cur_freq over the CPUs, start and end
  // Filled from the cells by judgement (judgement/machine_verdict.h): latency calls during which
  // the thread was switched out, over all calls; and the verdict on it all.
  double preempted_share = -1;
  std::string verdict;       // "quiet", "busy" or "too busy to decide"; "" before it is judged
  std::string verdict_text;  // the one line that says it, with the figures behind it
};

struct RunMeta {
  std::string kvzbench_version;
  std::string git_revision;
  std::string compiler;
  std::string build_type;
  std::string cxx_flags;
  std::string cpu_model;
  std::string cpu_flags;  // a short list of the relevant ones (sse4_2, avx2, bmi2, ...)
  int cores = 0;
  uint64_t llc_bytes = 0;
  double timer_overhead_ns = 0;  // measured cost of one latency timestamp pair
  double tsc_ghz = 0;            // calibrated cycle counter frequency (0: portable clock)
  std::string timer;             // "rdtscp" or "steady_clock"
  std::string started_at;        // ISO 8601 UTC
  std::string hostname;
  std::string command_line;
  uint64_t seed = 0;
  int repetitions = 0;
  std::string profile;  // sweep or store profile
  // The store version each store profile of the run models, by the cells' profile name
  // ("leveldb" -> "LevelDB 1.23", "leveldb:version=main" -> "LevelDB main (unreleased)").
  std::map<std::string, std::string> store_versions;
  bool interrupted = false;  // Ctrl-C: the cells present are the finished ones
  std::vector<CodecVersion> codec_versions;
  std::vector<CorpusInfo> corpora;
  std::map<std::string, std::string> extra;
  MachineLoad machine_load;
};

}  // namespace kvz
