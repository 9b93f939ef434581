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
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "results/latency.h"
#include "results/recommendations.h"
#include "results/run_meta.h"

namespace kvz {

inline constexpr int kResultsSchemaVersion = 1;

// Everything that identifies a cell. Two runs' cells match when their keys are equal.
struct CellKey {
  std::string source{};       // corpus name or dataset name
  std::string record_mode{};  // lines/jsonl/csv/... or dataset
  std::string layout{};       // raw/leveldb/rocksdb/hbase/values/values:single
  uint64_t block_size = 0;
  std::string codec{};  // registry name
  int level = 0;
  std::string params{};  // CodecParams::label(), e.g. "6e", "3:dict=16K"
  uint64_t dict_size = 0;
  std::string cache = "stream";  // stream/hot/cold
  int threads = 1;
  std::string profile{};  // store profile name, "" when none
  // Set only by `merge`, so one host's cells keep the ids they always had:
  // host — a store file's cells from a merge of several hosts (a fleet survey: the same file
  // name on two nodes is two files), the input's meta.hostname;
  // cpu — every cell of a merge whose inputs ran on different CPU models (speeds are never
  // pooled across models), the input's meta.cpu_model.
  std::string host{};
  std::string cpu{};

  // Stable text id, e.g. "twitter.json/rocksdb/4K/zstd/3:dict=16K/stream/T1"; a host follows the
  // source ("nb-1-big-Data.db@node3:sstable-data/..."), a CPU model ends it (".../T1/cpu=EPYC 7B13").
  std::string id() const;
  bool operator==(const CellKey&) const = default;
};

enum class CellStatus { Ok, Failed };

struct CellResult {
  CellKey key;
  CellStatus status = CellStatus::Ok;
  std::string failure;     // reason when Failed (e.g. "round trip mismatch at block 17, byte 4093")
  bool reference = false;  // the run's reference row (memcpy): speeds are normalised to it
  // A store file's own blocks (layout "as-stored"): this row is the file's codec, as the file
  // holds it, the baseline every other row of the block set is compared with; on_disk_bytes is
  // the file's real bytes for the blocks (and its dictionary block), to hold stored_bytes against.
  bool current = false;
  // A row of a block set a stop (a signal, `timeout`) cut short: some of the set's rows are
  // missing or short of repetitions, so the set is no whole result (`check` refuses it).
  bool partial_set = false;
  std::optional<uint64_t> on_disk_bytes;
  // Under a profile with a whole-file model (rocksdb, leveldb): the whole file that store would
  // write for these blocks (stored_bytes' data blocks and dictionary, plus index, properties,
  // metaindex, footer), and its parts by name ("data", "index", ...).
  std::optional<uint64_t> store_file_bytes;
  std::map<std::string, uint64_t> store_file_parts;

  uint64_t blocks = 0;
  uint64_t input_bytes = 0;       // uncompressed bytes of one pass over the measured blocks
  uint64_t compressed_bytes = 0;  // sum of compressed sizes (codec output only)
  uint64_t stored_bytes = 0;      // after the keep-raw rule (and store framing with a profile)
  uint64_t blocks_kept_raw = 0;
  // The records the measured blocks hold (0: not known, as in files written before it was kept):
  // the bytes a record takes in a block, for the records a memtable holds (judgement/level_model.h).
  uint64_t records = 0;
  double min_saving = 0.125;  // keep-raw rule used

  // Per-repetition speeds in MB/s (decimal, 1e6 bytes/s of uncompressed data).
  std::vector<double> compress_mbps;
  std::vector<double> decompress_mbps;
  std::vector<double> compress_cpu_mbps;  // by process CPU time
  std::vector<double> decompress_cpu_mbps;

  LatencyStats compress_latency;
  LatencyStats decompress_latency;

  // Bytes one session's library contexts hold per direction, read after the session has
  // compressed and decompressed every measured block (the largest included).
  uint64_t compress_context_bytes = 0;
  uint64_t decompress_context_bytes = 0;
  uint64_t dict_bytes = 0;  // actual dictionary size used (0: none)
  double dict_train_seconds = 0;
  // Where the dictionary came from (bench/README.md "Dictionaries"): "file" = sampled from every
  // block of the block set as a store keeps one per file, all blocks measured and the
  // dictionary's block (dict_block_bytes) counted in stored bytes; "split" = the study, trained
  // on a disjoint 20 % and measured on the other 80 %, the dictionary shipped outside the data.
  std::string dict_method{};
  uint64_t dict_block_bytes = 0;  // bytes the dictionary takes in the file ("file" only)
  // Net effect: without the dictionary / with it, both as stored ("file": the dictionary's
  // block included; "split": compressed bytes of the measured blocks). Below 1 is a loss.
  std::optional<double> dict_gain;
  double wall_seconds = 0;  // time spent on this cell
  double cpu_seconds = 0;

  double ratio() const;         // input / compressed
  double stored_ratio() const;  // input / stored
  double saving_pct() const;    // 100 * (1 - compressed/input)
  double compress_median() const;
  double decompress_median() const;
  bool dict_loses() const { return dict_gain && *dict_gain < 1.0; }  // never recommended
};

struct RunSummary;  // results/run_summary.h

struct RunResults {
  int schema_version = kResultsSchemaVersion;
  RunMeta meta;
  std::vector<CellResult> cells;
  // The answer, when `run` judged it (results/recommendations.h); written after the cells.
  std::vector<RecommendationRecord> recommendations;
  // Set only for a run shown in part (`kvzbench report` of a result too large to show whole):
  // `cells` then holds the block sets shown, and the summary what holds over every cell.
  std::shared_ptr<const RunSummary> summary;
};

// JSON I/O. Load errors are one line ("BASE.json: not a kvzbench result (no 'kvzbench' key)").
std::string results_to_json(const RunResults& r);
bool results_from_json(const std::string& text, RunResults& out, std::string& error);
bool save_results(const std::string& path, const RunResults& r, std::string& error);
bool load_results(const std::string& path, RunResults& out, std::string& error);
// A result file's metadata alone (its cells are read past, not kept); errors as load_results'.
bool load_results_meta(const std::string& path, RunMeta& meta, std::string& error);

const char* to_string(CellStatus s);

// Join runs (shards of one run, or runs from several machines) into one. Refuses, with a
// one-line error: differing schema versions, the same codec at different library versions,
// and the same cell in two inputs; with `one_sweep` (`kvzbench merge`'s rules, results/README.md
// "One sweep") also interrupted inputs, block sets cut short and inputs of different plans. The
// first run's metadata is kept; differing CPU models become "mixed: A | B" so `check` will not
// compare speeds against it.
bool merge_results(std::vector<RunResults> runs, RunResults& out, std::string& error, bool one_sweep = false);
// The same merge of result files with `one_sweep`, written to `out_path` (atomically, as save_results) without
// holding any input: memory grows by the cell's id (~150 bytes) a cell, not by the cell. The
// file is what save_results of merge_results' run writes. `cells`: how many were merged;
// `merged_meta` (when given): the merged run's metadata.
bool merge_result_files(const std::vector<std::string>& paths, const std::string& out_path, size_t& cells,
                        std::string& error, RunMeta* merged_meta = nullptr);

}  // namespace kvz
