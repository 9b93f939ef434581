#pragma once
// Internal to stores/: what one store file (stores/NAME.cpp) provides. The public API is
// stores/store_profile.h; stores/store_profile.cpp holds the one list of stores and answers
// the public calls through this interface.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "stores/store_profile.h"

namespace kvz {

// One codec a store writes, and the call its bytes come from. `mode` is the params token
// that selects that call ("stream": LZ4_compress_fast_continue; "zlib": the zlib container),
// or empty for the codec's plain call (one-shot LZ4, raw deflate).
struct WritableCodec {
  std::string_view name;  // registry name
  std::string_view mode;
};

// One `key=value` option a store takes besides the common chunk=/block=.
struct StoreOption {
  std::string_view key;
  std::string_view help;  // the line store_profile_options() shows: "key=V  what it does"
  // Sets the option on `profile`; returns "" or a one-line error naming the store.
  std::string (*apply)(StoreProfile& profile, std::string_view value);
};

class Store {
 public:
  virtual ~Store() = default;
  // The built-in profile; the registry fills in `base` (= name) and `rules`.
  virtual StoreProfile profile() const = 0;
  // The one-line framing + keep-raw rule for reports, as the options in `profile` make it.
  virtual std::string rules(const StoreProfile& profile) const = 0;
  // The codecs the store writes; uncompressed blocks need no entry.
  virtual std::span<const WritableCodec> writable_codecs() const = 0;
  // Framing and keep-raw rule of one block (see store_block in store_profile.h). `profile`
  // is profile() or a variant with options; pure and allocation-free.
  virtual StoredBlock store_block(const StoreProfile& profile, const BlockCodec& codec, size_t raw_size,
                                  size_t compressed_size) const = 0;

  virtual std::span<const StoreOption> options() const { return {}; }
  // The name the help line gives the common size option; `chunk=` and `block=` both work.
  virtual std::string_view size_option() const { return "chunk"; }
  // "" or a one-line error for a size within the profile's range that the store still refuses.
  virtual std::string check_block_size(size_t /*size*/, std::string_view /*value*/) const { return ""; }
  // The store's in-file dictionary training samples (store_dictionary_samples); none by default.
  virtual std::vector<std::span<const uint8_t>> dictionary_samples(const BlockSet& /*blocks*/,
                                                                   size_t /*dict_size*/) const {
    return {};
  }
};

// The registered store a profile derives from (by `base`); null for a hand-made profile.
const Store* find_store(const StoreProfile& profile);

}  // namespace kvz
