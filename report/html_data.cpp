#include "report/html_data.h"
#include "report/columns.h"
#include "report/html_answer.h"
#include "util/bytes.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "util/stats.h"

namespace kvz {

using nlohmann::json;

namespace {

// What the charts read of a cell besides its table columns: the codec family, and per direction
// the intrinsic worst block, p99.9 (null without its calls) and calls; `ok` false for a failed
// cell, `ref` true for the reference row.
json chart_fields(const CellResult& c) {
  const bool ok = c.status == CellStatus::Ok;
  auto p999 = [&](const LatencyStats& l) { return ok && l.p999_ns ? json(*l.p999_ns / 1e3) : json(nullptr); };
  return {{"ok", ok},
          {"ref", is_reference(c)},
          {"codec", c.key.codec},
          {"dict", c.key.dict_size},
          {"c_mbps", ok ? c.compress_median() : 0.0},
          {"d_mbps", ok ? c.decompress_median() : 0.0},
          {"c_wb", ok ? c.compress_latency.intrinsic.worst_block_ns / 1e3 : 0.0},
          {"d_wb", ok ? c.decompress_latency.intrinsic.worst_block_ns / 1e3 : 0.0},
          {"c_p999", p999(c.compress_latency)},
          {"d_p999", p999(c.decompress_latency)},
          {"c_calls", c.compress_latency.calls},
          {"d_calls", c.decompress_latency.calls},
          {"input", c.input_bytes},
          {"stored", c.stored_bytes ? c.stored_bytes : c.compressed_bytes},
          {"dict_gain", ok && c.dict_gain ? json(*c.dict_gain) : json(nullptr)}};
}

json meta_json(const RunMeta& m) {
  json versions = json::array();
  for (const auto& v : m.codec_versions) versions.push_back(v.codec + ": " + v.library + " " + v.version);
  json corpora = json::array();
  for (const auto& c : m.corpora) corpora.push_back(fmt::format("{} ({} bytes) sha256 {}", c.name, c.bytes, c.sha256));
  return {{"kvzbench", m.kvzbench_version + " rev " + m.git_revision},
          {"compiler", m.compiler + " " + m.build_type},
          {"flags", m.cxx_flags},
          {"cpu", m.cpu_model},
          {"cpu flags", m.cpu_flags},
          {"cores", m.cores},
          {"last-level cache", format_byte_size(m.llc_bytes)},
          {"timer", fmt::format("{} ({:.3f} GHz), overhead {:.1f} ns per timestamp pair", m.timer, m.tsc_ghz,
                                m.timer_overhead_ns)},
          {"started", m.started_at},
          {"host", m.hostname},
          {"command line", m.command_line},
          {"seed", m.seed},
          {"repetitions", m.repetitions},
          {"profile", m.profile},
          {"interrupted", m.interrupted},
          {"libraries", versions},
          {"corpora", corpora}};
}

}  // namespace

json html_data(const std::vector<RunResults>& runs, const ReportOptions& opt) {
  json d;
  d["runs"] = json::array();
  for (const auto& r : runs) d["runs"].push_back(meta_json(r.meta));

  // Every cell, failed ones included, for the sortable table: the column table's HTML columns.
  const auto html_columns = columns_for(kHtml);
  json rows = json::array();
  std::set<uint64_t> thresholds;
  // Per codec and threshold: blocks that stall every time, observed stalling calls, and
  // those of them the scheduler caused; and the calls timed.
  struct StallCounts {
    std::map<uint64_t, std::array<uint64_t, 3>> by_threshold;
    uint64_t calls = 0;
  };
  std::map<std::string, StallCounts> stalls;
  for (size_t i = 0; i < runs.size(); ++i) {
    for (const auto& c : runs[i].cells) {
      const bool ok = c.status == CellStatus::Ok;
      const CellView view = view_of(runs[i], c, i);
      json row = {{"id", c.key.id()}, {"m", chart_fields(c)}};
      for (const Column* col : html_columns) row[col->id] = col->value(view);
      rows.push_back(std::move(row));
      if (!ok) continue;
      auto& s = stalls[view.label()];
      for (const auto* l : {&c.compress_latency, &c.decompress_latency}) {
        s.calls += l->calls;
        for (const auto& [ns, n] : l->stalls) {
          thresholds.insert(ns);
          auto& counts = s.by_threshold[ns];
          counts[0] += l->intrinsic.stall_blocks.count(ns) ? l->intrinsic.stall_blocks.at(ns) : 0;
          counts[1] += n;
          counts[2] += l->preempted_stalls.count(ns) ? l->preempted_stalls.at(ns) : 0;
        }
      }
    }
  }
  d["cells"] = rows;
  json columns = json::array();
  for (const Column* col : html_columns)
    columns.push_back({{"k", col->id}, {"t", col->title}, {"bytes", col->byte_size}});
  d["cell_columns"] = columns;
  json st = {{"columns", json::array({{{"k", "codec"}, {"t", "codec"}}, {{"k", "calls"}, {"t", "calls timed"}}})},
             {"rows", json::array()}};
  for (auto t : thresholds) {
    const std::string at = fmt::format(" >= {} us", static_cast<double>(t) / 1e3);
    st["columns"].push_back({{"k", fmt::format("b{}", t)}, {"t", "blocks" + at + " (intrinsic)"}});
    st["columns"].push_back({{"k", fmt::format("c{}", t)}, {"t", "calls" + at}});
    st["columns"].push_back({{"k", fmt::format("p{}", t)}, {"t", "of which preempted"}});
  }
  for (const auto& [label, by] : stalls) {
    json row = {{"codec", label}, {"calls", by.calls}};
    for (auto t : thresholds) {
      const auto it = by.by_threshold.find(t);
      const std::array<uint64_t, 3> n = it == by.by_threshold.end() ? std::array<uint64_t, 3>{} : it->second;
      row[fmt::format("b{}", t)] = n[0];
      row[fmt::format("c{}", t)] = n[1];
      row[fmt::format("p{}", t)] = n[2];
    }
    st["rows"].push_back(row);
  }
  d["stalls"] = st;

  json recs = json::array();
  json io = json::array();
  json stores = json::array();
  for (size_t i = 0; i < runs.size(); ++i) {
    for (const auto& g : recommend(runs[i], opt.recommend)) {
      json picks = json::array();
      for (const auto& p : g.picks)
        picks.push_back({{"workload", p.workload}, {"choice", p.choice_text()}, {"rule", p.rule}, {"why", p.why}});
      recs.push_back({{"group", (runs.size() > 1 ? fmt::format("run {}: ", i + 1) : "") + g.group}, {"picks", picks}});
    }
    for (const auto& row : io_model(runs[i], opt.devices))
      io.push_back({{"run", i + 1},
                    {"id", row.cell_id},
                    {"label", row.label},
                    {"cell", row.label + " " + format_byte_size(row.block_size) + " " + row.cell_id},
                    {"device", row.device},
                    {"raw_us", row.raw_us},
                    {"effective_us", row.effective_us},
                    {"speedup", row.speedup}});
    for (const auto& s : store_table(runs[i]))
      stores.push_back({{"profile", s.profile},
                        {"codec", s.label},
                        {"stored_bytes", s.stored_bytes},
                        {"stored_ratio", s.stored_ratio},
                        {"c_mbps", s.compress_mbps},
                        {"d_mbps", s.decompress_mbps},
                        {"worst_us", s.worst_us}});
  }
  d["recommendations"] = recs;
  d["io"] = io;
  json devs = json::array();
  for (const auto& dv : opt.devices)
    devs.push_back(fmt::format("{}: {} MB/s, {} us", dv.name, dv.mb_per_s, dv.latency_us));
  d["devices"] = devs;
  d["stores"] = stores;
  d["answer"] = answer_json(runs, opt.recommend);
  if (opt.workload && !runs.empty()) {
    json groups = json::array();
    for (const auto& g : cost_model(runs.back(), *opt.workload, opt.devices)) {
      json cost_rows = json::array();
      for (const auto& c : g.rows)
        cost_rows.push_back({{"codec", c.label},
                             {"total", c.total_usd},
                             {"storage", c.storage_usd},
                             {"stored_gb", c.stored_gb},
                             {"cpu", c.cpu_usd},
                             {"cores", c.cores},
                             {"device_load", c.device_load < 0 ? json(nullptr) : json(c.device_load * 100)}});
      groups.push_back({{"group", g.group}, {"rows", cost_rows}});
    }
    d["cost"] = {{"workload", workload_text(*opt.workload)}, {"groups", groups}};
  }
  if (runs.size() == 2) d["compare"] = compare_json(runs[0], runs[1], opt.check);
  return d;
}

}  // namespace kvz
