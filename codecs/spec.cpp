// The codec spec grammar (see spec.h and README.md). Everything here is cold path: it
// runs once per command line and returns one-line errors instead of throwing.
#include "codecs/spec.h"

#include <fmt/format.h>
#include <algorithm>
#include <cctype>
#include <charconv>
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
    {"lzo1x", "lzo", -1},      {"lzo1x_1", "lzo", 1},     {"lzo1x_1_11", "lzo", 11}, {"lzo1x_1_12", "lzo", 12},
    {"lzo1x_1_15", "lzo", 15}, {"lzo1x_999", "lzo", 999}, {"lz4fast", "lz4", -1},
};

// What lzbench 2.x calls for a codec kvzbench has, where kvzbench's plain row is another
// configuration (lzbench bench/lz_codecs.cpp): the option that makes kvzbench's row lzbench's.
// zlib: compress2 (zlib container, windowBits 15), not RocksDB's raw deflate; xz:
// lzma_stream_encoder_mt, no check, the preset's dictionary. The others are the same calls:
// zstd (a CCtx at the level), lz4 (LZ4_compress_default / _fast), lz4hc (LZ4_compress_HC),
// snappy (RawCompress), lzo1x variants, brotli (BrotliEncoderCompress, lgwin 22).
struct LzbenchCall {
  const char* codec;
  const char* option;
};
constexpr LzbenchCall kLzbenchCalls[] = {{"zlib", "zlib"}, {"xz", "lzbench"}};

// The aliases, one row each: what `all`, `fast` and `ratio` sweep, for parsing, errors and `list`.
struct Alias {
  const char* name;
  const char* meaning;
  std::vector<CodecParams> (*rows)(const CodecInfo& info);
};
std::vector<CodecParams> rows_at(const std::vector<int>& levels) {
  std::vector<CodecParams> rows;
  for (int l : levels) rows.push_back({.level = l});
  return rows;
}
std::vector<CodecParams> all_rows(const CodecInfo& info) {
  std::vector<CodecParams> rows = rows_at(info.standard_levels);
  rows.insert(rows.end(), info.extra_standard.begin(), info.extra_standard.end());
  return rows;
}
const Alias kAliases[] = {
    {"all", "every codec at every standard level", all_rows},
    {"fast", "the fast codecs at their fast levels", [](const CodecInfo& i) { return rows_at(i.fast_levels); }},
    {"ratio", "the strong codecs at their strongest levels",
     [](const CodecInfo& i) { return rows_at(i.ratio_levels); }},
};
const Alias* find_alias(std::string_view name) {
  for (const auto& a : kAliases)
    if (name == a.name) return &a;
  return nullptr;
}

// One level of a spec item, with option tokens of its own ("e" of "6e", or a standard row's
// options for `all`) that go to the codec with the item's options.
struct Level {
  int level;
  std::vector<std::string> tokens;
};

