// One reader per record mode (README: "Record modes" and "Fallbacks").
#include <algorithm>
#include <nlohmann/json.hpp>

#include "blockgen/record_modes.h"
#include "util/text.h"

namespace kvz {

namespace detail {

namespace {

bool is_number(std::string_view s) {
  if (s.empty()) return false;
  if (s.front() == '+' || s.front() == '-') s.remove_prefix(1);
  bool digit = false;
  for (char c : s) {
    if (c >= '0' && c <= '9')
      digit = true;
    else if (c != '.' && c != 'e' && c != 'E' && c != '-' && c != '+' && c != ':' && c != ' ')
      return false;
  }
  return digit;
}

// Offset just past the first `k` fields and their separators (quote-aware for ',').
size_t skip_fields(std::string_view line, char sep, int k) {
  size_t i = 0;
  for (int f = 0; f < k && i <= line.size(); ++f) {
    bool quoted = false;
    while (i < line.size()) {
      const char c = line[i];
      if (sep == ',' && c == '"')
        quoted = !quoted;
      else if (c == sep && !quoted)
        break;
      ++i;
    }
    ++i;  // past the separator (or one past the end)
  }
  return std::min(i, line.size());
}

std::string json_key_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Splits on newlines outside quotes (RFC 4180 lets a quoted csv field hold a newline).
template <typename F>
void for_each_row(std::string_view data, char sep, F&& f) {
  if (sep != ',') return for_each_line(data, f);
  size_t start = 0;
  uint64_t n = 0;
  bool quoted = false;
  for (size_t i = 0; i < data.size(); ++i) {
    const char c = data[i];
    if (c == '"')
      quoted = !quoted;
    else if (c == '\n' && !quoted) {
      f(data.substr(start, i - start), n++);
      start = i + 1;
    }
  }
  if (start < data.size()) f(data.substr(start), n++);
}

}  // namespace

void read_lines(std::string_view data, const RecordOptions& opt, RecordSet& set) {
  int field = 0;
  if (!opt.key_field.empty() && (!parse_int(opt.key_field, field) || field < 1 || field > kMaxKeyFieldNumber)) {
    // Reached by auto or a fallback only: an explicit -r lines is checked up front.
    set.warnings.push_back("lines: --key-field '" + opt.key_field + "' is not a field number (1.." +
                           std::to_string(kMaxKeyFieldNumber) + "): keyed by line number");
    field = 0;
  }
  uint64_t missing = 0;
  set.records.reserve(static_cast<size_t>(std::count(data.begin(), data.end(), '\n')) + 1);
  for_each_line(data, [&](std::string_view line, uint64_t n) {
    Record r;
    if (field > 0) {
      size_t pos = 0;
      std::string_view tok;
      for (int f = 0; f < field; ++f) {
        pos = line.find_first_not_of(" \t\r", pos);
        if (pos == std::string_view::npos) {
          tok = {};
          break;
        }
        const size_t end = std::min(line.find_first_of(" \t\r", pos), line.size());
        tok = line.substr(pos, end - pos);
        pos = end;
      }
      if (tok.empty()) ++missing;
      r.key = tok.empty() ? ordinal_key(n + 1) : std::string(tok);
    } else {
      r.key = ordinal_key(n + 1);
    }
    r.value.assign(line);
    set.records.push_back(std::move(r));
  });
  set.detail = field > 0 ? "one record per line, key = field " + std::to_string(field)
                         : "one record per line, key = line number";
  if (missing) {
    set.warnings.push_back("lines: " + std::to_string(missing) + " lines lack field " + std::to_string(field) +
                           ": keyed by line number");
  }
}

// JSON nested deeper than this is not taken apart: nlohmann's dump() recurses once per level,
// and 100,000 nested arrays overflowed the stack. Real documents stay far below it.
constexpr size_t kMaxJsonDepth = 1000;

// Whether `text` nests brackets deeper than `limit` (outside strings): checked before a
// document is parsed into a tree that would be dumped.
bool nests_deeper_than(std::string_view text, size_t limit) {
  size_t depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

// Returns false when most lines are not JSON (the caller then falls back to lines).
namespace {

// --value-field: the record's value is that field alone (a string's text, else compact JSON);
// false when no field is asked for or the document lacks it.
bool field_value(const nlohmann::json& doc, const std::string& field, std::string& out) {
  if (field.empty() || !doc.is_object() || !doc.contains(field)) return false;
  const auto& v = doc[field];
  out = v.is_string() ? v.get<std::string>() : v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return true;
}

}  // namespace

bool read_jsonl(std::string_view data, const RecordOptions& opt, RecordSet& set) {
  uint64_t bad = 0, total = 0, first_bad = 0, no_key = 0, no_value = 0, blank = 0;
  for_each_line(data, [&](std::string_view line, uint64_t n) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
      ++blank;
      return;
    }
    ++total;
    Record r;
    bool ok = !has_binary(line);
    nlohmann::json doc;
    const bool parse = !opt.key_field.empty() || !opt.value_field.empty();
    if (ok && parse) {
      ok = !nests_deeper_than(line, kMaxJsonDepth);
      if (ok) doc = nlohmann::json::parse(line, nullptr, false);
      ok = ok && !doc.is_discarded();
    } else if (ok) {
      ok = nlohmann::json::accept(line);
    }
    if (!ok && !bad++) first_bad = n + 1;
    if (ok && !opt.key_field.empty() && doc.is_object() && doc.contains(opt.key_field)) {
      r.key = json_key_text(doc[opt.key_field]);
    } else {
      if (ok && !opt.key_field.empty()) ++no_key;
      r.key = ordinal_key(n + 1);
    }
    if (!ok || !field_value(doc, opt.value_field, r.value)) {
      if (ok && !opt.value_field.empty()) ++no_value;
      r.value.assign(line);
    }
    set.records.push_back(std::move(r));
  });
  if (bad * 2 > total) return false;
  if (no_value)
    set.warnings.push_back("jsonl: " + std::to_string(no_value) + " documents lack field \"" + opt.value_field +
                           "\": the whole line is the value");
  set.detail = "one JSON document per line, key = " +
               (opt.key_field.empty() ? std::string("line number") : "field \"" + opt.key_field + "\"");
  if (bad) {
    set.warnings.push_back("jsonl: " + std::to_string(bad) + " of " + std::to_string(total) +
                           " lines are not valid JSON text (first at line " + std::to_string(first_bad) +
                           "): kept as opaque values keyed by line number");
  }
  if (no_key) {
    set.warnings.push_back("jsonl: " + std::to_string(no_key) + " documents lack field \"" + opt.key_field +
                           "\": keyed by line number");
  }
  note_blank_lines(set, "jsonl", blank);
  return true;
}

// Records are the members of the largest collection among the document itself and its
// top-level members: array elements (keyed by ordinal) or object members (keyed by name).
bool read_json(std::string_view data, const RecordOptions& opt, RecordSet& set, std::string& why) {
  if (nests_deeper_than(data, kMaxJsonDepth)) {
    why = "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
    return false;
  }
  nlohmann::json doc = nlohmann::json::parse(data, nullptr, false);
  if (doc.is_discarded()) {
    why = "not one valid JSON document";
    return false;
  }
  const nlohmann::json* items = &doc;
  std::string where = doc.is_array() ? "elements of the top-level array" : "members of the top-level object";
  if (doc.is_object()) {
    for (auto it = doc.begin(); it != doc.end(); ++it) {
      if (it->is_structured() && it->size() > items->size()) {
        items = &*it;
        where = std::string(it->is_array() ? "elements of top-level array \"" : "members of top-level object \"") +
                it.key() + "\"";
      }
    }
  }
  auto dump = [](const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); };
  if (!items->is_structured()) {
    set.records.push_back({ordinal_key(1), dump(*items)});
    set.detail = "a single scalar document";
    return true;
  }
  uint64_t no_key = 0, n = 0;
  set.records.reserve(items->size());
  for (auto it = items->begin(); it != items->end(); ++it) {
    Record r;
    ++n;
    if (!opt.key_field.empty() && it->is_object() && it->contains(opt.key_field)) {
      r.key = json_key_text((*it)[opt.key_field]);
    } else {
      if (!opt.key_field.empty()) ++no_key;
      r.key = items->is_object() ? it.key() : ordinal_key(n);
    }
    if (!field_value(*it, opt.value_field, r.value)) r.value = dump(*it);
    set.records.push_back(std::move(r));
  }
  const std::string natural = items->is_object() ? "member name" : "ordinal";
  set.detail = where + ", compact JSON, key = " +
               (opt.key_field.empty() ? natural : "field \"" + opt.key_field + "\" (else " + natural + ")");
  if (no_key) {
    set.warnings.push_back("json: " + std::to_string(no_key) + " documents lack field \"" + opt.key_field +
                           "\": keyed by " + natural);
  }
  return true;
}

