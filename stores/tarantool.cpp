// Tarantool Enterprise per-field compression: each value compressed on its own, stored as a
// MsgPack extension (encoding inferred: the EE source is closed; see stores/README.md).
#include <string>

#include "stores/framing.h"
#include "stores/store.h"

namespace kvz {
namespace {

constexpr WritableCodec kCodecs[] = {{"zstd", ""}, {"lz4", ""}};

// MsgPack sizes of the field encoding.
size_t mp_uint_size(size_t v) {
  if (v < 128) return 1;
  if (v < 256) return 2;
  if (v < 65536) return 3;
  if (v <= 0xffffffffULL) return 5;
  return 9;
}
size_t mp_ext_header_size(size_t len) {
  if (len == 1 || len == 2 || len == 4 || len == 8 || len == 16) return 2;  // fixext
  if (len < 256) return 3;                                                  // ext 8
  if (len < 65536) return 4;                                                // ext 16
  return 6;                                                                 // ext 32
}

class Tarantool final : public Store {
 public:
  StoreProfile profile() const override {
    StoreProfile p;
    p.name = "tarantool";
    p.description = "Tarantool EE per-field compression: each value compressed on its own";
    p.layout = "values:single";
    p.block_size = 4096;  // values:single ignores the target size: one block per value
    p.min_block_size = 1024;
    p.max_block_size = 1 << 20;
    p.codecs = "zstd:3/lz4";
    p.sources =
        "Tarantool EE docs (space_object:format compression = 'zstd' | 'lz4', 2.10+); the field "
        "encoding is inferred from the MsgPack ext spec (EE source is closed)";
    return p;
  }

  std::string rules(const StoreProfile&) const override {
    return "MsgPack ext header + compression type + mp_uint original size + compressed bytes; "
           "raw when that is not smaller than the value";
  }

  std::span<const WritableCodec> writable_codecs() const override { return kCodecs; }

  // The field becomes a MsgPack extension holding the compression type, the original size and
  // the compressed bytes; the raw value when that is not smaller.
  StoredBlock store_block(const StoreProfile&, const BlockCodec& codec, size_t raw, size_t compressed) const override {
    if (codec.uncompressed) return framing::stored_uncompressed(raw, 0);
    const size_t body = 1 + mp_uint_size(raw) + compressed;
    const size_t field = mp_ext_header_size(body) + body;
    return field < raw ? framing::stored_compressed(field, 0) : framing::stored_raw(raw, 0);
  }
};

}  // namespace

const Store& tarantool_store() {
  static const Tarantool store;
  return store;
}

}  // namespace kvz
