// RocksDB / LevelDB table files (format: table_file.h).
#include "stores/rocksdb/table_file.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>

#include <fmt/format.h>

#include <zstd.h>

#include "codecs/registry.h"
#include "stores/shared/file_bytes.h"
#include "stores/shared/inflate.h"
#include "stores/shared/table_block.h"

namespace kvz {

namespace {

constexpr uint64_t kLegacyMagic = 0xdb4775248b80fb57ull;  // LevelDB; RocksDB format_version 0
constexpr uint64_t kBlockBasedMagic = 0x88e241b785f4cff7ull;
constexpr size_t kTrailer = 5;
constexpr uint64_t kMaxTableBlock = 64u << 20;  // a larger block (4 KiB by default) is corruption

using table::checksum;
using table::checksum_name;
using table::codec_of;
using table::Cursor;
using table::for_each_entry;

struct Handle {
  uint64_t offset = 0, size = 0;
};

struct TableParser {
  std::span<const uint8_t> file;
  const std::string& name;
  TableFile& out;
  std::string& error;
  uint64_t max_raw = 0;
  const MappedFile* mapped = nullptr;  // the file, when mapped: decoded blocks' pages are dropped
  std::map<std::string, std::unique_ptr<Session>> sessions;
  std::map<uint64_t, uint64_t> taken;  // blocks read or listed: offset -> end, trailer included

  bool fail(uint64_t at, const std::string& what) {
    error = fmt::format("{}: offset {}: {}", name, at, what);
    return false;
  }

  bool in_file(const Handle& h) const {
    return h.size <= kMaxTableBlock && h.offset <= file.size() && file.size() - h.offset >= h.size + kTrailer;
  }

  // Every block is read from one place: a handle that overlaps one already taken (the same
  // block named twice) is refused, so the blocks' bytes never add up past the file.
  bool claim(const Handle& h, const char* what) {
    if (!in_file(h)) return fail(h.offset, fmt::format("a {} handle of {} bytes runs outside the file", what, h.size));
    const uint64_t end = h.offset + h.size + kTrailer;
    const auto next = taken.lower_bound(h.offset);
    if (next != taken.end() && next->first < end)
      return fail(h.offset, fmt::format("a {} block named twice, or overlapping the block at {}", what, next->first));
    if (next != taken.begin() && std::prev(next)->second > h.offset)
      return fail(h.offset,
                  fmt::format("a {} block named twice, or overlapping the block at {}", what, std::prev(next)->first));
    taken.emplace(h.offset, end);
    return true;
  }

  Session* session(const char* codec) {
    auto& s = sessions[codec];
    if (s) return s.get();
    const Codec* c = CodecRegistry::instance().find(codec);
    if (!c) return nullptr;
    CodecParams params{.level = c->info().default_level};
    std::shared_ptr<const PreparedDict> prepared;
    if (!out.dictionary.empty() && c->info().supports_dict) {
      auto d = c->prepare_dict(out.dictionary, params);
      if (!d.ok()) return nullptr;
      prepared = d.value;
      params.dict_size = out.dictionary.size();
    }
    auto opened = c->open(params, prepared);
    if (!opened.ok()) return nullptr;
    s = std::move(opened.value);
    return s.get();
  }

