// Record mode detection (README: "Detection"): binary, one JSON document, JSON lines,
// tables with a key column, else lines.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "blockgen/record_modes.h"

namespace kvz::detail {

namespace {

bool is_text_byte(unsigned char c) { return c >= 0x20 || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

bool looks_binary(std::string_view s) {
  const size_t n = std::min<size_t>(s.size(), 64 * 1024);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == 0) return true;
    if (!is_text_byte(c) || c == 0x7f) ++bad;
  }
  return bad * 20 > n;  // more than 5% control bytes
}

}  // namespace

bool has_binary(std::string_view s) {
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (!is_text_byte(c) || c == 0x7f) return true;
  }
  return false;
}

size_t count_fields(std::string_view line, char sep) {
  std::vector<std::string> f;
  split_fields(line, sep, f);
  return f.size();
}

int pick_key_columns(const std::vector<std::string_view>& rows, char sep, size_t nfields) {
  const size_t n = std::min<size_t>(rows.size(), 2001);
  if (n < 3) return 1;
  std::vector<std::string> fields;
  for (int k = 1; k <= 3 && static_cast<size_t>(k) < nfields; ++k) {
    std::vector<std::string> keys;
    for (size_t i = 1; i < n; ++i) {
      split_fields(rows[i], sep, fields);
      std::string key;
      for (int f = 0; f < k && static_cast<size_t>(f) < fields.size(); ++f)
        key += fields[static_cast<size_t>(f)] + '\x1f';
      keys.push_back(std::move(key));
    }
    std::sort(keys.begin(), keys.end());
    const size_t distinct = static_cast<size_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
    if (distinct * 10 >= (n - 1) * 9) return k;
  }
  return 0;
}

namespace {

// The whole input is one JSON document (an array or an object).
bool is_one_json_document(std::string_view data) {
  const size_t first = data.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (data[first] == '[' || data[first] == '{') && nlohmann::json::accept(data);
}

// The non-blank lines of the first MiB (the last dropped when it may be cut mid-line), and up
// to 200 of them spread evenly, so a short preamble (a comment, a mapping) does not decide the mode.
void probe_lines(std::string_view data, std::vector<std::string_view>& lines, std::vector<std::string_view>& probe) {
  for_each_line(data.substr(0, std::min<size_t>(data.size(), 1 << 20)), [&](std::string_view l, uint64_t) {
    if (l.find_first_not_of(" \t\r") != std::string_view::npos) lines.push_back(l);
  });
  if (lines.size() > 1 && data.size() > (1 << 20)) lines.pop_back();  // may be cut mid-line
  const size_t step = std::max<size_t>(1, lines.size() / 200);
  for (size_t i = 0; i < lines.size() && probe.size() < 200; i += step) probe.push_back(lines[i]);
}

// JSON lines: 90 % of the probed lines are JSON documents.
bool is_json_lines(const std::vector<std::string_view>& probe, std::string& why) {
  size_t json_lines = 0;
  for (auto l : probe) {
    const size_t b = l.find_first_not_of(" \t");
    if (b != std::string_view::npos && (l[b] == '{' || l[b] == '[') && nlohmann::json::accept(l)) ++json_lines;
  }
  if (json_lines * 10 < probe.size() * 9) return false;
  why = std::to_string(json_lines) + " of the first " + std::to_string(probe.size()) + " lines are JSON documents";
  return true;
}

// A table: 90 % of the probed lines have the first line's number (2 or more) of tab- or
// comma-separated fields. "tsv" or "csv"; "lines" when the fields line up but nothing can be
// the key; "" when no separator lines up.
std::string table_mode(const std::vector<std::string_view>& lines, const std::vector<std::string_view>& probe,
                       std::string& why) {
  for (char sep : {'\t', ','}) {
    const size_t want = count_fields(lines.front(), sep);
    if (want < 2 || probe.size() < 2) continue;
    size_t same = 0;
    for (auto l : probe) same += count_fields(l, sep) == want;
    if (same * 10 < probe.size() * 9) continue;
    // Rows need a key: some leading columns (fewer than all) that are nearly unique.
    // Text with a tab after a speaker name is not a table.
    if (!pick_key_columns(lines, sep, want)) {
      why = "fields line up, but no leading columns are unique enough to be a key";
      return "lines";
    }
    why = std::to_string(same) + " of " + std::to_string(probe.size()) + " probed lines have " + std::to_string(want) +
          (sep == ',' ? " comma" : " tab") + "-separated fields";
    return sep == ',' ? "csv" : "tsv";
  }
  return "";
}

}  // namespace

std::string detect_mode(std::string_view data, std::string& why) {
  if (data.empty()) {
    why = "empty input";
    return "lines";
  }
  if (looks_binary(data)) {
    why = "NUL or >5% control bytes in the first 64 KiB";
    return "bytes";
  }
  if (is_one_json_document(data)) {
    why = "the whole input is one JSON document";
    return "json";
  }
  if (looks_like_hex_dump(data)) {
    why = "lines of hex key/value pairs, as ldb scan --hex or sst_dump --output_hex print them";
    return "kv-hex";
  }
  std::vector<std::string_view> lines, probe;
  probe_lines(data, lines, probe);
  if (probe.empty()) {
    why = "no non-blank line";
    return "lines";
  }
  if (is_json_lines(probe, why)) return "jsonl";
  if (std::string table = table_mode(lines, probe, why); !table.empty()) return table;
  why = "text without a consistent structure";
  return "lines";
}

}  // namespace kvz::detail
