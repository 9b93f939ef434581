// Tarantool Enterprise per-field compression: each value compressed on its own, stored as a
// MsgPack extension (encoding inferred: the EE source is closed; see stores/README.md).
// Sources: Tarantool EE docs (space_object:format compression = 'zstd' | 'lz4', 2.10+); the field
//  encoding is inferred from the MsgPack ext spec (EE source is closed)

#include <string>

#include <fmt/format.h>

#include "stores/framing.h"
#include "stores/store.h"

namespace kvz {
namespace {

constexpr WritableCodec kTarantoolCodecs[] = {{"zstd", "3"}, {"lz4", ""}};

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

// The field becomes a MsgPack extension holding the compression type, the original size and
// the compressed bytes; the raw value when that is not smaller.
StoredBlock tarantool_field(const StoreProfile&, const BlockCodec& codec, size_t raw, size_t compressed) {
  if (codec.uncompressed) return framing::stored_uncompressed(raw, 0);
  const size_t body = 1 + mp_uint_size(raw) + compressed;
  const size_t field = mp_ext_header_size(body) + body;
  return field < raw ? framing::stored_compressed(field, 0) : framing::stored_raw(raw, 0);
}

// Tarantool Enterprise field compression (space:format, "compression" field option): 'zstd'
// or 'lz4'; no level, no dictionary.
ConfigLine tarantool_config(const ConfigChoice& c) {
  if (c.dict_size) return {false, "Tarantool has no compression dictionary"};
  if (is_uncompressed(c.codec)) return {true, "{name = 'value', type = 'string'}"};
  if ((c.codec == "zstd" && c.level == 3) || (c.codec == "lz4" && c.level == 1))
    return {true, fmt::format("{{name = 'value', type = 'string', compression = '{}'}}", c.codec)};
  return {false, fmt::format("Tarantool cannot write {} level {}", c.codec, c.level)};
}

}  // namespace

// The store as one data row (kept as written: clang-format would put one field per line).
// clang-format off
const Store& tarantool_store() {
  // values:single ignores the target size: one block per value.
  static const Store store{
      .profile = {.name = "tarantool",
                  .description = "Tarantool EE per-field compression: each value compressed on its own",
                  .version = "Tarantool EE 2.10+",
                  .layout = "values:single", .block_size = 4096,
                  .rules = "MsgPack ext header + compression type + mp_uint original size + compressed bytes; "
                           "raw when that is not smaller than the value"},
      .codecs = kTarantoolCodecs, .store_block = tarantool_field,
      .config_line = tarantool_config};
  return store;
}
// clang-format on

}  // namespace kvz