  // One block through its handle: the trailer's checksum checked, the contents decompressed.
  bool block(const Handle& h, TableBlock& b) {
    if (!in_file(h)) return fail(h.offset, fmt::format("a block handle of {} bytes runs outside the file", h.size));
    const auto stored = file.subspan(h.offset, h.size);
    b.offset = h.offset;
    b.on_disk = h.size + kTrailer;
    b.compression = file[h.offset + h.size];
    if (out.checksum_type != 0) {
      const uint32_t want = static_cast<uint32_t>(read_le(file, h.offset + h.size + 1, 4));
      if (checksum(out.checksum_type, file.subspan(h.offset, h.size + 1)) != want)
        return fail(h.offset, fmt::format("block fails its {} checksum", checksum_name(out.checksum_type)));
    }
    if (b.compression == 0) {
      b.raw.assign(stored.begin(), stored.end());
      return true;
    }
    const char* codec = codec_of(b.compression, out.store, stored);
    if (!codec) return fail(h.offset, fmt::format("unknown compression type {}", b.compression));
    Cursor c{stored};
    std::span<const uint8_t> payload = stored;
    uint64_t raw = 0;
    const std::string kind = codec;
    if (kind == "snappy") {
      raw = c.varint(5);  // snappy's own length preamble, left in the payload
    } else if (out.store == "rocksdb" && (out.format_version >= 2 || kind == "zstd")) {
      raw = c.varint(5);  // compress_format_version 2 (ZSTD always): a varint32 raw size first
      payload = stored.subspan(c.pos);
    } else if (out.store == "rocksdb" && (kind == "lz4" || kind == "lz4hc")) {
      // compress_format_version 1 (format_version 0 and 1): 8 bytes, the raw size in the first 4.
      if (stored.size() < 8) return fail(h.offset, "an lz4 block shorter than its 8-byte size header");
      raw = read_le(stored, 0, 4);
      payload = stored.subspan(8);
    } else if (out.store == "rocksdb" && kind == "zlib") {  // version 1: no size, a raw deflate stream
      if (!out.dictionary.empty())
        return fail(h.offset, "a zlib block with a dictionary in format_version < 2 (not decoded)");
      if (!inflate_grow(stored, b.raw, -15, std::min<uint64_t>(kMaxTableBlock, stored.size() * 1040 + (1u << 20))))
        return fail(h.offset, "a zlib block that does not inflate (format_version < 2)");
      b.codec = codec;
      return true;
    } else if (out.store == "leveldb" && kind == "zstd") {  // LevelDB's zstd: a frame with its size
      const unsigned long long n = ZSTD_getFrameContentSize(stored.data(), stored.size());
      raw = n == ZSTD_CONTENTSIZE_UNKNOWN || n == ZSTD_CONTENTSIZE_ERROR ? ~uint64_t{0} : n;
    } else {
      return fail(h.offset, fmt::format("{} block of a format this reader does not decode", codec));
    }
    if (!c.ok || raw > kMaxTableBlock || !expansion_ok(kind, payload.size(), raw))
      return fail(h.offset, fmt::format("a {} block of {} bytes declaring {} bytes (a bomb, or a bad length)", kind,
                                        payload.size(), raw));
    b.codec = codec;
    Session* s = session(codec);
    if (!s) return fail(h.offset, fmt::format("no {} codec in this build for the block", codec));
    b.raw.resize(static_cast<size_t>(raw));
    const CallResult r = s->decompress(payload, b.raw);
    if (!r.ok() || r.size != raw)
      return fail(h.offset, fmt::format("{} block does not decompress to its {} bytes", codec, raw));
    return true;
  }

  // The block handles of the index block at `index`: full handles, or (delta_index) a size delta
  // after each restart's first; with first keys (index type 3) a length-prefixed key follows.
  bool index_handles(const Handle& index, bool delta_index, bool first_keys, std::vector<Handle>& out_handles) {
    TableBlock idx;
    if (!block(index, idx)) return false;
    const size_t first = out_handles.size();
    Handle prev;
    const bool ok = for_each_entry(idx.raw, delta_index, [&](const std::string&, Cursor& v, bool at_restart) {
      Handle h;
      if (!delta_index || at_restart || out_handles.size() == first) {
        if (!handle_of(v, h)) return false;
      } else {  // a signed (zig-zag) size delta; the block follows the previous one
        const uint64_t z = v.varint();
        const int64_t delta = static_cast<int64_t>(z >> 1) ^ -static_cast<int64_t>(z & 1);
        h.offset = prev.offset + prev.size + kTrailer;
        h.size = static_cast<uint64_t>(static_cast<int64_t>(prev.size) + delta);
      }
      if (first_keys) v.take(v.varint());
      out_handles.push_back(h);
      prev = h;
      return v.ok;
    });
    return ok || fail(index.offset, "malformed index block");
  }

  bool handle_of(Cursor& v, Handle& h) {
    h.offset = v.varint();
    h.size = v.varint();
    return v.ok;
  }

