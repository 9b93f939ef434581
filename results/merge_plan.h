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
  // Inputs in the order given; their cells are not needed.
  void add_input(int schema_version, const RunMeta& meta);
  // "" or one line: a shard set short of a shard or with one twice, mixed schema versions, one
  // codec at two library versions. Builds the merged metadata; call once, after every input.
  std::string finish();

  int schema_version() const { return schema_version_; }
  const RunMeta& meta() const { return merged_; }
  // Fleet rules: inputs from several hosts key a store file's cells (and its corpora entry) by
  // host; inputs on several CPU models key every cell by CPU model. Otherwise keys stay as run.
  void qualify(size_t input, CellKey& key) const;

 private:
  struct Input {
    int schema_version = 0;
    RunMeta meta;
    std::set<std::string> store_files;  // corpora names with a detail: store files, not corpora
  };
  std::string shard_set_error() const;
  std::string versions_error();
  void merge_corpora();
  bool several_hosts_ = false;
  bool several_cpus_ = false;
  int schema_version_ = 0;
  std::vector<Input> inputs_;
  RunMeta merged_;
};

}  // namespace kvz
