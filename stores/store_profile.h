#pragma once
// Store profiles (`--profile rocksdb|leveldb|cassandra|scylla|hbase|wiredtiger|tarantool`):
// presets of layout, block size, codec choices and the store's on-disk framing and keep-raw
// rule, so that "stored bytes" are the bytes that store would write.
//
// A profile name may carry options after a colon, e.g. `cassandra:min_compress_ratio=1.1`,
// `rocksdb:max_compressed_bytes_per_kb=896`; `store_profile_options()` lists them.
// Each store is one folder, stores/NAME/; rules, sources and validation figures:
// stores/README.md.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "blockgen/block.h"

namespace kvz {

struct StoreProfile {
  std::string name{};                     // "rocksdb" (with options: "cassandra:min_compress_ratio=1.1")
  std::string description{};              // one line
  std::string version{};                  // the store version modelled, as printed: "LevelDB 1.23"
  std::string layout{};                   // blockgen layout: "rocksdb", "raw", "values:single", ...
  size_t block_size = 4096;               // default block / chunk / page size
  size_t min_block_size = kMinBlockSize;  // allowed range for -b with this profile
  size_t max_block_size = kMaxBlockSize;
  std::string codecs{};              // codec spec of the store's choices, e.g. "lz4/snappy/zlib:6/lz4hc:9/zstd:3"
  std::vector<size_t> dict_sizes{};  // dictionary sizes the store would use (empty: none)
  // Codecs whose trained dictionary row gets a raw-sample twin (CodecParams::raw_dict) at each
  // of dict_sizes: RocksDB's dictionary without zstd_max_train_bytes.
  std::vector<std::string> raw_dict_codecs{};
  double stall_threshold_ms = 0;  // reported prominently when > 0 (scylla: 1 ms)

