#pragma once
// `check`: a current run against a baseline, cell by cell, and the gate's exit code. Judgement,
// not presentation: the HTML's comparison and the console both read this verdict.
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "results/results_fwd.h"

namespace kvz {

struct CheckOptions {
  double slowdown_threshold = 0.10;  // FAIL only above this slowdown ...
  double p_value = 0.01;             // ... and when Mann-Whitney U gives p below this
  double ratio_tolerance = 0.005;    // allowed ratio loss when codec library versions differ
  bool speed_gate = true;            // false: only sizes and failures are checked
  // Gate on speeds by process CPU time when both runs have them: on a shared machine, time
  // spent descheduled shows in wall time as noise, while a codec regression shows in both.
  bool use_cpu_time = true;
  size_t min_repetitions = 9;               // fewer on either side: a slowdown is UNSTABLE, never FAIL
  bool fail_on_missing = false;             // a baseline cell absent from the current run fails the check
  std::string baseline_path = "BASE.json";  // named in the re-baseline hint
  std::string current_path = "CURRENT.json";
  size_t width = 100;  // the console's columns: check's text fits them (util/text.h console_columns)
};

// Per-cell verdicts, in order of severity for the summary (a byte: a million rows keep two each).
enum class CheckStatus : uint8_t { Pass, Fail, Unstable, Skipped, New, Missing };
const char* to_string(CheckStatus s);

struct SpeedVerdict {
  CheckStatus status = CheckStatus::Skipped;
  double slowdown = 0;  // 1 - current/baseline of memcpy-normalised medians (negative: faster)
  double p = 1;         // one-sided Mann-Whitney p that current is slower
  std::string note;
  bool compared = false;  // both runs had speeds to compare
  bool cpu_time = false;  // judged on CPU-time speeds (false: wall time)
};
// A cell's per-repetition MB/s in one direction, by CPU time or by wall time.
const std::vector<double>& cell_speeds(const CellResult& c, bool compress, bool cpu);
struct CellCheck {
  std::string id;
  CheckStatus status = CheckStatus::Pass;
  std::string size_note;                        // "=" or "+1.00 % bytes" ...
  CheckStatus size_status = CheckStatus::Pass;  // sizes and input alone
  SpeedVerdict compress, decompress;
  std::string note;
  double size_ratio = 0;  // current / baseline compressed bytes (0: not compared)
};
struct CheckReport {
  std::vector<CellCheck> cells;
  bool cpu_match = false;
  bool build_match = false;                         // same build type and compiler flags
  std::vector<std::string> version_changes;         // "zstd: 1.5.4 -> 1.5.5"
  double compress_noise = 0, decompress_noise = 0;  // run-to-run scatter of slowdowns (0: too few cells)
  size_t compared = 0;                              // cells found in both runs whose sizes were compared
  std::string refusal;                              // why the gate cannot pass whatever the cells say ("" = none)
  int exit_code = 0;
};
CheckReport check_cells(const RunResults& baseline, const RunResults& current, const CheckOptions& opt);

// --- At scale (judgement/check_compact.cpp): the same verdict on compact runs
// (results/results_compact.h), each cell's row kept in 72 bytes plus its notes' shared text, so
// a million-cell check holds no CellCheck. check_cells is this, expanded.
struct CompactRun;
class NotePool {  // each distinct note once: most rows share a handful
 public:
  uint32_t add(const std::string& text);
  const std::string& operator[](uint32_t i) const { return texts_[i]; }

 private:
  std::vector<std::string> texts_ = {""};
  std::unordered_map<std::string, uint32_t> index_ = {{"", 0}};
};
// Fields ordered so no padding is left: 24 bytes, and 72 a row.
struct CompactSpeed {
  CheckStatus status = CheckStatus::Skipped;
  bool compared = false, cpu_time = false;
  uint32_t note = 0;  // in the report's NotePool
  double slowdown = 0, p = 1;
};
struct CompactCellCheck {
  uint32_t cell = 0;  // in the current run's cells, or the baseline's when from_baseline
  uint32_t size_note = 0, note = 0;
  CheckStatus status = CheckStatus::Pass, size_status = CheckStatus::Pass;
  bool from_baseline = false;  // a MISSING (or another shard's SKIPPED) row
  CompactSpeed compress, decompress;
  double size_ratio = 0;
};
struct CompactCheckReport {
  CheckReport summary;  // everything but the rows: summary.cells stays empty
  std::vector<CompactCellCheck> rows;
  NotePool notes;
  const CompactRun* baseline = nullptr;  // the rows' ids: both runs outlive the report
  const CompactRun* current = nullptr;
  size_t size() const { return rows.size(); }
  CellCheck cell(size_t i) const;  // row i as check_cells gives it
};
CompactCheckReport check_compact(const CompactRun& baseline, const CompactRun& current, const CheckOptions& opt);

// Both runs, what the speed gate did, a row per cell and the verdict, as `check` prints them
// (judgement/check_text.cpp).
void print_check_text(const RunMeta& baseline, const RunMeta& current, const CheckOptions& opt, const CheckReport& rep,
                      std::ostream& out);
void print_check_text(const RunMeta& baseline, const RunMeta& current, const CheckOptions& opt,
                      const CompactCheckReport& rep, std::ostream& out);
// Compare `current` against `baseline`, print the per-cell table and summary to `out`.
// Returns the exit code: 0 pass, 1 fail.
int check_results(const RunResults& baseline, const RunResults& current, const CheckOptions& opt, std::ostream& out);

}  // namespace kvz
