// The cell columns, one row each, in CSV order (the CSV's contract: append new columns at the
// end, never reorder; report/README.md documents them). Display-only columns follow.
#include "report/columns.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "judgement/analysis.h"
#include "report/markup.h"
#include "results/results.h"
#include "util/bytes.h"
#include "util/stats.h"

namespace kvz {

namespace {

using json = nlohmann::json;
using V = const CellView&;

json when_ok(V v, double x) { return v.ok() ? json(x) : json(nullptr); }
json positive(V v, double x) { return v.ok() && x > 0 ? json(x) : json(nullptr); }
json median_of(const std::vector<double>& s) { return s.empty() ? json(nullptr) : json(median(s)); }
json min_of(const std::vector<double>& s) { return s.empty() ? json(nullptr) : json(quantile(s, 0)); }
json max_in(const std::vector<double>& s) { return s.empty() ? json(nullptr) : json(quantile(s, 1)); }
const LatencyStats& comp(V v) { return v.cell.compress_latency; }
const LatencyStats& dec(V v) { return v.cell.decompress_latency; }

std::string stalls_text(const std::map<uint64_t, uint64_t>& by_threshold) {
  std::string s;
  for (const auto& [ns, n] : by_threshold) s += fmt::format("{}{}:{}", s.empty() ? "" : ";", ns, n);
  return s;
}

// Latency per call in µs: p50/p99/p99.9/max, as the console shows it.
std::string us(double ns) {
  const double u = ns / 1000.0;
  if (u >= 1000) return fmt::format("{:.0f}", u);
  if (u >= 10) return fmt::format("{:.1f}", u);
  return fmt::format("{:.2f}", u);
}
// A percentile the calls do not support reads "—", never a number.
std::string us(const std::optional<double>& ns) { return ns ? us(*ns) : "—"; }
json optional_ns(V v, const std::optional<double>& ns) { return v.ok() && ns ? json(*ns) : json(nullptr); }
json optional_us(V v, const std::optional<double>& ns) { return v.ok() && ns ? json(*ns / 1e3) : json(nullptr); }
// Observed latency with the calls behind it: "p50/p99/p99.9 (calls)".
json latency_text(V v, const LatencyStats& l) {
  if (!v.ok() || l.calls == 0) return nullptr;
  return fmt::format("{}/{}/{} ({})", us(l.p50_ns), us(l.p99_ns), us(l.p999_ns), l.calls);
}
json calls_both(V v) { return v.ok() ? json(fmt::format("{}/{}", comp(v).calls, dec(v).calls)) : json(nullptr); }
// Observed p99.9, compress/decompress, with the fewer calls of the two: "41.6/39.8 (1040)".
json p999_both(V v) {
  if (!v.ok() || comp(v).calls == 0) return nullptr;
  return fmt::format("{}/{} ({})", us(comp(v).p999_ns), us(dec(v).p999_ns), std::min(comp(v).calls, dec(v).calls));
}
// Intrinsic worst block, compress/decompress, in µs.
json worst_block_both(V v) {
  if (!v.ok() || !comp(v).intrinsic.calls_per_block) return nullptr;
  return fmt::format("{}/{}", us(comp(v).intrinsic.worst_block_ns), us(dec(v).intrinsic.worst_block_ns));
}
// Which blocks were the worst, by their index in the block set (`kvzbench blocks --out` writes
// NNNNNN.blk) with their sizes: "c #17 4096→1203 B, d #40 4096→998 B".
json worst_blocks_named(V v) {
  if (!v.ok() || !comp(v).intrinsic.calls_per_block) return nullptr;
  auto one = [](const char* dir, const IntrinsicCost& ic) {
    return fmt::format("{} #{} {}→{} B", dir, ic.worst_block, ic.worst_block_bytes, ic.worst_block_compressed);
  };
  return one("c", comp(v).intrinsic) + ", " + one("d", dec(v).intrinsic);
}
uint64_t lowest(const std::map<uint64_t, uint64_t>& by_threshold) {
  return by_threshold.empty() ? 0 : by_threshold.begin()->second;
}
// Blocks at or above the lowest stall threshold, compress/decompress: stalls every time.
json stall_blocks_both(V v) {
  if (!v.ok() || comp(v).intrinsic.stall_blocks.empty()) return nullptr;
  return fmt::format("{}/{}", lowest(comp(v).intrinsic.stall_blocks), lowest(dec(v).intrinsic.stall_blocks));
}
// Observed calls at or above each threshold per million calls, preempted ones excluded.
double unpreempted_stall_rate(const LatencyStats& l) {
  if (!l.calls) return 0;
  return 1e6 * static_cast<double>(lowest(l.stalls) - lowest(l.preempted_stalls)) / static_cast<double>(l.calls);
}
std::string compact_bytes(uint64_t b) {
  if (b >= 10u << 20) return fmt::format("{}M", b >> 20);
  if (b >= 1u << 20) return fmt::format("{:.1f}M", static_cast<double>(b) / (1u << 20));
  if (b >= 10u << 10) return fmt::format("{}K", b >> 10);
  if (b >= 1u << 10) return fmt::format("{:.1f}K", static_cast<double>(b) / (1u << 10));
  return std::to_string(b);
}
json memory_both(V v) {
  return fmt::format("{}/{}", compact_bytes(v.cell.compress_context_bytes),
                     compact_bytes(v.cell.decompress_context_bytes));
}
double worst_us(V v) { return std::max(comp(v).max_ns, dec(v).max_ns) / 1e3; }
double worst_block_us(V v) { return std::max(comp(v).intrinsic.worst_block_ns, dec(v).intrinsic.worst_block_ns) / 1e3; }
double raw_pct(V v) {
  return v.cell.blocks ? 100.0 * static_cast<double>(v.cell.blocks_kept_raw) / static_cast<double>(v.cell.blocks) : 0;
}

constexpr unsigned kAll = kCsv | kMarkdown | kHtml | kConsole;

const std::vector<Column> kColumns = {
    {"run", "run", kHtml, 0, [](V v) -> json { return v.run_index + 1; }},
    {"id", "id", kCsv, 0, [](V v) -> json { return v.cell.key.id(); }},
    // A merged fleet survey's store file carries its host ("000009.sst@node2"): two nodes' files
    // of one name are two rows' sources, never one.
    {"source", "source", kCsv | kMarkdown | kHtml, 0, [](V v) -> json { return source_label(v.cell.key); }},
    {"record_mode", "record mode", kCsv, 0, [](V v) -> json { return v.cell.key.record_mode; }},
    {"layout", "layout", kCsv | kMarkdown | kHtml, 0, [](V v) -> json { return v.cell.key.layout; }},
    {"block_size", "block", kCsv | kMarkdown | kHtml, 0, [](V v) -> json { return v.cell.key.block_size; }, 0, nullptr,
     true},
    {"label", "codec", kMarkdown | kHtml, 0, [](V v) -> json { return v.label(); }},
    {"codec", "codec", kCsv, 0, [](V v) -> json { return v.cell.key.codec; }},
    {"level", "level", kCsv, 0, [](V v) -> json { return v.cell.key.level; }},
    {"params", "params", kCsv, 0, [](V v) -> json { return v.cell.key.params; }},
    {"dict_size", "dict size", kCsv, 0, [](V v) -> json { return v.cell.key.dict_size; }},
    {"cache", "cache", kCsv, 0, [](V v) -> json { return v.cell.key.cache; }},
    {"threads", "threads", kCsv, 0, [](V v) -> json { return v.cell.key.threads; }},
    {"profile", "profile", kCsv | kHtml, 0, [](V v) -> json { return v.cell.key.profile; }},
    {"status", "status", kCsv, 0, [](V v) -> json { return to_string(v.cell.status); }},
    {"outcome", "status", kHtml, 0,
     [](V v) -> json { return v.ok() ? std::string("OK") : "FAILED: " + v.cell.failure; }},
    {"failure", "failure", kCsv, 0, [](V v) -> json { return v.cell.failure; }},
    {"blocks", "blocks", kCsv, 0, [](V v) -> json { return v.cell.blocks; }},
    {"input_bytes", "input bytes", kCsv, 0, [](V v) -> json { return v.cell.input_bytes; }},
    {"compressed_bytes", "compressed bytes", kCsv, 0, [](V v) -> json { return v.cell.compressed_bytes; }},
    {"stored_bytes", "stored bytes", kCsv, 0, [](V v) -> json { return v.cell.stored_bytes; }},
    {"blocks_kept_raw", "kept raw", kCsv | kHtml, 0, [](V v) -> json { return v.cell.blocks_kept_raw; }},
    {"min_saving", "min saving", kCsv, 0, [](V v) -> json { return v.cell.min_saving; }},
    {"ratio", "ratio", kAll | kCompact, 7, [](V v) { return when_ok(v, v.cell.ratio()); }, 3},
    {"stored_ratio", "stored ratio", kAll, 12, [](V v) { return when_ok(v, v.cell.stored_ratio()); }, 3},
    {"saving_pct", "saving %", kCsv | kHtml, 0, [](V v) { return when_ok(v, v.cell.saving_pct()); }},
    {"kept_raw_pct", "raw%", kConsole, 5, [](V v) { return when_ok(v, raw_pct(v)); }},
    {"repetitions", "repetitions", kCsv, 0, [](V v) -> json { return v.cell.compress_mbps.size(); }},
    {"compress_mbps_median", "compress MB/s", kAll, 13, [](V v) { return median_of(v.cell.compress_mbps); }},
    {"compress_spread_pct", "±%", kConsole, 5,
     [](V v) { return when_ok(v, 100 * relative_spread(v.cell.compress_mbps)); }},
    {"compress_mbps_min", "compress MB/s min", kCsv, 0, [](V v) { return min_of(v.cell.compress_mbps); }},
    {"compress_mbps_max", "compress MB/s max", kCsv, 0, [](V v) { return max_in(v.cell.compress_mbps); }},
    {"decompress_mbps_median", "decompress MB/s", kAll, 15, [](V v) { return median_of(v.cell.decompress_mbps); }},
    {"decompress_spread_pct", "±%", kConsole, 5,
     [](V v) { return when_ok(v, 100 * relative_spread(v.cell.decompress_mbps)); }},
    {"decompress_mbps_min", "decompress MB/s min", kCsv, 0, [](V v) { return min_of(v.cell.decompress_mbps); }},
    {"decompress_mbps_max", "decompress MB/s max", kCsv, 0, [](V v) { return max_in(v.cell.decompress_mbps); }},
    {"compress_cpu_mbps_median", "compress CPU MB/s", kCsv, 0, [](V v) { return median_of(v.cell.compress_cpu_mbps); }},
    {"decompress_cpu_mbps_median", "decompress CPU MB/s", kCsv, 0,
     [](V v) { return median_of(v.cell.decompress_cpu_mbps); }},
    {"compress_rel_memcpy", "c / memcpy", kCsv | kHtml | kConsole, 10,
     [](V v) { return positive(v, v.compress_rel()); }, 3},
    {"decompress_rel_memcpy", "d / memcpy", kCsv | kHtml | kConsole, 10,
     [](V v) { return positive(v, v.decompress_rel()); }, 3},
    {"compress_p50_ns", "compress p50 ns", kCsv, 0, [](V v) { return optional_ns(v, comp(v).p50_ns); }},
    {"compress_p90_ns", "compress p90 ns", kCsv, 0, [](V v) { return optional_ns(v, comp(v).p90_ns); }},
    {"compress_p99_ns", "compress p99 ns", kCsv, 0, [](V v) { return optional_ns(v, comp(v).p99_ns); }},
    {"compress_p999_ns", "compress p99.9 ns", kCsv, 0, [](V v) { return optional_ns(v, comp(v).p999_ns); }},
    {"compress_max_ns", "compress max ns", kCsv, 0, [](V v) { return when_ok(v, comp(v).max_ns); }},
    {"compress_stalls", "compress stalls", kCsv, 0,
     [](V v) { return v.ok() ? json(stalls_text(comp(v).stalls)) : json(nullptr); }},
    {"decompress_p50_ns", "decompress p50 ns", kCsv, 0, [](V v) { return optional_ns(v, dec(v).p50_ns); }},
    {"decompress_p90_ns", "decompress p90 ns", kCsv, 0, [](V v) { return optional_ns(v, dec(v).p90_ns); }},
    {"decompress_p99_ns", "decompress p99 ns", kCsv, 0, [](V v) { return optional_ns(v, dec(v).p99_ns); }},
    {"decompress_p999_ns", "decompress p99.9 ns", kCsv, 0, [](V v) { return optional_ns(v, dec(v).p999_ns); }},
    {"decompress_max_ns", "decompress max ns", kCsv, 0, [](V v) { return when_ok(v, dec(v).max_ns); }},
    {"decompress_stalls", "decompress stalls", kCsv, 0,
     [](V v) { return v.ok() ? json(stalls_text(dec(v).stalls)) : json(nullptr); }},
    {"context_memory", "context bytes", kCsv, 0,
     [](V v) -> json { return v.cell.compress_context_bytes + v.cell.decompress_context_bytes; }},
    {"dict_bytes", "dict bytes", kCsv, 0, [](V v) -> json { return v.cell.dict_bytes; }},
    {"dict_train_seconds", "dict train s", kCsv, 0, [](V v) -> json { return v.cell.dict_train_seconds; }},
    {"dict_gain", "dict gain", kCsv | kHtml, 0,
     [](V v) { return v.cell.dict_gain ? json(*v.cell.dict_gain) : json(nullptr); }, 3},
    {"wall_seconds", "wall s", kCsv, 0, [](V v) -> json { return v.cell.wall_seconds; }},
    {"cpu_seconds", "CPU s", kCsv, 0, [](V v) -> json { return v.cell.cpu_seconds; }},
    // Latency passes (bench/README.md "Intrinsic and observed"): calls, the intrinsic cost per
    // block (its fastest call), observed stalls with the preempted ones apart, memory per direction.
    {"compress_calls", "compress calls", kCsv, 0, [](V v) -> json { return comp(v).calls; }},
    {"decompress_calls", "decompress calls", kCsv, 0, [](V v) -> json { return dec(v).calls; }},
    {"compress_calls_per_block", "compress calls/block", kCsv, 0,
     [](V v) -> json { return comp(v).intrinsic.calls_per_block; }},
    {"decompress_calls_per_block", "decompress calls/block", kCsv, 0,
     [](V v) -> json { return dec(v).intrinsic.calls_per_block; }},
    {"compress_median_block_ns", "compress median block ns", kCsv, 0,
     [](V v) { return when_ok(v, comp(v).intrinsic.median_block_ns); }},
    {"compress_worst_block_ns", "compress worst block ns", kCsv, 0,
     [](V v) { return when_ok(v, comp(v).intrinsic.worst_block_ns); }},
    {"compress_worst_block", "compress worst block", kCsv, 0,
     [](V v) -> json { return comp(v).intrinsic.worst_block; }},
    {"decompress_median_block_ns", "decompress median block ns", kCsv, 0,
     [](V v) { return when_ok(v, dec(v).intrinsic.median_block_ns); }},
    {"decompress_worst_block_ns", "decompress worst block ns", kCsv, 0,
     [](V v) { return when_ok(v, dec(v).intrinsic.worst_block_ns); }},
    {"decompress_worst_block", "decompress worst block", kCsv, 0,
     [](V v) -> json { return dec(v).intrinsic.worst_block; }},
    {"compress_stall_blocks", "compress stall blocks", kCsv, 0,
     [](V v) { return v.ok() ? json(stalls_text(comp(v).intrinsic.stall_blocks)) : json(nullptr); }},
    {"decompress_stall_blocks", "decompress stall blocks", kCsv, 0,
     [](V v) { return v.ok() ? json(stalls_text(dec(v).intrinsic.stall_blocks)) : json(nullptr); }},
    {"compress_preempted_stalls", "compress preempted stalls", kCsv, 0,
     [](V v) { return v.ok() ? json(stalls_text(comp(v).preempted_stalls)) : json(nullptr); }},
    {"decompress_preempted_stalls", "decompress preempted stalls", kCsv, 0,
     [](V v) { return v.ok() ? json(stalls_text(dec(v).preempted_stalls)) : json(nullptr); }},
    {"compress_context_bytes", "compress context bytes", kCsv, 0,
     [](V v) -> json { return v.cell.compress_context_bytes; }},
    {"decompress_context_bytes", "decompress context bytes", kCsv, 0,
     [](V v) -> json { return v.cell.decompress_context_bytes; }},
    {"dict_method", "dict method", kCsv, 0, [](V v) -> json { return v.cell.dict_method; }},
    {"dict_block_bytes", "dict block bytes", kCsv, 0, [](V v) -> json { return v.cell.dict_block_bytes; }},
    // A store file's own blocks: the file's codec row, and the bytes the file really holds.
    {"file_codec", "file's codec", kCsv | kHtml, 0, [](V v) -> json { return v.cell.current ? "yes" : ""; }},
    {"file_bytes", "file bytes", kCsv | kHtml, 0,
     [](V v) -> json { return v.cell.on_disk_bytes ? json(*v.cell.on_disk_bytes) : json(nullptr); }},
    // Under a profile with a whole-file model: the whole file the store would write.
    {"store_file_bytes", "whole file bytes", kCsv | kHtml, 0,
     [](V v) -> json { return v.cell.store_file_bytes ? json(*v.cell.store_file_bytes) : json(nullptr); }},
    // Display-only columns from here on.
    {"compress_p999_us", "p99.9 c us", kHtml, 0, [](V v) { return optional_us(v, comp(v).p999_ns); }},
    {"decompress_p999_us", "p99.9 d us", kMarkdown | kHtml, 0, [](V v) { return optional_us(v, dec(v).p999_ns); }},
    {"calls_cd", "calls c/d", kMarkdown | kHtml, 0, calls_both},
    {"worst_us", "worst call us", kMarkdown | kHtml, 0, [](V v) { return when_ok(v, worst_us(v)); }},
    {"worst_block_us", "worst block us", kMarkdown | kHtml, 0, [](V v) { return when_ok(v, worst_block_us(v)); }},
    {"worst_blocks", "worst blocks", kMarkdown | kHtml, 0, worst_blocks_named},
    {"stall_blocks", "stall blocks", kMarkdown | kHtml, 0,
     [](V v) -> json { return lowest(comp(v).intrinsic.stall_blocks) + lowest(dec(v).intrinsic.stall_blocks); }},
    {"stall_rate", "stalls/M calls", kMarkdown | kHtml, 0,
     [](V v) { return when_ok(v, unpreempted_stall_rate(comp(v)) + unpreempted_stall_rate(dec(v))); }},
    {"dict_net_gain", "dict net gain", kMarkdown | kHtml, 0,
     [](V v) -> json {
       if (!v.cell.dict_gain) return nullptr;
       return fmt::format("x{:.3f}{}", *v.cell.dict_gain, v.cell.dict_loses() ? " LOSS" : "");
     }},
    {"context_cd", "context c/d", kMarkdown | kHtml | kConsole, 11, memory_both},
    {"compress_latency", "comp µs p50/99/99.9 (n)", kConsole, 26, [](V v) { return latency_text(v, comp(v)); }},
    {"decompress_latency", "dec µs p50/99/99.9 (n)", kConsole, 26, [](V v) { return latency_text(v, dec(v)); }},
    // The compact console's own short forms of columns above.
    {"stored_short", "stored", kCompact, 6, [](V v) { return when_ok(v, v.cell.stored_ratio()); }, 3},
    {"compress_short", "c MB/s", kCompact, 8, [](V v) { return median_of(v.cell.compress_mbps); }},
    {"decompress_short", "d MB/s", kCompact, 8, [](V v) { return median_of(v.cell.decompress_mbps); }},
    {"worst_block_cd", "worst blk µs", kConsole | kCompact, 12, worst_block_both},
    {"p999_cd", "p99.9 µs c/d (n)", kCompact, 18, p999_both},
    {"stall_blocks_cd", "stall blk", kConsole | kCompact, 9, stall_blocks_both},
};

}  // namespace

const std::vector<Column>& cell_columns() { return kColumns; }

std::vector<const Column*> columns_for(ColumnOutput output) {
  std::vector<const Column*> out;
  for (const auto& c : kColumns)
    if (c.outputs & output) out.push_back(&c);
  return out;
}

std::string csv_text(const Column& column, const CellView& view) {
  if (column.csv) return column.csv(view);
  const json v = column.value(view);
  if (v.is_null()) return "";
  if (v.is_string()) return csv_escape(v.get<std::string>());
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  // Six significant digits, never an exponent for the large figures (latencies in ns, MB/s).
  const double d = v.get<double>();
  return std::fabs(d) >= 1e5 ? fmt::format("{:.0f}", d) : fmt::format("{:.6g}", d);
}

std::string csv_header(const std::vector<const Column*>& columns) {
  std::string line;
  for (size_t i = 0; i < columns.size(); ++i) line.append(i ? "," : "").append(columns[i]->id);
  return line + '\n';
}

std::string csv_row(const std::vector<const Column*>& columns, const CellView& view) {
  std::string line;
  for (size_t i = 0; i < columns.size(); ++i) line.append(i ? "," : "").append(csv_text(*columns[i], view));
  return line + '\n';
}

std::string display_text(const Column& column, const CellView& view) {
  const json v = column.value(view);
  if (v.is_null()) return "—";
  if (v.is_string()) return v.get<std::string>();
  if (column.byte_size) return format_byte_size(v.get<uint64_t>());
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  return fmt::format("{:.{}f}", v.get<double>(), column.digits);
}

}  // namespace kvz