  // --- additive: the rule parameters store_block() applies -------------------------------
  std::string base{};                   // the built-in profile this one derives from ("cassandra")
  std::string rules{};                  // one line: framing + keep-raw rule, for reports
  double min_compress_ratio = 0;        // cassandra: store a chunk raw unless ratio >= this (0: off)
  int max_compressed_bytes_per_kb = 0;  // rocksdb >= 8.x rule when > 0; 0: the 7.8 rule (1/8)
};

const std::vector<StoreProfile>& store_profiles();
// Finds "NAME" or "NAME:key=value[,key=value]"; a store that models more than one version
// takes version=KEY (`leveldb:version=main`), which sets `version` and the codecs it writes. Returns null for an
// unknown name or a bad option; `store_profile_error` then says why in one line. Returned pointers stay valid for the
// life of the process.
const StoreProfile* find_store_profile(const std::string& name);
const StoreProfile* find_store_profile(const std::string& name, std::string& error);
// One line per option a profile accepts ("min_compress_ratio=R  ...").
std::vector<std::string> store_profile_options(const StoreProfile& profile);
// The codec a block went through, as a store sees it: framing may depend on the params
// (RocksDB's LZ4 call, zlib's container) and the reference row is written uncompressed.
struct BlockCodec {
  std::string name;           // registry name, e.g. "zstd"
  std::string params;         // CodecParams::label(), e.g. "1:stream", "6:zlib"
  bool uncompressed = false;  // the reference row: the store writes the block as is
};

// Whether the store writes blocks with this codec: the store's own list (stores/NAME/NAME.cpp), as
// far as the version the profile models writes it (`leveldb` is 1.23: no zstd; `leveldb:version=main`).
// The BlockCodec form also checks the mode the store's bytes come from (RocksDB's LZ4 is
// `:stream`, Cassandra's zlib is `:zlib`, RocksDB's is raw deflate); the name form asks only
// whether the store offers the codec at all. Uncompressed blocks are always supported.
// store_block() still answers for other codecs (generic framing) so a forced -c does not
// crash, but the number is then not the store's: callers should warn.
bool store_supports_codec(const StoreProfile& profile, const BlockCodec& codec);
bool store_supports_codec(const StoreProfile& profile, const std::string& codec);

// A codec row the user named under a store profile, as that store writes it. A plain `lz4` or
// `zlib` means the store's own call: its mode is filled into `options` (the CodecParams
// options string, e.g. "" -> ":stream" under rocksdb, ":zlib" under cassandra). Returns "" or
// a one-line error when the store cannot write the codec, or not in the mode given, naming
// what it writes ("leveldb writes snappy (and uncompressed blocks): not lz4") and a later
// version that writes it (", which LevelDB main (unreleased) writes (--profile leveldb:version=main)").
std::string store_codec_options(const StoreProfile& profile, const std::string& codec, std::string& options);

// Whether a row (`codec`, its CodecParams::label() `params`, e.g. "9:fresh:dict=16K") is the call
// the store itself makes for that codec: its first row for the codec (the mode and call options,
// ":stream:fresh" for RocksDB's LZ4, ":fresh" for its zlib and LZ4HC, none for its zstd) at any
// level the store can be set to, with or without a dictionary it keeps in its files. False for the
// profile's "best possible call" rows (the same bytes, a state reused across blocks), a codec it
// does not write, and a dictionary trained on a split (`:split`, a study, not the store's way).
bool store_own_call(const StoreProfile& profile, const std::string& codec, const std::string& params);

// The level the store writes `codec` at when a row asks for `level`: `level`, or the one level
// the store always writes (RocksDB 7.8's bzip2: blockSize100k 1 whatever compression_opts.level
// says), so `-c bzip2:9` under --profile rocksdb is the bzip2:1 row RocksDB writes.
int store_codec_level(const StoreProfile& profile, const std::string& codec, int level);

// "" when the store's bytes for `codec` are checked against the store itself; else why not
// (WiredTiger's zstd and lz4: Debian ships no extension to write them with), after the version
// that gained it when that is later than the profile's own ("LevelDB main (unreleased) only,
// not LevelDB 1.23: ...").
std::string store_codec_caveat(const StoreProfile& profile, const std::string& codec);

// What one block costs on disk under a store's rules.
struct StoredBlock {
  size_t bytes = 0;       // bytes written for the block, framing and trailer included
  size_t payload = 0;     // the block contents as stored (compressed + size prefix, or raw)
  bool kept_raw = false;  // the keep-raw rule stored it uncompressed
};

// Apply the profile's framing (size prefixes, checksums, trailers) and keep-raw rule to a
// block of `raw_size` bytes that `codec` compressed to `compressed_size` bytes.
// Pure and allocation-free: safe to call per block after a timed pass.
StoredBlock store_block(const StoreProfile& profile, const BlockCodec& codec, size_t raw_size, size_t compressed_size);

// The dictionary samples the store takes from one file's blocks, for a dictionary of
// `dict_size` bytes: training samples for ZDICT_trainFromBuffer (codecs/dictionary.h
// train_dictionary), or with `raw` the dictionary itself, the samples' bytes concatenated
// (CodecParams::raw_dict). Each store's method is in its file (rocksdb:
// stores/rocksdb/rocksdb.cpp). Empty for profiles without an in-file dictionary method.
std::vector<std::span<const uint8_t>> store_dictionary_samples(const StoreProfile& profile, const BlockSet& blocks,
                                                               size_t dict_size, bool raw = false);

// Whether the store keeps a dictionary inside each file it writes (RocksDB: one per SST, a
// meta block), sampled by store_dictionary_samples.
bool store_has_file_dictionary(const StoreProfile& profile);
// Bytes a dictionary of `dict_bytes` takes in the store's file: RocksDB's meta block is the raw
// dictionary + its 5-byte trailer. `dict_bytes` for stores without in-file dictionaries.
size_t store_dictionary_block_bytes(const StoreProfile& profile, size_t dict_bytes);

// The whole file a table store writes around its data blocks: RocksDB 7.8 as SstFileWriter
// writes it (format_version 5, binary index, no filter: the defaults), LevelDB 1.23 as
// TableBuilder writes it (no filter policy: the default). Layout in stores/README.md.
struct FileParts {
  uint64_t data = 0;        // data blocks with their trailers
  uint64_t index = 0;       // the index block as stored (compressed when that pays), trailer included
  uint64_t dictionary = 0;  // RocksDB's compression-dictionary meta block, 0 when none
  uint64_t properties = 0;  // RocksDB's properties block (LevelDB has none)
  uint64_t metaindex = 0;
  uint64_t footer = 0;
  uint64_t total() const { return data + index + dictionary + properties + metaindex + footer; }
};
struct FileInput {
  const BlockSet* blocks = nullptr;    // built by the store's layout: table_keys filled
  std::span<const uint64_t> stored{};  // each data block's bytes in the file, trailer included
  BlockCodec codec{};
  int level = 0;                // the codec level the row runs at
  uint64_t max_dict_bytes = 0;  // the configured dictionary size, 0: none
  bool raw_dict = false;        // the dictionary is raw samples (CodecParams::raw_dict), not trained
  uint64_t dict_block = 0;      // the dictionary's block in the file, trailer included
  // The codec's output size for a meta block (the index), without a dictionary; nullopt
  // when the call fails.
  std::function<std::optional<size_t>(std::span<const uint8_t>)> compress{};
};
// Whether the store has a whole-file model (rocksdb, leveldb and their variants).
bool store_models_file(const StoreProfile& profile);
// The whole file for `in`; nullopt when the store has no file model, the blocks carry no
// table keys, or the codec call failed.
std::optional<FileParts> store_file_parts(const StoreProfile& profile, const FileInput& in);

// What a store's stored-bytes figure for `codec` at `block_size` assumes, for reports to print
// beside it: WiredTiger's load ("bulk load", or "insert-filled, measured error -2.0 … 0.0 %"
// under wiredtiger:load=insert). "" for stores whose figure needs no such note.
std::string store_figure_basis(const StoreProfile& profile, const std::string& codec, size_t block_size);

// A codec configuration a report recommends, to be written in a store's own syntax.
struct ConfigChoice {
  std::string codec{};  // registry name; the reference codec (CodecInfo::is_reference) means uncompressed
  int level = 0;
  std::string params{};    // CodecParams::label(), e.g. "3:dict=16K"
  uint64_t dict_size = 0;  // 0: no dictionary
  uint64_t block_size = 0;
  // The table the line is for, when known (CorpusInfo::table, e.g. "ks.events"); a statement that
  // names a table (Cassandra's ALTER TABLE) says "ks.tbl" without it.
  std::string table{};
};
struct ConfigLine {
  bool writable = false;  // false: `text` says why the store cannot write it
  std::string text;       // the option line / statement, in the store's syntax
};
// How to apply `choice` in the store's own configuration syntax (RocksDB options string, CQL
// ALTER TABLE, HBase shell, WiredTiger create config, Tarantool field format, LevelDB Options).
// Each store's syntax is in its file; sources: stores/README.md.
ConfigLine store_config_line(const StoreProfile& profile, const ConfigChoice& choice);

}  // namespace kvz
