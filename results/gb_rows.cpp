// The Google Benchmark part of a results file: the context block and one row per repetition,
// aggregate and size of each OK cell, so GB tooling (compare.py) reads the file.
#include "results/gb_rows.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "results/results.h"
#include "util/stats.h"

namespace kvz {

using nlohmann::json;

namespace {

double safe_div(double a, double b) { return b > 0 ? a / b : 0.0; }

// One GB row. real_time/cpu_time are ns per block; one iteration is one block.
json gb_row(const std::string& name, int family, int reps, const CellResult& c, double mbps, double cpu_mbps) {
  const double blocks = std::max<double>(1.0, static_cast<double>(c.blocks));
  const double ns_per_block = safe_div(static_cast<double>(c.input_bytes) * 1e3, mbps) / blocks;
  const double cpu_ns =
      cpu_mbps > 0 ? safe_div(static_cast<double>(c.input_bytes) * 1e3, cpu_mbps) / blocks : ns_per_block;
  // Sizes ride along as GB user counters (top-level numbers), for tools that read counters.
  return {{"name", name},
          {"family_index", family},
          {"per_family_instance_index", 0},
          {"run_name", name},
          {"repetitions", reps},
          {"threads", c.key.threads},
          {"iterations", c.blocks},
          {"real_time", ns_per_block},
          {"cpu_time", cpu_ns},
          {"time_unit", "ns"},
          {"bytes_per_second", mbps * 1e6},
          {"input_bytes", c.input_bytes},
          {"compressed_bytes", c.compressed_bytes},
          {"stored_bytes", c.stored_bytes},
          {"ratio", c.ratio()},
          {"stored_ratio", c.stored_ratio()}};
}

// The cell's stored bytes as a row of its own, `<id>/stored_bytes`: compare.py compares only
// real_time and cpu_time, so both carry the stored bytes here (the "ns" unit is GB's schema,
// the label says what the number is), and a size regression shows as a change in its table.
json gb_size_row(int family, const CellResult& c) {
  const std::string name = c.key.id() + "/stored_bytes";
  const auto bytes = static_cast<double>(c.stored_bytes);
  return {{"name", name},
          {"family_index", family},
          {"per_family_instance_index", 0},
          {"run_name", name},
          {"run_type", "iteration"},
          {"repetitions", 1},
          {"repetition_index", 0},
          {"threads", c.key.threads},
          {"iterations", 1},
          {"real_time", bytes},
          {"cpu_time", bytes},
          {"time_unit", "ns"},
          {"label", "size row: real_time = cpu_time = stored bytes, not a time"}};
}

void add_gb_rows(json& rows, int& family, const CellResult& c, const std::string& dir, const std::vector<double>& mbps,
                 const std::vector<double>& cpu) {
  if (mbps.empty()) return;
  const std::string name = c.key.id() + "/" + dir;
  const int reps = static_cast<int>(mbps.size());
  for (int i = 0; i < reps; ++i) {
    json row = gb_row(name, family, reps, c, mbps[i], i < static_cast<int>(cpu.size()) ? cpu[i] : 0.0);
    row["run_type"] = "iteration";
    row["repetition_index"] = i;
    rows.push_back(row);
  }
  const double cpu_med = cpu.empty() ? 0.0 : median(cpu);
  const struct {
    const char* name;
    double mbps;
    double cpu;
  } aggs[] = {{"median", median(mbps), cpu_med}, {"mean", mean(mbps), cpu.empty() ? 0.0 : mean(cpu)}};
  for (const auto& a : aggs) {
    json row = gb_row(name + "_" + a.name, family, reps, c, a.mbps, a.cpu);
    row["run_name"] = name;
    row["run_type"] = "aggregate";
    row["aggregate_name"] = a.name;
    row["aggregate_unit"] = "time";
    rows.push_back(row);
  }
  // GB's stddev row is the spread of the per-repetition times, not of the speeds.
  std::vector<double> times, cpu_times;
  for (int i = 0; i < reps; ++i) {
    const json row = gb_row(name, family, reps, c, mbps[i], i < static_cast<int>(cpu.size()) ? cpu[i] : 0.0);
    times.push_back(row["real_time"].get<double>());
    cpu_times.push_back(row["cpu_time"].get<double>());
  }
  json sd = gb_row(name + "_stddev", family, reps, c, median(mbps), cpu_med);
  sd["real_time"] = stddev(times);
  sd["cpu_time"] = stddev(cpu_times);
  sd["run_name"] = name;
  sd["run_type"] = "aggregate";
  sd["aggregate_name"] = "stddev";
  sd["aggregate_unit"] = "time";
  rows.push_back(sd);
  ++family;
}

}  // namespace

// Google Benchmark's context block, so GB tooling recognises the file.
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
          {"load_avg", json::array()},
          {"library_build_type", m.build_type == "Debug" ? "debug" : "release"},
          {"kvzbench_version", m.kvzbench_version},
          {"cpu_model", m.cpu_model}};
}

void add_gb_cell_rows(json& rows, int& family, const CellResult& c) {
  add_gb_rows(rows, family, c, "compress", c.compress_mbps, c.compress_cpu_mbps);
  add_gb_rows(rows, family, c, "decompress", c.decompress_mbps, c.decompress_cpu_mbps);
  rows.push_back(gb_size_row(family++, c));
}

}  // namespace kvz
