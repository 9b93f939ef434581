// Key/value dumps as records: `key<TAB>value` lines, and the hex dumps RocksDB's tools print
// (`ldb scan --hex`: "0x6B31 : 0x76616C7565"; `sst_dump --command=scan --output_hex`:
// "'6B31' seq:0, type:1 => 76616C7565", formats as printed by rocksdb-tools 7.8).
#include <string>
#include <string_view>

#include "blockgen/record_modes.h"

namespace kvz::detail {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Hex digits (an even number of them) to bytes; false on anything else.
bool from_hex(std::string_view hex, std::string& out) {
  if (hex.size() % 2) return false;
  out.clear();
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = hex_digit(hex[i]), lo = hex_digit(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.remove_suffix(1);
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  return s;
}

enum class HexLine { Record, NotValue, Header, Blank, Bad };

// The lines ldb and sst_dump print around their entries ("options.env is 0x55d0c0", "Process
// /db/000018.sst", "Sst file format: block-based", "from [] to []"): known, so not counted as
// unparsed. Any other text is a line that was not read, and is counted.
bool is_tool_header(std::string_view line) {
  for (std::string_view h : {"options.", "Process ", "Sst file format:", "from [", "Keys in range:"})
    if (line.substr(0, h.size()) == h) return true;
  return false;
}

// One line of either dump; `type` is sst_dump's value type (1 = a value; others are
// deletions, merges, ...: not data a block of the store's values would hold as such).
HexLine parse_hex_line(std::string_view line, Record& r, int& type) {
  line = trim(line);
  type = 1;
  if (line.empty()) return HexLine::Blank;
  if (line.size() > 2 && line[0] == '0' && (line[1] == 'x' || line[1] == 'X')) {  // ldb scan --hex
    const size_t sep = line.find(" : ");
    if (sep == std::string_view::npos) return HexLine::Bad;
    std::string_view v = line.substr(sep + 3);
    if (v.size() < 2 || v[0] != '0' || (v[1] != 'x' && v[1] != 'X')) return HexLine::Bad;
    return from_hex(line.substr(2, sep - 2), r.key) && from_hex(v.substr(2), r.value) ? HexLine::Record : HexLine::Bad;
  }
  if (!line.empty() && line[0] == '\'') {                               // sst_dump --output_hex
    const size_t close = line.find('\'', 1), arrow = line.find(" =>");  // an empty value: no space after
    const size_t type_at = line.find("type:");
    if (close == std::string_view::npos || arrow == std::string_view::npos || type_at == std::string_view::npos ||
        type_at > arrow)
      return HexLine::Bad;
    type = 0;
    for (size_t i = type_at + 5; i < arrow && i < type_at + 8 && line[i] >= '0' && line[i] <= '9'; ++i)
      type = type * 10 + (line[i] - '0');  // at most 3 digits: no overflow on any input
    if (!from_hex(line.substr(1, close - 1), r.key) || !from_hex(trim(line.substr(arrow + 3)), r.value))
      return HexLine::Bad;
    return type == 1 ? HexLine::Record : HexLine::NotValue;
  }
  return is_tool_header(line) ? HexLine::Header : HexLine::Bad;
}

}  // namespace

bool read_kv_tab(std::string_view data, RecordSet& set) {
  uint64_t total = 0, no_tab = 0, first_bad = 0, blank = 0;
  for_each_line(data, [&](std::string_view line, uint64_t n) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {
      ++blank;
      return;
    }
    ++total;
    const size_t tab = line.find('\t');
    if (tab == std::string_view::npos) {
      if (!no_tab++) first_bad = n + 1;
      return;
    }
    set.records.push_back({std::string(line.substr(0, tab)), std::string(line.substr(tab + 1))});
  });
  if (no_tab * 2 > total) return false;
  set.detail = "key<TAB>value lines";
  if (no_tab)
    set.warnings.push_back("kv: " + std::to_string(no_tab) + " of " + std::to_string(total) +
                           " lines have no tab (first at line " + std::to_string(first_bad) + "): skipped");
  note_blank_lines(set, "kv", blank);
  return true;
}

bool read_kv_hex(std::string_view data, RecordSet& set) {
  uint64_t bad = 0, other_types = 0, first_bad = 0, blank = 0, lines = 0;
  for_each_line(data, [&](std::string_view line, uint64_t n) {
    Record r;
    int type = 1;
    const HexLine kind = parse_hex_line(line, r, type);
    lines += kind != HexLine::Blank;
    blank += kind == HexLine::Blank;
    other_types += kind == HexLine::NotValue;
    if (kind == HexLine::Record) set.records.push_back(std::move(r));
    if (kind == HexLine::Bad && !bad++) first_bad = n + 1;
  });
  if (set.records.empty() || bad > set.records.size()) return false;
  set.detail = "hex key/value dump (ldb scan --hex, sst_dump --output_hex)";
  if (bad)
    set.warnings.push_back("kv-hex: " + std::to_string(bad) + " of " + std::to_string(lines) +
                           " lines are not hex key/value pairs (first at line " + std::to_string(first_bad) +
                           "): skipped");
  if (other_types)
    set.warnings.push_back("kv-hex: " + std::to_string(other_types) +
                           " entries are not values (deletions, merges, ...): skipped");
  note_blank_lines(set, "kv-hex", blank);
  return true;
}

bool looks_like_hex_dump(std::string_view head) {
  uint64_t records = 0, bad = 0, lines = 0;
  for_each_line(head.substr(0, 8192), [&](std::string_view line, uint64_t) {
    Record r;
    int type = 1;
    const HexLine kind = parse_hex_line(line, r, type);
    if (kind == HexLine::Blank) return;
    ++lines;
    records += kind == HexLine::Record;
    bad += kind == HexLine::Bad;
  });
  // A few header lines, and the last line of a sampled head cut short, are allowed.
  return records >= 2 && bad <= 1 + records / 10 && (records + 8) * 2 >= lines;
}

}  // namespace kvz::detail
