// What `kvzbench run` prints under its progress: the answer (report/console_answer.cpp), then the
// table per block set, the store table, the totals per table, the cost model's ranking and plans.
#include "report/console.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

#include "judgement/analysis.h"
#include "judgement/file_baseline.h"
#include "judgement/level_plan.h"
#include "judgement/plan_agreement.h"
#include "judgement/store_config.h"
#include "report/columns.h"
#include "report/db_levels_writers.h"
#include "report/table_totals_writers.h"
#include "report/text_table.h"
#include "results/results.h"
#include "util/bytes.h"
#include "util/stats.h"
#include "util/text.h"

namespace kvz {

namespace {

uint64_t lowest_threshold_count(const std::map<uint64_t, uint64_t>& by_threshold) {
  return by_threshold.empty() ? 0 : by_threshold.begin()->second;
}

// One line per block set: observed calls at or above the lowest stall threshold, with the
// ones during which the scheduler switched the thread out counted apart.
void print_observed_stalls(std::ostream& out, const RunResults& results, const std::vector<const CellResult*>& rows,
                           size_t width) {
  uint64_t stalls = 0, preempted = 0;
  std::vector<std::string> codecs;
  for (const CellResult* r : rows) {
    if (r->status != CellStatus::Ok) continue;
    uint64_t own = 0, calls = 0;
    for (const LatencyStats* l : {&r->compress_latency, &r->decompress_latency}) {
      stalls += lowest_threshold_count(l->stalls);
      preempted += lowest_threshold_count(l->preempted_stalls);
      own += lowest_threshold_count(l->stalls) - lowest_threshold_count(l->preempted_stalls);
      calls += l->calls;
    }
    if (own > 0)
      codecs.push_back(fmt::format("{} {:.0f}/M", view_of(results, *r).label(),
                                   1e6 * static_cast<double>(own) / static_cast<double>(calls)));
  }
  if (stalls == 0) return;
  out << wrap_words("observed stalls",
                    fmt::format("(calls at or above the lowest threshold): {}, {} of them preempted{}", stalls,
                                preempted, codecs.empty() ? "" : "; not preempted:"),
                    width)
      << "\n";
  // The codecs wrapped at the width, indented.
  std::string line;
  for (const auto& c : codecs) {
    if (!line.empty() && display_width(line) + display_width(c) + 3 > width) {
      out << " " << line << "\n";
      line.clear();
    }
    line += fmt::format(" {},", c);
  }
  if (!line.empty()) {
    line.pop_back();
    out << " " << line << "\n";
  }
}

// A store file's own blocks: the row marked * is the file's codec; every other row as a switch
// from it.
void print_file_baseline(std::ostream& out, const RunResults& results, const CellResult& any, size_t width) {
  const auto b = file_baseline(results, any);
  if (!b) return;
  out << wrap_words("* the file's own codec,", baseline_text(*b), width) << "\n";
  if (!b->switches.empty())
    out << wrap_words(fmt::format("switching from {}", b->label), "(stored bytes, times against it):", width) << "\n";
  for (const auto& s : b->switches) out << wrap_words(" ", switch_text(s), width) << "\n";
}

// The block sets in the order their first cell comes, each with its cells.
struct BlockSets {
  std::map<BlockSetKey, std::vector<const CellResult*>> cells;
  std::vector<BlockSetKey> order;
};

BlockSets block_sets_of(const std::vector<CellResult>& cells) {
  BlockSets sets;
  for (const auto& c : cells) {
    auto& g = sets.cells[block_set_of(c.key)];
    if (g.empty()) sets.order.push_back(block_set_of(c.key));
    g.push_back(&c);
  }
  return sets;
}

// The legend, one short line per idea (the compact table fits 100 columns, so does this); then
// a store file as a source: what it is and what it takes on disk today, the figure the store
// table's row of its own codec at its own chunk size reproduces.
void print_legend(std::ostream& out, const RunResults& results, bool wide, size_t width) {
  const std::vector<CellResult>& cells = results.cells;
  std::string lowest_threshold = "the stall threshold";
  if (!cells.empty() && !cells.front().compress_latency.stalls.empty())
    lowest_threshold =
        fmt::format("{} ms", static_cast<double>(cells.front().compress_latency.stalls.begin()->first) / 1e6);
  const std::string lines[] = {
      fmt::format("MB/s: 10^6 bytes/s of uncompressed data, median of {} repetitions{}.", results.meta.repetitions,
                  wide ? "; ±: (max-min)/median; x / memcpy: against memcpy of the same blocks" : ""),
      fmt::format("µs per call, observed over (n) calls: — where n is too few (p99 needs {}, p99.9 {}).", kMinCallsP99,
                  kMinCallsP999),
      "worst blk: the slowest block's intrinsic cost (its fastest call of 3 or more), c/d.",
      fmt::format("stall blk: blocks whose intrinsic cost is at or above {}, c/d.{}", lowest_threshold,
                  wide ? "" : " All columns: --wide."),
      wide ? "context: library memory one session holds, c/d." : ""};
  out << "\n";
  for (const auto& line : lines)
    if (!line.empty()) out << wrap_text(line, width) << "\n";
  for (const auto& c : results.meta.corpora)
    if (!c.detail.empty()) out << wrap_words(fmt::format("store file {}:", source_label(c)), c.detail, width) << "\n";
}

// memcpy first, then the current codec, then by `sort` (failed cells last).
void sort_rows(std::vector<const CellResult*>& rows, TableSort sort) {
  if (sort == TableSort::None) return;
  auto rank = [&](const CellResult* r) {
    if (r->status != CellStatus::Ok) return -1.0;
    if (sort == TableSort::DecompressSpeed) return r->decompress_median();
    if (sort == TableSort::Ratio) return r->ratio();
    return r->compress_median();
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const CellResult* a, const CellResult* b) {
    if (a->reference != b->reference) return a->reference;
    if (a->current != b->current) return a->current;
    return rank(a) > rank(b);
  });
}

// "leveldb (LevelDB 1.23)": a store profile and the store version it models, as the run recorded it.
std::string profile_text(const RunResults& results, const std::string& profile) {
  const auto v = results.meta.store_versions.find(profile);
  return v == results.meta.store_versions.end() ? profile : fmt::format("{} ({})", profile, v->second);
}

// The block set's heading, "== twitter.json (json) · rocksdb 4K · 812 blocks, ... ==", broken
// between its parts where it would pass `width`.
void print_heading(std::ostream& out, const RunResults& results, const CellResult& first, size_t width) {
  const CellKey& k = first.key;
  std::vector<std::string> parts = {fmt::format("{} ({})", source_label(k), k.record_mode),
                                    fmt::format("{} {}", k.layout, format_byte_size(k.block_size)),
                                    fmt::format("{} blocks, {} B", first.blocks, first.input_bytes), k.cache,
                                    fmt::format("T{}", k.threads)};
  if (!k.profile.empty()) parts.push_back("profile " + profile_text(results, k.profile));
  std::string line = "\n== " + parts.front();
  for (size_t i = 1; i < parts.size(); ++i) {
    const bool last = i + 1 == parts.size();
    if (display_width(line) + 3 + display_width(parts[i]) + (last ? 3 : 0) > width + 1) {  // +1: the "\n"
      out << line << " ·\n";
      line = "   " + parts[i];
    } else {
      line += " · " + parts[i];
    }
  }
  out << line << " ==\n";
}

// The compact table's columns that fit `width` beside a codec column `name_width` wide: the
// last ones go first (ratio and both speeds always stay); `left_out` names those that went.
std::vector<const Column*> fitting_columns(std::vector<const Column*> columns, size_t name_width, size_t width,
                                           std::vector<std::string>& left_out) {
  auto total = [&] {
    size_t n = name_width;
    for (const Column* c : columns) n += 1 + static_cast<size_t>(c->console_width);
    return n;
  };
  while (columns.size() > 4 && total() > width) {
    left_out.insert(left_out.begin(), columns.back()->title);
    columns.pop_back();
  }
  return columns;
}

// One block set: its heading, the header row and a row per cell (a dictionary's line under its
// row), the observed stalls and, for a store file's own blocks, the switches from its codec.
void print_block_set(std::ostream& out, const RunResults& results, const std::vector<const CellResult*>& rows,
                     std::vector<const Column*> columns, bool wide, size_t width) {
  const CellResult& first = *rows.front();
  print_heading(out, results, first, width);
  // The codec column: 22 wide, wider for a group with longer labels ("lz4 1:stream:fresh:dict=16K").
  size_t name_width = 22;
  for (const CellResult* r : rows) name_width = std::max(name_width, display_width(view_of(results, *r).label()) + 3);
  std::vector<std::string> left_out;
  if (!wide) columns = fitting_columns(std::move(columns), name_width, width, left_out);
  auto row_text = [&](const std::string& name, auto&& cell_text) {
    std::string line = name + std::string(name_width - std::min(name_width, display_width(name)), ' ');
    for (const Column* c : columns) line += fmt::format(" {:>{}}", cell_text(*c), c->console_width);
    return line + "\n";
  };
  out << row_text("codec", [](const Column& c) { return std::string(c.title); });
  for (const CellResult* r : rows) {
    const CellView view = view_of(results, *r);
    if (r->status != CellStatus::Ok) {
      out << wrap_words(fmt::format("{:<22} FAILED:", view.label()), r->failure, width) << "\n";
      continue;
    }
    out << row_text(view.label() + (r->current ? " *" : ""), [&](const Column& c) { return display_text(c, view); });
    if (r->dict_bytes > 0)
      out << (wide ? fmt::format("{:<22} {}\n", "", dictionary_text(*r))
                   : wrap_words(" ", dictionary_text(*r, true), width) + "\n");
  }
  if (!left_out.empty()) out << left_out_text("", left_out, width) << "\n";
  print_observed_stalls(out, results, rows, width);
  print_file_baseline(out, results, first, width);
}

}  // namespace

