// Dataset registry: names, default sizes, dispatch. All generators are deterministic for
// (name, seed, target bytes, options) and emit records sorted by key with unique keys.
#include <algorithm>

#include "blockgen/datasets/generators.h"
#include "blockgen/record_modes.h"
#include "blockgen/records.h"

namespace kvz {

namespace datasets {
uint64_t dataset_seed(const std::string& name, uint64_t seed) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a of the name, mixed with the seed
  for (char c : name) h = (h ^ static_cast<uint8_t>(c)) * 1099511628211ull;
  Rng mix(h ^ seed);
  return mix.next();
}
}  // namespace datasets

const std::vector<DatasetInfo>& dataset_infos() {
  static const std::vector<DatasetInfo> infos = {
      {"dbbench", "db_bench fillseq: 16 B keys, 100 B values at compression ratio 0.5", 16u << 20},
      {"mixgraph", "db_bench mixgraph: 48 B keys, Pareto value sizes 10..1024 B", 16u << 20},
      {"cache", "Twitter-cache-like: 20-44 B namespace:id keys, small values, long tail", 16u << 20},
      {"json-docs", "user-profile JSON documents of ~1 KB, repeated field names", 16u << 20},
      {"timeseries", "smart-home sensor rows: house, time, 3 power, temp, gas, 10 appliances", 16u << 20},
  };
  return infos;
}

const std::vector<std::string>& dataset_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& i : dataset_infos()) n.push_back(i.name);
    return n;
  }();
  return names;
}

bool is_valid_dataset(const std::string& name) {
  const auto& n = dataset_names();
  return std::find(n.begin(), n.end(), name) != n.end();
}

RecordSet generate_dataset(const std::string& name, uint64_t seed, size_t target_bytes, std::string& error) {
  return generate_dataset(name, seed, target_bytes, DatasetOptions{}, error);
}

RecordSet generate_dataset(const std::string& name, uint64_t seed, size_t target_bytes,
                           const DatasetOptions& options, std::string& error) {
  RecordSet set;
  set.source = name;
  set.record_mode = name;
  if (!is_valid_dataset(name)) {
    error = "unknown dataset '" + name + "' (dbbench, mixgraph, cache, json-docs, timeseries)";
    return set;
  }
  if (!(options.compression_ratio > 0 && options.compression_ratio <= 1)) {
    error = "--compression-ratio must be in (0, 1]";
    return set;
  }
  if (target_bytes == 0) {
    for (const auto& i : dataset_infos())
      if (i.name == name) target_bytes = i.default_bytes;
  }
  const uint64_t s = datasets::dataset_seed(name, seed);
  if (name == "dbbench") datasets::gen_dbbench(s, target_bytes, options, set);
  else if (name == "mixgraph") datasets::gen_mixgraph(s, target_bytes, options, set);
  else if (name == "cache") datasets::gen_cache(s, target_bytes, set);
  else if (name == "json-docs") datasets::gen_json_docs(s, target_bytes, set);
  else datasets::gen_timeseries(s, target_bytes, set);
  detail::sort_unique(set);  // cache keys may collide; the others are already sorted/unique
  for (const auto& r : set.records) set.source_bytes += r.key.size() + r.value.size();
  set.sampled_bytes = set.source_bytes;
  set.detail += ", seed " + std::to_string(seed);
  return set;
}

}  // namespace kvz
