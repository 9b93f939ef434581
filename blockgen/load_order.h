#pragma once
// The order a load writes a key-sorted record set in: what a live LSM's levels hold depends on
// it (blockgen/lsm_sample.h), and the real loads the tests compare with write in the same order.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kvz {

enum class LoadOrder {
  Shuffled,   // a random permutation (seeded: every run cuts the same slices)
  Ascending,  // by key, as a bulk import of sorted data
};
// The permutation a shuffled load uses: std::shuffle with std::mt19937_64 seeded with this.
inline constexpr uint64_t kShuffleSeed = 27;
// Indexes into a key-sorted record set, in the order the load writes them.
std::vector<size_t> load_order(size_t records, LoadOrder order);

}  // namespace kvz
