// The codec spec grammar (see spec.h and README.md). Everything here is cold path: it
// runs once per command line and returns one-line errors instead of throwing.
#include "codecs/spec.h"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <fmt/format.h>
#include <string_view>

#include "util/text.h"

namespace kvz {
namespace {

constexpr size_t kMaxLevelsPerRange = 1000;  // lz4:1..65537 is a typo, not a plan

// lzbench's compressor names that differ from ours; `level` < 0: none implied.
struct LzbenchName {
  const char* name;
  const char* codec;
  int level;
};
constexpr LzbenchName kLzbenchNames[] = {
    {"lzo1x", "lzo", -1},       {"lzo1x_1", "lzo", 1},     {"lzo1x_1_11", "lzo", 11},
    {"lzo1x_1_12", "lzo", 12},  {"lzo1x_1_15", "lzo", 15}, {"lzo1x_999", "lzo", 999},
    {"lz4fast", "lz4", -1},
};

struct Level {
  int level;
  bool extreme;
};

class SpecParser {
 public:
  SpecParser(const CodecRegistry& registry, std::string& error) : reg_(registry), error_(error) {}

  bool parse(const std::string& spec) {
    if (trim(spec).empty()) return fail("empty codec spec");
    for (std::string_view item : split(spec, "/+")) {
      item = trim(item);
      if (item.empty()) return fail(fmt::format("empty item in codec spec '{}'", spec));
      if (!parse_item(item)) return false;
    }
    return true;
  }
  std::vector<CodecChoice> take() { return std::move(out_); }

 private:
  bool fail(std::string msg) {
    error_ = std::move(msg);
    return false;
  }

  std::string known() const {
    return fmt::format("known: {}; aliases: all, fast, ratio", fmt::join(reg_.names(), ", "));
  }

  const Codec* lookup(std::string_view name, int* implied_level) {
    *implied_level = -1;
    if (const Codec* c = reg_.find(std::string(name))) return c;
    for (const auto& n : kLzbenchNames) {
      if (name == n.name) {
        *implied_level = n.level;
        return reg_.find(n.codec);
      }
    }
    fail(fmt::format("unknown codec '{}' ({})", name, known()));
    return nullptr;
  }

  void add(const Codec* c, const CodecParams& p) {
    for (const auto& existing : out_)
      if (existing.codec == c && existing.params == p) return;
    out_.push_back({c, p});
  }

  bool add_checked(const Codec* c, const CodecParams& options, const std::vector<Level>& levels) {
    for (Level l : levels) {
      CodecParams p = options;
      p.level = l.level;
      p.extreme = l.extreme || options.extreme;
      if (auto err = c->info().check_params(p); !err.empty()) return fail(err);
      add(c, p);
    }
    return true;
  }

  bool parse_item(std::string_view item) {
    if (item == "all" || item == "fast" || item == "ratio") return add_alias(item);
    bool lzbench = item.find(':') == std::string_view::npos && item.find(',') != std::string_view::npos;
    auto parts = split(item, lzbench ? "," : ":");
    std::string_view name = trim(parts[0]);
    if (name == "all" || name == "fast" || name == "ratio")
      return fail(fmt::format("alias '{}' takes no levels or options", name));
    int implied = -1;
    const Codec* codec = lookup(name, &implied);
    if (!codec) return false;
    const CodecInfo& info = codec->info();

    CodecParams params;
    std::vector<Level> levels;
    if (lzbench) {  // name,L1,L2,...
      for (size_t i = 1; i < parts.size(); ++i)
        if (!parse_levels(info, trim(parts[i]), levels)) return false;
    } else {  // name[:levels][:option]...
      size_t i = 1;
      if (parts.size() > 1 && !is_option(trim(parts[1]))) {
        if (!parse_levels(info, trim(parts[1]), levels)) return false;
        i = 2;
      }
      for (; i < parts.size(); ++i)
        if (!parse_option(info, trim(parts[i]), params)) return false;
    }
    if (levels.empty()) levels.push_back({implied >= 0 ? implied : info.default_level, false});
    else if (implied >= 0)
      return fail(fmt::format("'{}' names one lzo variant: give no levels", name));
    return add_checked(codec, params, levels);
  }

  static bool is_option(std::string_view s) {
    if (s.rfind("dict=", 0) == 0 || s == "zlib" || s == "raw" || s == "e" || s == "extreme" ||
        s == "stream")
      return true;
    int w = 0;
    return s.size() > 1 && s[0] == 'w' && parse_int(s.substr(1), w);
  }

