// The per-level plans on the console (`run --profile rocksdb --workload ...,size=...`): the line
// that applies each and the figures behind each level; universal compaction's sorted runs; a
// plan per column family (judgement/level_plan.h, universal_plan.h, family_plan.h compute them).
#include <fmt/format.h>

#include <ostream>

#include "judgement/family_plan.h"
#include "report/console.h"
#include "report/text_table.h"
#include "util/text.h"

namespace kvz {

namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

// share: of the data and of the point reads (the models send reads where the keys are). The
// codec last, so a long label takes the room the figures leave; where the width cannot hold a
// row, compaction reads, then writes, then stored GiB leave (report/text_table.h).
void print_levels(std::ostream& out, const std::vector<LevelChoice>& levels, size_t width) {
  const std::vector<TextColumn> columns = {
      {"lvl", true}, {"data GiB"},  {"share"}, {"stored GiB", false, 3}, {"writes", false, 2}, {"c.reads", false, 1},
      {"stored"},    {"$ storage"}, {"$ CPU"}, {"codec", true}};
  std::vector<TextRow> rows;
  for (const auto& c : levels)
    rows.push_back({{fmt::format("L{}", c.share.level), fmt::format("{:.3f}", c.share.data_bytes / kGiB),
                     fmt::format("{:.1f} %", c.share.read_share * 100),
                     fmt::format("{:.3f}", c.share.stored_bytes / kGiB), fmt::format("{:.2f}", c.share.rewrites),
                     fmt::format("{:.2f}", c.share.compaction_reads), fmt::format("{:.3f}", c.stored_ratio),
                     fmt::format("{:.2f}", c.storage_usd), fmt::format("{:.2f}", c.cpu_usd), c.codec_label},
                    {}});
  print_text_table(out, "  ", columns, rows, width);
}

std::string totals_text(const PlanTotals& t) {
  return fmt::format("${:.2f}/month (storage ${:.2f}, CPU ${:.2f}, {:.3f} GiB stored)", t.total_usd(), t.storage_usd,
                     t.cpu_usd, t.stored_bytes / kGiB);
}

// "    rocksdb: LINE", the line wrapped between its options.
void print_line(std::ostream& out, const char* lead, const std::string& line, size_t width) {
  out << wrap_config_line(lead, line, width) << "\n";
}

// "L1, L2 and L3 priced on the blocks each holds when the load ends (rocksdb@L<k>); L0 on the
// whole set's": which rows a level's ratio and speeds come from; "" when no level has its own.
std::string own_blocks_text(const std::vector<LevelChoice>& levels) {
  std::vector<std::string> own, whole;
  for (const auto& l : levels) (l.own_blocks ? own : whole).push_back(fmt::format("L{}", l.share.level));
  if (own.empty()) return "";
  std::string text = join(own, ", ") + " priced on the blocks each holds when the load ends (rocksdb@L<k>)";
  if (!whole.empty()) text += "; " + join(whole, ", ") + " on the whole set's";
  return text;
}

// How busy the plan keeps RocksDB's one compaction thread at the write rate, and past its whole
// time, that the levels above are not what the DB will hold (judgement/level_plan.h).
std::string compaction_load_text(const LevelPlan& plan, const Workload& workload) {
  if (plan.compaction_load <= 1)
    return fmt::format("compaction at {:g} MB/s written keeps its one thread {:.0f} % busy", workload.write_mbps,
                       plan.compaction_load * 100);
  return fmt::format(
      "WARNING: compaction at {:g} MB/s written needs {:.2g} times its one thread: RocksDB falls behind, its upper "
      "levels fill past their targets and L0's files stall the writes, so the DB will not hold the levels above",
      workload.write_mbps, plan.compaction_load);
}

void print_leveled(std::ostream& out, const LevelPlan& plan, const Workload& workload, size_t width) {
  out << "\n"
      << wrap_words(fmt::format("per-level plan, {}", plan.group),
                    fmt::format("({}; {}):", lsm_text(plan.lsm), workload_text(workload)), width)
      << "\n";
  print_line(out, "  rocksdb: ", plan.line, width);
  print_levels(out, plan.levels, width);
  const std::string own = own_blocks_text(plan.levels);
  if (!own.empty()) out << wrap_words(" ", own, width) << "\n";
  out << wrap_words(" ", compaction_load_text(plan, workload), width) << "\n";
  out << wrap_words("  plan", totals_text(plan.totals), width) << "\n";
  out << wrap_words(fmt::format("  best single codec, {}:", plan.single_label), totals_text(plan.single), width)
      << "\n";
  print_line(out, "    rocksdb: ", plan.single_line, width);
}

std::string runs_text(const UniversalShape& s) {
  std::string text;
  for (const auto& r : s.runs) {
    text += fmt::format("{}L{} {:.3f}", text.empty() ? "" : ", ", r.level, r.stored_bytes / kGiB);
    if (r.max_stored > r.min_stored * 1.005)
      text += fmt::format(" ({:.3f}-{:.3f})", r.min_stored / kGiB, r.max_stored / kGiB);
  }
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

// "the load takes 12 s at the write rate, writes slowed or stopped for 3.1 s of it": how far
// compaction fell behind the writes (the runs it leaves depend on it); "" when not paced.
std::string pace_text(const UniversalShape& s) {
  if (s.load_seconds <= 0) return "";
  return fmt::format("the load takes {:.3g} s at the write rate, writes slowed or stopped for {:.2g} s of it",
                     s.load_seconds, s.stalled_seconds);
}

void print_universal(std::ostream& out, const UniversalPlan& plan, const Workload& workload, size_t width) {
  out << "\n"
      << wrap_words(fmt::format("universal plan, {}", plan.group),
                    fmt::format("({}; {}):", universal_text(plan.lsm, plan.options), workload_text(workload)), width)
      << "\n";
  print_line(out, "  rocksdb: ", plan.line, width);
  const char* runs_lead = plan.shape.load_seconds > 0 ? "  sorted runs by level, newest first (stored GiB, the mean of "
                                                        "the replays and their range):"
                                                      : "  sorted runs, newest first (stored GiB):";
  out << wrap_words(runs_lead, runs_text(plan.shape), width) << "\n";
  out << wrap_words(" ", amplification_text(plan.shape), width) << "\n";
  if (const std::string pace = pace_text(plan.shape); !pace.empty()) out << wrap_words(" ", pace, width) << "\n";
  print_levels(out, plan.levels, width);
  const std::string own = own_blocks_text(plan.levels);
  if (!own.empty()) out << wrap_words(" ", own, width) << "\n";
  out << wrap_words("  plan", totals_text(plan.totals), width) << "\n";
  out << wrap_words(fmt::format("  best single codec, {}:", plan.single_label), totals_text(plan.single), width)
      << "\n";
  print_line(out, "    rocksdb: ", plan.single_line, width);
}

double write_amplification(const LevelPlan& plan) {
  double sum = 0;
  for (const auto& l : plan.levels) sum += l.share.rewrites;
  return sum;
}

void print_family(std::ostream& out, const FamilyPlan& p, size_t width) {
  const FamilyLoad& f = p.family;
  out << wrap_words(
             fmt::format("  {}", f.name),
             fmt::format("({} MB/s written, {} MB/s read, {:.4g} GiB): {}, ${:.2f}/month", f.write_mbps, f.read_mbps,
                         f.data_bytes / kGiB, p.universal_wins ? "universal" : "leveled", p.total_usd()),
             width)
      << "\n";
  out << wrap_config_line(fmt::format("    rocksdb [CFOptions \"{}\"]: ", f.name), p.line(), width) << "\n";
  out << wrap_words("    leveled  ",
                    fmt::format("{}; write amplification {:.2f}", totals_text(p.leveled.totals),
                                write_amplification(p.leveled)),
                    width)
      << "\n";
  out << wrap_words("    universal",
                    fmt::format("{}; write amplification {:.2f}, peak {:.3f} GiB", totals_text(p.universal.totals),
                                p.universal.shape.write_amplification(), p.universal.shape.peak_stored_bytes / kGiB),
                    width)
      << "\n";
  print_levels(out, p.universal_wins ? p.universal.levels : p.leveled.levels, width);
}

void print_families(std::ostream& out, const RunResults& results, const Workload& workload, size_t width) {
  std::string group;
  for (const auto& p : family_plans(results, workload)) {
    if (p.group != group) {
      group = p.group;
      out << "\n"
          << wrap_words(fmt::format("column family plans, {}", group), fmt::format("({}):", workload_text(workload)),
                        width)
          << "\n";
    }
    print_family(out, p, width);
  }
}

}  // namespace

void print_level_plans(std::ostream& out, const RunResults& results, const Workload& workload, size_t width) {
  if (!workload.families.empty()) return print_families(out, results, workload, width);
  if (workload.universal) {
    for (const auto& plan : universal_plans(results, workload)) print_universal(out, plan, workload, width);
    return;
  }
  for (const auto& plan : level_plans(results, workload)) print_leveled(out, plan, workload, width);
}

}  // namespace kvz
