#pragma once
// Small helpers shared by the codec_<family>.cpp files (internal to kvz_codecs).
#include <cstdint>
#include <memory>
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

// A library's error code and the text kvz reports for it.
struct ErrorName {
  int code;
  const char* text;
};
template <size_t N>
const char* error_name(const ErrorName (&names)[N], int code, const char* unknown) {
  for (const auto& n : names)
    if (n.code == code) return n.text;
  return unknown;
}

// A codec whose sessions take nothing from the params or a dictionary (memcpy, snappy).
template <class SessionType>
class StatelessCodec final : public Codec {
 public:
  using Codec::Codec;

 protected:
  Expected<std::unique_ptr<Session>> open_session(const CodecParams&,
                                                  std::shared_ptr<const PreparedDict>) const override {
    return {std::make_unique<SessionType>(), {}};
  }
};

// `dict` as the codec's own PreparedDict type (null stays null). A dictionary another codec
// prepared gives null and sets `error`.
template <class Dict>
std::shared_ptr<const Dict> dict_as(const std::shared_ptr<const PreparedDict>& dict, const CodecInfo& info,
                                    std::string& error) {
  if (!dict) return nullptr;
  auto own = std::dynamic_pointer_cast<const Dict>(dict);
  if (!own) error = info.name + ": dictionary was prepared for another codec";
  return own;
}

}  // namespace kvz::detail
