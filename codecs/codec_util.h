#pragma once
// Small helpers shared by the codec_<family>.cpp files (internal to kvz_codecs).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/codec.h"

namespace kvz::detail {

// Libraries may reject a null pointer even with a zero length; empty spans get this.
inline uint8_t* data_or_dummy(MutableByteView v) {
  static thread_local uint8_t dummy[1];
  return v.empty() ? dummy : v.data();
}
inline const uint8_t* data_or_dummy(ByteView v) {
  static const uint8_t dummy[1] = {0};
  return v.empty() ? dummy : v.data();
}

inline constexpr const char* kOutputTooSmall = "output buffer too small";
inline constexpr const char* kSizeMismatch = "decompressed size differs from the original size";

// The one-line error for an option token a codec does not take.
std::string unknown_option(const CodecInfo& info, std::string_view token);
// "wN" (a window log in lo..hi): true and `log` set when `token` is one; on a "w" token out of
// range, `error` says so.
bool parse_window_option(const CodecInfo& info, std::string_view token, int lo, int hi, int& log, std::string& error);
// The window log of canonical options holding ":wN" (zstd, brotli); `when_none` without one.
int window_log_of(const CodecParams& params, int when_none = 0);
// parse_options for codecs whose one option is ":wN" (zstd, brotli).
std::string parse_window_options(const CodecInfo& info, const std::vector<std::string>& tokens, int lo, int hi,
                                 CodecParams& params);

}  // namespace kvz::detail
