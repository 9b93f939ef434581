#pragma once
// A store's own files as `run`/`blocks` sources: recognised by name (a Cassandra/ScyllaDB
// `*-Data.db` with its `*-CompressionInfo.db`), also inside a directory given as a source.
// The source is the decompressed stream the store compressed: the raw layout re-chunks it at
// any size; at the file's own chunk length it is the file's chunks exactly ("as stored").
#include <cstddef>
#include <string>
#include <vector>

#include "blockgen/block.h"

namespace kvz {

bool is_store_file(const std::string& path);
// The store files in `dir` (not recursive), sorted; empty when there are none.
std::vector<std::string> store_files_in(const std::string& dir);
// Reads the file's chunks (up to `max_bytes` of decompressed stream, whole chunks) into
// `set.raw`; `set.detail` says what the file is and its bytes on disk. False with a one-line
// error naming the file and offset.
bool read_store_file(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error);

}  // namespace kvz
