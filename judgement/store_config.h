#pragma once
// Recommendations in a store's own terms: picks only among the codecs that store can write, each
// with the configuration line that applies it (stores/store_profile.h store_config_line). The
// store is named, never handed over: presentation reads these and never the store profiles.
#include <string>
#include <vector>

#include "judgement/analysis.h"

namespace kvz {

// The store profiles a pick can be configured for, by name ("rocksdb", "leveldb", ...).
std::vector<std::string> store_names();
// The store a run was measured under: the built-in store of the first cell whose profile names
// one ("rocksdb" for "rocksdb:min_compress_ratio=2"); "" when no cell has a store profile.
std::string run_store(const RunResults& run);
// recommend() among the codecs the store profile `store` can write at each group's block size,
// each pick with its PickConfig. The same groups, in the same order, as recommend() gives.
std::vector<GroupRecommendations> recommend_for_store(const RunResults& run, const RecommendOptions& opt,
                                                      const std::string& store);
// The same for the store profile of the first cell that has one; recommend() when none has.
std::vector<GroupRecommendations> recommend_for_run_store(const RunResults& run, const RecommendOptions& opt);

}  // namespace kvz
