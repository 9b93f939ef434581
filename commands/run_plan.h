#pragma once
// `kvzbench run`'s arguments and the plan made from them: every choice resolved (profile,
// sources, layouts, block sizes, codec rows, engine options) before anything is read or
// measured, so a plan can be built and tested on its own.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/matrix.h"
#include "codecs/registry.h"
#include "codecs/spec.h"
#include "commands/option_rows.h"
#include "commands/run_options.h"
#include "commands/source_options.h"
#include "report/console.h"
#include "stores/store_profile.h"

namespace kvz {

// --cache: how the blocks sit in memory when timed (the engine and the cell key keep the name).
enum class CacheMode { Stream, Hot, Cold };
inline constexpr OptionValue<CacheMode> kCacheModes[] = {
    {"stream", CacheMode::Stream}, {"hot", CacheMode::Hot}, {"cold", CacheMode::Cold}};
inline constexpr OptionRow<CacheMode> kCacheOption{"--cache", kCacheModes};

// --dict-method: where a dictionary comes from (the engine and the result meta keep the name).
enum class DictMethod { File, Split };
inline constexpr OptionValue<DictMethod> kDictMethods[] = {{"file", DictMethod::File}, {"split", DictMethod::Split}};
inline constexpr OptionRow<DictMethod> kDictMethodOption{"--dict-method", kDictMethods};

// --sort: the console table's order (report/console.h names the orders).
inline constexpr OptionRow<TableSort> kSortOption{"--sort", kTableSorts};

struct RunArgs {
  RunArgs() { sources.layouts = "raw"; }  // named sources are sliced as given, as lzbench does
  SourceArgs sources;
  std::string codecs, dict, dict_method = "file", cache = "stream", profile = "default";
  std::string stall = "0.5,1", pin, shard, sort = "cspeed";
  std::string csv, json, md, html, check, format;
  std::string out_dir;                    // --out-dir: DIR/results-<I>-of-<N>.json
  std::string workload;                   // --workload: the cost model's rates and prices ("" = none)
  std::optional<double> time;             // --time; unset: the profile's
  std::optional<int> repetitions;         // --repetitions; unset: the profile's
  std::optional<double> latency_calls;    // --latency-calls; unset: 10,000
  std::optional<double> latency_seconds;  // --latency-seconds; unset: the profile's
  double min_saving_pct = 12.5;
  int threads = 1;
  bool quiet = false, no_interleave = false, profile_given = false, wide = false;
};

struct RunPlan {
  const SweepProfile* sweep = nullptr;
  const StoreProfile* store = nullptr;
  bool store_from_files = false;  // the store is the named files' own, no --profile named it
  SourceRequest sources;          // datasets and corpus files to read, and how
  std::vector<std::string> layouts;
  std::vector<size_t> block_sizes, dict_sizes;
  std::vector<std::string> dict_codecs;  // codecs that get the dictionary variants (empty: all that can)
  std::optional<int> dict_max_level;     // and only up to this level (unset: every level)
  std::string codecs;
  bool codecs_given = false;  // typed by the user (else a sweep's or store's default)
  CacheMode cache = CacheMode::Stream;
  DictMethod dict_method = DictMethod::File;
  TableSort sort = TableSort::CompressSpeed;
  EngineOptions engine;         // its cache and dict_method: the names of the two above
  std::string shard_scheduler;  // --shard auto: which scheduler named the shard ("" otherwise)
};

// False with a one-line `error` (exit 2) on any bad value.
bool make_plan(const RunArgs& args, RunPlan& plan, std::string& error);
// The codec rows: the spec expanded, plus a dictionary variant per size for codecs that can.
bool make_choices(const RunPlan& plan, const CodecRegistry& registry, std::vector<CodecChoice>& out,
                  std::string& error);

// A block set as a matrix group: the plan's store profile; for a store file's own blocks
// (layout "as-stored") the file's store when no profile was given, and the file's codec as the
// current row (its store's own call for it, the file's dictionary). False with a one-line
// `error` when the profile is another store's (its framing is not the file's bytes).
bool make_group(const RunPlan& plan, BlockSet blocks, const CodecRegistry& registry, BlockGroup& out,
                std::vector<std::string>& warnings, std::string& error);

// The store version each group's store profile models, by profile name (RunMeta::store_versions,
// which the console's headings and the JSON show): {"leveldb": "LevelDB 1.23"}.
std::map<std::string, std::string> store_versions_of(const std::vector<BlockGroup>& groups);

}  // namespace kvz
