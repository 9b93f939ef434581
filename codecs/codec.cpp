#include "codecs/codec.h"

#include <algorithm>
#include <fmt/format.h>

#include "codecs/spec.h"

namespace kvz {

bool CodecInfo::is_valid_level(int level) const {
  if (!has_levels) return level == default_level;
  if (!valid_levels.empty())
    return std::find(valid_levels.begin(), valid_levels.end(), level) != valid_levels.end();
  return level >= min_level && level <= max_level;
}

std::string CodecInfo::level_range_text() const {
  if (!has_levels) return "-";
  if (!valid_levels.empty()) return fmt::format("{}", fmt::join(valid_levels, ","));
  return fmt::format("{}..{}", min_level, max_level);
}

std::string CodecInfo::check_params(const CodecParams& p) const {
  if (!is_valid_level(p.level)) {
    if (!has_levels) return fmt::format("{} has no levels (got {})", name, p.level);
    return fmt::format("{} {} {} out of range ({})", name, level_label, p.level,
                       level_range_text());
  }
  if (p.extreme && !supports_extreme)
    return fmt::format("{} has no extreme mode ('e' is for xz)", name);
  if (p.zlib_container && !supports_container)
    return fmt::format("{} has no container option (':zlib' is for zlib)", name);
  if (p.lz4_stream && !supports_stream)
    return fmt::format("{} has no stream option (':stream' is for lz4)", name);
  if (p.window_log != 0) {
    if (min_window_log == 0) return fmt::format("{} has no window option", name);
    if (p.window_log < min_window_log || p.window_log > max_window_log)
      return fmt::format("{} window log {} out of range ({}..{})", name, p.window_log,
                         min_window_log, max_window_log);
  }
  if (p.dict_size != 0) {
    if (p.window_log != 0) return fmt::format("{}: the window option cannot be combined with dict=", name);
    if (!supports_dict) return fmt::format("{} does not support dictionaries", name);
    if (p.dict_size < kMinDictSize || p.dict_size > kMaxDictSize)
      return fmt::format("dictionary size {} out of range ({}..{})", format_byte_size(p.dict_size),
                         format_byte_size(kMinDictSize), format_byte_size(kMaxDictSize));
  }
  return {};
}

std::string CodecParams::label() const {
  std::string s = std::to_string(level);
  if (extreme) s += 'e';
  if (zlib_container) s += ":zlib";
  if (lz4_stream) s += ":stream";
  if (window_log != 0) s += fmt::format(":w{}", window_log);
  if (dict_size != 0) s += ":dict=" + format_byte_size(dict_size);
  return s;
}

Expected<std::shared_ptr<const PreparedDict>> Codec::prepare_dict(ByteView,
                                                                  const CodecParams&) const {
  return {nullptr, info().name + " does not support dictionaries"};
}

}  // namespace kvz
