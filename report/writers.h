#pragma once
// Writers bench calls after a run (run --csv/--md/--html/--json) and `report` calls on files.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "judgement/analysis.h"
#include "judgement/check.h"
#include "judgement/cost.h"
#include "results/results_fwd.h"

namespace kvz {

bool write_csv(const std::string& path, const RunResults& r, std::string& error);
bool write_markdown(const std::string& path, const RunResults& r, std::string& error);
// One self-contained HTML file (inline CSS/JS/SVG), from one or more runs.
bool write_html(const std::string& path, const std::vector<RunResults>& runs, std::string& error);

// Thresholds for recommendations and the devices of the I/O model (the overloads above use defaults).
// With two runs, the HTML compares the second against the first with `check` (these options).
struct ReportOptions {
  RecommendOptions recommend;
  std::vector<Device> devices = default_devices();
  CheckOptions check;
  std::optional<Workload> workload;  // the cost model, when --workload is given
};
bool write_markdown(const std::string& path, const RunResults& r, const ReportOptions& opt, std::string& error);
bool write_html(const std::string& path, const std::vector<RunResults>& runs, const ReportOptions& opt,
                std::string& error);
// Write `text` to `path`; false with a one-line error on failure.
bool write_text_file(const std::string& path, const std::string& text, std::string& error);
// The Markdown summary as text (write_markdown writes this).
std::string markdown_summary(const RunResults& r, const ReportOptions& opt);
// The answer (report/answer.h run_answer) as Markdown: the header lines, a table per workload group
// with each pick's figures, ties and configuration line, and the marks explained.
void write_answer_markdown(std::ostream& o, const RunResults& r, const RecommendOptions& opt);
// The per-level, universal or per-family plans of `w` (report/level_plan_markdown.cpp); nothing
// without size= or family=, or without a RocksDB profile's group.
void write_level_plans_markdown(std::ostream& o, const RunResults& r, const Workload& w);

}  // namespace kvz
