// The HTML fleet answer and totals per table (report/table_totals_writers.h): static markup,
// no script needed to read them.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/markup.h"
#include "report/table_totals_writers.h"
#include "results/results.h"
#include "results/table_totals.h"

namespace kvz {

std::string fleet_answer_html(const RunResults& run) {
  if (!is_fleet(run)) return "";
  const auto totals = table_totals(run);
  if (totals.empty()) return "";
  std::string s = "<section id=\"fleet\"><h2>Fleet answer, per table across hosts</h2>\n<ul>\n";
  for (const auto& t : totals)
    s += fmt::format("<li><code>{}</code>: {}</li>\n", html_escape(t.table), html_escape(table_answer_text(t)));
  s += "</ul><p class=\"note\">Bytes on disk now against the codec that saves the most; CPU time from each host's "
       "own speeds, CPU models kept apart.</p></section>\n";
  return s;
}

std::string table_totals_html(const RunResults& run) {
  const auto totals = table_totals(run);
  if (totals.empty()) return "";
  std::string s = "<section id=\"table-totals\"><h2>Total per table</h2>\n";
  for (const auto& t : totals) {
    s += fmt::format("<h3><code>{}</code>: {} file(s) on {}</h3>\n", html_escape(t.table), t.files,
                     html_escape(fmt::format("{}", fmt::join(t.hosts, ", "))));
    s += "<table><tr><th>codec</th><th>bytes</th><th>saving</th><th>compress time</th><th>decompress "
         "time</th></tr>\n";
    s += fmt::format(
        "<tr><td>{} (on disk now: the files' sizes, data blocks {})</td><td>{}</td><td></td><td></td><td></td></tr>\n",
        html_escape(t.current), html_escape(data_share_text(t)), t.current_bytes);
    for (const auto& c : t.candidates)
      s += fmt::format("<tr><td>{}</td><td>{}</td><td>{:.1f} %</td><td>{}</td><td>{}</td></tr>\n", html_escape(c.label),
                       c.bytes, c.saving_pct,
                       html_escape(time_factor_text(c.compress_seconds, t.current_compress_seconds)),
                       html_escape(time_factor_text(c.decompress_seconds, t.current_decompress_seconds)));
    s += "</table>\n";
  }
  return s + "</section>\n";
}

}  // namespace kvz
