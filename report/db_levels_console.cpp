// The console's view of a DB as it stands, level by level, and its plan (report/db_levels_writers.h).
#include <fmt/format.h>

#include <ostream>

#include "judgement/db_plan.h"
#include "report/console.h"
#include "report/db_levels_writers.h"
#include "results/results.h"
#include "util/text.h"

namespace kvz {

namespace {

std::string files_text(uint64_t n) { return fmt::format("{} file{}", n, n == 1 ? "" : "s"); }

// "→ zstd 3 saves 35.2 % (336 kB); c time × 2.1, d time × 1.9", or what no candidate beats.
std::string best_text(const TableTotal& t) {
  const TableCandidate* best = largest_saving(t);
  if (!best) return "no other codec measured";
  if (best->bytes >= t.current_bytes)
    return fmt::format("the fewest bytes: {} ({:+.1f} %)", best->label, -best->saving_pct);
  return fmt::format("→ {} saves {:.1f} % ({}); c time {}, d time {}", best->label, best->saving_pct,
                     decimal_bytes(t.current_bytes - best->bytes),
                     time_factor_text(best->compress_seconds, t.current_compress_seconds),
                     time_factor_text(best->decompress_seconds, t.current_decompress_seconds));
}

// "L6 1.80 TB under lz4 1 → zstd 3 saves 41.0 % (738 GB), $12.10 a month less; CPU × 1.06"
std::string level_pick_text(const DbLevelPlan& l) {
  const std::string where =
      fmt::format("L{} {} under {}", l.level.level, decimal_bytes(l.level.current_bytes), l.now.label);
  if (l.pick.label == l.now.label) return where + ": keep it";
  const double saved = 100.0 * (1.0 - static_cast<double>(l.pick.bytes) / static_cast<double>(l.now.bytes));
  return fmt::format("{} → {} saves {:.1f} % ({}), ${:.2f} a month less; CPU cores × {:.2f}", where, l.pick.label,
                     saved, decimal_bytes(l.now.bytes > l.pick.bytes ? l.now.bytes - l.pick.bytes : 0),
                     l.now.total_usd() - l.pick.total_usd(), l.now.cores > 0 ? l.pick.cores / l.now.cores : 0.0);
}

// Each line within `width`, continued four columns in; the line wrapped between its options.
void print_plan(std::ostream& out, const DbPlan& p, const Workload& w, size_t width) {
  if (!p.priced) {
    out << wrap_words("  no plan per level:", p.why_not, width) << "\n";
    return;
  }
  out << wrap_words("  a codec per level,", fmt::format("priced for {}:", workload_text(w)), width) << "\n";
  for (const auto& l : p.levels) out << wrap_words("   ", level_pick_text(l), width) << "\n";
  out << fmt::format("    ${:.2f} a month now, ${:.2f} under the plan\n", p.now_usd, p.plan_usd);
  out << wrap_config_line("    rocksdb: ", p.line, width) << "\n";
}

}  // namespace

void print_db_levels(std::ostream& out, const RunResults& run, const Workload* given, size_t width) {
  const Workload w = given && (given->write_mbps > 0 || given->read_mbps > 0) ? *given : default_db_workload();
  const auto plans = db_plans(run, w);
  if (plans.empty()) return;
  out << "\n"
      << wrap_words("the DB as it stands, per level", "(its MANIFEST's live files; bytes: the files' sizes):", width)
      << "\n";
  for (const auto& p : plans) {
    uint64_t files = 0, bytes = 0, data = 0;
    for (const auto& l : p.levels) files += l.level.files, bytes += l.level.current_bytes, data += l.level.data_bytes;
    out << wrap_words(fmt::format("{}{}:", p.table, p.profile.empty() ? "" : " (" + p.profile + ")"),
                      fmt::format("{} level{}, {}, {} B on disk, data blocks {:.1f} %", p.levels.size(),
                                  p.levels.size() == 1 ? "" : "s", files_text(files), bytes,
                                  bytes ? 100.0 * static_cast<double>(data) / static_cast<double>(bytes) : 0.0),
                      width)
        << "\n";
    // Two lines a level: what it holds, then the best candidate on its blocks.
    for (const auto& l : p.levels)
      out << fmt::format("  L{:<2} {:>9} {:>14} B  {}\n", l.level.level, files_text(l.level.files),
                         l.level.current_bytes, l.level.current)
          << wrap_words("      ", best_text(l.level), width) << "\n";
    print_plan(out, p, w, width);
  }
  if (!given || (given->write_mbps <= 0 && given->read_mbps <= 0))
    out << wrap_words("(the plan's rates are an example:",
                      "--workload write=MB/s,read=MB/s,storage=$/GB-month,cpu=$/core-hour)", width)
        << "\n";
}

}  // namespace kvz
