#pragma once
// Writers bench calls after a run (run --csv/--md/--html/--json) and `report` calls on files.
#include <ostream>
#include <string>
#include <vector>

#include "report/results.h"

namespace kvz {

bool write_csv(const std::string& path, const RunResults& r, std::string& error);
bool write_markdown(const std::string& path, const RunResults& r, std::string& error);
// One self-contained HTML file (inline CSS/JS/SVG), from one or more runs.
bool write_html(const std::string& path, const std::vector<RunResults>& runs, std::string& error);

struct CheckOptions {
  double slowdown_threshold = 0.10;  // FAIL only above this slowdown ...
  double p_value = 0.01;             // ... and when Mann-Whitney U gives p below this
  double ratio_tolerance = 0.005;    // allowed ratio loss when codec library versions differ
  bool speed_gate = true;            // false: only sizes and failures are checked
};
// Compare `current` against `baseline`, print the per-cell table and summary to `out`.
// Returns the exit code: 0 pass, 1 fail.
int check_results(const RunResults& baseline, const RunResults& current, const CheckOptions& opt,
                  std::ostream& out);

}  // namespace kvz
