// CSV (one row per cell, stable columns documented in report/README.md) and the Markdown summary.
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "util/stats.h"
#include "util/bytes.h"
#include "report/writers.h"

namespace kvz {

bool write_text_file(const std::string& path, const std::string& text, std::string& error) {
  std::ofstream f(path, std::ios::binary);
  if (!f) {
    error = path + ": cannot open for writing";
    return false;
  }
  f << text;
  f.close();
  if (!f) {
    error = path + ": write failed";
    return false;
  }
  return true;
}

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

std::string stalls_text(const LatencyStats& l) {
  std::string s;
  for (const auto& [ns, n] : l.stalls) {
    if (!s.empty()) s += ';';
    s += fmt::format("{}:{}", ns, n);
  }
  return s;
}

// Six significant digits, never an exponent for the large figures (latencies in ns, MB/s).
std::string num(double v) { return std::fabs(v) >= 1e5 ? fmt::format("{:.0f}", v) : fmt::format("{:.6g}", v); }

double rel_memcpy(const RunResults& r, const CellResult& c, bool compress) {
  const CellResult* ref = memcpy_reference(r, c);
  if (!ref) return 0;
  const double m = compress ? ref->compress_median() : ref->decompress_median();
  const double v = compress ? c.compress_median() : c.decompress_median();
  return m > 0 ? v / m : 0;
}

}  // namespace

// The column list is the CSV's contract: append new columns at the end, never reorder.
static const char* const kCsvColumns =
    "id,source,record_mode,layout,block_size,codec,level,params,dict_size,cache,threads,profile,status,failure,"
    "blocks,input_bytes,compressed_bytes,stored_bytes,blocks_kept_raw,min_saving,ratio,stored_ratio,saving_pct,"
    "repetitions,compress_mbps_median,compress_mbps_min,compress_mbps_max,decompress_mbps_median,"
    "decompress_mbps_min,decompress_mbps_max,compress_cpu_mbps_median,decompress_cpu_mbps_median,"
    "compress_rel_memcpy,decompress_rel_memcpy,"
    "compress_p50_ns,compress_p90_ns,compress_p99_ns,compress_p999_ns,compress_max_ns,compress_stalls,"
    "decompress_p50_ns,decompress_p90_ns,decompress_p99_ns,decompress_p999_ns,decompress_max_ns,decompress_stalls,"
    "context_memory,dict_bytes,dict_train_seconds,dict_gain,wall_seconds,cpu_seconds";

bool write_csv(const std::string& path, const RunResults& r, std::string& error) {
  std::ostringstream o;
  o << kCsvColumns << "\n";
  for (const auto& c : r.cells) {
    const auto& k = c.key;
    const bool ok = c.status == CellStatus::Ok;
    auto mn = [&](const std::vector<double>& v) { return v.empty() ? std::string() : num(quantile(v, 0)); };
    auto mx = [&](const std::vector<double>& v) { return v.empty() ? std::string() : num(quantile(v, 1)); };
    auto md = [&](const std::vector<double>& v) { return v.empty() ? std::string() : num(median(v)); };
    auto lat = [&](const LatencyStats& l) {
      if (!ok) return std::string(",,,,,");
      return fmt::format("{},{},{},{},{},{}", num(l.p50_ns), num(l.p90_ns), num(l.p99_ns), num(l.p999_ns),
                         num(l.max_ns), csv_field(stalls_text(l)));
    };
    const double rc = ok ? rel_memcpy(r, c, true) : 0, rd = ok ? rel_memcpy(r, c, false) : 0;
    o << csv_field(k.id()) << ',' << csv_field(k.source) << ',' << csv_field(k.record_mode) << ','
      << csv_field(k.layout) << ',' << k.block_size << ',' << csv_field(k.codec) << ',' << k.level << ','
      << csv_field(k.params) << ',' << k.dict_size << ',' << csv_field(k.cache) << ',' << k.threads << ','
      << csv_field(k.profile) << ',' << to_string(c.status) << ',' << csv_field(c.failure) << ',' << c.blocks << ','
      << c.input_bytes << ',' << c.compressed_bytes << ',' << c.stored_bytes << ',' << c.blocks_kept_raw << ','
      << num(c.min_saving) << ',' << (ok ? num(c.ratio()) : "") << ',' << (ok ? num(c.stored_ratio()) : "") << ','
      << (ok ? num(c.saving_pct()) : "") << ',' << c.compress_mbps.size() << ',' << md(c.compress_mbps) << ','
      << mn(c.compress_mbps) << ',' << mx(c.compress_mbps) << ',' << md(c.decompress_mbps) << ','
      << mn(c.decompress_mbps) << ',' << mx(c.decompress_mbps) << ',' << md(c.compress_cpu_mbps) << ','
      << md(c.decompress_cpu_mbps) << ',' << (rc > 0 ? num(rc) : "") << ',' << (rd > 0 ? num(rd) : "") << ','
      << lat(c.compress_latency) << ',' << lat(c.decompress_latency) << ',' << c.context_memory << ','
      << c.dict_bytes << ',' << num(c.dict_train_seconds) << ',' << (c.dict_gain ? num(*c.dict_gain) : "") << ','
      << num(c.wall_seconds) << ',' << num(c.cpu_seconds) << "\n";
  }
  return write_text_file(path, o.str(), error);
}

