// The per-level plan on the console (`run --profile rocksdb --workload ...,size=...`): the line
// that applies it and the figures behind each level (judgement/level_plan.h computes them).
#include <fmt/format.h>

#include <ostream>

#include "judgement/level_plan.h"
#include "report/console.h"

namespace kvz {

namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

void print_level(std::ostream& out, const LevelChoice& c) {
  out << fmt::format("  L{:<3} {:>11.3f} {:>6.1f} % {:>11.3f} {:>8.2f} {:>8.2f}  {:<20} {:>7.3f} {:>10.2f} {:>10.2f}\n",
                     c.share.level, c.share.data_bytes / kGiB, c.share.read_share * 100, c.share.stored_bytes / kGiB,
                     c.share.rewrites, c.share.compaction_reads, c.codec_label, c.stored_ratio, c.storage_usd,
                     c.cpu_usd);
}

}  // namespace

void print_level_plans(std::ostream& out, const RunResults& results, const Workload& workload) {
  for (const auto& plan : level_plans(results, workload)) {
    out << fmt::format("\nper-level plan, {} ({}; {}):\n", plan.group, lsm_text(plan.lsm), workload_text(workload));
    out << "  rocksdb: " << plan.line << "\n";
    // share: of the data and of the point reads (the model sends reads where the keys are).
    out << fmt::format("  {:<4} {:>11} {:>8} {:>11} {:>8} {:>8}  {:<20} {:>7} {:>10} {:>10}\n", "lvl", "data GiB",
                       "share", "stored GiB", "writes", "c.reads", "codec", "stored", "$ storage", "$ CPU");
    for (const auto& level : plan.levels) print_level(out, level);
    out << fmt::format("  plan ${:.2f}/month (storage ${:.2f}, CPU ${:.2f}, {:.3f} GiB stored)\n",
                       plan.totals.total_usd(), plan.totals.storage_usd, plan.totals.cpu_usd,
                       plan.totals.stored_bytes / kGiB);
    out << fmt::format("  best single codec, {}: ${:.2f}/month (storage ${:.2f}, CPU ${:.2f}, {:.3f} GiB stored)\n",
                       plan.single_label, plan.single.total_usd(), plan.single.storage_usd, plan.single.cpu_usd,
                       plan.single.stored_bytes / kGiB);
    out << "    rocksdb: " << plan.single_line << "\n";
  }
}

}  // namespace kvz
