// Record modes over corpus files: dispatch, fallbacks between modes, sampling, and key
// uniqueness (README: "Record modes", "Sampling").
#include "blockgen/records.h"

#include "blockgen/corpus.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "blockgen/record_modes.h"
#include "util/text.h"

namespace kvz {

namespace detail {

std::string ordinal_key(uint64_t n) {
  std::string k(12, '0');
  for (int i = 11; i >= 0 && n; --i, n /= 10) k[i] = static_cast<char>('0' + n % 10);
  return k;
}

uint64_t sort_unique(RecordSet& set) {
  auto& r = set.records;
  auto by_key = [](const Record& a, const Record& b) { return a.key < b.key; };
  uint64_t changed = 0;
  for (int pass = 0; pass < 4; ++pass) {
    std::stable_sort(r.begin(), r.end(), by_key);
    uint64_t dup = 0;
    for (size_t i = 1; i < r.size();) {
      size_t j = i;
      while (j < r.size() && r[j].key == r[i - 1].key) {
        const std::string suffix = ordinal_key(j - i + 1);
        r[j].key.push_back('#');
        r[j].key.append(suffix, 2, std::string::npos);
        ++j;
      }
      dup += j - i;
      i = j + 1;
    }
    changed += dup;
    if (!dup) break;
  }
  return changed;
}

size_t fixed_size(const std::string& mode) {
  if (mode.rfind("fixed:", 0) != 0) return 0;
  size_t n = 0;
  auto [p, ec] = std::from_chars(mode.data() + 6, mode.data() + mode.size(), n);
  if (ec != std::errc() || p != mode.data() + mode.size() || n < 1 || n > (1u << 20)) return 0;
  return n;
}

}  // namespace detail

namespace {
constexpr size_t kSampleWindows = 16;
}  // namespace

using detail::detect_mode;
using detail::fixed_size;

namespace {

// A reader fills `set` and returns false, saying why, when the data is mostly unfit for its
// mode; the dispatcher then drops what it read and reads the data as the mode's fallback.
using ModeReader = bool (*)(std::string_view data, const std::string& mode, const RecordOptions& options,
                            RecordSet& set, std::string& why);

struct RecordMode {
  RecordModeInfo info;
  const char* fallback;  // mode read instead when the reader finds the data unfit (null: none)
  ModeReader read;       // null for "auto", which picks another mode first
};

const RecordMode kRecordModes[] = {
    {{"auto", "detect from the data: json, jsonl, kv-hex, csv, tsv, lines or bytes"}, nullptr, nullptr},
    {{"lines", "one record per line; key: the ordinal, or field --key-field N"},
     nullptr,
     [](std::string_view d, const std::string&, const RecordOptions& o, RecordSet& s, std::string&) {
       detail::read_lines(d, o, s);
       return true;
     }},
    {{"jsonl", "one JSON document per line; key: --key-field or the ordinal"},
     "lines",
     [](std::string_view d, const std::string&, const RecordOptions& o, RecordSet& s, std::string& why) {
       why = "most lines are not JSON documents";
       return detail::read_jsonl(d, o, s);
     }},
    {{"json", "the elements of the largest top-level array, one record each"},
     "jsonl",
     [](std::string_view d, const std::string&, const RecordOptions& o, RecordSet& s, std::string& why) {
       return detail::read_json(d, o, s, why);
     }},
    {{"csv", "RFC 4180 rows; key: the fewest leading columns that are unique (--key-columns)"},
     "lines",
     [](std::string_view d, const std::string&, const RecordOptions& o, RecordSet& s, std::string& why) {
       why = "most rows are ragged";
       return detail::read_delimited(d, ',', o, s);
     }},
    {{"tsv", "tab-separated rows, keyed as csv"},
     "lines",
     [](std::string_view d, const std::string&, const RecordOptions& o, RecordSet& s, std::string& why) {
       why = "most rows are ragged";
       return detail::read_delimited(d, '\t', o, s);
     }},
    {{"kv", "key<TAB>value lines: a key/value dump"},
     "lines",
     [](std::string_view d, const std::string&, const RecordOptions&, RecordSet& s, std::string& why) {
       why = "most lines have no tab";
       return detail::read_kv_tab(d, s);
     }},
    {{"kv-hex", "hex key/value dumps: ldb scan --hex, sst_dump --command=scan --output_hex"},
     "lines",
     [](std::string_view d, const std::string&, const RecordOptions&, RecordSet& s, std::string& why) {
       why = "mostly not hex key/value pairs";
       return detail::read_kv_hex(d, s);
     }},
    {{"fixed:N", "records of N bytes (1..1M), key: the ordinal"},
     nullptr,
     [](std::string_view d, const std::string& mode, const RecordOptions&, RecordSet& s, std::string&) {
       detail::read_fixed(d, fixed_size(mode), s);
       return true;
     }},
    {{"bytes", "raw bytes, no records (what the raw layout slices)"},
     nullptr,
     [](std::string_view, const std::string&, const RecordOptions&, RecordSet& s, std::string&) {
       s.detail = "raw bytes, no records";
       return true;
     }},
};

const RecordMode* find_mode(const std::string& mode) {
  if (mode.rfind("fixed:", 0) == 0 && !fixed_size(mode)) return nullptr;  // "fixed:N" names the row only
  const std::string key = fixed_size(mode) ? "fixed:N" : mode;
  for (const auto& m : kRecordModes)
    if (key == m.info.name) return &m;
  return nullptr;
}

// True for a known mode; else `error` says what is wrong with it.
bool known_mode(const std::string& mode, std::string& error) {
  error = record_mode_error(mode);
  return error.empty();
}

// A field number where one is needed: optionally signed digits (a JSON field may be any name).
bool looks_like_number(std::string_view s) {
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// Options the mode read with does not use: said, never silently ignored (an explicit mode
// refuses them up front; this is what auto and the fallbacks chose).
void note_unused_options(const std::string& mode, const RecordOptions& o, RecordSet& set) {
  const bool json = mode == "jsonl" || mode == "json";
  if (!o.key_field.empty() && !json && mode != "lines")
    set.warnings.push_back("--key-field '" + o.key_field + "' is not used by record mode " + mode + ": ignored");
  if (!o.value_field.empty() && !json)
    set.warnings.push_back("--value-field '" + o.value_field + "' is not used by record mode " + mode + ": ignored");
  if (o.key_columns > 0 && mode != "csv" && mode != "tsv")
    set.warnings.push_back("--key-columns is not used by record mode " + mode + ": ignored");
}

}  // namespace

const std::vector<RecordModeInfo>& record_mode_table() {
  static const std::vector<RecordModeInfo> table = [] {
    std::vector<RecordModeInfo> t;
    for (const auto& m : kRecordModes) t.push_back(m.info);
    return t;
  }();
  return table;
}

std::string record_mode_help() {
  std::string s;
  for (const auto& m : kRecordModes) s += (s.empty() ? "" : ", ") + std::string(m.info.name);
  return s;
}

bool is_valid_record_mode(const std::string& mode) { return find_mode(mode) != nullptr; }

std::string record_mode_error(const std::string& mode) {
  if (find_mode(mode)) return "";
  const std::string shown = one_line(mode);
  if (mode.rfind("fixed:", 0) == 0) {
    const std::string_view n = std::string_view(mode).substr(6);
    if (!n.empty() && n.find_first_not_of("0123456789") == std::string_view::npos)
      return "record mode '" + shown + "': the record size " + std::string(n) + " is out of range (1..1048576 bytes)";
    return "record mode '" + shown + "': N of fixed:N is a whole number of bytes, 1..1048576 (e.g. fixed:100)";
  }
  std::vector<std::string> names;
  for (const auto& m : kRecordModes) names.emplace_back(m.info.name);
  const std::string hint = did_you_mean(mode, names);
  return "unknown record mode '" + shown + "'" + (hint.empty() ? "" : ": " + hint) + " (" + record_mode_help() + ")";
}

std::string record_options_error(const std::string& mode, const RecordOptions& o) {
  const bool json = mode == "jsonl" || mode == "json", any = mode == "auto";
  const std::string range = "1.." + std::to_string(kMaxKeyFieldNumber);
  if (!o.key_field.empty() && !json && !any && mode != "lines")
    return "--key-field is not used by -r " + mode +
           (mode == "csv" || mode == "tsv" ? " (its key: --key-columns N)" : " (lines, jsonl and json only)");
  if (!o.value_field.empty() && !json && !any)
    return "--value-field is not used by -r " + mode + " (jsonl and json only)";
  if (o.key_columns > 0 && !any && mode != "csv" && mode != "tsv")
    return "--key-columns is not used by -r " + mode + " (csv and tsv only)";
  if (o.key_field.empty() || json) return "";
  const std::string shown = "--key-field '" + one_line(o.key_field) + "'";
  int n = 0;
  if (looks_like_number(o.key_field) && (!parse_int(o.key_field, n) || n < 1 || n > kMaxKeyFieldNumber))
    return shown + ": a field number is " + range + (any ? " (a JSON field of that name: -r jsonl or -r json)" : "");
  if (!looks_like_number(o.key_field) && mode == "lines") return shown + ": -r lines takes a field number, " + range;
  return "";
}

RecordSet records_from_bytes(std::string data, const std::string& source, const std::string& record_mode,
                             const RecordOptions& options, std::string& error) {
  RecordSet set;
  set.source = source;
  if (!known_mode(record_mode, error)) return set;
  std::string mode = record_mode;
  if (mode == "auto") {
    std::string why;
    mode = detect_mode(data, why);
    set.warnings.push_back("record mode auto: chose " + mode + " (" + why + ")");
  }
  if (data.empty()) set.warnings.push_back(source + ": empty input, no records");
  for (const RecordMode* m = find_mode(mode); m && m->read;) {
    std::string why;
    if (m->read(data, mode, options, set, why)) break;
    // Unfit: forget what this mode read and said, then read the data as its fallback.
    set.records.clear();
    set.columns.clear();
    set.field_separator = 0;
    const std::string prefix = mode + ": ";
    std::erase_if(set.warnings, [&](const std::string& w) { return w.rfind(prefix, 0) == 0; });
    set.warnings.push_back(prefix + why + ": read as " + m->fallback + " instead");
    mode = m->fallback;
    m = find_mode(mode);
  }
  set.record_mode = mode;
  note_unused_options(mode, options, set);
  if (const uint64_t changed = detail::sort_unique(set)) {
    set.warnings.push_back(std::to_string(changed) + " duplicate keys made unique with a '#NNNNNNNNNN' suffix");
  }
  set.sampled_bytes = data.size();
  if (!set.source_bytes) set.source_bytes = data.size();
  if (options.keep_raw || mode == "bytes") {
    set.raw.assign(data.begin(), data.end());
  }
  return set;
}

RecordSet read_corpus(const std::string& path, const std::string& record_mode, size_t max_bytes, std::string& error) {
  return read_corpus(path, record_mode, max_bytes, RecordOptions{}, error);
}

namespace {

// The file open for reading and its size; false with a one-line `error`.
bool open_corpus(const std::string& path, std::ifstream& in, uint64_t& size, std::string& error) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    error = path + ": no such file (or not a regular file)";
    return false;
  }
  size = std::filesystem::file_size(path, ec);
  in.open(path, std::ios::binary);
  if (ec || !in) {
    error = path + ": cannot read: " + std::strerror(errno);
    return false;
  }
  return true;
}

// `n` bytes at `off` into `out` (fewer at the end of the file).
void read_at(std::ifstream& in, uint64_t off, size_t n, std::string& out) {
  out.resize(n);
  in.seekg(static_cast<std::streamoff>(off));
  in.read(out.data(), static_cast<std::streamsize>(n));
  out.resize(static_cast<size_t>(in.gcount()));
  in.clear();
}

// What a file larger than the limit is read as: its sampled bytes, the warning that says how,
// and the mode "auto" chose from the first window.
struct Sample {
  std::string data, note, mode;
};

// kSampleWindows evenly spaced windows of max_bytes / kSampleWindows (whole records for
// fixed:N); text windows are cut to whole lines.
Sample sample_corpus(std::ifstream& in, uint64_t size, size_t max_bytes, const std::string& record_mode) {
  Sample s;
  size_t window = std::max<size_t>(max_bytes / kSampleWindows, 1);
  const size_t fixed = fixed_size(record_mode);
  if (fixed) window = std::max(fixed, window / fixed * fixed);
  std::string head;
  read_at(in, 0, window, head);
  s.mode = record_mode;
  if (s.mode == "auto") {
    std::string why;
    s.mode = detect_mode(head, why);
    if (s.mode == "json") s.mode = "jsonl";
  }
  const bool whole_lines = s.mode != "bytes" && !fixed;
  s.data.reserve(max_bytes);
  std::string w;
  for (size_t i = 0; i < kSampleWindows; ++i) {
    uint64_t off = i * ((size - window) / (kSampleWindows - 1));
    if (fixed) off = off / fixed * fixed;
    if (i == 0)
      w = head;
    else
      read_at(in, off, window, w);
    std::string_view v(w);
    if (whole_lines) {
      if (i > 0) {
        const size_t nl = v.find('\n');
        v = nl == std::string_view::npos ? std::string_view{} : v.substr(nl + 1);
      }
      const size_t last = v.rfind('\n');
      v = last == std::string_view::npos ? std::string_view{} : v.substr(0, last + 1);
    }
    s.data.append(v);
  }
  s.note = "sampled " + std::to_string(s.data.size()) + " of " + std::to_string(size) +
           " bytes: " + std::to_string(kSampleWindows) + " evenly spaced windows of " + std::to_string(window) +
           (whole_lines ? " bytes cut to whole lines" : " bytes");
  return s;
}

}  // namespace

