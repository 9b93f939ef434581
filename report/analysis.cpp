#include "report/analysis.h"
#include "report/cell_view.h"
#include "util/bytes.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "util/stats.h"

namespace kvz {

bool is_reference(const CellResult& c) { return c.reference; }

uint64_t total_stalls(const LatencyStats& l) {
  // Calls at or above the lowest threshold include those above the higher ones.
  return l.stalls.empty() ? 0 : l.stalls.begin()->second;
}

namespace {

std::string group_name(const CellKey& k) {
  std::string g = (k.layout.empty() ? std::string("raw") : k.layout) + " " + format_byte_size(k.block_size) + " " +
                  k.cache + " T" + std::to_string(k.threads);
  if (!k.profile.empty()) g = k.profile + ": " + g;
  return g;
}

// Plain decimals, no exponent: 10240 stays "10240", 3.58421 becomes "3.584".
std::string fmt_num(double v, int digits = 3) {
  if (v >= 1000 || v <= -1000) return fmt::format("{:.0f}", v);
  return fmt::format("{:.{}g}", v, digits);
}

std::string describe(const Candidate& c) {
  return c.label + ": stored ratio " + fmt_num(c.stored_ratio, 4) + ", compress " + fmt_num(c.compress_mbps, 4) +
         " MB/s, decompress " + fmt_num(c.decompress_mbps, 4) + " MB/s, p99.9 " + fmt_num(c.p999_us, 4) +
         " us, worst " + fmt_num(c.worst_us, 4) + " us, stalls " + std::to_string(c.stalls) + " (" +
         std::to_string(c.cells) + " cell" + (c.cells == 1 ? "" : "s") + ")";
}

template <class Pred, class Better>
std::optional<Candidate> pick(const std::vector<Candidate>& cs, Pred ok, Better better) {
  std::optional<Candidate> best;
  for (const auto& c : cs) {
    if (!ok(c)) continue;
    if (!best || better(c, *best)) best = c;
  }
  return best;
}

}  // namespace

std::vector<GroupRecommendations> recommend(const RunResults& r, const RecommendOptions& opt) {
  struct Acc {
    uint64_t input = 0, stored = 0, compressed = 0;
    double ctime = 0, dtime = 0, p999 = 0, worst = 0;
    uint64_t stalls = 0;
    size_t cells = 0;
  };
  std::map<std::string, std::map<std::string, Acc>> groups;
  for (const auto& c : r.cells) {
    if (c.status != CellStatus::Ok || is_reference(c)) continue;
    const double cm = c.compress_median(), dm = c.decompress_median();
    if (cm <= 0 || dm <= 0 || !c.input_bytes) continue;
    Acc& a = groups[group_name(c.key)][cell_label(r, c)];
    a.input += c.input_bytes;
    a.stored += c.stored_bytes ? c.stored_bytes : c.compressed_bytes;
    a.compressed += c.compressed_bytes;
    a.ctime += static_cast<double>(c.input_bytes) / cm;
    a.dtime += static_cast<double>(c.input_bytes) / dm;
    a.p999 = std::max({a.p999, c.compress_latency.p999_ns / 1e3, c.decompress_latency.p999_ns / 1e3});
    a.worst = std::max({a.worst, c.compress_latency.max_ns / 1e3, c.decompress_latency.max_ns / 1e3});
    a.stalls += total_stalls(c.compress_latency) + total_stalls(c.decompress_latency);
    ++a.cells;
  }
  std::vector<GroupRecommendations> out;
  for (const auto& [gname, codecs] : groups) {
    GroupRecommendations g;
    g.group = gname;
    for (const auto& [label, a] : codecs) {
      Candidate c;
      c.label = label;
      c.stored_ratio = a.stored ? static_cast<double>(a.input) / static_cast<double>(a.stored) : 0;
      c.ratio = a.compressed ? static_cast<double>(a.input) / static_cast<double>(a.compressed) : 0;
      c.compress_mbps = static_cast<double>(a.input) / a.ctime;
      c.decompress_mbps = static_cast<double>(a.input) / a.dtime;
      c.p999_us = a.p999;
      c.worst_us = a.worst;
      c.stalls = a.stalls;
      c.cells = a.cells;
      g.candidates.push_back(c);
    }
    const auto& cs = g.candidates;
    double best_ratio = 0;
    for (const auto& c : cs) best_ratio = std::max(best_ratio, c.stored_ratio);
    const double ratio_floor = best_ratio * (1.0 - opt.write_ratio_within);
    auto add = [&](std::string workload, std::string rule, std::optional<Candidate> choice) {
      Recommendation rec{std::move(workload), std::move(rule), choice, ""};
      rec.why = choice ? describe(*choice) : "no codec meets the rule";
      g.picks.push_back(std::move(rec));
    };
    const auto faster_c = [](const Candidate& a, const Candidate& b) { return a.compress_mbps > b.compress_mbps; };
    const auto faster_d = [](const Candidate& a, const Candidate& b) { return a.decompress_mbps > b.decompress_mbps; };
    const auto smaller = [](const Candidate& a, const Candidate& b) { return a.stored_ratio > b.stored_ratio; };
    add("write-heavy",
        "highest compress MB/s with stored ratio within " + fmt_num(opt.write_ratio_within * 100) + " % of the best (" +
            fmt_num(best_ratio, 4) + ", so >= " + fmt_num(ratio_floor, 4) + ")",
        pick(
            cs, [&](const Candidate& c) { return c.stored_ratio >= ratio_floor; }, faster_c));
    add("read-heavy", "highest decompress MB/s with stored ratio above " + fmt_num(opt.read_min_stored_ratio),
        pick(
            cs, [&](const Candidate& c) { return c.stored_ratio > opt.read_min_stored_ratio; }, faster_d));
    add("space-sensitive", "best stored ratio with decompress >= " + fmt_num(opt.space_min_decompress) + " MB/s",
        pick(
            cs, [&](const Candidate& c) { return c.decompress_mbps >= opt.space_min_decompress; }, smaller));
    add("latency-bound",
        "best stored ratio with zero stalls and p99.9 < " + fmt_num(opt.latency_quota_us) + " us (both directions)",
        pick(
            cs, [&](const Candidate& c) { return c.stalls == 0 && c.p999_us < opt.latency_quota_us; }, smaller));
    // Cold data (the RocksDB column-family study's hot/cold split; hot data is read-heavy): the
    // best ratio that can still be read back.
    add("cold data", "best stored ratio with decompress >= " + fmt_num(opt.cold_min_decompress) + " MB/s",
        pick(
            cs, [&](const Candidate& c) { return c.decompress_mbps >= opt.cold_min_decompress; }, smaller));
    out.push_back(std::move(g));
  }
  return out;
}

std::vector<Device> default_devices() {
  return {{"NVMe", 3000, 80}, {"SATA SSD", 500, 120}, {"HDD", 150, 8000}, {"10GbE", 1250, 50}};
}

bool parse_device(const std::string& text, Device& out, std::string& error) {
  const auto a = text.find(':');
  const auto b = a == std::string::npos ? a : text.find(':', a + 1);
  if (a == std::string::npos || b == std::string::npos || a == 0) {
    error = "device '" + text + "': expected NAME:MBPS:LATENCY_US, e.g. nvme:3000:80";
    return false;
  }
  char* end = nullptr;
  const std::string bw = text.substr(a + 1, b - a - 1), lat = text.substr(b + 1);
  const double mbps = std::strtod(bw.c_str(), &end);
  if (bw.empty() || *end || !(mbps > 0)) {
    error = "device '" + text + "': bandwidth must be a positive number of MB/s";
    return false;
  }
  const double us = std::strtod(lat.c_str(), &end);
  if (lat.empty() || *end || !(us >= 0)) {
    error = "device '" + text + "': latency must be a non-negative number of microseconds";
    return false;
  }
  out = {text.substr(0, a), mbps, us};
  return true;
}

std::vector<IoRow> io_model(const RunResults& r, const std::vector<Device>& devices) {
  std::vector<IoRow> rows;
  for (const auto& c : r.cells) {
    if (c.status != CellStatus::Ok || !c.blocks || !c.input_bytes) continue;
    const double dm = c.decompress_median();
    if (dm <= 0) continue;
    const double block = static_cast<double>(c.input_bytes) / static_cast<double>(c.blocks);
    const double stored =
        static_cast<double>(c.stored_bytes ? c.stored_bytes : c.compressed_bytes) / static_cast<double>(c.blocks);
    for (const auto& d : devices) {
      IoRow row;
      row.cell_id = c.key.id();
      row.label = cell_label(r, c);
      row.block_size = c.key.block_size;
      row.device = d.name;
      // MB/s is bytes per microsecond.
      row.raw_us = d.latency_us + block / d.mb_per_s;
      row.effective_us = d.latency_us + stored / d.mb_per_s + (is_reference(c) ? 0.0 : block / dm);
      row.speedup = row.raw_us / row.effective_us;
      rows.push_back(row);
    }
  }
  return rows;
}

std::vector<StoreRow> store_table(const RunResults& r) {
  std::map<std::pair<std::string, std::string>, StoreRow> rows;
  std::map<std::pair<std::string, std::string>, std::pair<double, double>> times;
  for (const auto& c : r.cells) {
    if (c.key.profile.empty() || c.status != CellStatus::Ok || is_reference(c)) continue;
    const double cm = c.compress_median(), dm = c.decompress_median();
    if (cm <= 0 || dm <= 0) continue;
    const auto k = std::make_pair(c.key.profile, cell_label(r, c));
    StoreRow& row = rows[k];
    row.profile = k.first;
    row.label = k.second;
    row.input_bytes += c.input_bytes;
    row.stored_bytes += c.stored_bytes;
    row.worst_us = std::max({row.worst_us, c.compress_latency.max_ns / 1e3, c.decompress_latency.max_ns / 1e3});
    times[k].first += static_cast<double>(c.input_bytes) / cm;
    times[k].second += static_cast<double>(c.input_bytes) / dm;
  }
  std::vector<StoreRow> out;
  for (auto& [k, row] : rows) {
    row.stored_ratio =
        row.stored_bytes ? static_cast<double>(row.input_bytes) / static_cast<double>(row.stored_bytes) : 0;
    row.compress_mbps = static_cast<double>(row.input_bytes) / times[k].first;
    row.decompress_mbps = static_cast<double>(row.input_bytes) / times[k].second;
    out.push_back(row);
  }
  return out;
}

}  // namespace kvz
