#pragma once
// Internal to stores/: what a store writing Cassandra's compressed SSTable format derives from
// (ScyllaDB, stores/cassandra/scylla.cpp): Cassandra's store row, its CQL `compression` line
// with the variant's words, and its Data.db reader.
#include <string>
#include <string_view>

#include "blockgen/source_registry.h"
#include "stores/store.h"

namespace kvz {

const Store& cassandra_store();

// The words one store's CQL uses for the table option `compression`.
struct CqlCompression {
  std::string_view store;          // "Cassandra", in messages
  std::string_view class_key;      // "class" (ScyllaDB: "sstable_compression")
  std::string_view disabled;       // the option map for no compression: "'enabled': false"
  std::string_view no_dictionary;  // why a dictionary cannot be written
  bool lz4_high = false;           // LZ4Compressor takes lz4_compressor_type 'high'
};
ConfigLine cql_compression_line(const ConfigChoice& c, const CqlCompression& words);

// A `*-Data.db` through its `*-CompressionInfo.db` (stores/cassandra/sstable_data.h): the
// decompressed stream is the source, which the raw layout re-chunks; at the file's chunk
// length its chunks are the file's exactly.
class CassandraDataDbReader : public StoreFileReader {
 public:
  std::string_view store() const override { return "cassandra"; }
  Claim claim(const std::string& path) const override;
  bool read(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) const override;
  bool made(const RecordSet& set) const override { return set.record_mode == "sstable-data"; }
};

}  // namespace kvz
