#pragma once
// Internal to stores/: what one store file (stores/NAME/NAME.cpp) provides, as one data row. The
// public API is stores/store_profile.h; stores/store_profile.cpp holds the one list of stores
// and answers the public calls from these rows.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "stores/store_profile.h"

namespace kvz {

// One codec a store writes, with the params it writes it at: the level the store uses by
// default, and the mode token that selects the call its bytes come from ("stream":
// LZ4_compress_fast_continue; "zlib": the zlib container; none: the codec's plain call, e.g.
// one-shot LZ4, raw deflate). The list is the profile's codec spec, in order.
struct WritableCodec {
  std::string_view name;    // registry name
  std::string_view params;  // CodecParams::label() form: "1:stream", "6:zlib", "3", "" (the codec's default)
  // Why the store's bytes for this codec are not checked against the store ("" when they are).
  std::string_view unchecked{};
  // The later store version that gained the codec (a StoreVersion key: LevelDB's zstd, "main");
  // "" = the version the profile is named for writes it.
  std::string_view since{};
  // The store writes the codec at `params`' level whatever level it is configured with (RocksDB
  // 7.8's bzip2: blockSize100k 1): a row asked for at any level is that row.
  bool fixed_level = false;
};

// A version of the store a profile can model (`NAME:version=KEY`), oldest first: the first is
// the profile's own; a later one adds the codecs whose `since` names it, labelled as such.
struct StoreVersion {
  std::string_view key;   // what version= takes: "1.23", "main"
  std::string_view name;  // as reports print it: "LevelDB 1.23" (= StoreProfile::version)
};

// One `key=value` option a store takes besides the common chunk=/block=.
struct StoreOption {
  std::string_view key;
  std::string_view help;  // the line store_profile_options() shows: "key=V  what it does"
  // Sets the option on `profile`; returns "" or a one-line error naming the store.
  std::string (*apply)(StoreProfile& profile, std::string_view value) = nullptr;
};

// Framing and keep-raw rule of one block (see store_block in store_profile.h). `profile` is
// the built-in one or a variant with options; pure and allocation-free.
using StoreBlockFn = StoredBlock (*)(const StoreProfile& profile, const BlockCodec& codec, size_t raw_size,
                                     size_t compressed_size);
// The store's in-file dictionary samples (store_dictionary_samples).
using DictionarySamplesFn = std::vector<std::span<const uint8_t>> (*)(const BlockSet& blocks, size_t dict_size,
                                                                      bool raw);

struct Store {
  // The built-in profile, `rules` included; the registry sets `base` (= name) and `codecs`
  // (from the list below).
  StoreProfile profile{};
  std::span<const WritableCodec> codecs{};  // uncompressed blocks need no entry
  // Empty: only the version the profile names (no version= option); else every one it models.
  std::span<const StoreVersion> versions{};
  StoreBlockFn store_block = nullptr;
  std::span<const StoreOption> options{};
  // The rule line as the options in `profile` make it; null when no option changes it.
  std::string (*rules)(const StoreProfile& profile) = nullptr;
  // The name the help line gives the common size option; `chunk=` and `block=` both work.
  std::string_view size_option = "chunk";
  // "" or a one-line error for a size within the profile's range that the store still refuses.
  std::string (*check_block_size)(size_t size, std::string_view value) = nullptr;
  DictionarySamplesFn dictionary_samples = nullptr;         // null: no in-file dictionary method
  size_t (*dictionary_block)(size_t dict_bytes) = nullptr;  // bytes its dictionary takes in the file
  // The whole file around the data blocks (store_file_parts); null: not modelled.
  std::optional<FileParts> (*file_parts)(const StoreProfile& profile, const FileInput& in) = nullptr;
  // The store's configuration text for a writable choice (store_config_line checks writability).
  ConfigLine (*config_line)(const ConfigChoice& choice) = nullptr;
  // What the stored-bytes figure assumes (store_figure_basis); null: nothing to say.
  std::string (*figure_basis)(const StoreProfile& profile, const std::string& codec, size_t block_size) = nullptr;
};

// The whole-file models (stores/leveldb/leveldb_file.cpp, stores/rocksdb/rocksdb_file.cpp) and the meta-block
// rule they share: a block stored as the table stores data blocks, trailer included.
std::optional<FileParts> leveldb_file_parts(const StoreProfile& profile, const FileInput& in);
std::optional<FileParts> rocksdb_file_parts(const StoreProfile& profile, const FileInput& in);
std::optional<uint64_t> stored_meta_block(const StoreProfile& profile, const FileInput& in, const std::string& raw);

// The registered store a profile derives from (by `base`); null for a hand-made profile.
const Store* find_store(const StoreProfile& profile);

// Whether `codec` (a registry name) is the uncompressed reference (CodecInfo::is_reference:
// memcpy), which every store writes as plain blocks. False for a name the registry lacks.
bool is_uncompressed(const std::string& codec);

}  // namespace kvz
