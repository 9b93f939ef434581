#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include <sys/ioctl.h>
#include <unistd.h>

#include <fmt/format.h>

namespace kvz {

std::vector<std::string_view> split(std::string_view text, std::string_view separators) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || separators.find(text[i]) != std::string_view::npos) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

std::vector<std::string> split_list(std::string_view text, char separator) {
  std::vector<std::string> out;
  for (std::string_view piece : split(text, std::string_view(&separator, 1))) {
    piece = trim(piece);
    if (!piece.empty()) out.emplace_back(piece);
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

bool parse_int(std::string_view s, int& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

bool parse_u64(std::string_view s, uint64_t& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

bool parse_double(std::string_view s, double& out) {
  if (s.empty()) return false;
  const std::string copy(s);  // strtod needs a terminator
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(v)) return false;
  out = v;
  return true;
}

std::string one_line(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      out += fmt::format("\\x{:02x}", u);
    } else if (u == 0xc2 && next >= 0x80 && next <= 0x9f) {  // U+0080-U+009F: C1 controls (CSI is U+009B)
      out += fmt::format("\\u{:04x}", next);
      ++i;
    } else {
      out += c;
    }
  }
  return out;
}

size_t display_width(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

namespace {

// A word wider than `room` ("[,num_levels=,multiplier=,...]", a cell id) in pieces cut after its
// commas, else after its slashes; a word that fits, or has neither, whole.
std::vector<std::string> word_pieces(const std::string& word, size_t room) {
  if (display_width(word) <= room) return {word};
  for (const char* separator : {",", "/"}) {
    const auto parts = split(word, separator);
    if (parts.size() < 2) continue;
    std::vector<std::string> pieces;
    for (const auto part : parts) pieces.push_back(std::string(part) + separator);
    pieces.back().pop_back();  // split() took every separator; the last piece had none
    return pieces;
  }
  return {word};
}

}  // namespace

std::string wrap_words(std::string_view lead, std::string_view text, size_t width) {
  if (width == 0) return std::string(lead) + " " + std::string(text);
  const auto columns = display_width;
  std::string out, line(lead);
  for (const auto& word : split_list(text, ' ')) {
    const auto pieces = word_pieces(word, width > 4 ? width - 4 : width);
    for (size_t i = 0; i < pieces.size(); ++i) {
      const std::string gap = i == 0 ? " " : "";  // a word's pieces join with no space
      if (columns(line) + gap.size() + columns(pieces[i]) > width && columns(line) > 4) {
        out += line + "\n";
        line = "    ";
        line += pieces[i];
        continue;
      }
      line += gap + pieces[i];
    }
  }
  return out + line;
}

std::string wrap_text(std::string_view text, size_t width) {
  const std::string s = wrap_words("", text, width);
  return s.empty() ? s : s.substr(1);
}

std::vector<std::string> fill_lines(std::string_view text, size_t width) {
  std::vector<std::string> lines;
  std::string line;
  for (const auto& word : split_list(text, ' ')) {
    const auto pieces = word_pieces(word, width);
    for (size_t i = 0; i < pieces.size(); ++i) {
      const size_t gap = i == 0 && !line.empty() ? 1 : 0;  // a word's pieces join with no space
      if (!line.empty() && display_width(line) + gap + display_width(pieces[i]) > width) {
        lines.push_back(line);
        line.clear();
      }
      line += (gap && !line.empty() ? " " : "") + pieces[i];
    }
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

namespace {

// Optimal string alignment distance over lowercased bytes: a typo's insertions, deletions,
// substitutions and neighbour swaps ("rocksbd") each count one.
size_t edit_distance(std::string_view a, std::string_view b) {
  const auto low = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = low(a[i - 1]) == low(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && low(a[i - 1]) == low(b[j - 2]) && low(a[i - 2]) == low(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::vector<std::string> closest_names(std::string_view name, const std::vector<std::string>& candidates) {
  constexpr size_t kMaxNameBytes = 256;  // a path pasted by mistake is no typo of a name
  if (name.empty() || name.size() > kMaxNameBytes) return {};
  if (std::find(candidates.begin(), candidates.end(), name) != candidates.end()) return {};
  const size_t limit = name.size() <= 4 ? 1 : name.size() <= 8 ? 2 : 3;
  size_t best = limit + 1;
  std::vector<std::string> out;
  for (const auto& c : candidates) {
    if (c.size() > kMaxNameBytes || c.size() > name.size() + limit || name.size() > c.size() + limit) continue;
    const size_t d = edit_distance(name, c);
    if (d > limit) continue;
    if (d < best) {
      best = d;
      out.clear();
    }
    if (d == best && out.size() < 3 && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

std::string did_you_mean(const std::vector<std::string>& names) {
  const size_t n = std::min<size_t>(names.size(), 3);
  if (n == 0) return "";
  std::string out = "did you mean '" + names[0] + "'";
  for (size_t i = 1; i < n; ++i) out += (i + 1 == n ? " or '" : ", '") + names[i] + "'";
  return out + "?";
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  return did_you_mean(closest_names(name, candidates));
}

size_t terminal_columns() {
  struct winsize ws {};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
  int columns = 0;
  if (const char* env = std::getenv("COLUMNS"); env && parse_int(env, columns) && columns >= 20 && columns <= 1000)
    return static_cast<size_t>(columns);
  return 80;
}

size_t console_columns() {
  struct winsize ws {};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return std::max<size_t>(ws.ws_col, kMinConsoleColumns);
  int columns = 0;
  if (const char* env = std::getenv("COLUMNS"); env && parse_int(env, columns) && columns > 0 && columns <= 1000)
    return std::max<size_t>(static_cast<size_t>(columns), kMinConsoleColumns);
  return 100;
}

size_t stderr_wrap_width() {
  if (isatty(STDERR_FILENO)) return terminal_columns() - 1;
  int columns = 0;
  const char* env = std::getenv("COLUMNS");
  return env && parse_int(env, columns) && columns >= 20 && columns <= 1000 ? static_cast<size_t>(columns) - 1 : 0;
}

}  // namespace kvz
