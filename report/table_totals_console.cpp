// The console's fleet answer and totals per table (report/table_totals_writers.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "report/table_totals_writers.h"
#include "results/results.h"
#include "results/table_totals.h"

namespace kvz {

namespace {

std::string heading_of(const TableTotal& t) {
  // A fleet's hosts by count: 200 names would not fit a console line.
  const std::string hosts =
      t.hosts.size() <= 3 ? fmt::format("{}", fmt::join(t.hosts, ", ")) : fmt::format("{} hosts", t.hosts.size());
  return fmt::format("{}{}: {} file{} on {}", t.table, t.profile.empty() ? "" : " (" + t.profile + ")", t.files,
                     t.files == 1 ? "" : "s", hosts);
}

}  // namespace

void print_fleet_answer(std::ostream& out, const RunResults& run) {
  if (!is_fleet(run)) return;
  const auto totals = table_totals(run);
  if (totals.empty()) return;
  // Under 100 columns, like the rest of the console.
  out << "fleet answer, per table across hosts (each host's own speeds; CPU models kept apart):\n";
  for (const auto& t : totals) out << fmt::format("  {}: {}\n", t.table, table_answer_text(t));
  out << "\n";
}

void print_table_totals(std::ostream& out, const RunResults& run) {
  const auto totals = table_totals(run);
  if (totals.empty()) return;
  // Under 100 columns: the files' sizes now; under a codec, its data blocks and the files' other parts as they are.
  out << "\ntotal per table (B: the files' sizes; under a codec, its data blocks + the rest as now):\n";
  for (const auto& t : totals) {
    out << heading_of(t) << "\n";
    size_t width = t.current.size() + 2;
    for (const auto& c : t.candidates) width = std::max(width, c.label.size());
    out << fmt::format("  {:<{}} {:>14} {:>9}  {}\n", t.current + " *", width, t.current_bytes, "",
                       "on disk now, data blocks " + data_share_text(t));
    for (const auto& c : t.candidates)
      out << fmt::format("  {:<{}} {:>14} {:>8.1f}%  c time {}, d time {}\n", c.label, width, c.bytes, c.saving_pct,
                         time_factor_text(c.compress_seconds, t.current_compress_seconds),
                         time_factor_text(c.decompress_seconds, t.current_decompress_seconds));
  }
}

}  // namespace kvz
