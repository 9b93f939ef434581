#pragma once
// The answer every output opens on, computed once: the console (report/console_answer.cpp), the
// Markdown (report/answer_markdown.cpp) and the HTML (report/html_answer.cpp) all show these groups,
// workloads, picks and configuration lines, so they cannot differ. When results.json carries its
// own `recommendations`, they are made from the same list.
#include <string>
#include <vector>

#include "judgement/analysis.h"
#include "results/results_fwd.h"

namespace kvz {

// Per workload group pooled over the sources of each block set (a fleet's hosts kept apart by
// the group key), the pick per workload; under a store profile among the codecs that store
// writes, each pick with the line that applies it (judgement/store_config.h); among every codec,
// without lines, when the run had no store profile. `opt.per_source` is ignored: pooled.
std::vector<GroupRecommendations> run_answer(const RunResults& run, const RecommendOptions& opt);
// The store whose syntax the answer's lines are in ("rocksdb"), "" when the run had no profile.
std::string answer_store(const RunResults& run);

// What the answer stands on, above it in every output, one sentence a line: the machine and the
// run ("measured on ... (2 cores), 5 repetitions a cell"), an interrupted run's warning, and the
// machine's verdict (quiet, busy, too busy to decide) once results carry one.
std::vector<std::string> answer_header_lines(const RunResults& run);

// A mark the answer's and tables' labels may carry, and what it means to a storage engineer.
struct Mark {
  std::string mark;     // ":fresh", "≈", "+N tied", "*"
  std::string meaning;  // "the codec's context created and freed for every block, as RocksDB ..."
};
// What an output printed that may need a mark explained.
struct MarksSeen {
  std::vector<std::string> labels;  // codec labels shown ("lz4 1:stream:fresh", "zstd 3:rawdict=16K")
  bool tie = false;                 // a pick with ties (≈)
  bool cut_tie = false;             // a tie chain cut to "+N tied"
  bool current_row = false;         // a store file's own codec's row (*)
  bool per_million = false;         // observed stalls per million calls (/M)
};
// The marks `seen` uses, each once, in a fixed order (ties first, then the call variants).
std::vector<Mark> marks_used(const MarksSeen& seen);
// The marks every label of the run's cells uses, and the current row's *.
MarksSeen marks_of_run(const RunResults& run);

}  // namespace kvz
