// The result model's JSON file (the kvzbench part; Google Benchmark rows: gb_rows.cpp; the
// model's own methods: results_model.cpp).
#include "results/results.h"
#include "util/bytes.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "results/gb_rows.h"
#include "results/json_fields.h"
#include "results/json_text.h"
#include "results/results_checks.h"
#include "results/results_json.h"
#include "util/files.h"
#include "util/stats.h"
#include "util/text.h"

namespace kvz {

using nlohmann::json;
namespace F = json_fields;

namespace {

std::string thresholds_text(const std::map<uint64_t, uint64_t>& counts) {
  JsonObjectText out;
  for (const auto& [ns, count] : counts) out.set(std::to_string(ns), count);
  return out.text();
}

std::map<uint64_t, uint64_t> thresholds_from_json(const json& j, const char* name) {
  std::map<uint64_t, uint64_t> out;
  if (!j.contains(name)) return out;
  for (const auto& [k, v] : j.at(name).items()) {
    uint64_t ns = 0;
    if (!parse_u64(k, ns)) throw F::bad(name, "keys must be thresholds in whole nanoseconds");
    out[ns] = F::to_count(v, name);
  }
  return out;
}

// A percentile is kept only when the calls behind it support it, whatever the file says:
// files written before the rule carried a "p99.9" of 32 calls.
std::optional<double> percentile_from_json(const json& j, const char* name, uint64_t calls, uint64_t min_calls) {
  if (!j.contains(name) || j.at(name).is_null() || calls < min_calls) return std::nullopt;
  return F::number(j, name, 0);
}

std::string intrinsic_text(const IntrinsicCost& c) {
  JsonObjectText j;
  if (c.fastest_sum_other_ns > 0) j.set("fastest_sum_other_ns", c.fastest_sum_other_ns);
  return j.set("blocks", c.blocks)
      .set("calls_per_block", c.calls_per_block)
      .set("median_block_ns", c.median_block_ns)
      .set("worst_block_ns", c.worst_block_ns)
      .set("fastest_sum_ns", c.fastest_sum_ns)
      .set("worst_block", c.worst_block)
      .set("worst_block_bytes", c.worst_block_bytes)
      .set("worst_block_compressed_bytes", c.worst_block_compressed)
      .set_json("stall_blocks", thresholds_text(c.stall_blocks))
      .text();
}

void intrinsic_from_json(const json& j, IntrinsicCost& c) {
  c.blocks = F::count(j, "blocks");
  c.calls_per_block = F::count(j, "calls_per_block");
  c.median_block_ns = F::number(j, "median_block_ns", 0);
  c.worst_block_ns = F::number(j, "worst_block_ns", 0);
  c.fastest_sum_ns = F::number(j, "fastest_sum_ns", 0);
  c.fastest_sum_other_ns = F::number(j, "fastest_sum_other_ns", 0);
  c.worst_block = F::count(j, "worst_block");
  c.worst_block_bytes = F::count(j, "worst_block_bytes");
  c.worst_block_compressed = F::count(j, "worst_block_compressed_bytes");
  c.stall_blocks = thresholds_from_json(j, "stall_blocks");
}

std::string latency_text(const LatencyStats& l) {
  return JsonObjectText()
      .set("calls", l.calls)
      .set("p50_ns", l.p50_ns)
      .set("p90_ns", l.p90_ns)
      .set("p99_ns", l.p99_ns)
      .set("p999_ns", l.p999_ns)
      .set("max_ns", l.max_ns)
      .set("mean_ns", l.mean_ns)
      .set_json("stalls", thresholds_text(l.stalls))
      .set_json("preempted_stalls", thresholds_text(l.preempted_stalls))
      .set("preempted_calls", l.preempted_calls)
      .set_json("intrinsic", intrinsic_text(l.intrinsic))
      .text();
}

void latency_from_json(const json& j, LatencyStats& l) {
  l.calls = F::count(j, "calls");
  l.p50_ns = percentile_from_json(j, "p50_ns", l.calls, kMinCallsP50);
  l.p90_ns = percentile_from_json(j, "p90_ns", l.calls, kMinCallsP90);
  l.p99_ns = percentile_from_json(j, "p99_ns", l.calls, kMinCallsP99);
  l.p999_ns = percentile_from_json(j, "p999_ns", l.calls, kMinCallsP999);
  l.max_ns = F::number(j, "max_ns", 0);
  l.mean_ns = F::number(j, "mean_ns", 0);
  l.preempted_calls = F::count(j, "preempted_calls");
  l.stalls = thresholds_from_json(j, "stalls");
  l.preempted_stalls = thresholds_from_json(j, "preempted_stalls");
  l.intrinsic = {};
  if (j.contains("intrinsic")) intrinsic_from_json(j.at("intrinsic"), l.intrinsic);
}

std::string key_text(const CellKey& k) {
  JsonObjectText j;
  j.set("id", k.id())
      .set("source", k.source)
      .set("record_mode", k.record_mode)
      .set("layout", k.layout)
      .set("block_size", k.block_size)
      .set("codec", k.codec)
      .set("level", k.level)
      .set("params", k.params)
      .set("dict_size", k.dict_size)
      .set("cache", k.cache)
      .set("threads", k.threads)
      .set("profile", k.profile);
  if (!k.host.empty()) j.set("host", k.host);  // only merges of several hosts or CPU models have these
  if (!k.cpu.empty()) j.set("cpu", k.cpu);
  return j.text();
}

void key_from_json(const json& j, CellKey& k) {
  k.source = j.at("source").get<std::string>();
  k.record_mode = j.value("record_mode", "");
  k.layout = j.value("layout", "");
  k.block_size = F::required_count(j, "block_size");
  k.codec = j.at("codec").get<std::string>();
  k.level = F::integer(j, "level", 0);
  k.params = j.value("params", "");
  k.dict_size = F::count(j, "dict_size");
  k.cache = j.value("cache", "stream");
  k.threads = F::integer(j, "threads", 1, 1, 1 << 20);
  k.profile = j.value("profile", "");
  k.host = j.value("host", "");
  k.cpu = j.value("cpu", "");
}

}  // namespace

// A cell's line of the file. Written as text (json_text.h), not built as an object and dumped:
// the object took a quarter of a million-cell merge's time.
std::string cell_json_text(const CellResult& c) {
  JsonObjectText j;
  j.set_json("key", key_text(c.key))
      .set("status", to_string(c.status))
      .set("failure", c.failure)
      .set("reference", c.reference)
      .set("blocks", c.blocks)
      .set("input_bytes", c.input_bytes)
      .set("compressed_bytes", c.compressed_bytes)
      .set("stored_bytes", c.stored_bytes)
      .set("blocks_kept_raw", c.blocks_kept_raw)
      .set("records", c.records)
      .set("min_saving", c.min_saving)
      .set("compress_context_bytes", c.compress_context_bytes)
      .set("decompress_context_bytes", c.decompress_context_bytes)
      .set("dict_bytes", c.dict_bytes)
      .set("dict_train_seconds", c.dict_train_seconds)
      .set("dict_method", c.dict_method)
      .set("dict_block_bytes", c.dict_block_bytes)
      .set("wall_seconds", c.wall_seconds)
      .set("cpu_seconds", c.cpu_seconds)
      .set("dict_gain", c.dict_gain);
  if (c.current) j.set("current", true);
  if (c.partial_set) j.set("partial_set", true);
  if (c.on_disk_bytes) j.set("on_disk_bytes", *c.on_disk_bytes);
  if (c.store_file_bytes) j.set("store_file_bytes", *c.store_file_bytes).set("store_file_parts", c.store_file_parts);
  // The share of its timed calls during which the thread was switched out (both directions'
  // latency passes): how busy the machine was for this cell (judgement/machine_verdict.h).
  if (const uint64_t calls = c.compress_latency.calls + c.decompress_latency.calls; c.status == CellStatus::Ok && calls)
    j.set("preempted_share",
          static_cast<double>(c.compress_latency.preempted_calls + c.decompress_latency.preempted_calls) /
              static_cast<double>(calls));
  // A failed cell never carries speeds: they would be numbers about a wrong result.
  if (c.status == CellStatus::Ok)
    j.set("compress_mbps", c.compress_mbps)
        .set("decompress_mbps", c.decompress_mbps)
        .set("compress_cpu_mbps", c.compress_cpu_mbps)
        .set("decompress_cpu_mbps", c.decompress_cpu_mbps)
        .set_json("compress_latency", latency_text(c.compress_latency))
        .set_json("decompress_latency", latency_text(c.decompress_latency));
  return j.text();
}

void cell_from_json(const json& j, CellResult& c) {
  key_from_json(j.at("key"), c.key);
  const std::string status = j.value("status", "OK");
  if (status == "OK") {
    c.status = CellStatus::Ok;
  } else if (status == "FAILED") {
    c.status = CellStatus::Failed;
  } else {
    throw std::runtime_error("unknown cell status '" + status + "'");
  }
  c.failure = j.value("failure", "");
  // Files written before the flag existed named their one reference codec, memcpy.
  c.reference = j.contains("reference") ? j.at("reference").get<bool>() : c.key.codec == "memcpy";
  c.blocks = F::count(j, "blocks");
  c.input_bytes = F::count(j, "input_bytes");
  c.compressed_bytes = F::count(j, "compressed_bytes");
  c.stored_bytes = F::count(j, "stored_bytes");
  c.blocks_kept_raw = F::count(j, "blocks_kept_raw");
  c.records = F::count(j, "records");
  c.min_saving = F::number(j, "min_saving", 0.125);
  c.compress_context_bytes = F::count(j, "compress_context_bytes");
  c.decompress_context_bytes = F::count(j, "decompress_context_bytes");
  c.dict_bytes = F::count(j, "dict_bytes");
  c.dict_train_seconds = F::number(j, "dict_train_seconds", 0);
  // Files written before the field existed measured every dictionary on the split.
  c.dict_method = j.value("dict_method", c.dict_bytes ? "split" : "");
  c.dict_block_bytes = F::count(j, "dict_block_bytes");
  c.wall_seconds = F::number(j, "wall_seconds", 0);
  c.cpu_seconds = F::number(j, "cpu_seconds", 0);
  if (j.contains("dict_gain") && !j.at("dict_gain").is_null()) c.dict_gain = F::number(j, "dict_gain", 0);
  c.current = j.value("current", false);
  c.partial_set = j.value("partial_set", false);
  if (j.contains("on_disk_bytes")) c.on_disk_bytes = F::count(j, "on_disk_bytes");
  if (j.contains("store_file_bytes")) {
    c.store_file_bytes = F::count(j, "store_file_bytes");
    if (!j.contains("store_file_parts") || !j.at("store_file_parts").is_object())
      throw F::bad("store_file_parts", "expected an object of byte counts");
    const json& parts = j.at("store_file_parts");
    for (const auto& [name, value] : parts.items()) c.store_file_parts[name] = F::count(parts, name.c_str());
  }
  if (c.status == CellStatus::Ok) {
    c.compress_mbps = F::speeds(j, "compress_mbps");
    c.decompress_mbps = F::speeds(j, "decompress_mbps");
    c.compress_cpu_mbps = F::speeds(j, "compress_cpu_mbps");
    c.decompress_cpu_mbps = F::speeds(j, "decompress_cpu_mbps");
    if (j.contains("compress_latency")) latency_from_json(j.at("compress_latency"), c.compress_latency);
    if (j.contains("decompress_latency")) latency_from_json(j.at("decompress_latency"), c.decompress_latency);
  }
}

namespace {

json load_avg_json(const double (&avg)[3]) {
  if (avg[0] < 0) return json::array();
  return json::array({avg[0], avg[1], avg[2]});
}

void load_avg_from_json(const json& j, const char* name, double (&avg)[3]) {
  if (!j.contains(name) || !j.at(name).is_array() || j.at(name).size() != 3) return;
  for (size_t i = 0; i < 3; ++i) {
    const json& v = j.at(name)[i];
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
      throw F::bad(name, "expected three load averages >= 0");
    avg[i] = v.get<double>();
  }
}

json machine_load_json(const MachineLoad& l) {
  return {{"load_avg_start", load_avg_json(l.load_avg_start)},
          {"load_avg_end", load_avg_json(l.load_avg_end)},
          {"wall_seconds", l.wall_seconds},
          {"process_cpu_seconds", l.process_cpu_seconds},
          {"threads", l.threads},
          {"others_cores", l.others_cores},
          {"steal_share", l.steal_share},
          {"cpu_mhz_min", l.cpu_mhz_min},
          {"cpu_mhz_max", l.cpu_mhz_max},
          {"preempted_share", l.preempted_share},
          {"verdict", l.verdict},
          {"verdict_text", l.verdict_text}};
}

MachineLoad machine_load_from_json(const json& j) {
  MachineLoad l;
  l.recorded = true;
  load_avg_from_json(j, "load_avg_start", l.load_avg_start);
  load_avg_from_json(j, "load_avg_end", l.load_avg_end);
  l.wall_seconds = F::number(j, "wall_seconds", 0);
  l.process_cpu_seconds = F::number(j, "process_cpu_seconds", 0);
  l.threads = F::integer(j, "threads", 1, 1, 1 << 20);
  l.others_cores = F::number(j, "others_cores", -1, -1);
  l.steal_share = F::number(j, "steal_share", -1, -1);
  l.cpu_mhz_min = F::number(j, "cpu_mhz_min", -1, -1);
  l.cpu_mhz_max = F::number(j, "cpu_mhz_max", -1, -1);
  l.preempted_share = F::number(j, "preempted_share", -1, -1);
  l.verdict = j.value("verdict", "");
  l.verdict_text = j.value("verdict_text", "");
  return l;
}

}  // namespace

json recommendations_to_json(const std::vector<RecommendationRecord>& recs) {
  json out = json::array();
  for (const auto& r : recs) {
    json config = json::array();
    for (const auto& l : r.config)
      config.push_back({{"store", l.store}, {"line", l.line}, {"store_call", l.store_call}});
    out.push_back({{"group", r.group},
                   {"workload", r.workload},
                   {"pick", r.pick},
                   {"ties", r.ties},
                   {"decided", r.decided},
                   {"speeds_by", r.speeds_by},
                   {"stored_ratio", r.stored_ratio},
                   {"compress_mbps", r.compress_mbps},
                   {"decompress_mbps", r.decompress_mbps},
                   {"worst_block_us", r.worst_block_us},
                   {"cost_usd_month", r.cost_usd_month},
                   {"rule", r.rule},
                   {"reason", r.reason},
                   {"code_change", r.code_change},
                   {"config", config}});
  }
  return out;
}

std::vector<RecommendationRecord> recommendations_from_json(const json& j) {
  if (!j.is_array()) throw F::bad("recommendations", "expected an array");
  std::vector<RecommendationRecord> out;
  for (const auto& r : j) {
    RecommendationRecord rec;
    rec.group = r.value("group", "");
    rec.workload = r.value("workload", "");
    rec.pick = r.value("pick", "");
    if (r.contains("ties")) rec.ties = r.at("ties").get<std::vector<std::string>>();
    rec.decided = r.value("decided", true);
    rec.speeds_by = r.value("speeds_by", "");
    rec.stored_ratio = F::number(r, "stored_ratio", 0);
    rec.compress_mbps = F::number(r, "compress_mbps", 0);
    rec.decompress_mbps = F::number(r, "decompress_mbps", 0);
    rec.worst_block_us = F::number(r, "worst_block_us", 0);
    rec.cost_usd_month = F::number(r, "cost_usd_month", 0);
    rec.rule = r.value("rule", "");
    rec.reason = r.value("reason", "");
    rec.code_change = r.value("code_change", "");
    if (r.contains("config"))
      for (const auto& l : r.at("config"))
        rec.config.push_back({l.value("store", ""), l.value("line", ""), l.value("store_call", true)});
    out.push_back(std::move(rec));
  }
  return out;
}

json meta_to_json(const RunMeta& m) {
  json versions = json::array();
  for (const auto& v : m.codec_versions)
    versions.push_back(
        {{"codec", v.codec}, {"library", v.library}, {"version", v.version}, {"has_levels", v.has_levels}});
  json corpora = json::array();
  for (const auto& c : m.corpora) {
    json one = {{"name", c.name}, {"path", c.path}, {"bytes", c.bytes}, {"sha256", c.sha256}, {"detail", c.detail}};
    if (!c.table.empty()) one["table"] = c.table;
    if (!c.host.empty()) one["host"] = c.host;
    if (c.level >= 0) one["level"] = c.level;
    if (c.files) one["files"] = c.files;
    if (c.data_bytes) one["data_bytes"] = c.data_bytes;
    if (!c.codecs.empty()) one["codecs"] = c.codecs;
    if (!c.options.empty()) one["options"] = c.options;
    corpora.push_back(std::move(one));
  }
  json out = {{"kvzbench_version", m.kvzbench_version},
              {"git_revision", m.git_revision},
              {"compiler", m.compiler},
              {"build_type", m.build_type},
              {"cxx_flags", m.cxx_flags},
              {"cpu_model", m.cpu_model},
              {"cpu_flags", m.cpu_flags},
              {"cores", m.cores},
              {"llc_bytes", m.llc_bytes},
              {"timer_overhead_ns", m.timer_overhead_ns},
              {"tsc_ghz", m.tsc_ghz},
              {"timer", m.timer},
              {"started_at", m.started_at},
              {"hostname", m.hostname},
              {"command_line", m.command_line},
              {"seed", m.seed},
              {"repetitions", m.repetitions},
              {"profile", m.profile},
              {"store_versions", m.store_versions},
              {"interrupted", m.interrupted},
              {"codec_versions", versions},
              {"corpora", corpora},
              {"extra", m.extra}};
  if (m.machine_load.recorded) out["machine_load"] = machine_load_json(m.machine_load);
  return out;
}

void meta_from_json(const json& j, RunMeta& m) {
  m.kvzbench_version = j.value("kvzbench_version", "");
  m.git_revision = j.value("git_revision", "");
  m.compiler = j.value("compiler", "");
  m.build_type = j.value("build_type", "");
  m.cxx_flags = j.value("cxx_flags", "");
  m.cpu_model = j.value("cpu_model", "");
  m.cpu_flags = j.value("cpu_flags", "");
  m.cores = F::integer(j, "cores", 0, 0);
  m.llc_bytes = F::count(j, "llc_bytes");
  m.timer_overhead_ns = F::number(j, "timer_overhead_ns", 0);
  m.tsc_ghz = F::number(j, "tsc_ghz", 0);
  m.timer = j.value("timer", "");
  m.started_at = j.value("started_at", "");
  m.hostname = j.value("hostname", "");
  m.command_line = j.value("command_line", "");
  m.seed = F::count(j, "seed");
  m.repetitions = F::integer(j, "repetitions", 0, 0);
  m.profile = j.value("profile", "");
  m.store_versions.clear();
  if (j.contains("store_versions") && j.at("store_versions").is_object())
    m.store_versions = j.at("store_versions").get<std::map<std::string, std::string>>();
  m.interrupted = j.value("interrupted", false);
  m.codec_versions.clear();
  if (j.contains("codec_versions")) {
    for (const auto& v : j.at("codec_versions"))
      m.codec_versions.push_back(
          {v.value("codec", ""), v.value("library", ""), v.value("version", ""), v.value("has_levels", true)});
  }
  m.corpora.clear();
  if (j.contains("corpora")) {
    for (const auto& c : j.at("corpora")) {
      m.corpora.push_back({c.value("name", ""), c.value("path", ""), F::count(c, "bytes"), c.value("sha256", ""),
                           c.value("detail", ""), c.value("table", ""), c.value("host", "")});
      CorpusInfo& info = m.corpora.back();
      info.level = F::integer(c, "level", -1, -1, 63);
      info.files = F::count(c, "files");
      info.data_bytes = F::count(c, "data_bytes");
      if (c.contains("codecs") && c.at("codecs").is_object())
        for (const auto& [codec, n] : c.at("codecs").items()) info.codecs[codec] = F::to_count(n, "codecs");
      info.options = c.value("options", "");
    }
  }
  m.extra.clear();
  if (j.contains("extra")) m.extra = j.at("extra").get<std::map<std::string, std::string>>();
  m.machine_load = j.contains("machine_load") && j.at("machine_load").is_object()
                       ? machine_load_from_json(j.at("machine_load"))
                       : MachineLoad{};
}

std::string dump_json(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string results_head(const RunMeta& meta) {
  return "{\"context\": " + dump_json(gb_context(meta)) + ",\n\"benchmarks\": [";
}

void append_gb_rows(std::string& out, bool& first, int& family, const CellResult& c) {
  if (c.status != CellStatus::Ok) return;
  std::vector<std::string> rows;
  add_gb_cell_rows(rows, family, c);
  for (const auto& row : rows) {
    out += first ? "\n" : ",\n";
    out += row;
    first = false;
  }
}

std::string results_middle(int schema_version, const RunMeta& meta) {
  return "\n],\n\"kvzbench\": {\"schema_version\": " + std::to_string(schema_version) +
         ", \"meta\": " + dump_json(meta_to_json(meta)) + ",\n\"cells\": [";
}

void append_cell(std::string& out, bool& first, const CellResult& c) {
  out += first ? "\n" : ",\n";
  out += cell_json_text(c);
  first = false;
}

// Written piece by piece, one cell and one benchmark row per line: no document-sized DOM is
// ever built (a DOM cost ~60 KB per cell, 3 GB for a 50,000-cell merge), and the file diffs
// line by line.
std::string results_to_json(const RunResults& r) {
  std::string out = results_head(r.meta);
  bool first = true;
  int family = 0;
  for (const auto& c : r.cells) append_gb_rows(out, first, family, c);
  out += results_middle(r.schema_version, r.meta);
  first = true;
  for (const auto& c : r.cells) append_cell(out, first, c);
  if (r.recommendations.empty()) {
    out += kResultsTail;
  } else {
    out += "\n],\n\"recommendations\": " + dump_json(recommendations_to_json(r.recommendations)) + "}}\n";
  }
  return out;
}

bool results_from_json(const std::string& text, RunResults& out, std::string& error) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) {
    error = "not valid JSON";
    return false;
  }
  if (!doc.is_object() || !doc.contains("kvzbench")) {
    error = "not a kvzbench result (no 'kvzbench' key)";
    return false;
  }
  try {
    const json& k = doc.at("kvzbench");
    if (!k.contains("schema_version")) throw F::bad("schema_version", "missing");
    const int version = F::integer(k, "schema_version", 0, 0);
    if (version != kResultsSchemaVersion) {
      error = "schema_version " + std::to_string(version) + " is not supported (this kvzbench reads " +
              std::to_string(kResultsSchemaVersion) + ")";
      return false;
    }
    RunResults r;
    r.schema_version = version;
    meta_from_json(k.at("meta"), r.meta);
    std::set<std::string> ids;
    for (const auto& jc : k.at("cells")) {
      CellResult c;
      cell_from_json(jc, c);
      if (!ids.insert(c.key.id()).second) throw std::runtime_error("cell " + c.key.id() + " appears twice");
      r.cells.push_back(std::move(c));
    }
    if (k.contains("recommendations")) r.recommendations = recommendations_from_json(k.at("recommendations"));
    if (std::string e = results_consistency_error(r); !e.empty()) throw std::runtime_error(e);
    out = std::move(r);
    return true;
  } catch (const std::exception& e) {
    error = std::string("malformed kvzbench result: ") + e.what();
    return false;
  }
}

bool save_results(const std::string& path, const RunResults& r, std::string& error) {
  return write_file_atomically(path, results_to_json(r), error);
}

}  // namespace kvz
