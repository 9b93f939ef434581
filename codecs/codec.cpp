#include "codecs/codec.h"

#include <fmt/format.h>
#include <algorithm>

#include "codecs/codec_util.h"
#include "codecs/spec.h"
#include "util/text.h"

namespace kvz {

bool CodecInfo::is_valid_level(int level) const {
  if (!has_levels) return level == default_level;
  if (!valid_levels.empty()) return std::find(valid_levels.begin(), valid_levels.end(), level) != valid_levels.end();
  return level >= min_level && level <= max_level;
}

std::vector<int> CodecInfo::level_range(int lo, int hi, bool skip_zero) {
  std::vector<int> levels;
  for (int l = lo; l <= hi; ++l)
    if (l != 0 || !skip_zero) levels.push_back(l);
  return levels;
}

std::string CodecInfo::level_range_text() const {
  if (!has_levels) return "-";
  if (!valid_levels.empty()) return fmt::format("{}", fmt::join(valid_levels, ","));
  return fmt::format("{}..{}", min_level, max_level);
}

std::string Codec::check_params(const CodecParams& p) const {
  const CodecInfo& i = info();
  if (!i.is_valid_level(p.level)) {
    if (!i.has_levels) return fmt::format("{} has no levels (got {})", i.name, p.level);
    return fmt::format("{} {} {} out of range ({})", i.name, i.level_label, p.level, i.level_range_text());
  }
  if (p.dict_size != 0) {
    if (!i.supports_dict) return fmt::format("{} does not support dictionaries", i.name);
    if (p.dict_size < kMinDictSize || p.dict_size > kMaxDictSize)
      return fmt::format("dictionary size {} out of range ({}..{})", format_byte_size(p.dict_size),
                         format_byte_size(kMinDictSize), format_byte_size(kMaxDictSize));
  }
  // The options must be what the codec itself would write for them.
  CodecParams canonical = p;
  if (auto err = parse_options(p.option_tokens(), canonical); !err.empty()) return err;
  if (canonical.options != p.options)
    return fmt::format("{}: options '{}' are not in canonical form '{}'", i.name, p.options, canonical.options);
  return {};
}

std::string CodecParams::label() const {
  std::string s = std::to_string(level) + options;
  if (dict_size != 0) s += (raw_dict ? ":rawdict=" : ":dict=") + format_byte_size(dict_size);
  return s;
}

std::vector<std::string> CodecParams::option_tokens() const { return split_list(options, ':'); }

std::string Codec::parse_options(const std::vector<std::string>& tokens, CodecParams& params) const {
  if (!tokens.empty()) return fmt::format("{} takes no options (got '{}')", info().name, tokens.front());
  params.options.clear();
  return {};
}

// The checks every codec shares live here, once: params, then dictionary capability.
Expected<std::unique_ptr<Session>> Codec::open(const CodecParams& params,
                                               std::shared_ptr<const PreparedDict> dict) const {
  if (auto err = check_params(params); !err.empty()) return {nullptr, err};
  if (dict && !info().supports_dict) return {nullptr, info().name + " does not support dictionaries"};
  return open_session(params, std::move(dict));
}

Expected<std::shared_ptr<const PreparedDict>> Codec::prepare_dict(ByteView dict_bytes,
                                                                  const CodecParams& params) const {
  if (!info().supports_dict) return {nullptr, info().name + " does not support dictionaries"};
  if (auto err = check_params(params); !err.empty()) return {nullptr, err};
  if (dict_bytes.empty()) return {nullptr, info().name + ": empty dictionary"};
  return digest_dict(dict_bytes, params);
}

Expected<std::shared_ptr<const PreparedDict>> Codec::digest_dict(ByteView, const CodecParams&) const {
  return {nullptr, info().name + " does not support dictionaries"};
}

namespace detail {

std::string unknown_option(const CodecInfo& info, std::string_view token) {
  if (info.options_help.empty()) return fmt::format("{} takes no options (got '{}')", info.name, token);
  return fmt::format("unknown option '{}' for {} (options: {})", token, info.name, info.options_help);
}

bool parse_window_option(const CodecInfo& info, std::string_view token, int lo, int hi, int& log, std::string& error) {
  if (token.size() < 2 || token[0] != 'w' || !parse_int(token.substr(1), log)) return false;
  if (log < lo || log > hi) error = fmt::format("{} window log {} out of range ({}..{})", info.name, log, lo, hi);
  return true;
}

int window_log_of(const CodecParams& params, int when_none) {
  int log = 0;
  for (const auto& t : params.option_tokens())
    if (t.size() > 1 && t[0] == 'w' && parse_int(std::string_view(t).substr(1), log)) return log;
  return when_none;
}

std::string parse_window_options(const CodecInfo& info, const std::vector<std::string>& tokens, int lo, int hi,
                                 CodecParams& params) {
  int window_log = 0;
  for (const auto& t : tokens) {
    std::string err;
    if (!parse_window_option(info, t, lo, hi, window_log, err)) return unknown_option(info, t);
    if (!err.empty()) return err;
  }
  params.options = window_log ? fmt::format(":w{}", window_log) : "";
  return {};
}

}  // namespace detail

}  // namespace kvz
