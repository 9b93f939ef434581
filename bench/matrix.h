#pragma once
// The measurement plan: a matrix of block sets x codec rows and the engine's options. It takes
// block sets and codecs, never files or specs, so tests can inject both. Running it, and what
// it yields: bench/engine.h (the plan knows nothing of results, so planning code does not
// rebuild when the result model changes).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "blockgen/block.h"
#include "codecs/codec.h"
#include "codecs/registry.h"
#include "codecs/spec.h"
#include "stores/store_profile.h"

namespace kvz {

// One block set of the matrix (a source cut with one layout and block size).
struct BlockGroup {
  BlockSet blocks;
  const StoreProfile* store = nullptr;  // framing and keep-raw rule of a store profile
  // A store file's own blocks (layout "as-stored"): the file's codec, measured first after
  // memcpy as the baseline row, its dictionary the file's own.
  std::optional<CodecChoice> current{};
};

struct MatrixCell {
  size_t group = 0;
  const Codec* codec = nullptr;
  CodecParams params;
  bool current = false;  // the group's file codec (BlockGroup::current)
};

struct Matrix {
  std::vector<BlockGroup> groups;
  std::vector<MatrixCell> cells;  // grouped by block set, memcpy first in each group
};

// Every group x every choice, with the registry's memcpy row first in each group (when the
// registry has one and the choices do not already start with it), then the group's current
// codec (a choice with the same codec and params is that row, not a second one).
Matrix build_matrix(std::vector<BlockGroup> groups, const std::vector<CodecChoice>& choices,
                    const CodecRegistry& registry);

// The latency budget's defaults, which scale_latency_budget shrinks with a smaller budget.
// Calls this fast always get the 1,000 calls p99.9 needs, whatever the time cap
// (bench/latency_pass.h) ...
inline constexpr double kFastCallSeconds = 100e-6;
// ... unless a smaller budget brought the cap below this.
inline constexpr double kFastFloorCapSeconds = 0.02;
// The late check's extra rounds of a small set fit this time (bench/late_check.h).
inline constexpr double kLateRoundsSeconds = 0.04;

struct EngineOptions {
  double seconds_per_cell = 0.5;  // budget for the timed passes of one cell
  int repetitions = 3;
  std::string cache = "stream";  // stream | hot | cold
  int threads = 1;
  double min_saving = 0.125;
  std::vector<uint64_t> stall_thresholds_ns{500'000, 1'000'000};
  uint64_t seed = 1;
  bool random_interleaving = true;
  uint64_t llc_bytes = 0;  // cold mode: working set = 4 x this (64 MiB when unknown)
  // Dictionary rows (bench/README.md "Dictionaries"). "file": as a store keeps one per file,
  // sampled by the profile's store method (RocksDB 7.8's without a profile, or under a store
  // that keeps none) from every block, every block measured, the dictionary's block counted in
  // stored bytes. "split": the study of a dictionary shipped outside the data, trained on a
  // disjoint dict_train_fraction of the blocks and measured on the rest.
  std::string dict_method = "file";
  double dict_train_fraction = 0.2;
  // Latency passes, per direction: the calls wanted (p99.9 needs 1,000; 10,000 gives it ten
  // calls above it) and the time cap that may stop short of them (see latency_calls).
  size_t latency_calls = 10'000;
  double latency_seconds = 0.1;
  // Calls this fast get the 1,000 calls p99.9 needs whatever the cap (bench/latency_pass.h), and the
  // late check's extra rounds of a small set fit this time (bench/late_check.h); both shrink
  // with a smaller budget (scale_latency_budget).
  double fast_call_seconds = kFastCallSeconds;
  double late_rounds_seconds = kLateRoundsSeconds;
  // A block set's cells are verified, latency-timed and timed in batches of about this much work
  // (bench/engine.cpp), so a stop keeps every batch that finished.
  double batch_seconds = 15;
  int shard_index = 0;  // run the block sets assign_shards gives this shard
  int shard_count = 1;
  // Run only the cells with these ids (results' CellKey::id), none of the others: a second
  // measurement of a few contenders (commands/run_contenders.h). Empty: every cell.
  std::vector<std::string> only_cells{};
};

// Which shard runs each block set (index: Matrix::groups): whole sets, so a set's blocks are
// read, its dictionaries trained and its memcpy row measured once; the costliest set first onto
// the shard with the least estimated work, ties to the lower shard, so shards finish close
// together. Deterministic: every shard of a sweep computes the same assignment from the plan.
std::vector<int> assign_shards(const Matrix& matrix, const EngineOptions& opt);

// A block set's estimated seconds: per row, its timed passes' budget, both latency passes' caps
// and a verification pass per direction over the set's bytes at kEstimateBytesPerSecond, the
// bytes weighted by the block size (x (size / 4 KiB)^0.1) and by how much of each block repeats
// (x 1 + the share of positions that repeat 4 earlier bytes of their block). Fitted on the default
// sweep's measured sets: correlation 0.88 with their seconds, 0.73 with bytes alone.
inline constexpr double kEstimateBytesPerSecond = 50e6;
double estimated_group_seconds(const Matrix& matrix, size_t group, const EngineOptions& opt);

// A run given less than its default budget (--time, --repetitions; `scale` = the given budget
// over the default, below 1): the latency passes' cap, the calls that still get 1,000 calls and
// the late check's rounds shrink with it, so the run stays within a budget of the same order.
void scale_latency_budget(EngineOptions& opt, double scale);

}  // namespace kvz