  // The footer: the store, checksum type and format version, and the two handles.
  bool footer(Handle& metaindex, Handle& index) {
    if (file.size() < 48) return fail(0, "too short for a table file");
    const uint64_t magic = read_le(file, file.size() - 8, 8);
    size_t footer_at = 0;
    if (magic == kBlockBasedMagic) {
      if (file.size() < 53) return fail(0, "too short for a RocksDB footer");
      out.store = "rocksdb";
      footer_at = file.size() - 53;
      out.checksum_type = file[footer_at];
      out.format_version = static_cast<int>(read_le(file, file.size() - 12, 4));
      ++footer_at;
    } else if (magic == kLegacyMagic) {
      out.store = "leveldb";
      footer_at = file.size() - 48;
    } else {
      return fail(file.size() - 8,
                  "no table footer: the last 8 bytes are neither LevelDB's nor RocksDB's table magic (a truncated "
                  "table?)");
    }
    if (out.checksum_type > 4) return fail(footer_at, fmt::format("unknown checksum type {}", out.checksum_type));
    out.checksums_verified = out.checksum_type != 0;
    Cursor f{file.subspan(footer_at, 40)};
    if (!handle_of(f, metaindex) || !handle_of(f, index)) return fail(footer_at, "malformed footer handles");
    return claim(metaindex, "meta-index") && claim(index, "index");
  }

  // The meta-index, the properties and the compression dictionary.
  bool meta(const Handle& metaindex, bool& delta_index, uint64_t& index_type) {
    TableBlock m;
    if (!block(metaindex, m)) return false;
    Handle props_h, dict_h;
    bool has_props = false, has_dict = false;
    const bool meta_ok = for_each_entry(m.raw, false, [&](const std::string& k, Cursor& v, bool) {
      if (k.rfind("rocksdb.", 0) == 0) out.store = "rocksdb";  // format_version 0 has LevelDB's magic
      if (k == "rocksdb.properties") has_props = handle_of(v, props_h);
      if (k == "rocksdb.compression_dict") has_dict = handle_of(v, dict_h);
      return true;
    });
    if (!meta_ok) return fail(metaindex.offset, "malformed meta-index block");
    if (has_props) {
      TableBlock props;
      if (!claim(props_h, "properties") || !block(props_h, props)) return false;
      const bool ok = for_each_entry(props.raw, false, [&](const std::string& k, Cursor& v, bool) {
        if (k == "rocksdb.index.value.is.delta.encoded") delta_index = v.varint() != 0;
        if (k == "rocksdb.compression_options") out.compression_options.assign(v.b.begin() + v.pos, v.b.end());
        if (k == "rocksdb.column.family.name") out.column_family.assign(v.b.begin() + v.pos, v.b.end());
        if (k == "rocksdb.block.based.table.index.type" && v.b.size() == 4) index_type = read_le(v.b, 0, 4);
        return true;
      });
      if (!ok) return fail(props_h.offset, "malformed properties block");
    }
    if (has_dict) {
      TableBlock d;
      if (!claim(dict_h, "dictionary") || !block(dict_h, d)) return false;
      out.dictionary = std::move(d.raw);
      out.dict_bytes = dict_h.size + kTrailer;
    }
    return true;
  }

  // The data blocks, in key order = file order: every handle checked and taken first (so the
  // counts are the file's), then decoded until `max_raw` bytes are read (whole blocks, one at least).
  bool data(const std::vector<Handle>& handles, std::vector<Record>& entries, std::map<std::string, int>& codecs) {
    for (const Handle& h : handles) {
      if (!claim(h, "data")) return false;
      ++out.blocks_total;
      out.on_disk_total += h.size + kTrailer;
    }
    // Address space only: pages cost memory once written, and the last block may pass max_raw.
    if (max_raw) out.data_raw.reserve(max_raw + kMaxTableBlock);
    for (const Handle& h : handles) {
      if (max_raw && out.data_raw.size() >= max_raw) break;
      TableBlock b;
      if (!block(h, b)) return false;
      ++codecs[b.codec];
      const bool ok = for_each_entry(b.raw, false, [&](const std::string& k, Cursor& v, bool) {
        entries.push_back({k, std::string(v.b.begin(), v.b.end())});
        return true;
      });
      if (!ok) return fail(h.offset, "malformed data block");
      if (mapped) mapped->drop(file.subspan(h.offset, h.size));  // read: its pages can go
      b.raw_size = b.raw.size();
      out.data_raw.insert(out.data_raw.end(), b.raw.begin(), b.raw.end());
      std::vector<uint8_t>().swap(b.raw);
      out.data_blocks.push_back(std::move(b));
    }
    return true;
  }