  bool parse_option(const CodecInfo& info, std::string_view s, CodecParams& p) {
    if (s.rfind("dict=", 0) == 0) {
      if (!parse_byte_size(std::string(s.substr(5)), p.dict_size))
        return fail(fmt::format("bad dictionary size '{}' (e.g. dict=16K)", s.substr(5)));
      return true;
    }
    if (s == "zlib" || s == "raw") {
      p.zlib_container = s == "zlib";
      return true;
    }
    if (s == "e" || s == "extreme") {
      p.extreme = true;
      return true;
    }
    if (s == "stream") {
      p.lz4_stream = true;
      return true;
    }
    if (s.size() > 1 && s[0] == 'w' && parse_int(s.substr(1), p.window_log)) {
      if (p.window_log == 0) return fail(fmt::format("{} window log must be positive", info.name));
      return true;
    }
    return fail(fmt::format("unknown option '{}' for {} (options: dict=SIZE, wN, zlib, raw, e, stream)", s,
                            info.name));
  }

  bool parse_one_level(const CodecInfo& info, std::string_view s, int& level) {
    if (!parse_int(s, level))
      return fail(fmt::format("bad {} {} '{}' (valid: {})", info.name, info.level_label, s,
                              info.level_range_text()));
    return true;
  }

  bool parse_levels(const CodecInfo& info, std::string_view text, std::vector<Level>& out) {
    if (!info.has_levels) return fail(fmt::format("{} has no levels (got '{}')", info.name, text));
    if (text == "all") {
      for (int l : info.standard_levels) out.push_back({l, false});
      for (int l : info.extreme_levels) out.push_back({l, true});
      return true;
    }
    for (std::string_view piece : split(text, ",")) {
      piece = trim(piece);
      size_t dots = piece.find("..");
      if (dots == std::string_view::npos) {
        bool extreme = !piece.empty() && piece.back() == 'e';
        if (extreme) piece.remove_suffix(1);
        int l = 0;
        if (!parse_one_level(info, piece, l)) return false;
        out.push_back({l, extreme});
        continue;
      }
      int lo = 0, hi = 0;
      if (!parse_one_level(info, piece.substr(0, dots), lo) ||
          !parse_one_level(info, piece.substr(dots + 2), hi))
        return false;
      for (int l : {lo, hi})
        if (l < info.min_level || l > info.max_level)
          return fail(fmt::format("{} {} {} out of range ({})", info.name, info.level_label, l,
                                  info.level_range_text()));
      if (lo > hi) return fail(fmt::format("empty {} range {}", info.name, piece));
      size_t added = 0;
      for (long l = lo; l <= hi; ++l) {
        if (!info.is_valid_level(static_cast<int>(l))) continue;  // sparse (lzo variants)
        if (++added > kMaxLevelsPerRange)
          return fail(fmt::format("{} range {} has more than {} levels", info.name, piece,
                                  kMaxLevelsPerRange));
        out.push_back({static_cast<int>(l), false});
      }
    }
    return true;
  }

  bool add_alias(std::string_view alias) {
    for (const auto& c : reg_.codecs()) {
      const CodecInfo& info = c->info();
      std::vector<Level> levels;
      const auto& list = alias == "all" ? info.standard_levels
                         : alias == "fast" ? info.fast_levels
                                           : info.ratio_levels;
      for (int l : list) levels.push_back({l, false});
      if (alias == "all")
        for (int l : info.extreme_levels) levels.push_back({l, true});
      if (!add_checked(c.get(), CodecParams{}, levels)) return false;
    }
    return true;
  }

  const CodecRegistry& reg_;
  std::string& error_;
  std::vector<CodecChoice> out_;
};

}  // namespace

std::string CodecChoice::label() const {
  std::string s = codec ? codec->info().name : "?";
  if (codec && codec->info().has_levels) s += fmt::format(" {}{}", params.level, params.extreme ? "e" : "");
  if (params.zlib_container) s += " zlib";
  if (params.lz4_stream) s += " stream";
  if (params.window_log != 0) s += fmt::format(" w{}", params.window_log);
  if (params.dict_size != 0) s += " dict=" + format_byte_size(params.dict_size);
  return s;
}

std::vector<CodecChoice> parse_codec_spec(const std::string& spec, const CodecRegistry& registry,
                                          std::string& error) {
  error.clear();
  SpecParser parser(registry, error);
  if (!parser.parse(spec)) return {};
  return parser.take();
}

}  // namespace kvz
