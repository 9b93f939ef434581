// The self-contained HTML report: the page skeleton around an embedded JSON blob, with the
// style, Chart.js and the report's script (report/html/) inlined. No external resource of any
// kind, so it opens offline.
#include <string>

#include <fmt/format.h>

#include "report/answer.h"
#include "report/html_assets.h"
#include "report/html_data.h"
#include "report/markup.h"
#include "report/report_file.h"
#include "report/table_totals_writers.h"
#include "report/writers.h"
#include "results/results.h"

namespace kvz {

namespace {

// JSON inside <script>: every '<' as the JSON escape \u003c, the same string to JSON.parse, so
// neither "</script>" nor "<!--" (which can keep the parser from ever closing the element) in a
// name reaches the HTML parser.
std::string script_safe(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (const char c : s) {
    if (c == '<')
      o += "\\u003c";
    else
      o += c;
  }
  return o;
}

// What the answer stands on (report/answer.h answer_header_lines), per run.
std::string answer_header_html(const std::vector<RunResults>& runs) {
  std::string s;
  for (size_t i = 0; i < runs.size(); ++i)
    for (const auto& line : answer_header_lines(runs[i]))
      s += "<p class=\"note\">" + (runs.size() > 1 ? fmt::format("run {}: ", i + 1) : "") + html_escape(line) + "</p>";
  return s;
}

// The marks the runs' labels use, explained (report/answer.h marks_used).
std::string marks_html(const std::vector<RunResults>& runs) {
  MarksSeen seen;
  for (const auto& run : runs) {
    MarksSeen one = marks_of_run(run);
    seen.labels.insert(seen.labels.end(), one.labels.begin(), one.labels.end());
    seen.current_row = seen.current_row || one.current_row;
  }
  seen.tie = true;  // the answer's ties depend on the store chosen: ≈ is explained whatever it shows
  std::string s = "<ul class=\"note marks\">";
  for (const auto& m : marks_used(seen))
    s += "<li><code>" + html_escape(m.mark) + "</code>: " + html_escape(m.meaning) + "</li>";
  return s + "</ul>";
}

}  // namespace

bool write_html(const std::string& path, const std::vector<RunResults>& runs, const ReportOptions& opt,
                std::string& error) {
  const auto data = html_data(runs, opt);
  const size_t run_count = data["runs"].size(), cells = data["cells"].size();  // a row per run, per cell
  auto chart = [](const char* id, const char* title) {
    return fmt::format(
        "<div class=\"chart\" id=\"chart-{}\"><h3>{}</h3><div class=\"canvas\"><canvas></canvas></div></div>\n", id,
        title);
  };
  std::string page;
  page += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>kvzbench report</title>\n<style>";
  page += kHtmlStyle;
  page += "</style></head>\n<body>\n<div id=\"controls\"></div>\n<h1>kvzbench report</h1>\n";
  if (runs.size() == 1) page += fleet_answer_html(runs[0]);  // a fleet survey opens on its answer
  page += fmt::format(
      "<p class=\"note\">{} run(s), {} cells. The selectors above filter the answer, every chart and the cell "
      "table. MB/s are decimal (10<sup>6</sup> bytes/s of uncompressed data), medians over repetitions.</p>\n",
      run_count, html_escape(std::to_string(cells)));
  // A run shown in part says what is shown.
  if (runs.size() == 1 && runs[0].summary)
    page += "<p class=\"note\" id=\"in-part\">" + html_escape(summary_text(runs[0])) + "</p>\n";
  page +=
      "<section id=\"answer\"><h2>The answer: which codec, for which workload, and the line that applies it</h2>\n"
      "<div id=\"answer-head\">" +
      answer_header_html(runs) +
      "</div><div id=\"answer-body\"></div>\n<details><summary>How it was chosen, and the marks</summary><ul "
      "id=\"rules\"></ul>"
      "<p class=\"note\">With all sources the picks are pooled over each block set's sources, as the console and "
      "results.md give them; a source chosen gives its own. Only codecs the chosen store can write are "
      "candidates; a dictionary that makes the data bigger is never picked; speeds within noise of each other "
      "are a tie, listed together (≈), a long chain collapsed (+N tied: click it).</p>" +
      marks_html(runs) + "</details></section>\n";
  if (runs.size() == 1) page += table_totals_html(runs[0]);
  page += "<section id=\"cost\" hidden><h2>The cost of each choice per month (--workload)</h2></section>\n";
  page += "<section id=\"compare\" hidden><h2>Comparison: run 2 against run 1 (kvzbench check)</h2></section>\n";
  page += "<section><h2>Charts</h2>\n<div class=\"charts\">\n";
  page += chart("ratio", "Stored ratio against speed, per codec; dashed: the Pareto front");
  page += chart("saving", "Space saving against block size");
  page += chart("tails", "Tails per codec: intrinsic worst block and p99.9");
  page += chart("dict", "Dictionary net gain against dictionary size");
  page += chart("io", "I/O model: read + decompress one block, speedup over an uncompressed read");
  page += "</div></section>\n";
  page +=
      "<section><h2>Stalls per codec: blocks that stall every time (intrinsic) and observed calls</h2><div "
      "id=\"stalls\"></div></section>\n";
  page +=
      "<section><h2>All cells</h2>\n<input id=\"filter\" placeholder=\"filter: codec, source, layout...\"> <span "
      "id=\"count\" class=\"note\"></span>\n<div id=\"cells\"></div></section>\n";
  page +=
      "<section><h2>I/O model</h2><div id=\"io-note\"></div><details><summary>effective read time per cell and "
      "device (table)</summary>\n<input id=\"io-filter\" placeholder=\"filter I/O rows\">\n<div id=\"io\"></div>\n"
      "</details></section>\n";
  page += "<div id=\"stores\"></div>\n";
  page += "<section><h2>Run metadata</h2>\n<div id=\"meta\"></div></section>\n";
  page += "<script type=\"application/json\" id=\"kvz-data\">" +
          script_safe(data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) + "</script>\n";
  page += "<script>";
  page += kChartJs;
  page += "</script>\n<script>";
  page += kHtmlScript;
  page += "</script>\n</body></html>\n";
  return write_text_file(path, page, error);
}

bool write_html(const std::string& path, const std::vector<RunResults>& runs, std::string& error) {
  return write_html(path, runs, ReportOptions{}, error);
}

}  // namespace kvz
