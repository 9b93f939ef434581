#pragma once
// Internal to stores/: RocksDB and LevelDB tables as `run`/`blocks` sources. One reader of the
// block-based table format (stores/rocksdb/table_file.h reads both stores' tables), registered
// for RocksDB here and for LevelDB with LevelDB's magic (stores/leveldb/leveldb.cpp). The
// source is the table's records (user key, value), which any layout re-blocks ("my 4 KiB
// blocks at 16 KiB"), and its data blocks as stored.
#include <string>

#include "blockgen/source_registry.h"

namespace kvz {

class TableFileReader : public StoreFileReader {
 public:
  std::string_view store() const override { return "rocksdb"; }
  // A table by its magic (any name), or by a table's name (`.sst`, `.ldb`): LevelDB's reader,
  // asked first, has taken those with LevelDB's magic.
  Claim claim(const std::string& path) const override;
  bool read(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) const override;
  bool made(const RecordSet& set) const override { return set.record_mode == std::string(store()) + "-table"; }
  // A DB directory of this store's tables (CURRENT names its MANIFEST): a part per column family
  // and level, as the live version holds them (stores/rocksdb/db_reader.cpp).
  bool parts_in(const std::string& dir, DirectoryParts& out) const override;
  bool read_group(const FileGroup& group, size_t max_bytes, RecordSet& set, std::string& error) const override;

 protected:
  // The store the magic at the end of the file names ("rocksdb", "leveldb") or "".
  static std::string magic_store(const std::string& path);
};

struct TableFile;
// The codec spec of a table's data blocks ("zstd:5", "lz4", "memcpy"; "" when they mix codecs).
std::string table_codec_spec(const TableFile& t);

}  // namespace kvz
