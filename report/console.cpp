// What `kvzbench run` prints under its progress: the table per block set, the store table, the
// recommendations and the cost model's ranking.
#include "report/console.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

#include "judgement/analysis.h"
#include "judgement/file_baseline.h"
#include "judgement/store_config.h"
#include "report/columns.h"
#include "results/results.h"
#include "util/bytes.h"
#include "util/stats.h"
#include "util/text.h"

namespace kvz {

// The console is laid out for 100 columns (tests/e2e/run_done_when.sh holds it to them).
constexpr size_t kConsoleColumns = 100;

namespace {

uint64_t lowest_threshold_count(const std::map<uint64_t, uint64_t>& by_threshold) {
  return by_threshold.empty() ? 0 : by_threshold.begin()->second;
}

// One line per block set: observed calls at or above the lowest stall threshold, with the
// ones during which the scheduler switched the thread out counted apart.
void print_observed_stalls(std::ostream& out, const RunResults& results, const std::vector<const CellResult*>& rows) {
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
  out << fmt::format("observed stalls (calls at or above the lowest threshold): {}, {} of them preempted{}\n", stalls,
                     preempted, codecs.empty() ? "" : "; not preempted:");
  // The codecs wrapped at 100 columns, indented.
  std::string line;
  for (const auto& c : codecs) {
    if (!line.empty() && line.size() + c.size() + 3 > 100) {
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
void print_file_baseline(std::ostream& out, const RunResults& results, const CellResult& any) {
  const auto b = file_baseline(results, any);
  if (!b) return;
  out << "* the file's own codec, " << baseline_text(*b) << "\n";
  if (!b->switches.empty()) out << fmt::format("switching from {} (stored bytes, times against it):\n", b->label);
  for (const auto& s : b->switches) out << "  " << switch_text(s) << "\n";
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
void print_legend(std::ostream& out, const RunResults& results, bool wide) {
  const std::vector<CellResult>& cells = results.cells;
  std::string lowest_threshold = "the stall threshold";
  if (!cells.empty() && !cells.front().compress_latency.stalls.empty())
    lowest_threshold =
        fmt::format("{} ms", static_cast<double>(cells.front().compress_latency.stalls.begin()->first) / 1e6);
  out << fmt::format(
      "MB/s: 10^6 bytes/s of uncompressed data, median of {} repetitions{}.\n"
      "µs per call, observed over (n) calls: — where n is too few (p99 needs {}, p99.9 {}).\n"
      "worst blk: the slowest block's intrinsic cost (its fastest call of 3 or more), c/d.\n"
      "stall blk: blocks whose intrinsic cost is at or above {}, c/d.{}\n",
      results.meta.repetitions, wide ? "; ±: (max-min)/median; x / memcpy: against memcpy of the same blocks" : "",
      kMinCallsP99, kMinCallsP999, lowest_threshold,
      wide ? "\ncontext: library memory one session holds, c/d." : " All columns: --wide.");
  for (const auto& c : results.meta.corpora)
    if (!c.detail.empty()) out << fmt::format("store file {}: {}\n", c.name, c.detail);
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

// One block set: its heading, the header row and a row per cell (a dictionary's line under its
// row), the observed stalls and, for a store file's own blocks, the switches from its codec.
void print_block_set(std::ostream& out, const RunResults& results, const std::vector<const CellResult*>& rows,
                     const std::vector<const Column*>& columns, bool wide) {
  const CellResult& first = *rows.front();
  // Compact, so a long source name still fits 100 columns: "rocksdb 4K", "T1".
  out << fmt::format("\n== {} ({}) · {} {} · {} blocks, {} B · {} · T{}{} ==\n", first.key.source,
                     first.key.record_mode, first.key.layout, format_byte_size(first.key.block_size), first.blocks,
                     first.input_bytes, first.key.cache, first.key.threads,
                     first.key.profile.empty() ? "" : " · profile " + profile_text(results, first.key.profile));
  // The codec column: 22 wide, wider for a group with longer labels ("lz4 1:stream:fresh:dict=16K").
  size_t name_width = 22;
  for (const CellResult* r : rows) name_width = std::max(name_width, view_of(results, *r).label().size() + 3);
  auto row_text = [&](const std::string& name, auto&& cell_text) {
    std::string line = fmt::format("{:<{}}", name, name_width);
    for (const Column* c : columns) line += fmt::format(" {:>{}}", cell_text(*c), c->console_width);
    return line + "\n";
  };
  out << row_text("codec", [](const Column& c) { return std::string(c.title); });
  for (const CellResult* r : rows) {
    const CellView view = view_of(results, *r);
    if (r->status != CellStatus::Ok) {
      out << fmt::format("{:<22} FAILED: {}\n", view.label(), r->failure);
      continue;
    }
    out << row_text(view.label() + (r->current ? " *" : ""), [&](const Column& c) { return display_text(c, view); });
    if (r->dict_bytes > 0)
      out << (wide ? fmt::format("{:<22} {}\n", "", dictionary_text(*r))
                   : fmt::format("  {}\n", dictionary_text(*r, true)));
  }
  print_observed_stalls(out, results, rows);
  print_file_baseline(out, results, first);
}

}  // namespace

void print_console_table(std::ostream& out, const RunResults& results, TableSort sort, bool wide) {
  BlockSets sets = block_sets_of(results.cells);
  print_legend(out, results, wide);
  const auto columns = columns_for(wide ? kConsole : kCompact);
  for (const auto& key : sets.order) {
    std::vector<const CellResult*> rows = sets.cells[key];
    sort_rows(rows, sort);
    print_block_set(out, results, rows, columns, wide);
  }
}

void print_console_table(std::ostream& out, const RunResults& results, std::string_view sort, bool wide) {
  TableSort order = TableSort::CompressSpeed;
  for (const auto& [name, s] : kTableSorts)
    if (name == sort) order = s;
  print_console_table(out, results, order, wide);
}

// With a store profile: what that store would write, per codec (judgement/analysis.h store_table).
void print_store_table(std::ostream& out, const RunResults& results) {
  const auto rows = store_table(results);
  if (rows.empty()) return;
  size_t width = 22;
  bool files = false;  // a whole-file column, when the store models its files
  for (const auto& r : rows) {
    width = std::max(width, r.label.size());
    files = files || r.file_bytes > 0;
  }
  out << fmt::format(
      "\nstore table (bytes the store writes: framing, trailers and its keep-raw rule included{}):\n"
      "{:<12} {:<{}} {:>12} {:>12}{} {:>8} {:>10} {:>10} {:>11}\n",
      files ? "; file B: the whole files, index, properties and footer included" : "", "profile", "codec", width,
      "input B", "stored B", files ? fmt::format(" {:>12}", "file B") : "", "ratio", "comp MB/s", "dec MB/s",
      "worst µs");
  for (const auto& r : rows) {
    const std::string file = !files         ? ""
                             : r.file_bytes ? fmt::format(" {:>12}", r.file_bytes)
                                            : fmt::format(" {:>12}", "—");
    out << fmt::format("{:<12} {:<{}} {:>12} {:>12}{} {:>8.3f} {:>10.1f} {:>10.1f} {:>11.1f}\n", r.profile, r.label,
                       width, r.input_bytes, r.stored_bytes, file, r.stored_ratio, r.compress_mbps, r.decompress_mbps,
                       r.worst_us);
    if (!r.basis.empty()) out << "  stored B: " << r.basis << "\n";
    if (!r.caveat.empty()) out << "  " << r.caveat << "\n";
  }
}

namespace {

// The choice and its ties, within the 100-column console: ties that do not fit become "+N tied"
// (the Markdown and HTML list them all).
std::string short_choice(const Recommendation& pick) {
  constexpr size_t kWidth = 38;  // what is left of 100 columns beside the figures
  auto columns = [](const std::string& s) {
    return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
  };
  std::string text = pick.choice_text();
  if (columns(text) <= kWidth) return text;
  text = pick.choice->label;
  size_t shown = 0;
  for (const auto& t : pick.ties) {
    const std::string more = fmt::format(" +{} tied", pick.ties.size() - shown - 1);
    if (columns(text) + 3 + columns(t.label) + columns(more) > kWidth) break;
    text += " ≈ " + t.label;
    ++shown;
  }
  return shown < pick.ties.size() ? fmt::format("{} +{} tied", text, pick.ties.size() - shown) : text;
}

}  // namespace

// The summary under the table: the recommendations per workload group, one line each. Under a
// store profile the picks come from the codecs that store writes, each with the line that
// applies it in the store's own syntax (judgement/store_config.h).
void print_recommendations(std::ostream& out, const RunResults& results) {
  for (const auto& g : recommend_for_run_store(results, RecommendOptions{})) {
    out << fmt::format("\nrecommendations, {} (stored ratio, c/d MB/s, worst block; ≈: a tie within noise):\n",
                       g.group);
    for (const auto& pick : g.picks) {
      if (!pick.choice) {
        // The rule's whole text, wrapped: a slow machine meets none of them, and it still fits.
        out << wrap_words(fmt::format("  {:<16} none:", pick.workload), pick.rule, kConsoleColumns) << "\n";
        continue;
      }
      const Candidate& c = *pick.choice;
      out << fmt::format("  {:<16} {:<18} {:7.3f}  {:8.1f} / {:8.1f}  {:9.1f} us\n", pick.workload, short_choice(pick),
                         c.stored_ratio, c.compress_mbps, c.decompress_mbps, c.worst_block_us);
      if (pick.config && pick.config->writable)
        out << fmt::format("    {}: {}\n", pick.config->store, pick.config->line);
    }
  }
}

void print_costs(std::ostream& out, const RunResults& results, const Workload& workload,
                 const std::vector<Device>& devices) {
  for (const auto& g : cost_model(results, workload, devices)) {
    out << fmt::format("\nmonthly cost, {} ({}):\n", g.group, workload_text(workload));
    size_t shown = 0;
    for (const auto& row : g.rows) {
      // The three cheapest, and the uncompressed row wherever it ranks, for scale.
      if (shown >= 3 && row.label != "uncompressed") continue;
      out << fmt::format(
          "  {:<18} ${:>12.2f} = storage ${:.2f} ({:.0f} GB) + CPU ${:.2f} ({:.2f} cores){}\n", row.label,
          row.total_usd, row.storage_usd, row.stored_gb, row.cpu_usd, row.cores,
          row.device_load < 0 ? std::string() : fmt::format(", {} {:.0f} %", workload.device, row.device_load * 100));
      ++shown;
    }
  }
}

}  // namespace kvz