bool read_delimited(std::string_view data, char sep, const RecordOptions& opt, RecordSet& set) {
  const std::string name = sep == ',' ? "csv" : "tsv";
  std::vector<std::string_view> rows;
  uint64_t blank = 0;
  for_each_row(data, sep, [&](std::string_view row, uint64_t) {
    if (!row.empty() && row.back() == '\r') row.remove_suffix(1);
    if (!row.empty()) rows.push_back(row);
    blank += row.empty();
  });
  if (rows.empty()) return true;
  std::vector<std::string> f0, f1;
  split_fields(rows[0], sep, f0);
  if (rows.size() > 1) split_fields(rows[1], sep, f1);
  const bool header = rows.size() > 1 && std::none_of(f0.begin(), f0.end(), [](auto& s) { return is_number(s); }) &&
                      std::any_of(f1.begin(), f1.end(), [](auto& s) { return is_number(s); });
  const size_t want = f0.size();
  int kc = opt.key_columns;
  if (kc <= 0) kc = std::max(1, pick_key_columns(rows, sep, want));
  kc = std::max(1, std::min<int>(kc, static_cast<int>(want)));
  for (size_t i = static_cast<size_t>(kc); i < want; ++i)
    set.columns.push_back(header && !f0[i].empty() ? f0[i] : "c" + std::to_string(i + 1));
  set.field_separator = sep;
  uint64_t ragged = 0, first_ragged = 0;
  std::vector<std::string> fields;
  set.records.reserve(rows.size());
  for (size_t i = header ? 1 : 0; i < rows.size(); ++i) {
    split_fields(rows[i], sep, fields);
    if (fields.size() != want && !ragged++) first_ragged = i + 1;
    Record r;
    for (int k = 0; k < kc && k < static_cast<int>(fields.size()); ++k) {
      if (k) r.key.push_back(sep);
      r.key += fields[static_cast<size_t>(k)];
    }
    r.value.assign(rows[i].substr(skip_fields(rows[i], sep, kc)));
    set.records.push_back(std::move(r));
  }
  const uint64_t total = rows.size() - (header ? 1 : 0);
  if (ragged * 2 > total) return false;
  set.detail = name + (header ? " with header" : " without header") + ", key = first " +
               (kc == 1 ? std::string("column") : std::to_string(kc) + " columns") + ", " +
               std::to_string(set.columns.size()) + " value columns";
  if (ragged) {
    set.warnings.push_back(name + ": " + std::to_string(ragged) + " of " + std::to_string(total) +
                           " rows have a field count other than " + std::to_string(want) + " (first at row " +
                           std::to_string(first_ragged) + "): kept with their own fields");
  }
  note_blank_lines(set, name, blank);
  return true;
}

void read_fixed(std::string_view data, size_t n, RecordSet& set) {
  set.records.reserve(data.size() / n + 1);
  uint64_t i = 0;
  for (size_t off = 0; off < data.size(); off += n)
    set.records.push_back({ordinal_key(++i), std::string(data.substr(off, n))});
  set.detail = std::to_string(n) + "-byte records, key = ordinal";
  if (data.size() % n) {
    set.warnings.push_back("fixed:" + std::to_string(n) + ": last record is " + std::to_string(data.size() % n) +
                           " bytes (input not a multiple of " + std::to_string(n) + ")");
  }
}

}  // namespace detail

void split_fields(std::string_view line, char sep, std::vector<std::string>& out) {
  out.clear();
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (sep == ',' && c == '"') {
      if (quoted && i + 1 < line.size() && line[i + 1] == '"')
        cur.push_back('"'), ++i;
      else
        quoted = !quoted;
    } else if (c == sep && !quoted) {
      out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  out.push_back(std::move(cur));
}

std::string value_column_name(const RecordSet& set, size_t i) {
  return i < set.columns.size() ? set.columns[i] : "c" + std::to_string(i + 1);
}

}  // namespace kvz
