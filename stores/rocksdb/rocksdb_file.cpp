// RocksDB 7.8's whole block-based table around its data blocks, as SstFileWriter writes it
// with the default BlockBasedTableOptions (format_version 5, binary-search index, no filter,
// index compression on). Sources: rocksdb 7.8 table/block_based/block_based_table_builder.cc
// (Finish: index, compression dictionary, properties, metaindex, footer, in that order),
// index_builder.{h,cc} (ShortenedIndexBuilder), table/meta_blocks.cc (PropertyBlockBuilder,
// MetaIndexBuilder), table/sst_file_writer.cc and sst_file_writer_collectors.h (the writer's
// properties), util/compression.h (CompressionOptionsToString, CompressionTypeToString); checked
// byte for byte against librocksdb 7.8.3 in tests/stores/whole_file_test.cpp.
#include <unistd.h>

#include <map>
#include <string>

#include <fmt/format.h>

#include "stores/framing.h"
#include "stores/shared/table_meta_blocks.h"
#include "stores/store.h"

namespace kvz {

namespace {

constexpr uint64_t kRocksdbFooter =
    53;  // format_version >= 1: checksum type + 2 handles padded to 40 + version + magic
constexpr uint64_t kSeqZeroValue = (0ull << 8) | 1;              // SstFileWriter's keys: seq 0, kTypeValue
constexpr uint64_t kSeekKey = (((1ull << 56) - 1) << 8) | 0x16;  // kMaxSequenceNumber, kValueTypeForSeek

// The index block (ShortenedIndexBuilder, kShortenSeparators, index_block_restart_interval 1,
// value delta encoding): one entry per data block, its separator -> BlockHandle. Keys are user
// keys unless two neighbouring blocks share a user key (then internal keys). Returns the raw
// block; `user_keys` says which form it took.
std::string index_block(const FileInput& in, bool& user_keys) {
  const TableKeys& keys = in.blocks->table_keys;
  const size_t n = keys.first.size();
  user_keys = true;
  for (size_t i = 0; i + 1 < n; ++i) user_keys = user_keys && keys.last[i] != keys.first[i + 1];
  table::BlockWriter index(1, false);
  uint64_t offset = 0;
  for (size_t i = 0; i < n; ++i) {
    std::string key = keys.last[i];
    uint64_t tag = kSeqZeroValue;
    if (i + 1 < n) {  // FindShortestInternalKeySeparator: keep the shorter user key if it sorts after
      std::string sep = table::rocksdb_separator(key, keys.first[i + 1]);
      if (sep.size() <= key.size() && sep > key) {
        key.swap(sep);
        tag = kSeekKey;
      }
    }
    if (!user_keys) enc::put_fixed64(key, tag);
    index.add(key, table::block_handle(offset, in.stored[i] - framing::kBlockTrailer));
    offset += in.stored[i];
  }
  return index.finish();
}

std::string varint(uint64_t v) {
  std::string s;
  enc::put_varint64(s, v);
  return s;
}

std::string fixed(uint64_t v, int bytes) {
  std::string s;
  if (bytes == 4) enc::put_fixed32(s, static_cast<uint32_t>(v));
  if (bytes == 8) enc::put_fixed64(s, v);
  return s;
}

const char* compression_name(const BlockCodec& codec) {
  if (codec.uncompressed) return "NoCompression";
  if (codec.name == "snappy") return "Snappy";
  if (codec.name == "zlib") return "Zlib";
  if (codec.name == "lz4") return "LZ4";
  if (codec.name == "lz4hc") return "LZ4HC";
  if (codec.name == "zstd") return "ZSTD";
  if (codec.name == "bzip2") return "BZip2";
  return "";
}

// Env::GetHostNameString, as db_host_id's default "__hostname__" resolves; read once.
const std::string& host_name() {
  static const std::string name = [] {
    char buf[256] = {};
    return ::gethostname(buf, sizeof buf - 1) == 0 ? std::string(buf) : std::string();
  }();
  return name;
}

// The properties block (restart interval "never": keys share prefixes), as the builder's
// TableProperties, the block-based table's collector and SstFileWriter's collector fill it.
// The level is the row's (the configuration line kvzbench writes sets it); snappy and no
// compression keep kDefaultCompressionLevel (32767). Dictionaries: max_dict_bytes and
// zstd_max_train_bytes = 100 x, or 0 for a raw-sample row (the rows' method,
// stores/rocksdb/rocksdb.cpp).
std::string properties_block(const FileInput& in, const FileParts& f, uint64_t index_raw, bool user_keys) {
  const TableKeys& keys = in.blocks->table_keys;
  const bool has_level = !in.codec.uncompressed && in.codec.name != "snappy";
  const std::string options = fmt::format(
      "window_bits=-14; level={}; strategy=0; max_dict_bytes={}; zstd_max_train_bytes={}; enabled=0; "
      "max_dict_buffer_bytes=0; use_zstd_dict_trainer=1; ",
      has_level ? in.level : 32767, in.max_dict_bytes, in.raw_dict ? 0 : in.max_dict_bytes * 100);
  const std::map<std::string, std::string> props = {
      {"rocksdb.block.based.table.index.type", fixed(0, 4)},  // kBinarySearch
      {"rocksdb.block.based.table.prefix.filtering", "0"},
      {"rocksdb.block.based.table.whole.key.filtering", "1"},
      {"rocksdb.column.family.id", varint(0xffffffffu)},  // kUnknownColumnFamily: no handle given
      {"rocksdb.comparator", "leveldb.BytewiseComparator"},
      {"rocksdb.compression", compression_name(in.codec)},
      {"rocksdb.compression_options", options},
      {"rocksdb.creating.db.identity", "SST Writer"},
      {"rocksdb.creating.host.identity", host_name()},
      {"rocksdb.creating.session.identity", std::string(20, 'S')},  // always 20 base-36 digits
      {"rocksdb.creation.time", varint(0)},
      {"rocksdb.data.size", varint(f.data)},
      {"rocksdb.deleted.keys", varint(0)},
      {"rocksdb.external_sst_file.global_seqno", fixed(0, 8)},
      {"rocksdb.external_sst_file.version", fixed(2, 4)},
      {"rocksdb.filter.size", varint(0)},
      {"rocksdb.fixed.key.length", varint(0)},
      {"rocksdb.format.version", varint(0)},
      {"rocksdb.index.key.is.user.key", varint(user_keys ? 1 : 0)},
      {"rocksdb.index.size", varint(index_raw + framing::kBlockTrailer)},  // the raw block + trailer
      {"rocksdb.index.value.is.delta.encoded", varint(1)},
      {"rocksdb.merge.operands", varint(0)},
      {"rocksdb.merge.operator", "nullptr"},
      {"rocksdb.num.data.blocks", varint(keys.first.size())},
      {"rocksdb.num.entries", varint(keys.entries)},
      {"rocksdb.num.filter_entries", varint(0)},
      {"rocksdb.num.range-deletions", varint(0)},
      {"rocksdb.oldest.key.time", varint(0)},
      {"rocksdb.original.file.number", varint(1)},
      {"rocksdb.prefix.extractor.name", "nullptr"},
      {"rocksdb.property.collectors", "[]"},
      {"rocksdb.raw.key.size", varint(keys.raw_key_bytes)},
      {"rocksdb.raw.value.size", varint(keys.raw_value_bytes)},
  };
  table::BlockWriter block(0);
  for (const auto& [name, value] : props) block.add(name, value);
  return block.finish();
}

}  // namespace

std::optional<FileParts> rocksdb_file_parts(const StoreProfile& p, const FileInput& in) {
  FileParts f;
  for (uint64_t b : in.stored) f.data += b;
  bool user_keys = true;
  const std::string index = index_block(in, user_keys);
  const auto idx = stored_meta_block(p, in, index);
  if (!idx) return std::nullopt;
  f.index = *idx;
  f.dictionary = in.dict_block;
  f.properties = properties_block(in, f, index.size(), user_keys).size() + framing::kBlockTrailer;
  // The metaindex (restart interval 1, names in order): the dictionary's and the properties'
  // handles, at the offsets the blocks above take.
  const uint64_t dict_at = f.data + f.index;
  const uint64_t props_at = dict_at + f.dictionary;
  table::BlockWriter metaindex(1);
  if (f.dictionary)
    metaindex.add("rocksdb.compression_dict", table::block_handle(dict_at, f.dictionary - framing::kBlockTrailer));
  metaindex.add("rocksdb.properties", table::block_handle(props_at, f.properties - framing::kBlockTrailer));
  f.metaindex = metaindex.finish().size() + framing::kBlockTrailer;
  f.footer = kRocksdbFooter;
  return f;
}

}  // namespace kvz
