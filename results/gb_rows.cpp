// The Google Benchmark part of a results file: the context block and one row per repetition,
// aggregate and size of each OK cell, so GB tooling (compare.py) reads the file.
#include "results/gb_rows.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "results/json_text.h"
#include "results/results.h"
#include "util/stats.h"

namespace kvz {

using nlohmann::json;

namespace {

// ns per block by wall time and by CPU time for one speed (one iteration is one block).
std::pair<double, double> block_times(const CellResult& c, double mbps, double cpu_mbps) {
  const double blocks = std::max<double>(1.0, static_cast<double>(c.blocks));
  const double ns_per_block = safe_div(static_cast<double>(c.input_bytes) * 1e3, mbps) / blocks;
  const double cpu_ns =
      cpu_mbps > 0 ? safe_div(static_cast<double>(c.input_bytes) * 1e3, cpu_mbps) / blocks : ns_per_block;
  return {ns_per_block, cpu_ns};
}

// One GB row. real_time/cpu_time are ns per block.
JsonObjectText gb_row(const std::string& name, int family, int reps, const CellResult& c, double mbps,
                      double cpu_mbps) {
  const auto [ns_per_block, cpu_ns] = block_times(c, mbps, cpu_mbps);
  // Sizes ride along as GB user counters (top-level numbers), for tools that read counters.
  JsonObjectText row;  // in key order, as the file has them
  row.set("bytes_per_second", mbps * 1e6)
      .set("compressed_bytes", c.compressed_bytes)
      .set("cpu_time", cpu_ns)
      .set("family_index", family)
      .set("input_bytes", c.input_bytes)
      .set("iterations", c.blocks)
      .set("name", name)
      .set("per_family_instance_index", 0)
      .set("ratio", c.ratio())
      .set("real_time", ns_per_block)
      .set("repetitions", reps)
      .set("run_name", name)
      .set("stored_bytes", c.stored_bytes)
      .set("stored_ratio", c.stored_ratio())
      .set("threads", c.key.threads)
      .set("time_unit", "ns");
  return row;
}

// The cell's stored bytes as a row of its own, `<id>/stored_bytes`: compare.py compares only
// real_time and cpu_time, so both carry the stored bytes here (the "ns" unit is GB's schema,
// the label says what the number is), and a size regression shows as a change in its table.
JsonObjectText gb_size_row(int family, const CellResult& c) {
  const std::string name = c.key.id() + "/stored_bytes";
  const auto bytes = static_cast<double>(c.stored_bytes);
  JsonObjectText row;
  row.set("name", name)
      .set("family_index", family)
      .set("per_family_instance_index", 0)
      .set("run_name", name)
      .set("run_type", "iteration")
      .set("repetitions", 1)
      .set("repetition_index", 0)
      .set("threads", c.key.threads)
      .set("iterations", uint64_t{1})
      .set("real_time", bytes)
      .set("cpu_time", bytes)
      .set("time_unit", "ns")
      .set("label", "size row: real_time = cpu_time = stored bytes, not a time");
  return row;
}

void add_gb_rows(std::vector<std::string>& rows, int& family, const CellResult& c, const std::string& dir,
                 const std::vector<double>& mbps, const std::vector<double>& cpu) {
  if (mbps.empty()) return;
  const std::string name = c.key.id() + "/" + dir;
  const int reps = static_cast<int>(mbps.size());
  std::vector<double> times, cpu_times;  // GB's stddev row is the spread of the times, not of the speeds
  for (int i = 0; i < reps; ++i) {
    const double cpu_mbps = i < static_cast<int>(cpu.size()) ? cpu[i] : 0.0;
    rows.push_back(gb_row(name, family, reps, c, mbps[i], cpu_mbps)
                       .set("run_type", "iteration")
                       .set("repetition_index", i)
                       .text());
    const auto [ns, cpu_ns] = block_times(c, mbps[i], cpu_mbps);
    times.push_back(ns);
    cpu_times.push_back(cpu_ns);
  }
  const double cpu_med = cpu.empty() ? 0.0 : median(cpu);
  const auto aggregate = [&](const char* agg, double a_mbps, double a_cpu) {
    JsonObjectText row = gb_row(name + "_" + agg, family, reps, c, a_mbps, a_cpu);
    row.set("run_name", name).set("run_type", "aggregate").set("aggregate_name", agg).set("aggregate_unit", "time");
    return row;
  };
  rows.push_back(aggregate("median", median(mbps), cpu_med).text());
  rows.push_back(aggregate("mean", mean(mbps), cpu.empty() ? 0.0 : mean(cpu)).text());
  rows.push_back(aggregate("stddev", median(mbps), cpu_med)
                     .set("real_time", stddev(times))
                     .set("cpu_time", stddev(cpu_times))
                     .text());
  ++family;
}

}  // namespace

// Google Benchmark's context block, so GB tooling recognises the file. Its load_avg is what
// Google Benchmark records (getloadavg when the run starts): the machine's at the run's start.
namespace {
json load_avg(const MachineLoad& l) {
  if (!l.recorded || l.load_avg_start[0] < 0) return json::array();
  return json::array({l.load_avg_start[0], l.load_avg_start[1], l.load_avg_start[2]});
}
}  // namespace

json gb_context(const RunMeta& m) {
  json caches = json::array();
  if (m.llc_bytes)
    caches.push_back({{"type", "Unified"}, {"level", 3}, {"size", m.llc_bytes}, {"num_sharing", m.cores}});
  return {{"date", m.started_at},
          {"host_name", m.hostname},
          {"executable", m.command_line.substr(0, m.command_line.find(' '))},
          {"num_cpus", m.cores},
          {"mhz_per_cpu", static_cast<int>(std::lround(m.tsc_ghz * 1000))},
          {"cpu_scaling_enabled", false},
          {"caches", caches},
          {"load_avg", load_avg(m.machine_load)},
          {"library_build_type", m.build_type == "Debug" ? "debug" : "release"},
          {"kvzbench_version", m.kvzbench_version},
          {"cpu_model", m.cpu_model}};
}

void add_gb_cell_rows(std::vector<std::string>& rows, int& family, const CellResult& c) {
  add_gb_rows(rows, family, c, "compress", c.compress_mbps, c.compress_cpu_mbps);
  add_gb_rows(rows, family, c, "decompress", c.decompress_mbps, c.decompress_cpu_mbps);
  rows.push_back(gb_size_row(family++, c).text());
}

int gb_family_count(const CellResult& c) {
  if (c.status != CellStatus::Ok) return 0;
  return int{!c.compress_mbps.empty()} + int{!c.decompress_mbps.empty()} + 1;
}

}  // namespace kvz
