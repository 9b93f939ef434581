#include "commands/run_plan_hash.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "blockgen/corpus.h"

namespace kvz {

std::string plan_options_text(const RunPlan& p, const std::vector<CodecChoice>& choices) {
  std::vector<std::string> rows;
  for (const auto& c : choices) rows.push_back(c.label());
  const SourceRequest& s = p.sources;
  const EngineOptions& e = p.engine;
  std::string t = "kvzbench plan 1\n";
  t += fmt::format("profile {} | store {}{}\n", p.sweep ? p.sweep->name : "", p.store ? p.store->name : "",
                   p.store_from_files ? " (the files')" : "");
  t += fmt::format("codecs {}\n", fmt::join(rows, ", "));
  t += fmt::format("dict_method {} train_fraction {}\n", e.dict_method, e.dict_train_fraction);
  t += fmt::format("layouts {} | blocks {}\n", fmt::join(p.layouts, ","), fmt::join(p.block_sizes, ","));
  t += fmt::format("datasets {} | dataset_bytes {} | compression_ratio {} | seed {}\n", fmt::join(s.datasets, ","),
                   s.dataset_bytes, s.dataset.compression_ratio, s.seed);
  t += fmt::format("record_mode {} | key_field {} | value_field {} | key_columns {} | max_bytes {} | store_files {}\n",
                   s.record_mode, s.record.key_field, s.record.value_field, s.record.key_columns, s.file_max_bytes,
                   s.read_store_files);
  t += fmt::format("time {} x {} | latency {} calls, {} s | batch {} s\n", e.seconds_per_cell, e.repetitions,
                   e.latency_calls, e.latency_seconds, e.batch_seconds);
  t +=
      fmt::format("cache {} | threads {} | min_saving {} | stalls {} | interleave {} | shards {}\n", e.cache, e.threads,
                  e.min_saving, fmt::join(e.stall_thresholds_ns, ","), e.random_interleaving, e.shard_count);
  return t;
}

std::string plan_sources_text(const RunPlan& p, const std::vector<CorpusInfo>& corpora) {
  std::string t = fmt::format("datasets {}\n", fmt::join(p.sources.datasets, ","));
  for (const auto& c : corpora) t += fmt::format("file {} {} {}\n", c.name, c.bytes, c.sha256);
  return t;
}

void record_plan(RunMeta& meta, const RunPlan& plan, const std::vector<CodecChoice>& choices) {
  meta.extra["plan"] = sha256_hex(plan_options_text(plan, choices)).substr(0, 16);
  meta.extra["plan_sources"] = sha256_hex(plan_sources_text(plan, meta.corpora)).substr(0, 16);
}

}  // namespace kvz
