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
  return fmt::format("{}{}: {} file{} on {}", t.table, t.profile.empty() ? "" : " (" + t.profile + ")", t.files,
                     t.files == 1 ? "" : "s", fmt::join(t.hosts, ", "));
}

}  // namespace

void print_fleet_answer(std::ostream& out, const RunResults& run) {
  if (!is_fleet(run)) return;
  const auto totals = table_totals(run);
  if (totals.empty()) return;
  out << "fleet answer, per table across hosts (bytes on disk now vs the codec that saves the most; CPU time from "
         "each host's own speeds, CPU models kept apart):\n";
  for (const auto& t : totals) out << fmt::format("  {}: {}\n", t.table, table_answer_text(t));
  out << "\n";
}

void print_table_totals(std::ostream& out, const RunResults& run) {
  const auto totals = table_totals(run);
  if (totals.empty()) return;
  out << "\ntotal per table (on disk B: the files' bytes now; stored B: what the store would write; c/d time: "
         "seconds for the table at each host's speed, against its codec's):\n";
  for (const auto& t : totals) {
    out << heading_of(t) << "\n";
    size_t width = t.current.size() + 2;
    for (const auto& c : t.candidates) width = std::max(width, c.label.size());
    out << fmt::format("  {:<{}} {:>14} {:>9}  {}\n", t.current + " *", width, t.current_bytes, "", "on disk now");
    for (const auto& c : t.candidates)
      out << fmt::format("  {:<{}} {:>14} {:>8.1f}%  c time {}, d time {}\n", c.label, width, c.bytes, c.saving_pct,
                         time_factor_text(c.compress_seconds, t.current_compress_seconds),
                         time_factor_text(c.decompress_seconds, t.current_decompress_seconds));
  }
}

}  // namespace kvz
