#pragma once
// One builder per layout (one file each); layouts.cpp holds the table that names them.
#include <string>

#include "blockgen/block.h"

namespace kvz::layouts {

void build_raw(const RecordSet& in, size_t block_size, BlockSet& out);
void build_leveldb(const RecordSet& in, size_t block_size, BlockSet& out);
void build_rocksdb(const RecordSet& in, size_t block_size, BlockSet& out);
bool build_hbase(const RecordSet& in, size_t block_size, BlockSet& out, std::string& error);
void build_values(const RecordSet& in, size_t block_size, bool one_per_value, BlockSet& out);
void build_wiredtiger(const RecordSet& in, size_t leaf_page_max, bool insert, BlockSet& out);
bool build_as_stored(const RecordSet& in, size_t block_size, BlockSet& out, std::string& error);

}  // namespace kvz::layouts
