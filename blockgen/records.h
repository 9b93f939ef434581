#pragma once
// Records from corpus files and from seeded synthetic datasets.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "blockgen/block.h"

namespace kvz {

// Default sample size per corpus (--max-bytes).
inline constexpr size_t kDefaultMaxBytes = size_t{64} << 20;

// How records are cut from a file, beyond the mode.
struct RecordOptions {
  std::string key_field;    // jsonl/json: top-level field for the key; lines: 1-based
                            // whitespace-separated field number; "" = ordinal key
  std::string value_field;  // jsonl/json: the value is this field alone (a string's text, else JSON); "" = all
  int key_columns = 0;      // csv/tsv: leading columns that form the key; 0 = the fewest
                            // (1..3) that are nearly unique, else 1
  bool keep_raw = true;     // keep the sampled bytes in RecordSet::raw (the raw layout needs
                            // them; record layouts do not, and dropping them saves a copy)
};

// Record modes: "auto", "lines", "jsonl", "json", "csv", "tsv", "kv", "kv-hex", "fixed:N", "bytes".
// Reads at most `max_bytes` of the file (sampled as documented in README). Records come out
// sorted by key, keys unique. `error` is set (one line) for a missing or unreadable file or
// a bad mode; an empty file gives an empty RecordSet and a warning.
RecordSet read_corpus(const std::string& path, const std::string& record_mode, size_t max_bytes, std::string& error);
RecordSet read_corpus(const std::string& path, const std::string& record_mode, size_t max_bytes,
                      const RecordOptions& options, std::string& error);
// One row per record mode ("fixed:N" stands for every N): what -r/--record-mode accepts,
// `--help` and the errors list.
struct RecordModeInfo {
  const char* name;
  const char* description;
};
const std::vector<RecordModeInfo>& record_mode_table();
std::string record_mode_help();  // "auto, lines, jsonl, json, csv, tsv, kv, kv-hex, fixed:N, bytes"
bool is_valid_record_mode(const std::string& mode);
// "" for a valid mode, else one line saying what is wrong with it: an unknown name, or a
// fixed:N whose N is not a number or out of range (1..1M).
std::string record_mode_error(const std::string& mode);
// The largest `--key-field N` of the lines mode (whitespace-separated fields of one line).
inline constexpr int kMaxKeyFieldNumber = 65536;
// "" or one line when the options cannot apply to the mode: a --key-field that is no field
// number where one is needed (0, -1, a huge one, or a name under -r lines), or a --key-field /
// --value-field given to a mode that has no use for it (csv, kv, fixed:N, ...).
std::string record_options_error(const std::string& mode, const RecordOptions& options);

// Cut records from bytes already in memory (what read_corpus does after reading/sampling).
RecordSet records_from_bytes(std::string data, const std::string& source, const std::string& record_mode,
                             const RecordOptions& options, std::string& error);

// Split a csv/tsv value into fields (RFC 4180 quotes for ','; tsv has no quoting).
void split_fields(std::string_view line, char sep, std::vector<std::string>& out);
// Name of the i-th value column ("c<N>" when the set has no name for it).
std::string value_column_name(const RecordSet& set, size_t i);

struct DatasetOptions {
  double compression_ratio = 0.5;  // dbbench/mixgraph values, as db_bench --compression_ratio
};

// Synthetic datasets, one row each (one generator file each in datasets/): the table drives
// -d/--dataset validation, the name lists, `--help` and the errors.
struct DatasetInfo {
  std::string name;
  std::string description;  // one line: key and value shape
  size_t default_bytes;     // target key+value bytes when none is given
  // Appends about `target` key+value bytes of records, sorted by key, for this seed.
  void (*generate)(uint64_t seed, size_t target, const DatasetOptions& options, RecordSet& out);
};
const std::vector<DatasetInfo>& dataset_infos();
const DatasetInfo* find_dataset(std::string_view name);  // null for an unknown name
const std::vector<std::string>& dataset_names();
// Deterministic for (name, seed, target_bytes, options); records sorted by key, keys unique.
// target_bytes == 0 means the dataset's default size.
RecordSet generate_dataset(const std::string& name, uint64_t seed, size_t target_bytes, std::string& error);
RecordSet generate_dataset(const std::string& name, uint64_t seed, size_t target_bytes, const DatasetOptions& options,
                           std::string& error);

}  // namespace kvz