void print_console_table(std::ostream& out, const RunResults& results, TableSort sort, bool wide, size_t width) {
  BlockSets sets = block_sets_of(results.cells);
  print_legend(out, results, wide, width);
  const auto columns = columns_for(wide ? kConsole : kCompact);
  for (const auto& key : sets.order) {
    std::vector<const CellResult*> rows = sets.cells[key];
    sort_rows(rows, sort);
    print_block_set(out, results, rows, columns, wide, width);
  }
}

TableSort table_sort_named(std::string_view name) {
  for (const auto& [n, s] : kTableSorts)
    if (n == name) return s;
  return TableSort::CompressSpeed;
}

void print_console_table(std::ostream& out, const RunResults& results, std::string_view sort, bool wide) {
  print_console_table(out, results, table_sort_named(sort), wide);
}

namespace {

// One profile's rows of the store table: a heading with what the bytes are, then a row per codec
// (report/text_table.h: the widest columns leave first where the width cannot hold them).
void print_store_rows(std::ostream& out, const RunResults& results, const std::vector<const StoreRow*>& rows,
                      size_t width) {
  bool files = false;  // a whole-file column, when the store models its files
  bool one_input = true;
  for (const StoreRow* r : rows) {
    files = files || r->file_bytes > 0;
    one_input = one_input && r->input_bytes == rows.front()->input_bytes;
  }
  out << "\n"
      << wrap_words(fmt::format("store table, {}:", profile_text(results, rows.front()->profile)),
                    fmt::format("bytes the store writes, framing, trailers and its keep-raw rule included{}{}; "
                                "worst µs: the worst call observed:",
                                files ? "; file B: the whole files, index, properties and footer included" : "",
                                one_input ? fmt::format("; input {} B a codec", rows.front()->input_bytes) : ""),
                    width)
      << "\n";
  std::vector<TextColumn> columns = {{"codec", true}, {"stored B"}, {"ratio"},
                                     {"c MB/s"},      {"d MB/s"},   {"worst µs", false, 1}};
  if (files) columns.insert(columns.begin() + 2, {"file B", false, 2});
  if (!one_input) columns.insert(columns.begin() + 1, {"input B", false, 3});
  std::vector<TextRow> table;
  for (const StoreRow* r : rows) {
    TextRow row{{r->label, std::to_string(r->stored_bytes)}, {}};
    if (!one_input) row.cells.insert(row.cells.begin() + 1, std::to_string(r->input_bytes));
    if (files) row.cells.push_back(r->file_bytes ? std::to_string(r->file_bytes) : "—");
    for (const auto& v : {fmt::format("{:.3f}", r->stored_ratio), fmt::format("{:.1f}", r->compress_mbps),
                          fmt::format("{:.1f}", r->decompress_mbps), fmt::format("{:.1f}", r->worst_us)})
      row.cells.push_back(v);
    if (!r->basis.empty()) row.notes.push_back("stored B: " + r->basis);
    if (!r->caveat.empty()) row.notes.push_back(r->caveat);
    table.push_back(std::move(row));
  }
  print_text_table(out, "  ", columns, table, width);
}

}  // namespace

