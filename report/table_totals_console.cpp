// The console's fleet answer and totals per table (report/table_totals_writers.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "report/table_totals_writers.h"
#include "results/results.h"
#include "results/table_totals.h"
#include "util/text.h"

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

void print_fleet_answer(std::ostream& out, const RunResults& run, size_t width) {
  if (!is_fleet(run)) return;
  const auto totals = table_totals(run);
  if (totals.empty()) return;
  out << wrap_words("fleet answer,", "per table across hosts (each host's own speeds; CPU models kept apart):", width)
      << "\n";
  for (const auto& t : totals) out << wrap_words(fmt::format("  {}:", t.table), table_answer_text(t), width) << "\n";
  out << "\n";
}

void print_table_totals(std::ostream& out, const RunResults& run, size_t width) {
  const auto totals = table_totals(run);
  if (totals.empty()) return;
  // The files' sizes now; under a codec, its data blocks and the files' other parts as they are.
  out << "\n"
      << wrap_words("total per table",
                    "(B: the files' sizes; under a codec, its data blocks + the rest as now; c/d time against its "
                    "codec's):",
                    width)
      << "\n";
  for (const auto& t : totals) {
    out << wrap_text(heading_of(t), width) << "\n";
    size_t name = display_width(t.current) + 2;
    for (const auto& c : t.candidates) name = std::max(name, display_width(c.label));
    const auto pad = [&](const std::string& label) { return label + std::string(name - display_width(label), ' '); };
    out << fmt::format("  {} {:>14} {:>9}  {}\n", pad(t.current + " *"), t.current_bytes, "",
                       "on disk now, data blocks " + data_share_text(t));
    for (const auto& c : t.candidates)
      out << wrap_words(
                 fmt::format("  {} {:>14} {:>8.1f}%", pad(c.label), c.bytes, c.saving_pct),
                 fmt::format("c time {}, d time {}", time_factor_text(c.compress_seconds, t.current_compress_seconds),
                             time_factor_text(c.decompress_seconds, t.current_decompress_seconds)),
                 width)
          << "\n";
  }
}

}  // namespace kvz
