#pragma once
// The result model: what bench writes and every reporter, `check` and `merge` read.
// Plain data, no codec or block types: reports never reach back upstream.
//
// On disk it is one JSON file that is also a Google Benchmark JSON file:
//   { "context": {...GB context...}, "benchmarks": [...GB rows...],
//     "kvzbench": { "schema_version": N, "meta": {...}, "cells": [...] } }
// so Google Benchmark's tools/compare.py can read it, and kvzbench keeps every detail.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kvz {

inline constexpr int kResultsSchemaVersion = 1;

// Everything that identifies a cell. Two runs' cells match when their keys are equal.
struct CellKey {
  std::string source;       // corpus name or dataset name
  std::string record_mode;  // lines/jsonl/csv/... or dataset
  std::string layout;       // raw/leveldb/rocksdb/hbase/values/values:single
  uint64_t block_size = 0;
  std::string codec;  // registry name
  int level = 0;
  std::string params;  // CodecParams::label(), e.g. "6e", "3:dict=16K"
  uint64_t dict_size = 0;
  std::string cache = "stream";  // stream/hot/cold
  int threads = 1;
  std::string profile;  // store profile name, "" when none

  std::string id() const;  // stable text id, e.g. "twitter.json/rocksdb/4K/zstd/3:dict=16K/stream/T1"
  bool operator==(const CellKey&) const = default;
};

struct LatencyStats {
  uint64_t calls = 0;
  double p50_ns = 0, p90_ns = 0, p99_ns = 0, p999_ns = 0, max_ns = 0, mean_ns = 0;
  // Calls at or above each stall threshold: threshold ns -> count.
  std::map<uint64_t, uint64_t> stalls;
  // Involuntary context switches of the measuring thread during the pass: a stall on a busy
  // machine may be the scheduler's, not the codec's.
  uint64_t preemptions = 0;
};

enum class CellStatus { Ok, Failed };

struct CellResult {
  CellKey key;
  CellStatus status = CellStatus::Ok;
  std::string failure;     // reason when Failed (e.g. "round trip mismatch at block 17, byte 4093")
  bool reference = false;  // the run's reference row (memcpy): speeds are normalised to it

  uint64_t blocks = 0;
  uint64_t input_bytes = 0;       // uncompressed bytes of one pass over the measured blocks
  uint64_t compressed_bytes = 0;  // sum of compressed sizes (codec output only)
  uint64_t stored_bytes = 0;      // after the keep-raw rule (and store framing with a profile)
  uint64_t blocks_kept_raw = 0;
  double min_saving = 0.125;  // keep-raw rule used

  // Per-repetition speeds in MB/s (decimal, 1e6 bytes/s of uncompressed data).
  std::vector<double> compress_mbps;
  std::vector<double> decompress_mbps;
  std::vector<double> compress_cpu_mbps;  // by process CPU time
  std::vector<double> decompress_cpu_mbps;

  LatencyStats compress_latency;
  LatencyStats decompress_latency;

  uint64_t context_memory = 0;  // bytes held by one session's library contexts
  uint64_t dict_bytes = 0;      // actual dictionary size used (0: none)
  double dict_train_seconds = 0;
  std::optional<double> dict_gain;  // ratio with dict / ratio without (same codec, level, block)
  double wall_seconds = 0;          // time spent on this cell
  double cpu_seconds = 0;

  double ratio() const;         // input / compressed
  double stored_ratio() const;  // input / stored
  double saving_pct() const;    // 100 * (1 - compressed/input)
  double compress_median() const;
  double decompress_median() const;
};

struct CodecVersion {
  std::string codec;
  std::string library;
  std::string version;
  bool has_levels = true;  // false: the level means nothing (memcpy, snappy) and is not shown
};

struct CorpusInfo {
  std::string name;
  std::string path;
  uint64_t bytes = 0;
  std::string sha256;
};

struct RunMeta {
  std::string kvzbench_version;
  std::string git_revision;
  std::string compiler;
  std::string build_type;
  std::string cxx_flags;
  std::string cpu_model;
  std::string cpu_flags;  // a short list of the relevant ones (sse4_2, avx2, bmi2, ...)
  int cores = 0;
  uint64_t llc_bytes = 0;
  double timer_overhead_ns = 0;  // measured cost of one latency timestamp pair
  double tsc_ghz = 0;            // calibrated cycle counter frequency (0: portable clock)
  std::string timer;             // "rdtscp" or "steady_clock"
  std::string started_at;        // ISO 8601 UTC
  std::string hostname;
  std::string command_line;
  uint64_t seed = 0;
  int repetitions = 0;
  std::string profile;       // sweep or store profile
  bool interrupted = false;  // Ctrl-C: the cells present are the finished ones
  std::vector<CodecVersion> codec_versions;
  std::vector<CorpusInfo> corpora;
  std::map<std::string, std::string> extra;
};

struct RunResults {
  int schema_version = kResultsSchemaVersion;
  RunMeta meta;
  std::vector<CellResult> cells;
};

// JSON I/O. Load errors are one line ("BASE.json: not a kvzbench result (no 'kvzbench' key)").
std::string results_to_json(const RunResults& r);
bool results_from_json(const std::string& text, RunResults& out, std::string& error);
bool save_results(const std::string& path, const RunResults& r, std::string& error);
bool load_results(const std::string& path, RunResults& out, std::string& error);

const char* to_string(CellStatus s);

// Join runs (shards of one run, or runs from several machines) into one. Refuses, with a
// one-line error: differing schema versions, the same codec at different library versions,
// and the same cell in two inputs. The first run's metadata is kept; differing CPU models
// become "mixed: A | B" so `check` will not compare speeds against it.
bool merge_results(std::vector<RunResults> runs, RunResults& out, std::string& error);

}  // namespace kvz
