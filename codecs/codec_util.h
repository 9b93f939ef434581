#pragma once
// Small helpers shared by the codec_<family>.cpp files (internal to kvz_codecs).
#include <cstdint>

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

}  // namespace kvz::detail
