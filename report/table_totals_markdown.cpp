// The Markdown fleet answer and totals per table (report/table_totals_writers.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/markup.h"
#include "report/table_totals_writers.h"
#include "results/results.h"
#include "results/table_totals.h"

namespace kvz {

void write_fleet_answer_markdown(std::ostream& out, const RunResults& run) {
  if (!is_fleet(run)) return;
  const auto totals = table_totals(run);
  if (totals.empty()) return;
  out << "## Fleet answer, per table across hosts\n\n";
  for (const auto& t : totals)
    out << fmt::format("- {}: {}\n", markdown_escape(t.table), markdown_escape(table_answer_text(t)));
  out << "\nBytes on disk now against the codec that saves the most; CPU time from each host's own speeds, "
         "CPU models kept apart.\n\n";
}

void write_table_totals_markdown(std::ostream& out, const RunResults& run) {
  const auto totals = table_totals(run);
  if (totals.empty()) return;
  out << "\n## Total per table\n";
  for (const auto& t : totals) {
    out << fmt::format("\n### {}{}: {} file(s) on {}\n\n", markdown_escape(t.table),
                       t.profile.empty() ? "" : " (" + markdown_escape(t.profile) + ")", t.files,
                       markdown_escape(fmt::format("{}", fmt::join(t.hosts, ", "))));
    out << "| codec | bytes | saving | compress time | decompress time |\n| --- | ---: | ---: | --- | --- |\n";
    out << fmt::format("| {} (on disk now: the files' sizes, data blocks {}) | {} | | | |\n",
                       markdown_escape(t.current), data_share_text(t), t.current_bytes);
    for (const auto& c : t.candidates)
      out << fmt::format("| {} | {} | {:.1f} % | {} | {} |\n", markdown_escape(c.label), c.bytes, c.saving_pct,
                         time_factor_text(c.compress_seconds, t.current_compress_seconds),
                         time_factor_text(c.decompress_seconds, t.current_decompress_seconds));
  }
}

}  // namespace kvz
