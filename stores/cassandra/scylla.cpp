// ScyllaDB compressed SSTable Data.db: a variant of Cassandra's (stores/cassandra/cassandra.h).
// Its chunks are framed as Cassandra frames them, without min_compress_ratio; what differs: the
// profile (power-of-two chunks up to 128 KiB, 4 KiB by default, the 1 ms reactor stall line),
// the codecs, the CQL words, and which Data.db is its (the reader).
// Sources: scylladb compress.cc (lz4_processor::compress, deflate_processor, zstd_processor:
//  ZSTD_compressCCtx level 3, dictionaries kept in CompressionInfo options), sstables/compress.cc;
//  Seastar reactor stall detector

#include <filesystem>
#include <string>

#include "stores/cassandra/cassandra.h"
#include "stores/store.h"

namespace kvz {
namespace {

// lz4_processor, zstd_processor (ZSTD_compressCCtx level 3 on a context it keeps: one row, as
// kvzbench calls it), deflate_processor (deflateInit: the zlib container), snappy. The store's
// call first: deflate_processor (compress.cc) runs deflateInit ... deflateEnd (inflateInit ...
// inflateEnd) for every chunk: ":fresh", then the same bytes on a reused stream as the best
// possible call.
constexpr WritableCodec kScyllaCodecs[] = {
    {"lz4", ""}, {"zstd", "3"}, {"zlib", "6:zlib:fresh"}, {"snappy", ""}, {"zlib", "6:zlib"},
};

std::string power_of_two_chunk(size_t size, std::string_view value) {
  if ((size & (size - 1)) != 0) return "scylla: chunk must be a power of two, got '" + std::string(value) + "'";
  return "";
}

// ScyllaDB CQL `compression` (docs "Compression"): sstable_compression (Scylla also reads
// Cassandra's 'class'), chunk_length_in_kb, compression_level for ZstdCompressor.
ConfigLine scylla_config(const ConfigChoice& c) {
  return cql_compression_line(c, {.store = "ScyllaDB",
                                  .class_key = "sstable_compression",
                                  .disabled = "'sstable_compression': ''",
                                  .no_dictionary = "kvzbench's ScyllaDB profile has no dictionary compressor"});
}

// A Data.db is ScyllaDB's when the SSTable has ScyllaDB's own component beside it
// (`*-Scylla.db`, which Cassandra never writes); Cassandra's reader reads it.
class ScyllaDataDbReader final : public CassandraDataDbReader {
 public:
  std::string_view store() const override { return "scylla"; }
  std::string_view base() const override { return "cassandra"; }
  Claim claim(const std::string& path) const override {
    if (CassandraDataDbReader::claim(path) == Claim::none) return Claim::none;
    const std::string scylla = path.substr(0, path.size() - std::string("Data.db").size()) + "Scylla.db";
    std::error_code ec;
    return std::filesystem::exists(scylla, ec) ? Claim::file : Claim::none;
  }
};

}  // namespace

// Cassandra's row with what ScyllaDB does differently. Its framing is Cassandra's
// (cassandra_chunk): with no min_compress_ratio option the ratio stays 0, so every chunk is
// stored as the compressor returns it; lz4_processor also prepends 4 LE bytes.
const Store& scylla_store() {
  static const Store store = [] {
    Store s = cassandra_store();
    // compression_parameters::validate: chunk_length <= 128 KiB. dict_sizes:
    // LZ4WithDictsCompressor / ZstdWithDictsCompressor.
    s.profile = {.name = "scylla",
                 .description = "ScyllaDB compressed SSTable Data.db: 4 KiB chunks, 1 ms stall line",
                 .version = "ScyllaDB 2025.1",
                 .layout = "raw",
                 .block_size = 4096,
                 .max_block_size = 128 * 1024,
                 .dict_sizes = {16 * 1024},
                 .stall_threshold_ms = 1.0,
                 .rules =
                     "LZ4 4-byte LE length prefix; 4-byte CRC32 after each chunk; every chunk stored as the "
                     "compressor returns it"};
    s.codecs = kScyllaCodecs;
    s.options = {};     // no min_compress_ratio
    s.rules = nullptr;  // the rule line no option changes
    s.check_block_size = power_of_two_chunk;
    s.config_line = scylla_config;
    return s;
  }();
  return store;
}

std::unique_ptr<StoreFileReader> scylla_reader() { return std::make_unique<ScyllaDataDbReader>(); }

}  // namespace kvz
