#pragma once
// Records from corpus files and from seeded synthetic datasets.
#include <cstdint>
#include <string>
#include <vector>

#include "blockgen/block.h"

namespace kvz {

// Record modes: "auto", "lines", "jsonl", "json", "csv", "tsv", "fixed:N", "bytes".
// Reads at most `max_bytes` of the file (sampled as documented in README). Records come out
// sorted by key. `error` is set (one line) for a missing or unreadable file; an empty file
// gives an empty RecordSet and a warning.
RecordSet read_corpus(const std::string& path, const std::string& record_mode, size_t max_bytes,
                      std::string& error);

// Synthetic datasets: dbbench, mixgraph, cache, json-docs, timeseries.
const std::vector<std::string>& dataset_names();
bool is_valid_dataset(const std::string& name);
// Deterministic for (name, seed, target_bytes); records sorted by key.
RecordSet generate_dataset(const std::string& name, uint64_t seed, size_t target_bytes,
                           std::string& error);

}  // namespace kvz
