#pragma once
// Figures every reporter derives from the measured cells: speeds relative to memcpy,
// recommendations, the device I/O model, the per-store table. Pure functions of RunResults.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "results/results_fwd.h"

namespace kvz {

bool is_reference(const CellResult& c);  // the reference row (memcpy); labels: results/cell_view.h
uint64_t total_stalls(const LatencyStats& l);

// --- Recommendations ------------------------------------------------------------------
// The speed a pick is decided on (judgement/README.md "Speeds that load does not move").
enum class SpeedBasis {
  FastestCalls,  // each block's fastest call added up (intrinsic.fastest_sum_ns): load moves it least
  CpuTime,       // the median repetition by process CPU time
  WallTime,      // the median repetition by wall time, as the table prints it
};
const char* to_string(SpeedBasis b);

// Each named workload is a cost in the cost model's terms (judgement/workload_rules.h): a pick is
// the cheapest candidate that meets the workload's floors. These are the floors and the tie rule.
struct RecommendOptions {
  double read_min_stored_ratio = 1.0;  // read-heavy: must save space (stored ratio above this)
  double space_min_decompress = 500;   // space-sensitive: decompress MB/s floor
  double latency_quota_us = 500;       // latency-bound: intrinsic worst block (both directions) below this
  double cold_min_decompress = 50;     // cold data: decompress MB/s floor
  // A speed no second measurement has pinned is known to within this (relative): two costs whose
  // difference that uncertainty covers are a tie, unless their speeds are more than
  // tie_max_speed_factor apart, which is never a tie.
  double speed_tie_within = 0.05;
  double tie_max_speed_factor = 1.5;
  SpeedBasis basis = SpeedBasis::FastestCalls;
  // One group per source as well (the HTML answer: "for this column family at 16K"); false
  // pools every source of a block set into one pick (console, Markdown).
  bool per_source = false;
  // The level cuts' cells alone (layout "rocksdb@L3": judgement/level_plan.h), each cut its own
  // group; false leaves them out of every group.
  bool level_cuts = false;
};

// A codec configuration aggregated over the sources of one workload group.
struct Candidate {
  std::string label;  // cell_label
  // The configuration behind the label, for the store's config line (stores/store_profile.h).
  std::string codec;
  int level = 0;
  std::string params;
  uint64_t dict_size = 0;
  double input_bytes = 0;   // sum input: the blocks' bytes behind it
  double stored_ratio = 0;  // sum input / sum stored
  double ratio = 0;         // sum input / sum compressed
  // The speeds every rule, the cost model and the plans decide on (RecommendOptions::basis;
  // `basis` says which it is), for the group's T workers: sum input / sum (input / cell speed).
  double compress_mbps = 0;
  double decompress_mbps = 0;
  std::string basis;
  // How far those speeds are known (relative): the tie window, or what a second measurement of
  // the cells showed when that is wider (judgement/workload_rules.h).
  double compress_known_within = 0, decompress_known_within = 0;
  // The wall-time medians the table prints, with the same sum per repetition: min and max.
  double compress_wall_mbps = 0, decompress_wall_mbps = 0;
  double compress_min = 0, compress_max = 0, decompress_min = 0, decompress_max = 0;
  // The median over the candidate's cells of each cell's repetition spread, (max - min) / median.
  double compress_noise = 0, decompress_noise = 0;
  std::optional<double> p999_us;  // worst observed p99.9 of both directions; absent when a cell has too few calls
  double worst_us = 0;            // worst observed call of both directions
  double worst_block_us = 0;      // worst intrinsic block cost of both directions (its fastest call)
  uint64_t stall_blocks = 0;      // blocks whose intrinsic cost reaches the lowest stall threshold
  uint64_t observed_stalls = 0;   // calls at or above the lowest stall threshold, preempted ones excluded
  double preempted_share = 0;     // latency calls switched out, over all the candidate's calls
  size_t dict_losses = 0;         // cells whose dictionary is a net loss (dict_gain < 1): never picked
  size_t cells = 0;
  // Under a store's terms (judgement/store_config.h): whether the row is the store's own call for
  // the codec (RocksDB's zlib is `:fresh`, a deflate stream set up per block) or a better call the
  // store could make only with a code change ("best possible call": never a pick beside its line).
  bool own_call = true;
};

// A pick in a store's terms (judgement/store_config.h): the line that applies it.
struct PickConfig {
  std::string store;      // the built-in store whose syntax `line` is in ("rocksdb")
  std::string line;       // the option line / statement; when not writable, why the store cannot write it
  bool writable = false;  // the store can write the pick
  // The figures beside the line are the store's own call: the run measured under its profile,
  // where only the store's own calls are picked. False: kvz's call of the codec (a run without
  // the profile), which the store's may not reach.
  bool store_call = true;
};

struct Recommendation {
  std::string workload;             // "write-heavy", ...
  std::string rule;                 // the rule in words: the cost it minimises, its terms and floors
  std::optional<Candidate> choice;  // none when no candidate meets the rule
  std::vector<Candidate> ties;      // others the evidence cannot tell from the choice
  // False when ties remain after the cells were measured again (or the machine was too busy to
  // decide): the choice is then the tie's best stored ratio, and `why` says it is not decided.
  bool decided = true;
  double cost_usd = 0;  // the choice's monthly cost under the workload's terms
  std::string why;      // the figures behind the choice, and what it saves against what
  // The short form: "$30.31/month; saves $9.20/month against lz4 1 at this write rate".
  std::string summary;
  std::optional<PickConfig> config;  // with a choice, in a store's terms only (recommend_for_store)
  // In a store's terms: the best possible call (the same bytes, a state reused across blocks)
  // that would have been cheaper, labelled as what the store could do with a code change; "" when
  // none. Never the pick beside the store's line.
  std::string code_change;
  std::string choice_text() const;  // "zstd 1 ≈ zstd 3", or "none"
};

// A workload group: same layout, block size, cache mode, threads, store profile.
struct GroupRecommendations {
  std::string group;   // "rocksdb 4K stream T1", or "twitter.json · rocksdb 4K stream T1" per source
  std::string source;  // "" when pooled over sources
  std::string host;    // per source, a merged fleet survey's host of the file ("" otherwise)
  std::string layout, profile;
  uint64_t block_size = 0;
  int threads = 1;          // the speeds are the total of this many workers
  double record_bytes = 0;  // the blocks' bytes per record (0: not known): what a memtable holds
  std::vector<Candidate> candidates;
  std::vector<Recommendation> picks;
};
std::vector<GroupRecommendations> recommend(const RunResults& r, const RecommendOptions& opt);
// The same with the candidates a pick may come from narrowed beyond the rules, e.g. to the
// codecs a store can write at the group's block size (the HTML answer per store).
// `own_call`, when given, says which candidates are the store's own call: the others (its best
// possible call, e.g. a stream reused where the store sets one up per block) are never picked,
// and a pick that one of them would have beaten says so (Recommendation::code_change).
using CandidateFilter = std::function<bool(const Candidate&, uint64_t block_size)>;
std::vector<GroupRecommendations> recommend(const RunResults& r, const RecommendOptions& opt,
                                            const CandidateFilter& eligible, const CandidateFilter& own_call = {});

// --- I/O model ------------------------------------------------------------------------
struct Device {
  std::string name;
  double mb_per_s = 0;    // sequential read bandwidth, decimal MB/s
  double latency_us = 0;  // per-read access latency
};
std::vector<Device> default_devices();
// "name:MBPS:LATENCY_US", e.g. "nvme:3000:80". Returns false on a malformed entry.
bool parse_device(const std::string& text, Device& out, std::string& error);

struct IoRow {
  std::string cell_id;
  std::string label;
  uint64_t block_size = 0;
  std::string device;
  double raw_us = 0;        // read the block uncompressed
  double effective_us = 0;  // read the stored bytes and decompress
  double speedup = 0;       // raw_us / effective_us: above 1 the codec beats no compression
};
// Effective time to read one block: latency + stored bytes / bandwidth + block / decompress speed.
std::vector<IoRow> io_model(const RunResults& r, const std::vector<Device>& devices);

// --- Store profiles ---------------------------------------------------------------------
struct StoreRow {
  std::string profile, label;
  uint64_t input_bytes = 0, stored_bytes = 0;
  // The whole files the store writes (data blocks, index, meta blocks, footer), one per block
  // set; 0 when some cell has no whole-file figure (the store has no file model).
  uint64_t file_bytes = 0;
  double stored_ratio = 0, compress_mbps = 0, decompress_mbps = 0, worst_us = 0;
  std::string caveat{};  // why the store's bytes for this codec are not checked against it ("" when they are)
  std::string basis{};   // what the stored bytes assume (store_figure_basis: WiredTiger's load), "" when nothing
};
std::vector<StoreRow> store_table(const RunResults& r);  // empty when no cell has a profile

// --- A run too large to hold ------------------------------------------------------------
// Its cells pooled as recommend() (pooled over sources) and store_table() read them, one cell at
// a time: `kvzbench report` of a merged million-cell sweep streams every cell in here and keeps
// only the block sets it shows (results/run_summary.h RunSummary::pooled); recommend(),
// store_table() and all that derive from them (the cost model, the plans, the picks per store)
// then judge every cell, not the cells held. recommend() with per_source reads the held cells.
class PooledCells {
 public:
  PooledCells();
  ~PooledCells();
  PooledCells(const PooledCells&) = delete;
  PooledCells& operator=(const PooledCells&) = delete;
  // `run`: the cell's run, for its label (its metadata only is read, never its cells).
  void add(const RunResults& run, const CellResult& cell);

 private:
  friend std::vector<GroupRecommendations> recommend(const RunResults&, const RecommendOptions&, const CandidateFilter&,
                                                     const CandidateFilter&);
  friend std::vector<StoreRow> store_table(const RunResults&);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kvz
