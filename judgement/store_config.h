#pragma once
// Recommendations in a store's own terms: which candidates that store can write, and the
// configuration line that applies a pick (stores/store_profile.h store_config_line).
#include <cstdint>

#include "judgement/analysis.h"
#include "stores/store_profile.h"

namespace kvz {

ConfigLine config_line_for(const StoreProfile& store, const Candidate& pick, uint64_t block_size);
// A recommend() filter: only codecs `store` can write at the group's block size.
CandidateFilter writable_by(const StoreProfile& store);

}  // namespace kvz