// With a store profile: what that store would write, per codec (judgement/analysis.h
// store_table), a part per profile; worst µs is the worst observed call of either direction.
void print_store_table(std::ostream& out, const RunResults& results, size_t width) {
  const auto rows = store_table(results);
  std::vector<const StoreRow*> profile_rows;
  for (const auto& r : rows) {
    if (!profile_rows.empty() && profile_rows.front()->profile != r.profile) {
      print_store_rows(out, results, profile_rows, width);
      profile_rows.clear();
    }
    profile_rows.push_back(&r);
  }
  if (!profile_rows.empty()) print_store_rows(out, results, profile_rows, width);
}

void print_costs(std::ostream& out, const RunResults& results, const Workload& workload,
                 const std::vector<Device>& devices, size_t width) {
  // With a per-level plan (size=, leveled), each group's ranking says why it differs from it.
  std::vector<LevelPlan> plans;
  if (!workload.universal && workload.families.empty()) plans = level_plans(results, workload);
  for (const auto& g : cost_model(results, workload, devices)) {
    out << "\n"
        << wrap_words(fmt::format("monthly cost, {}", g.group), fmt::format("({}):", workload_text(workload)), width)
        << "\n";
    size_t shown = 0;
    for (const auto& row : g.rows) {
      // The three cheapest, and the uncompressed row wherever it ranks, for scale.
      if (shown >= 3 && row.label != "uncompressed") continue;
      out << wrap_words(fmt::format("  {:<18} ${:>12.2f} =", row.label, row.total_usd),
                        fmt::format("storage ${:.2f} ({:.0f} GB) + CPU ${:.2f} ({:.2f} cores){}", row.storage_usd,
                                    row.stored_gb, row.cpu_usd, row.cores,
                                    row.device_load < 0
                                        ? std::string()
                                        : fmt::format(", {} {:.0f} %", workload.device, row.device_load * 100)),
                        width)
          << "\n";
      ++shown;
    }
    for (const auto& plan : plans)
      if (plan.group == g.group)
        if (const std::string differ = ranking_plan_difference(g, plan); !differ.empty())
          out << wrap_words("  why the plan differs:", differ, width) << "\n";
  }
}

void print_run_console(std::ostream& out, const RunResults& results, const ConsoleOptions& opt) {
  print_answer(out, results, opt.width);
  print_console_table(out, results, opt.sort, opt.wide, opt.width);
  print_store_table(out, results, opt.width);
  print_table_totals(out, results, opt.width);
  print_db_levels(out, results, opt.workload ? &*opt.workload : nullptr, opt.width);  // a DB's levels (its MANIFEST)
  if (opt.workload) {
    print_costs(out, results, *opt.workload, opt.devices, opt.width);
    print_level_plans(out, results, *opt.workload, opt.width);
  }
}

}  // namespace kvz
