// Dataset registry: names, default sizes, dispatch. All generators are deterministic for
// (name, seed, target bytes, options) and emit records sorted by key with unique keys.
#include "blockgen/datasets/generators.h"
#include "blockgen/record_modes.h"
#include "blockgen/records.h"
#include "blockgen/table.h"
#include "util/text.h"

namespace kvz {

namespace datasets {
uint64_t dataset_seed(const std::string& name, uint64_t seed) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a of the name, mixed with the seed
  for (char c : name) h = (h ^ static_cast<uint8_t>(c)) * 1099511628211ull;
  Rng mix(h ^ seed);
  return mix.next();
}
}  // namespace datasets

namespace {
// Generators without options take the table's uniform signature through these.
void cache(uint64_t seed, size_t target, const DatasetOptions&, RecordSet& out) {
  datasets::gen_cache(seed, target, out);
}
void json_docs(uint64_t seed, size_t target, const DatasetOptions&, RecordSet& out) {
  datasets::gen_json_docs(seed, target, out);
}
void timeseries(uint64_t seed, size_t target, const DatasetOptions&, RecordSet& out) {
  datasets::gen_timeseries(seed, target, out);
}
constexpr size_t kDefaultDatasetBytes = size_t{16} << 20;
}  // namespace

const std::vector<DatasetInfo>& dataset_infos() {
  static const std::vector<DatasetInfo> infos = {
      {"dbbench", "db_bench fillseq: 16 B keys, 100 B values at compression ratio 0.5", kDefaultDatasetBytes,
       datasets::gen_dbbench},
      {"mixgraph", "db_bench mixgraph: 48 B keys, Pareto value sizes 10..1024 B", kDefaultDatasetBytes,
       datasets::gen_mixgraph},
      {"cache", "Twitter-cache-like: 20-44 B namespace:id keys, small values, long tail", kDefaultDatasetBytes, cache},
      {"json-docs", "user-profile JSON documents of ~1 KB, repeated field names", kDefaultDatasetBytes, json_docs},
      {"timeseries", "smart-home sensor rows: house, time, 3 power, temp, gas, 10 appliances", kDefaultDatasetBytes,
       timeseries},
  };
  return infos;
}

const DatasetInfo* find_dataset(std::string_view name) { return find_row(dataset_infos(), name); }

const std::vector<std::string>& dataset_names() {
  static const std::vector<std::string> names = row_names(dataset_infos());
  return names;
}

RecordSet generate_dataset(const std::string& name, uint64_t seed, size_t target_bytes, std::string& error) {
  return generate_dataset(name, seed, target_bytes, DatasetOptions{}, error);
}

RecordSet generate_dataset(const std::string& name, uint64_t seed, size_t target_bytes, const DatasetOptions& options,
                           std::string& error) {
  RecordSet set;
  set.source = name;
  set.record_mode = name;
  const DatasetInfo* info = find_dataset(name);
  if (!info) {
    error = unknown_name_error("dataset", name, dataset_names());
    return set;
  }
  if (!(options.compression_ratio > 0 && options.compression_ratio <= 1)) {
    error = "--compression-ratio must be in (0, 1]";
    return set;
  }
  if (target_bytes == 0) target_bytes = info->default_bytes;
  info->generate(datasets::dataset_seed(name, seed), target_bytes, options, set);
  detail::sort_unique(set);  // cache keys may collide; the others are already sorted/unique
  for (const auto& r : set.records) set.source_bytes += r.key.size() + r.value.size();
  set.sampled_bytes = set.source_bytes;
  set.detail += ", seed " + std::to_string(seed);
  return set;
}

}  // namespace kvz