RecordSet read_corpus(const std::string& path, const std::string& record_mode, size_t max_bytes,
                      const RecordOptions& options, std::string& error) {
  RecordSet empty;
  empty.source = path;
  if (!known_mode(record_mode, error)) return empty;
  std::ifstream in;
  uint64_t size = 0;
  if (!open_corpus(path, in, size, error)) return empty;
  if (max_bytes == 0) max_bytes = kDefaultMaxBytes;
  std::string data, sample_note, mode = record_mode;
  if (size <= max_bytes) {
    read_at(in, 0, size, data);
    if (data.size() != size) {
      error = path + ": short read";
      return empty;
    }
  } else {
    Sample sample = sample_corpus(in, size, max_bytes, record_mode);
    data = std::move(sample.data);
    sample_note = std::move(sample.note);
    mode = std::move(sample.mode);  // "auto" chose from the first window, for the whole sample
  }
  const std::string digest = sha256_hex(data);
  RecordSet set = records_from_bytes(std::move(data), path, mode, options, error);
  if (mode != record_mode)
    set.warnings.insert(set.warnings.begin(), "record mode auto: chose " + mode + " from the first window");
  if (!sample_note.empty()) set.warnings.insert(set.warnings.begin(), sample_note);
  set.source_bytes = size;
  set.sample_sha256 = digest;
  return set;
}

}  // namespace kvz