// True when `text` is level syntax (3, -5, 1..19, 1,3,9, 6e, all) rather than an option.
bool is_level_list(std::string_view text) {
  if (text == "all") return true;
  for (std::string_view piece : split(text, ",")) {
    piece = trim(piece);
    if (!piece.empty() && piece.back() == 'e') piece.remove_suffix(1);
    const size_t dots = piece.find("..");
    int v = 0;
    if (dots == std::string_view::npos ? !parse_int(piece, v)
                                       : !parse_int(piece.substr(0, dots), v) || !parse_int(piece.substr(dots + 2), v))
      return false;
  }
  return true;
}

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
    std::vector<std::string> aliases;
    for (const auto& a : kAliases) aliases.emplace_back(a.name);
    return fmt::format("known: {}; aliases: {}", fmt::join(reg_.names(), ", "), join(aliases));
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
    std::vector<std::string> names = reg_.names();
    for (const auto& n : kLzbenchNames) names.emplace_back(n.name);
    for (const auto& a : kAliases) names.emplace_back(a.name);
    const std::string hint = did_you_mean(name, names);
    fail(fmt::format("unknown codec '{}'{} ({})", name, hint.empty() ? "" : ": " + hint, known()));
    return nullptr;
  }

  void add(const Codec* c, const CodecParams& p) {
    for (const auto& existing : out_)
      if (existing.codec == c && existing.params == p) return;
    out_.push_back({c, p});
  }

  // One row per level: the codec parses its own option tokens (plus "e" from "6e"), then the
  // whole row is checked.
  bool add_checked(const Codec* c, const CodecParams& base, const std::vector<std::string>& tokens,
                   const std::vector<Level>& levels) {
    for (Level l : levels) {
      CodecParams p = base;
      p.level = l.level;
      std::vector<std::string> own = tokens;
      own.insert(own.end(), l.tokens.begin(), l.tokens.end());
      if (auto err = c->parse_options(own, p); !err.empty()) return fail(err);
      if (auto err = c->check_params(p); !err.empty()) return fail(err);
      add(c, p);
    }
    return true;
  }

  bool parse_item(std::string_view item) {
    if (const Alias* alias = find_alias(item)) return add_alias(*alias);
    bool lzbench = item.find(':') == std::string_view::npos && item.find(',') != std::string_view::npos;
    auto parts = split(item, lzbench ? "," : ":");
    std::string_view name = trim(parts[0]);
    if (find_alias(name)) return fail(fmt::format("alias '{}' takes no levels or options", name));
    int implied = -1;
    const Codec* codec = lookup(name, &implied);
    if (!codec) return false;
    const CodecInfo& info = codec->info();

    CodecParams params;
    std::vector<std::string> tokens;  // the codec's own options, parsed by the codec
    std::vector<Level> levels;
    if (lzbench) {  // name,L1,L2,...: lzbench's configuration of the codec
      for (size_t i = 1; i < parts.size(); ++i)
        if (!parse_levels(info, trim(parts[i]), levels)) return false;
      for (const auto& call : kLzbenchCalls)
        if (info.name == call.codec) tokens.emplace_back(call.option);
    } else {  // name[:levels][:option]...
      size_t i = 1;
      const bool levels_given = parts.size() > 1 && (is_level_list(trim(parts[1])) || trim(parts[1]).empty());
      if (levels_given) {
        if (!parse_levels(info, trim(parts[1]), levels)) return false;
        i = 2;
      }
      for (; i < parts.size(); ++i) {
        const std::string_view option = trim(parts[i]);
        if (!is_dict_option(option)) {
          tokens.emplace_back(option);
        } else if (!parse_dict_option(info, option, params)) {
          return false;
        }
      }
    }
    if (levels.empty())
      levels.push_back({implied >= 0 ? implied : info.default_level, {}});
    else if (implied >= 0)
      return fail(fmt::format("'{}' names one lzo variant: give no levels", name));
    return add_checked(codec, params, tokens, levels);
  }

  static bool is_dict_option(std::string_view option) {
    return option.rfind("dict=", 0) == 0 || option.rfind("rawdict=", 0) == 0;
  }

  // dict=SIZE (a trained dictionary) or rawdict=SIZE (raw samples of the data), once.
  bool parse_dict_option(const CodecInfo& info, std::string_view option, CodecParams& params) {
    const bool raw = option.rfind("rawdict=", 0) == 0;
    const std::string_view size = option.substr(raw ? 8 : 5);
    if (params.dict_size) return fail(fmt::format("{}: dict= or rawdict= given twice", info.name));
    if (!parse_byte_size(size, params.dict_size))
      return fail(fmt::format("bad dictionary size '{}' (e.g. {}dict=16K)", size, raw ? "raw" : ""));
    params.raw_dict = raw;
    return true;
  }

  bool parse_one_level(const CodecInfo& info, std::string_view s, int& level) {
    if (!parse_int(s, level))
      return fail(fmt::format("bad {} {} '{}' (valid: {})", info.name, info.level_label, s, info.level_range_text()));
    return true;
  }

  bool parse_levels(const CodecInfo& info, std::string_view text, std::vector<Level>& out) {
    if (!info.has_levels) return fail(fmt::format("{} has no levels (got '{}')", info.name, text));
    if (text == "all") {
      for (const CodecParams& row : all_rows(info)) out.push_back({row.level, row.option_tokens()});
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
        out.push_back({l, extreme ? std::vector<std::string>{"e"} : std::vector<std::string>{}});
        continue;
      }
      int lo = 0, hi = 0;
      if (!parse_one_level(info, piece.substr(0, dots), lo) || !parse_one_level(info, piece.substr(dots + 2), hi))
        return false;
      for (int l : {lo, hi})
        if (l < info.min_level || l > info.max_level)
          return fail(
              fmt::format("{} {} {} out of range ({})", info.name, info.level_label, l, info.level_range_text()));
      if (lo > hi) return fail(fmt::format("empty {} range {}", info.name, piece));
      size_t added = 0;
      for (long l = lo; l <= hi; ++l) {
        if (!info.is_valid_level(static_cast<int>(l))) continue;  // sparse (lzo variants)
        if (++added > kMaxLevelsPerRange)
          return fail(fmt::format("{} range {} has more than {} levels", info.name, piece, kMaxLevelsPerRange));
        out.push_back({static_cast<int>(l), {}});
      }
    }
    return true;
  }

  bool add_alias(const Alias& alias) {
    for (const auto& c : reg_.codecs()) {
      for (const CodecParams& p : alias.rows(c->info())) {
        if (auto err = c->check_params(p); !err.empty()) return fail(err);
        add(c.get(), p);
      }
    }
    return true;
  }

  const CodecRegistry& reg_;
  std::string& error_;
  std::vector<CodecChoice> out_;
};

}  // namespace

std::string CodecChoice::label() const {
  // The params label with spaces: "zstd 3 dict=16K", "xz 6e", "zlib 6 zlib"; no level when it means nothing.
  const std::string level = std::to_string(params.level);
  std::string rest = params.label().substr(level.size());
  std::replace(rest.begin(), rest.end(), ':', ' ');
  if (!codec) return "?" + rest;
  return codec->info().name + (codec->info().has_levels ? " " + level : "") + rest;
}

std::string without_unbuilt_codecs(const std::string& spec, const CodecRegistry& registry) {
  std::vector<std::string> kept;
  for (std::string_view item : split(spec, "/+")) {
    const std::string_view name = trim(item.substr(0, item.find_first_of(":,")));
    if (find_alias(name) || registry.find(std::string(name))) kept.emplace_back(trim(item));
  }
  return join(kept, "/");
}

std::vector<CodecChoice> parse_codec_spec(const std::string& spec, const CodecRegistry& registry, std::string& error) {
  error.clear();
  SpecParser parser(registry, error);
  if (!parser.parse(spec)) return {};
  return parser.take();
}

}  // namespace kvz
