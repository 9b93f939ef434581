#pragma once
// The codec spec grammar of the CLI:
//   zstd:1,3,9   zstd:1..19   zstd:-5   lz4hc:all   zstd:3:dict=16K   xz:6e   zlib:6:zlib   lz4:1:stream
//   brotli:11:w22   lists joined by '/' or '+'   aliases: all, fast, ratio
//   lzbench's -e syntax: zstd,1,3/lz4/lzo1x,1
// A spec expands to a list of (codec, params) rows, in the order given, duplicates removed.
#include <string>
#include <vector>

#include "codecs/codec.h"
#include "codecs/registry.h"
#include "util/bytes.h"

namespace kvz {

struct CodecChoice {
  const Codec* codec = nullptr;
  CodecParams params;
  std::string label() const;  // "zstd 3", "xz 6e", "zstd 3 dict=16K"
};

// A built-in spec (a sweep's or a store's) without the items whose codec this build left out
// (KVZ_WITH_<CODEC>=OFF), so the defaults still run; a spec the user typed is never filtered.
std::string without_unbuilt_codecs(const std::string& spec, const CodecRegistry& registry);

// Parse a spec. On error returns an empty list and sets `error` to one line naming the
// valid range or the known codecs.
std::vector<CodecChoice> parse_codec_spec(const std::string& spec, const CodecRegistry& registry, std::string& error);

}  // namespace kvz
