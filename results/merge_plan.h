#pragma once
// What `merge` decides from its inputs' metadata alone (internal to results/): whether the set
// may be merged at all, the merged run's metadata, and how each input's cells are keyed in it.
// Shared by merge_results (inputs in memory) and merge_result_files (inputs streamed), so both
// apply the same rules and write the same file.
#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "results/run_meta.h"

namespace kvz {

struct CellKey;

class MergePlan {
 public:
  // `one_sweep`: `kvzbench merge`'s rules too (an interrupted input, a block set cut short, inputs
  // of different plans are refused); without, the inputs are only joined (`report`'s view of
  // several runs, which shows an interrupted one as such).
  explicit MergePlan(bool one_sweep = false) : one_sweep_(one_sweep) {}
  // Inputs in the order given; their cells are not needed. `name` (the file) names the input in
  // errors ("input N" without one).
  void add_input(int schema_version, const RunMeta& meta, std::string name = "");
  // "" or one line: with one_sweep, an interrupted input or inputs of different plans
  // (results/README.md "One sweep"); a shard set short of a shard or with one twice, mixed schema versions, one codec
  // at two library versions. Builds the merged metadata; call once, after every input.
  std::string finish();
  // "" or one line when a cell says its input was cut short (partial_set), with one_sweep.
  std::string partial_set_error(size_t input, const CellKey& key, bool partial_set) const;

  int schema_version() const { return schema_version_; }
  const RunMeta& meta() const { return merged_; }
  // Fleet rules: inputs from several hosts key a store file's cells (and its corpora entry) by
  // host; inputs on several CPU models key every cell by CPU model. Otherwise keys stay as run.
  void qualify(size_t input, CellKey& key) const;

 private:
  struct Input {
    int schema_version = 0;
    RunMeta meta;
    std::string name;
    std::set<std::string> store_files;  // corpora names with a detail: store files, not corpora
  };
  std::string interrupted_error() const;
  std::string plan_error() const;
  std::string shard_set_error() const;
  std::string versions_error();
  void merge_corpora();
  bool one_sweep_ = false;
  bool several_hosts_ = false;
  bool several_cpus_ = false;
  int schema_version_ = 0;
  std::vector<Input> inputs_;
  RunMeta merged_;
};

}  // namespace kvz
