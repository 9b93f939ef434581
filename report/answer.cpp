// The answer every output opens on (report/answer.h): one computation, one header, one legend.
#include "report/answer.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "judgement/machine_verdict.h"
#include "judgement/store_config.h"
#include "results/cell_view.h"
#include "results/results.h"

namespace kvz {

std::vector<GroupRecommendations> run_answer(const RunResults& run, const RecommendOptions& opt) {
  RecommendOptions pooled = opt;
  pooled.per_source = false;
  return recommend_for_run_store(run, pooled);
}

std::string answer_store(const RunResults& run) { return run_store(run); }

std::vector<std::string> answer_header_lines(const RunResults& run) {
  const RunMeta& m = run.meta;
  std::vector<std::string> lines;
  // The machine and the run, then the machine's verdict (judgement/machine_verdict.h: quiet,
  // busy, too busy to decide) from the load bench recorded beside the cells.
  lines.push_back(fmt::format("measured on {}{} ({} core{}), {} repetition{} a cell",
                              m.cpu_model.empty() ? "?" : m.cpu_model, m.hostname.empty() ? "" : ", host " + m.hostname,
                              m.cores, m.cores == 1 ? "" : "s", m.repetitions, m.repetitions == 1 ? "" : "s"));
  if (m.interrupted) lines.emplace_back("interrupted: the answer stands on the cells that finished");
  if (const std::string load = machine_verdict_line(m); !load.empty()) lines.push_back(load);
  return lines;
}

namespace {

bool any_label(const MarksSeen& seen, const std::regex& pattern) {
  return std::any_of(seen.labels.begin(), seen.labels.end(),
                     [&](const std::string& l) { return std::regex_search(l, pattern); });
}

}  // namespace

std::vector<Mark> marks_used(const MarksSeen& seen) {
  std::vector<Mark> marks;
  auto add = [&](bool used, const char* mark, const char* meaning) {
    if (used) marks.push_back({mark, meaning});
  };
  add(seen.tie, "≈", "ties with the pick: the two differ by less than the noise of the measure the workload ranks on");
  add(seen.cut_tie, "+N tied", "N more codecs tie too: results.md and report.html list them all");
  add(seen.current_row, "*", "the store file's own codec, as the file holds it: every other row is a switch from it");
  add(seen.per_million, "/M", "observed stalls per million calls, the calls the scheduler switched out left aside");
  add(any_label(seen, std::regex(":fresh")), ":fresh",
      "a new codec context for every block, as RocksDB calls the codec (zstd: a context per call, as "
      "WiredTiger's extension does); without it one context serves every block");
  add(any_label(seen, std::regex(":stream")), ":stream",
      "lz4's streaming call, RocksDB 7.8's LZ4 (LZ4_compress_fast_continue on a new stream): other bytes than "
      "plain lz4, which Cassandra, ScyllaDB and HBase call");
  add(any_label(seen, std::regex(":dict=")), "dict=SIZE",
      "a dictionary of that size trained on the block set's blocks, one per file as RocksDB keeps it, its bytes "
      "counted");
  add(any_label(seen, std::regex(":rawdict=")), "rawdict=SIZE",
      "raw samples of the data as the dictionary, RocksDB's way when zstd_max_train_bytes is 0");
  add(any_label(seen, std::regex(":zlib")), ":zlib",
      "zlib's container (window 15), as Cassandra, ScyllaDB, HBase and WiredTiger call zlib; plain zlib is "
      "RocksDB's raw deflate");
  add(any_label(seen, std::regex(":w[0-9]+")), ":wN", "a window of 2^N bytes (zstd, brotli)");
  add(any_label(seen, std::regex("^xz [0-9]+e")), "xz 6e", "xz's extreme preset");
  return marks;
}

namespace {

// Calls at or above the lowest stall threshold that the scheduler did not switch out: the
// console's observed-stalls line gives these per million calls.
bool own_stalls(const LatencyStats& l) {
  const auto at = [](const std::map<uint64_t, uint64_t>& m) { return m.empty() ? 0 : m.begin()->second; };
  return at(l.stalls) > at(l.preempted_stalls);
}

}  // namespace

MarksSeen marks_of_run(const RunResults& run) {
  MarksSeen seen;
  for (const auto& c : run.cells) {
    seen.labels.push_back(cell_label(run, c));
    seen.current_row = seen.current_row || c.current;
    seen.per_million = seen.per_million || (c.status == CellStatus::Ok &&
                                            (own_stalls(c.compress_latency) || own_stalls(c.decompress_latency)));
  }
  std::sort(seen.labels.begin(), seen.labels.end());
  seen.labels.erase(std::unique(seen.labels.begin(), seen.labels.end()), seen.labels.end());
  return seen;
}

}  // namespace kvz
