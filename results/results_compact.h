#pragma once
// A run as `check` judges it, compact enough for a million-cell merged sweep: per cell its id,
// status, codec, the three byte counts and the per-repetition speeds, and nothing else (no
// latency maps, no dictionary or store-file figures). A whole CellResult loaded costs ~3 KB a
// cell; a compact one its id and speeds plus ~72 bytes. load_compact_results reads a results
// file front to back and never builds a cell's whole document.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "results/results_fwd.h"
#include "results/run_meta.h"

namespace kvz {

// What `check` reads of one cell: a view into a CompactCells (or into a CellResult).
struct CellFacts {
  std::string_view id, codec, failure;
  bool ok = true;
  bool reference = false;
  bool partial_set = false;
  uint64_t input_bytes = 0, compressed_bytes = 0, stored_bytes = 0;
  // Per-repetition MB/s: compress and decompress by wall time, then by process CPU time.
  std::span<const double> compress_mbps, decompress_mbps, compress_cpu_mbps, decompress_cpu_mbps;

  double ratio() const;  // input / compressed, as CellResult::ratio
};

// The view of a whole cell; `id` must outlive it (CellKey::id() builds a new string).
CellFacts facts_of(const CellResult& c, const std::string& id);

// Append-only storage of T in fixed chunks: no reallocation copies a million cells' worth (a
// doubling vector briefly holds both copies), and a span never straddles two chunks.
template <typename T>
class ChunkedArena {
 public:
  struct Ref {
    uint32_t chunk = 0, at = 0;
  };
  Ref append(std::span<const T> items) {
    if (chunks_.empty() || chunks_.back().size() + items.size() > chunks_.back().capacity()) {
      chunks_.emplace_back();
      chunks_.back().reserve(std::max<size_t>(kChunk, items.size()));
    }
    auto& c = chunks_.back();
    const Ref ref{static_cast<uint32_t>(chunks_.size() - 1), static_cast<uint32_t>(c.size())};
    c.insert(c.end(), items.begin(), items.end());
    return ref;
  }
  std::span<const T> get(Ref r, size_t n) const { return {chunks_[r.chunk].data() + r.at, n}; }

 private:
  static constexpr size_t kChunk = (1u << 20) / sizeof(T);  // 1 MiB
  std::deque<std::vector<T>> chunks_;
};

// Ids numbered in the order added, found by id: the ids in a chunked arena and an open-addressing
// index (a std::map or unordered_set of a million ids would cost ~100 bytes an id more).
class IdIndex {
 public:
  size_t add(std::string_view id);  // its number; a later id equal to an earlier one takes over find()
  size_t size() const { return refs_.size(); }
  std::string_view operator[](size_t i) const;
  std::optional<size_t> find(std::string_view id) const;

 private:
  struct Ref {
    ChunkedArena<char>::Ref at;
    uint32_t size = 0;
  };
  void index(size_t i);
  void grow_index();

  std::deque<Ref> refs_;
  ChunkedArena<char> chars_;
  std::vector<uint32_t> slots_;  // open addressing: number + 1, 0 = empty
};

// A run's cells as CellFacts, in file order, found by id.
class CompactCells {
 public:
  void add(const CellFacts& c);  // a later cell of an id already held replaces it in find()
  size_t size() const { return rows_.size(); }
  CellFacts operator[](size_t i) const;
  std::optional<size_t> find(std::string_view id) const { return ids_.find(id); }

 private:
  struct Row {
    ChunkedArena<double>::Ref speeds;
    uint32_t codec = 0;    // in codecs_
    uint32_t failure = 0;  // in failures_ (0: "")
    uint32_t speed_counts[4] = {0, 0, 0, 0};
    uint8_t flags = 0;
    uint64_t input_bytes = 0, compressed_bytes = 0, stored_bytes = 0;
  };
  static uint32_t index_of(std::vector<std::string>& names, std::string_view name);

  std::deque<Row> rows_;
  IdIndex ids_;  // the cells' ids, numbered as rows_
  ChunkedArena<double> speeds_;
  std::vector<std::string> codecs_;           // few: one per codec
  std::vector<std::string> failures_ = {""};  // few: failed cells only
};

struct CompactRun {
  int schema_version = 0;
  RunMeta meta;
  CompactCells cells;
};

CompactRun compact_run(const RunResults& r);
// Reads `path` as load_results does, with the same one-line errors for the same files, keeping
// each cell compact (results_compact_load.cpp). A malformed field check never reads (the latency
// figures, the dictionary's) is not looked at.
bool load_compact_results(const std::string& path, CompactRun& out, std::string& error);

}  // namespace kvz
