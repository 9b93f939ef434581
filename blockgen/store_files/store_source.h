#pragma once
// A store's own files as `run`/`blocks` sources, also inside a directory given as a source:
// - a Cassandra/ScyllaDB `*-Data.db` (by name, with its `*-CompressionInfo.db`): the source is
//   the decompressed stream the store compressed; the raw layout re-chunks it at any size, and
//   at the file's own chunk length it is the file's chunks exactly;
// - a RocksDB or LevelDB table (by its magic, any name: `.sst`, `.ldb`): the source is its
//   records (user key, value), which any layout re-blocks ("my 4 KiB blocks at 16 KiB");
// - an HBase HFile: its KeyValue cells as records, its data blocks as the raw stream.
// Each also keeps its data blocks exactly as stored (layout "as-stored"), with the file's codec
// and bytes on disk (RecordSet::origin).
#include <cstddef>
#include <string>
#include <vector>

#include "blockgen/block.h"

namespace kvz {

bool is_store_file(const std::string& path);
// The store that wrote it, by content ("rocksdb", "leveldb", "hbase") or name (a `*-Data.db`:
// "scylla" with a `*-Scylla.db` beside it, else "cassandra"); "" for any other file.
std::string store_of_file(const std::string& path);
// The store files in `dir` (not recursive), sorted; empty when there are none.
std::vector<std::string> store_files_in(const std::string& dir);
// Reads the file's chunks (up to `max_bytes` of decompressed stream, whole chunks) into
// `set.raw`; `set.detail` says what the file is and its bytes on disk. False with a one-line
// error naming the file and offset.
bool read_store_file(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error);
// Whether a record set came from read_store_file (its detail names the file's bytes on disk).
bool is_store_source(const RecordSet& set);

}  // namespace kvz
