#include "report/html_data.h"
#include "report/columns.h"
#include "util/bytes.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "util/stats.h"

namespace kvz {

using nlohmann::json;

namespace {

struct Ref {
  const RunResults* run;
  const CellResult* cell;
  size_t run_index;
};

std::vector<Ref> ok_cells(const std::vector<RunResults>& runs, bool with_reference) {
  std::vector<Ref> v;
  for (size_t i = 0; i < runs.size(); ++i)
    for (const auto& c : runs[i].cells)
      if (c.status == CellStatus::Ok && (with_reference || !is_reference(c))) v.push_back({&runs[i], &c, i});
  return v;
}

// A block set of one run (block_set_of's fields as text): Pareto fronts are drawn within it.
using RunBlockSet = std::string;
RunBlockSet block_set(const CellKey& k, size_t run) {
  const auto& [source, mode, layout, size, cache, threads, profile] = block_set_of(k);
  return fmt::format("{}#{}:{}/{}/{}/{}/T{}/{}", run, source, mode, layout, size, cache, threads, profile);
}

std::string tip(const Ref& r) {
  const auto& k = r.cell->key;
  return fmt::format("{} | block {} | dict {} | {} {} {} | ratio {:.3f}, compress {:.1f} MB/s, decompress {:.1f} MB/s",
                     cell_label(*r.run, *r.cell), format_byte_size(k.block_size),
                     k.dict_size ? format_byte_size(k.dict_size) : "none", k.source, k.layout, k.cache, r.cell->ratio(),
                     r.cell->compress_median(), r.cell->decompress_median());
}

// Ratio against speed, one series per codec; Pareto front marked within each block set.
json speed_chart(const std::vector<Ref>& cells, bool compress) {
  json chart = {{"id", compress ? "speed-c" : "speed-d"},
                {"kind", "scatter"},
                {"title", compress ? "Ratio vs compress speed" : "Ratio vs decompress speed"},
                {"x", compress ? "compress MB/s (log)" : "decompress MB/s (log)"},
                {"y", "ratio"},
                {"xlog", true},
                {"front", true}};
  std::map<std::string, json> series;
  std::map<RunBlockSet, std::vector<std::pair<double, double>>> groups;
  for (const auto& r : cells) {
    const double x = compress ? r.cell->compress_median() : r.cell->decompress_median();
    if (x <= 0) continue;
    groups[block_set(r.cell->key, r.run_index)].push_back({x, r.cell->ratio()});
  }
  for (const auto& r : cells) {
    const double x = compress ? r.cell->compress_median() : r.cell->decompress_median();
    if (x <= 0) continue;
    const double y = r.cell->ratio();
    const RunBlockSet g = block_set(r.cell->key, r.run_index);
    bool dominated = false;
    for (const auto& [ox, oy] : groups[g])
      if (ox >= x && oy >= y && (ox > x || oy > y)) dominated = true;
    series[r.cell->key.codec].push_back({{"x", x}, {"y", y}, {"tip", tip(r)}, {"front", !dominated}, {"g", g}});
  }
  chart["series"] = json::array();
  for (auto& [name, pts] : series) chart["series"].push_back({{"name", name}, {"points", pts}});
  return chart;
}

json saving_chart(const std::vector<Ref>& cells) {
  json chart = {{"id", "saving"},          {"kind", "scatter"},     {"title", "Space saving vs block size"},
                {"x", "block size (log)"}, {"y", "space saving %"}, {"xlog", true},
                {"lines", true},           {"xbytes", true}};
  std::map<std::string, std::map<uint64_t, std::pair<uint64_t, uint64_t>>> acc;
  for (const auto& r : cells) {
    auto& a = acc[cell_label(*r.run, *r.cell)][r.cell->key.block_size];
    a.first += r.cell->input_bytes;
    a.second += r.cell->compressed_bytes;
  }
  chart["series"] = json::array();
  for (const auto& [label, by_size] : acc) {
    json pts = json::array();
    for (const auto& [bs, io] : by_size) {
      if (!io.first) continue;
      const double saving = 100.0 * (1.0 - static_cast<double>(io.second) / static_cast<double>(io.first));
      pts.push_back({{"x", bs},
                     {"y", saving},
                     {"tip", fmt::format("{} | block {} | saving {:.2f} % (over all sources)", label,
                                         format_byte_size(bs), saving)}});
    }
    chart["series"].push_back({{"name", label}, {"points", pts}});
  }
  return chart;
}

json latency_chart(const std::vector<Ref>& cells) {
  json chart = {{"id", "latency"},
                {"kind", "bar"},
                {"title",
                 "Intrinsic worst block (its fastest call), observed p99.9 (cells with 1,000+ calls) and worst call, "
                 "per codec (worst over cells)"},
                {"y", "microseconds (log)"},
                {"ylog", true}};
  constexpr size_t kSeries = 6;
  std::map<std::string, std::array<double, kSeries>> acc;  // 0: no value (a bar is not drawn)
  for (const auto& r : cells) {
    const auto& c = *r.cell;
    if (!c.compress_latency.calls && !c.decompress_latency.calls) continue;
    auto& a = acc[cell_label(*r.run, c)];
    const LatencyStats* dirs[2] = {&c.compress_latency, &c.decompress_latency};
    for (size_t d = 0; d < 2; ++d) {
      a[d] = std::max(a[d], dirs[d]->intrinsic.worst_block_ns / 1e3);
      if (dirs[d]->p999_ns) a[2 + d] = std::max(a[2 + d], *dirs[d]->p999_ns / 1e3);
      a[4 + d] = std::max(a[4 + d], dirs[d]->max_ns / 1e3);
    }
  }
  json cats = json::array();
  std::array<json, kSeries> vals;
  for (auto& v : vals) v = json::array();
  for (const auto& [label, a] : acc) {
    cats.push_back(label);
    for (size_t i = 0; i < kSeries; ++i) vals[i].push_back(a[i] > 0 ? json(a[i]) : json(nullptr));
  }
  const char* names[kSeries] = {"worst block compress", "worst block decompress", "p99.9 compress",
                                "p99.9 decompress",     "worst call compress",    "worst call decompress"};
  chart["categories"] = cats;
  chart["series"] = json::array();
  for (size_t i = 0; i < kSeries; ++i) chart["series"].push_back({{"name", names[i]}, {"values", vals[i]}});
  return chart;
}

json dict_chart(const std::vector<Ref>& cells) {
  json chart = {{"id", "dict"},
                {"kind", "scatter"},
                {"title", "Dictionary net gain by block size (bytes without / with; below 1 the dictionary is a loss)"},
                {"x", "block size (log)"},
                {"y", "bytes without dict / with"},
                {"xlog", true},
                {"lines", true},
                {"xbytes", true}};
  std::map<std::string, json> series;
  for (const auto& r : cells) {
    if (!r.cell->dict_gain) continue;
    const auto& k = r.cell->key;
    // One series per codec and source: a line joins block sizes of the same data only.
    series[cell_label(*r.run, *r.cell) + " · " + k.source].push_back(
        {{"x", k.block_size},
         {"y", *r.cell->dict_gain},
         {"tip", fmt::format("{} | block {} | {} | {}", cell_label(*r.run, *r.cell), format_byte_size(k.block_size),
                             k.source, dictionary_text(*r.cell))}});
  }
  chart["series"] = json::array();
  for (auto& [name, pts] : series) chart["series"].push_back({{"name", name}, {"points", pts}});
  return chart;
}

json io_chart(const std::vector<RunResults>& runs, const std::vector<Device>& devices) {
  json chart = {{"id", "io"},
                {"kind", "scatter"},
                {"title", "I/O model: read+decompress one block, speedup over no compression"},
                {"x", "decompress MB/s (log)"},
                {"y", "speedup vs raw read (>1: codec wins)"},
                {"xlog", true},
                {"yline", 1.0}};
  std::map<std::string, json> series;
  for (const auto& run : runs) {
    std::map<std::string, double> speed;
    for (const auto& c : run.cells)
      if (c.status == CellStatus::Ok && !is_reference(c)) speed[c.key.id()] = c.decompress_median();
    for (const auto& row : io_model(run, devices)) {
      auto it = speed.find(row.cell_id);
      if (it == speed.end() || it->second <= 0) continue;
      series[row.device].push_back({{"x", it->second},
                                    {"y", row.speedup},
                                    {"tip", fmt::format("{} | block {} | {}: {:.1f} us vs raw {:.1f} us ({:.2f}x)",
                                                        row.label, format_byte_size(row.block_size), row.device,
                                                        row.effective_us, row.raw_us, row.speedup)}});
    }
  }
  chart["series"] = json::array();
  for (const auto& d : devices)
    if (series.count(d.name)) chart["series"].push_back({{"name", d.name}, {"points", series[d.name]}});
  return chart;
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

size_t chart_point_count(const json& chart) {
  size_t n = 0;
  if (chart.at("kind") == "bar") {
    for (const auto& s : chart.at("series"))
      for (const auto& v : s.at("values"))
        if (v.is_number() && v.get<double>() > 0) ++n;  // null: no bar (a percentile without its calls)
  } else {
    for (const auto& s : chart.at("series")) n += s.at("points").size();
  }
  return n;
}

json html_data(const std::vector<RunResults>& runs, const ReportOptions& opt) {
  const auto cells = ok_cells(runs, false);
  json d;
  d["charts"] = json::array({speed_chart(cells, true), speed_chart(cells, false), saving_chart(cells),
                             latency_chart(cells), dict_chart(cells), io_chart(runs, opt.devices)});
  for (auto& c : d["charts"]) c["expected"] = chart_point_count(c);

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
      json row = {{"id", c.key.id()}};
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
      io.push_back({{"cell", row.label + " " + format_byte_size(row.block_size) + " " + row.cell_id},
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
  return d;
}

}  // namespace kvz
