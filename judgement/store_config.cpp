#include "judgement/store_config.h"

namespace kvz {

ConfigLine config_line_for(const StoreProfile& store, const Candidate& pick, uint64_t block_size) {
  return store_config_line(store, {.codec = pick.codec,
                                   .level = pick.level,
                                   .params = pick.params,
                                   .dict_size = pick.dict_size,
                                   .block_size = block_size});
}

CandidateFilter writable_by(const StoreProfile& store) {
  return [&store](const Candidate& c, uint64_t block_size) { return config_line_for(store, c, block_size).writable; };
}

}  // namespace kvz