std::string markdown_summary(const RunResults& r, const ReportOptions& opt) {
  std::ostringstream o;
  const auto& m = r.meta;
  o << "## kvzbench results\n\n";
  o << fmt::format("kvzbench {} (rev {}), {} {}, on {} ({} cores), {} repetitions, timer {} (overhead {:.1f} ns){}\n\n",
                   m.kvzbench_version, m.git_revision, m.compiler, m.build_type, m.cpu_model, m.cores,
                   m.repetitions, m.timer, m.timer_overhead_ns, m.interrupted ? ", **interrupted**" : "");
  if (!m.command_line.empty()) o << "`" << m.command_line << "`\n\n";
  size_t failed = 0;
  for (const auto& c : r.cells) failed += c.status != CellStatus::Ok;
  if (failed) {
    o << "### Failed cells (" << failed << ")\n\n";
    for (const auto& c : r.cells)
      if (c.status != CellStatus::Ok) o << "- `" << c.key.id() << "`: " << c.failure << "\n";
    o << "\n";
  }
  o << "### Cells\n\nMB/s are decimal (10^6 bytes/s of uncompressed data), medians over repetitions.\n\n";
  o << "| source | layout | block | codec | ratio | stored ratio | compress MB/s | decompress MB/s | p99.9 decompress us | worst us | stalls |\n";
  o << "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& c : r.cells) {
    if (c.status != CellStatus::Ok) continue;
    const double worst = std::max(c.compress_latency.max_ns, c.decompress_latency.max_ns) / 1e3;
    o << fmt::format("| {} | {} | {} | {} | {:.3f} | {:.3f} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {} |\n", c.key.source,
                     c.key.layout, format_byte_size(c.key.block_size), codec_label(c.key), c.ratio(), c.stored_ratio(),
                     c.compress_median(), c.decompress_median(), c.decompress_latency.p999_ns / 1e3, worst,
                     total_stalls(c.compress_latency) + total_stalls(c.decompress_latency));
  }
  o << "\n### Recommendations\n\n";
  for (const auto& g : recommend(r, opt.recommend)) {
    o << "**" << g.group << "**\n\n| workload | choice | rule | figures |\n|---|---|---|---|\n";
    for (const auto& p : g.picks)
      o << "| " << p.workload << " | " << (p.choice ? p.choice->label : "none") << " | " << p.rule << " | " << p.why
        << " |\n";
    o << "\n";
  }
  const auto stores = store_table(r);
  if (!stores.empty()) {
    o << "### Store profiles\n\n| store | codec | stored bytes | stored ratio | compress MB/s | decompress MB/s | worst call us |\n";
    o << "|---|---|---:|---:|---:|---:|---:|\n";
    for (const auto& s : stores)
      o << fmt::format("| {} | {} | {} | {:.3f} | {:.1f} | {:.1f} | {:.1f} |\n", s.profile, s.label, s.stored_bytes,
                       s.stored_ratio, s.compress_mbps, s.decompress_mbps, s.worst_us);
    o << "\n";
  }
  return o.str();
}

bool write_markdown(const std::string& path, const RunResults& r, const ReportOptions& opt, std::string& error) {
  return write_text_file(path, markdown_summary(r, opt), error);
}

bool write_markdown(const std::string& path, const RunResults& r, std::string& error) {
  return write_markdown(path, r, ReportOptions{}, error);
}

}  // namespace kvz
