#pragma once
// Dictionary training: ZDICT_trainFromBuffer over sample blocks, as RocksDB does for zstd.
// The trained bytes are then digested per codec by Codec::prepare_dict (zstd: CDict+DDict;
// lz4/zlib: raw content).
#include <cstddef>
#include <string>
#include <vector>

#include "codecs/codec.h"

namespace kvz {

struct TrainedDict {
  std::vector<uint8_t> bytes;
  double train_seconds = 0;
  std::string error;  // empty = ok (ZDICT's message otherwise)
  bool ok() const { return error.empty(); }
};

// How far training may go when ZDICT refuses the samples as given.
enum class TrainFallback {
  Chunks,  // cut the samples into 4 KiB chunks, then use the raw tail of the samples (the study)
  None,    // an error, as RocksDB 7.8's ZSTD_TrainDictionary returns "" (a store's own method)
};

// Train a dictionary of at most `dict_size` bytes from `samples`. With TrainFallback::Chunks,
// when ZDICT cannot train (too few or too small samples) it falls back to the raw
// concatenated tail of the samples, as RocksDB does without training, and says so in `note`.
TrainedDict train_dictionary(const std::vector<ByteView>& samples, size_t dict_size, std::string* note = nullptr,
                             TrainFallback fallback = TrainFallback::Chunks);

}  // namespace kvz
