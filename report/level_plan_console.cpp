// The per-level plans on the console (`run --profile rocksdb --workload ...,size=...`): the line
// that applies each and the figures behind each level; universal compaction's sorted runs; a
// plan per column family (judgement/level_plan.h, universal_plan.h, family_plan.h compute them).
#include <fmt/format.h>

#include <ostream>

#include "judgement/family_plan.h"
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

// share: of the data and of the point reads (the models send reads where the keys are).
void print_levels(std::ostream& out, const std::vector<LevelChoice>& levels) {
  out << fmt::format("  {:<4} {:>11} {:>8} {:>11} {:>8} {:>8}  {:<20} {:>7} {:>10} {:>10}\n", "lvl", "data GiB",
                     "share", "stored GiB", "writes", "c.reads", "codec", "stored", "$ storage", "$ CPU");
  for (const auto& level : levels) print_level(out, level);
}

std::string totals_text(const PlanTotals& t) {
  return fmt::format("${:.2f}/month (storage ${:.2f}, CPU ${:.2f}, {:.3f} GiB stored)", t.total_usd(), t.storage_usd,
                     t.cpu_usd, t.stored_bytes / kGiB);
}

void print_leveled(std::ostream& out, const LevelPlan& plan, const Workload& workload) {
  out << fmt::format("\nper-level plan, {} ({}; {}):\n", plan.group, lsm_text(plan.lsm), workload_text(workload));
  out << "  rocksdb: " << plan.line << "\n";
  print_levels(out, plan.levels);
  out << "  plan " << totals_text(plan.totals) << "\n";
  out << fmt::format("  best single codec, {}: {}\n", plan.single_label, totals_text(plan.single));
  out << "    rocksdb: " << plan.single_line << "\n";
}

std::string runs_text(const UniversalShape& s) {
  std::string text;
  for (const auto& r : s.runs)
    text += fmt::format("{}L{} {:.3f}", text.empty() ? "" : ", ", r.level, r.stored_bytes / kGiB);
  return text;
}

// Write amplification, RocksDB's size amplification at the end, and the peak the storage is priced at.
std::string amplification_text(const UniversalShape& s) {
  return fmt::format(
      "write amplification {:.2f} per byte ingested ({} flushes of {:.4g} MiB); size amplification {:.0f} % "
      "(the runs but the oldest over the oldest); peak {:.3f} GiB stored during the load, {:.2f}x (priced)",
      s.write_amplification(), s.flushes, s.flush_bytes / (1024.0 * 1024), s.size_amplification * 100,
      s.peak_stored_bytes / kGiB, s.stored_bytes() > 0 ? s.peak_stored_bytes / s.stored_bytes() : 0);
}

void print_universal(std::ostream& out, const UniversalPlan& plan, const Workload& workload) {
  out << fmt::format("\nuniversal plan, {} ({}; {}):\n", plan.group, universal_text(plan.lsm, plan.options),
                     workload_text(workload));
  out << "  rocksdb: " << plan.line << "\n";
  out << "  sorted runs, newest first (stored GiB): " << runs_text(plan.shape) << "\n";
  out << "  " << amplification_text(plan.shape) << "\n";
  print_levels(out, plan.levels);
  out << "  plan " << totals_text(plan.totals) << "\n";
  out << fmt::format("  best single codec, {}: {}\n", plan.single_label, totals_text(plan.single));
  out << "    rocksdb: " << plan.single_line << "\n";
}

double write_amplification(const LevelPlan& plan) {
  double sum = 0;
  for (const auto& l : plan.levels) sum += l.share.rewrites;
  return sum;
}

void print_family(std::ostream& out, const FamilyPlan& p) {
  const FamilyLoad& f = p.family;
  out << fmt::format("  {} ({} MB/s written, {} MB/s read, {:.4g} GiB): {}, ${:.2f}/month\n", f.name, f.write_mbps,
                     f.read_mbps, f.data_bytes / kGiB, p.universal_wins ? "universal" : "leveled", p.total_usd());
  out << fmt::format("    rocksdb [CFOptions \"{}\"]: {}\n", f.name, p.line());
  out << fmt::format("    leveled   {}; write amplification {:.2f}\n", totals_text(p.leveled.totals),
                     write_amplification(p.leveled));
  out << fmt::format("    universal {}; write amplification {:.2f}, peak {:.3f} GiB\n", totals_text(p.universal.totals),
                     p.universal.shape.write_amplification(), p.universal.shape.peak_stored_bytes / kGiB);
  print_levels(out, p.universal_wins ? p.universal.levels : p.leveled.levels);
}

void print_families(std::ostream& out, const RunResults& results, const Workload& workload) {
  std::string group;
  for (const auto& p : family_plans(results, workload)) {
    if (p.group != group) {
      group = p.group;
      out << fmt::format("\ncolumn family plans, {} ({}):\n", group, workload_text(workload));
    }
    print_family(out, p);
  }
}

}  // namespace

void print_level_plans(std::ostream& out, const RunResults& results, const Workload& workload) {
  if (!workload.families.empty()) return print_families(out, results, workload);
  if (workload.universal) {
    for (const auto& plan : universal_plans(results, workload)) print_universal(out, plan, workload);
    return;
  }
  for (const auto& plan : level_plans(results, workload)) print_leveled(out, plan, workload);
}

}  // namespace kvz
