// The data blob the HTML page's script draws from: run metadata, the cell table with each
// cell's chart fields, the stall table, I/O model, store table, the answer (pooled and per source),
// the cost ranking and, for two runs, the comparison.
#include "report/html_data.h"

#include <array>
#include <map>
#include <set>

#include <fmt/format.h>

#include "report/columns.h"
#include "report/html_answer.h"
#include "results/results.h"
#include "util/bytes.h"

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

// Every cell, failed ones included, for the sortable table: the column table's HTML columns.
json cells_json(const std::vector<RunResults>& runs, const std::vector<const Column*>& columns) {
  json rows = json::array();
  for (size_t i = 0; i < runs.size(); ++i) {
    for (const auto& c : runs[i].cells) {
      const CellView view = view_of(runs[i], c, i);
      json row = {{"id", c.key.id()}, {"m", chart_fields(c)}};
      for (const Column* col : columns) row[col->id] = col->value(view);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

json cell_columns_json(const std::vector<const Column*>& columns) {
  json out = json::array();
  for (const Column* col : columns) out.push_back({{"k", col->id}, {"t", col->title}, {"bytes", col->byte_size}});
  return out;
}

// Per codec and threshold: blocks that stall every time, observed stalling calls, and those of
// them the scheduler caused; and the calls timed.
struct StallCounts {
  std::map<uint64_t, std::array<uint64_t, 3>> by_threshold;
  uint64_t calls = 0;
};

void count_stalls(const CellResult& c, StallCounts& s, std::set<uint64_t>& thresholds) {
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

// The stall table: a row per codec label (OK cells of every run), three columns per threshold.
json stalls_json(const std::vector<RunResults>& runs) {
  std::set<uint64_t> thresholds;
  std::map<std::string, StallCounts> stalls;
  for (size_t i = 0; i < runs.size(); ++i)
    for (const auto& c : runs[i].cells)
      if (c.status == CellStatus::Ok) count_stalls(c, stalls[view_of(runs[i], c, i).label()], thresholds);
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
  return st;
}

void add_io_rows(json& io, const RunResults& run, size_t i, const std::vector<Device>& devices) {
  for (const auto& row : io_model(run, devices))
    io.push_back({{"run", i + 1},
                  {"id", row.cell_id},
                  {"label", row.label},
                  {"cell", row.label + " " + format_byte_size(row.block_size) + " " + row.cell_id},
                  {"device", row.device},
                  {"raw_us", row.raw_us},
                  {"effective_us", row.effective_us},
                  {"speedup", row.speedup}});
}

void add_store_rows(json& stores, const RunResults& run) {
  for (const auto& s : store_table(run))
    stores.push_back({{"profile", s.profile},
                      {"codec", s.label},
                      {"stored_bytes", s.stored_bytes},
                      {"basis", s.basis},
                      {"stored_ratio", s.stored_ratio},
                      {"c_mbps", s.compress_mbps},
                      {"d_mbps", s.decompress_mbps},
                      {"worst_us", s.worst_us}});
}

// The cost model's ranking per group, of the last run.
json cost_json(const RunResults& run, const Workload& workload, const std::vector<Device>& devices) {
  json groups = json::array();
  for (const auto& g : cost_model(run, workload, devices)) {
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
  return {{"workload", workload_text(workload)}, {"groups", groups}};
}

}  // namespace

json html_data(const std::vector<RunResults>& runs, const ReportOptions& opt) {
  json d;
  d["runs"] = json::array();
  for (const auto& r : runs) d["runs"].push_back(meta_json(r.meta));
  const auto html_columns = columns_for(kHtml);
  d["cells"] = cells_json(runs, html_columns);
  d["cell_columns"] = cell_columns_json(html_columns);
  d["stalls"] = stalls_json(runs);
  json io = json::array(), stores = json::array();
  for (size_t i = 0; i < runs.size(); ++i) {
    add_io_rows(io, runs[i], i, opt.devices);
    add_store_rows(stores, runs[i]);
  }
  d["io"] = io;
  json devs = json::array();
  for (const auto& dv : opt.devices)
    devs.push_back(fmt::format("{}: {} MB/s, {} us", dv.name, dv.mb_per_s, dv.latency_us));
  d["devices"] = devs;
  d["stores"] = stores;
  d["answer"] = answer_json(runs, opt.recommend);
  if (opt.workload && !runs.empty()) d["cost"] = cost_json(runs.back(), *opt.workload, opt.devices);
  if (runs.size() == 2) d["compare"] = compare_json(runs[0], runs[1], opt.check);
  return d;
}

}  // namespace kvz
