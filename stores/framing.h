#pragma once
// Framing arithmetic more than one store uses, and the generic keep-raw rule. Pure size
// arithmetic, no allocation (store_block runs per block). Varint sizes: blockgen/encoding.h.
// Internal to stores/, but for keep_raw and stored_unframed: bench applies the rule to a block
// set without a store profile (`--min-saving`).
#include <cmath>
#include <cstddef>

#include "stores/store_profile.h"

namespace kvz::framing {

// LevelDB and RocksDB block trailer: 1-byte type + 4-byte masked CRC32C.
inline constexpr size_t kBlockTrailer = 5;

inline size_t round_up(size_t n, size_t unit) { return (n + unit - 1) / unit * unit; }

// The keep-raw rule of LevelDB and RocksDB 7.8 with the saving as a parameter: a block is stored
// compressed only when it saves at least `min_saving` of its size, compressed < raw -
// floor(raw * min_saving); 0.125 is their raw/8. True: the block is stored raw.
inline bool keep_raw(size_t raw_size, size_t compressed_size, double min_saving) {
  const auto must_save = static_cast<size_t>(static_cast<double>(raw_size) * min_saving);
  return !(compressed_size < raw_size - (must_save < raw_size ? must_save : raw_size));
}

// A block the keep-raw rule stored uncompressed, and one stored as the codec wrote it.
inline StoredBlock stored_raw(size_t raw, size_t overhead) { return {raw + overhead, raw, true}; }
inline StoredBlock stored_compressed(size_t payload, size_t overhead) { return {payload + overhead, payload, false}; }
// The reference row: the store's "no compression" setting, not a keep-raw decision.
inline StoredBlock stored_uncompressed(size_t raw, size_t overhead) { return {raw + overhead, raw, false}; }
// A block outside any store profile: no framing, the keep-raw rule at `min_saving`.
inline StoredBlock stored_unframed(size_t raw, size_t compressed, double min_saving) {
  return keep_raw(raw, compressed, min_saving) ? stored_raw(raw, 0) : stored_compressed(compressed, 0);
}

// A Data.db chunk as Cassandra and ScyllaDB write it (CompressedSequentialWriter.flushData,
// Scylla's compress.cc): the compressor's output (LZ4 prepends the raw length as 4 bytes),
// then a 4-byte CRC32 of what was written. With min_compress_ratio R > 0 (Cassandra only),
// maxCompressedLength = ceil(chunk_length / R); a chunk whose compressed length reaches it is
// written raw (a short last chunk padded up to it).
inline StoredBlock sstable_data_chunk(const BlockCodec& codec, size_t raw, size_t compressed, double min_compress_ratio,
                                      size_t chunk_length) {
  constexpr size_t kChunkChecksum = 4;
  if (codec.uncompressed) return stored_uncompressed(raw, kChunkChecksum);
  const bool lz4_prefix = codec.name == "lz4" || codec.name == "lz4hc";
  const size_t payload = lz4_prefix ? compressed + 4 : compressed;
  if (min_compress_ratio > 0) {
    const size_t length = raw > chunk_length ? raw : chunk_length;
    const auto max_len = static_cast<size_t>(std::ceil(static_cast<double>(length) / min_compress_ratio));
    if (payload >= max_len) return {(raw >= max_len ? raw : max_len) + kChunkChecksum, raw, true};
  }
  return stored_compressed(payload, kChunkChecksum);
}

}  // namespace kvz::framing
