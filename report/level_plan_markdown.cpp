// The plans in the Markdown report (`run ... --workload ...,size=` or `report --md F --workload ...`):
// the same plans as the console (report/level_plan_console.cpp), each its line in a code span and a
// table per level; the families' picks with both styles' totals.
#include <fmt/format.h>

#include <ostream>

#include "judgement/family_plan.h"
#include "report/markup.h"
#include "report/writers.h"

namespace kvz {

namespace {

constexpr double kBytesPerGiB = 1024.0 * 1024 * 1024;

void write_levels(std::ostream& o, const std::vector<LevelChoice>& levels) {
  o << "| level | data GiB | share | stored GiB | writes | c.reads | codec | stored ratio | $ storage | $ CPU |\n"
       "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|\n";
  for (const auto& c : levels)
    o << fmt::format("| L{} | {:.3f} | {:.1f} % | {:.3f} | {:.2f} | {:.2f} | {} | {:.3f} | {:.2f} | {:.2f} |\n",
                     c.share.level, c.share.data_bytes / kBytesPerGiB, c.share.read_share * 100,
                     c.share.stored_bytes / kBytesPerGiB, c.share.rewrites, c.share.compaction_reads, c.codec_label,
                     c.stored_ratio, c.storage_usd, c.cpu_usd);
  o << "\n";
}

std::string totals(const PlanTotals& t) {
  return fmt::format("${:.2f}/month (storage ${:.2f}, CPU ${:.2f}, {:.3f} GiB stored)", t.total_usd(), t.storage_usd,
                     t.cpu_usd, t.stored_bytes / kBytesPerGiB);
}

void write_leveled(std::ostream& o, const LevelPlan& p) {
  o << fmt::format("**{}** ({})\n\n`{}`\n\n", markdown_escape(p.group), lsm_text(p.lsm), p.line);
  write_levels(o, p.levels);
  if (p.compaction_load <= 1)
    o << fmt::format("Compaction at the workload's write rate keeps its one thread {:.0f} % busy.\n\n",
                     p.compaction_load * 100);
  else
    o << fmt::format(
        "**Warning:** compaction at the workload's write rate needs {:.2g} times its one thread: RocksDB falls "
        "behind, and the DB will not hold the levels above.\n\n",
        p.compaction_load);
  o << fmt::format("Plan {}; best single codec, {}: {}, `{}`\n\n", totals(p.totals), p.single_label, totals(p.single),
                   p.single_line);
}

void write_universal(std::ostream& o, const UniversalPlan& p) {
  o << fmt::format("**{}** ({})\n\n`{}`\n\n", markdown_escape(p.group), universal_text(p.lsm, p.options), p.line);
  o << fmt::format(
      "Write amplification {:.2f} per byte ingested; size amplification {:.0f} %; peak {:.3f} GiB stored "
      "(priced).\n\n",
      p.shape.write_amplification(), p.shape.size_amplification * 100, p.shape.peak_stored_bytes / kBytesPerGiB);
  write_levels(o, p.levels);
  o << fmt::format("Plan {}; best single codec, {}: {}, `{}`\n\n", totals(p.totals), p.single_label, totals(p.single),
                   p.single_line);
}

void write_families(std::ostream& o, const RunResults& r, const Workload& w) {
  o << "| family | group | pick | leveled | universal | line |\n|---|---|---|---|---|---|\n";
  for (const auto& p : family_plans(r, w))
    o << fmt::format("| {} | {} | {} | {} | {} | `{}` |\n", markdown_escape(p.family.name), markdown_escape(p.group),
                     p.universal_wins ? "universal" : "leveled", totals(p.leveled.totals), totals(p.universal.totals),
                     p.line());
  o << "\n";
}

}  // namespace

void write_level_plans_markdown(std::ostream& o, const RunResults& r, const Workload& w) {
  if (!w.families.empty()) {
    o << "### Column family plans (" << workload_text(w) << ")\n\n";
    return write_families(o, r, w);
  }
  if (w.universal) {
    const auto plans = universal_plans(r, w);
    if (!plans.empty()) o << "### Universal compaction plan (" << workload_text(w) << ")\n\n";
    for (const auto& p : plans) write_universal(o, p);
    return;
  }
  const auto plans = level_plans(r, w);
  if (!plans.empty()) o << "### Per-level plan (" << workload_text(w) << ")\n\n";
  for (const auto& p : plans) write_leveled(o, p);
}

}  // namespace kvz
