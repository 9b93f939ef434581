#pragma once
// Sources -> records -> block sets: the one pipeline `run` and `blocks` share. Inputs are
// named (dataset names, corpus paths or manifest names); warnings are returned, not printed.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "blockgen/block.h"
#include "blockgen/records.h"

namespace kvz {

// Whether a file a store's reader takes is read through it, by the record mode the user gave:
// unless `-r bytes` asks for the file's bytes as they are on disk (the way to measure a store
// file whose structure is broken).
inline bool reads_store_files(const std::string& given_record_mode) { return given_record_mode != "bytes"; }

struct SourceRequest {
  std::vector<std::string> datasets;  // built-in dataset names
  std::vector<std::string> files;     // corpus paths or manifest names (resolved against KVZ_CORPORA)
  std::vector<std::string> names;     // the files' source names (--name); empty: source_names()
  std::string record_mode = "auto";
  RecordOptions record;
  size_t file_max_bytes = kDefaultMaxBytes;  // sample at most this much of each file
  size_t dataset_bytes = 0;                  // key+value bytes per dataset; 0 = its default
  uint64_t seed = 1;
  DatasetOptions dataset;
  bool hash_files = false;  // SHA-256 of each file, for a result's metadata
  // Store files through their readers (reads_store_files: the user did not give -r bytes; a
  // command may still read the corpora as bytes for the raw layout).
  bool read_store_files = true;
};

// One source's records and, for a file, where they came from.
struct Source {
  RecordSet records;
  std::string name;  // the record set's source, or the argument as given
  std::string path;  // resolved file path ("" for a dataset)
  uint64_t file_bytes = 0;
  std::string sha256;  // when hash_files
  bool empty() const { return records.records.empty() && records.raw.empty(); }
};

// Samples live in memory: a dataset is built whole and a file's sample is read whole, so
// each is capped (--max-bytes / --dataset-bytes above it are refused, not attempted).
inline constexpr size_t kMaxSampleBytes = size_t{1} << 30;

// Datasets first, then files, in the order given. Every file is resolved before anything is
// read, so a typo fails fast. False with a one-line `error` on an unknown or unreadable input.
bool load_sources(const SourceRequest& request, std::vector<Source>& out, std::vector<std::string>& warnings,
                  std::string& error);

// The names file sources carry into cell ids: the file name, or as many trailing path
// components as make it unique among `paths` and distinct from `taken` (the dataset names), so
// the same data read from another directory gets the same ids ("twitter.json", and
// "a/data.csv" beside "b/data.csv"). The full path and content hash stay in the run's meta.
std::vector<std::string> source_names(const std::vector<std::string>& paths, const std::vector<std::string>& taken);

// Every source x layout x block size, in that order. A source that gives no blocks is left out
// with a warning. False with a one-line `error` (naming the source) on a layout it cannot take.
bool cut_block_sets(const std::vector<Source>& sources, const std::vector<std::string>& layouts,
                    const std::vector<size_t>& block_sizes, std::vector<BlockSet>& out,
                    std::vector<std::string>& warnings, std::string& error);

}  // namespace kvz