  bool run() {
    Handle metaindex, index;
    bool delta_index = false;
    uint64_t index_type = 0;  // 0 binary search, 1 hash, 2 two-level (partitioned), 3 with first keys
    if (!footer(metaindex, index) || !meta(metaindex, delta_index, index_type)) return false;
    // The index: one handle per data block. A partitioned index (kTwoLevelIndexSearch) is a
    // top-level index of index partitions, each an index block.
    std::vector<Handle> handles;
    if (index_type != 2) {
      if (!index_handles(index, delta_index, index_type == 3, handles)) return false;
    } else {
      std::vector<Handle> partitions;
      if (!index_handles(index, delta_index, false, partitions)) return false;
      for (const Handle& p : partitions)
        if (!claim(p, "index partition") || !index_handles(p, delta_index, false, handles)) return false;
    }
    std::map<std::string, int> codecs;
    std::vector<Record> entries;  // keys as stored
    if (!data(handles, entries, codecs)) return false;
    keep_entries(entries);
    codecs.erase("none");  // blocks kept raw do not name the file's codec
    out.compression = codecs.empty() ? "none" : codecs.size() > 1 ? "mixed" : codecs.begin()->first;
    return true;
  }

  // Keys are internal keys (user key + 8 bytes: sequence << 8 | type) in every RocksDB table
  // and in LevelDB tables a DB wrote; a table made with LevelDB's TableBuilder directly holds
  // plain keys. Internal when every key has a value (1) or deletion (0) type byte.
  void keep_entries(std::vector<Record>& entries) {
    const bool internal = out.store == "rocksdb" || std::all_of(entries.begin(), entries.end(), [](const Record& e) {
                            return e.key.size() >= 8 && static_cast<uint8_t>(e.key[e.key.size() - 8]) <= 1;
                          });
    for (auto& e : entries) {
      if (!internal) {
        out.records.push_back(std::move(e));
      } else if (e.key.size() < 8 || static_cast<uint8_t>(e.key[e.key.size() - 8]) != 1) {
        ++out.skipped_entries;  // not a value (kTypeValue): a deletion, merge, ...
      } else {
        e.key.resize(e.key.size() - 8);
        out.records.push_back(std::move(e));
      }
    }
  }
};

}  // namespace

uint64_t TableFile::data_bytes() const {
  uint64_t n = 0;
  for (const auto& b : data_blocks) n += b.on_disk;
  return n;
}

bool is_table_file(std::span<const uint8_t> tail8) { return !table_store(tail8).empty(); }

std::string table_store(std::span<const uint8_t> tail8) {
  if (tail8.size() != 8) return "";
  const uint64_t magic = read_le(tail8, 0, 8);
  return magic == kBlockBasedMagic ? "rocksdb" : magic == kLegacyMagic ? "leveldb" : "";
}

bool parse_table_file(std::span<const uint8_t> file, const std::string& name, TableFile& out, std::string& error,
                      uint64_t max_raw) {
  out = TableFile{};
  TableParser r{file, name, out, error, max_raw, nullptr, {}, {}};
  return r.run();
}

bool read_table_file(const std::string& path, TableFile& out, std::string& error, uint64_t max_raw) {
  MappedFile bytes;
  if (!bytes.open(path, error)) return false;
  out = TableFile{};
  TableParser r{bytes.bytes(), path, out, error, max_raw, &bytes, {}, {}};
  return r.run();
}

}  // namespace kvz
