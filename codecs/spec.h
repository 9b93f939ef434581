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

namespace kvz {

struct CodecChoice {
  const Codec* codec = nullptr;
  CodecParams params;
  std::string label() const;  // "zstd 3", "xz 6e", "zstd 3 dict=16K"
};

// Parse a spec. On error returns an empty list and sets `error` to one line naming the
// valid range or the known codecs.
std::vector<CodecChoice> parse_codec_spec(const std::string& spec, const CodecRegistry& registry,
                                          std::string& error);

// Parse a byte size: "4096", "4K", "4KiB", "64KiB", "1M", "16k". Returns false on error
// (0, negative, non-numeric, overflow). Bounds are checked by the caller.
bool parse_byte_size(const std::string& text, size_t& out);
// Format a byte size the way the CLI accepts it back: 4096 -> "4K", 1000 -> "1000".
std::string format_byte_size(size_t n);

}  // namespace kvz
