// Record modes over corpus files: dispatch, fallbacks between modes, sampling, and key
// uniqueness (README: "Record modes", "Sampling").
#include "blockgen/records.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "blockgen/record_modes.h"

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
using detail::read_delimited;
using detail::read_fixed;
using detail::read_json;
using detail::read_jsonl;
using detail::read_lines;

bool is_valid_record_mode(const std::string& mode) {
  static const char* const kModes[] = {"auto", "lines", "jsonl", "json", "csv", "tsv", "bytes"};
  for (const char* m : kModes)
    if (mode == m) return true;
  return fixed_size(mode) > 0;
}

RecordSet records_from_bytes(std::string data, const std::string& source, const std::string& record_mode,
                             const RecordOptions& options, std::string& error) {
  RecordSet set;
  set.source = source;
  if (!is_valid_record_mode(record_mode)) {
    error = "unknown record mode '" + record_mode + "' (auto, lines, jsonl, json, csv, tsv, fixed:N, bytes)";
    return set;
  }
  std::string mode = record_mode;
  if (mode == "auto") {
    std::string why;
    mode = detect_mode(data, why);
    set.warnings.push_back("record mode auto: chose " + mode + " (" + why + ")");
  }
  if (data.empty()) set.warnings.push_back(source + ": empty input, no records");
  if (mode == "json") {
    std::string why;
    if (!read_json(data, options, set, why)) {
      set.warnings.push_back("json: " + why + ": read as jsonl/lines instead");
      set.records.clear();
      mode = "jsonl";
    }
  }
  if (mode == "jsonl" && !read_jsonl(data, options, set)) {
    set.warnings.push_back("jsonl: most lines are not JSON documents: read as lines instead");
    set.records.clear();
    set.warnings.erase(std::remove_if(set.warnings.begin(), set.warnings.end(),
                                      [](const std::string& w) { return w.rfind("jsonl: ", 0) == 0 && w.find("instead") == std::string::npos; }),
                       set.warnings.end());
    mode = "lines";
  }
  if (mode == "csv" || mode == "tsv") {
    if (!read_delimited(data, mode == "csv" ? ',' : '\t', options, set)) {
      set.warnings.push_back(mode + ": most rows are ragged: read as lines instead");
      set.records.clear();
      set.columns.clear();
      set.field_separator = 0;
      set.warnings.erase(std::remove_if(set.warnings.begin(), set.warnings.end(),
                                        [&](const std::string& w) { return w.rfind(mode + ": ", 0) == 0 && w.find("instead") == std::string::npos; }),
                         set.warnings.end());
      mode = "lines";
    }
  }
  if (mode == "lines") read_lines(data, options, set);
  if (const size_t n = fixed_size(mode)) read_fixed(data, n, set);
  if (mode == "bytes") set.detail = "raw bytes, no records";
  set.record_mode = mode;
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

RecordSet read_corpus(const std::string& path, const std::string& record_mode, size_t max_bytes,
                      std::string& error) {
  return read_corpus(path, record_mode, max_bytes, RecordOptions{}, error);
}

RecordSet read_corpus(const std::string& path, const std::string& record_mode, size_t max_bytes,
                      const RecordOptions& options, std::string& error) {
  RecordSet empty;
  empty.source = path;
  if (!is_valid_record_mode(record_mode)) {
    error = "unknown record mode '" + record_mode + "' (auto, lines, jsonl, json, csv, tsv, fixed:N, bytes)";
    return empty;
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    error = path + ": no such file (or not a regular file)";
    return empty;
  }
  const uint64_t size = std::filesystem::file_size(path, ec);
  std::ifstream in(path, std::ios::binary);
  if (ec || !in) {
    error = path + ": cannot read: " + std::strerror(errno);
    return empty;
  }
  if (max_bytes == 0) max_bytes = kDefaultMaxBytes;
  std::string data;
  std::string sample_note;
  auto read_at = [&](uint64_t off, size_t n, std::string& out) {
    out.resize(n);
    in.seekg(static_cast<std::streamoff>(off));
    in.read(out.data(), static_cast<std::streamsize>(n));
    out.resize(static_cast<size_t>(in.gcount()));
    in.clear();
  };
  if (size <= max_bytes) {
    read_at(0, size, data);
    if (data.size() != size) {
      error = path + ": short read";
      return empty;
    }
  } else {
    // Sample: kSampleWindows evenly spaced windows; text windows are cut to whole lines.
    size_t window = std::max<size_t>(max_bytes / kSampleWindows, 1);
    const size_t fixed = fixed_size(record_mode);
    if (fixed) window = std::max(fixed, window / fixed * fixed);
    std::string head;
    read_at(0, window, head);
    std::string mode = record_mode;
    if (mode == "auto") {
      std::string why;
      mode = detect_mode(head, why);
      if (mode == "json") mode = "jsonl";
    }
    const bool whole_lines = mode != "bytes" && !fixed;
    data.reserve(max_bytes);
    std::string w;
    for (size_t i = 0; i < kSampleWindows; ++i) {
      uint64_t off = i * ((size - window) / (kSampleWindows - 1));
      if (fixed) off = off / fixed * fixed;
      if (i == 0) w = head; else read_at(off, window, w);
      std::string_view v(w);
      if (whole_lines) {
        if (i > 0) {
          const size_t nl = v.find('\n');
          v = nl == std::string_view::npos ? std::string_view{} : v.substr(nl + 1);
        }
        const size_t last = v.rfind('\n');
        v = last == std::string_view::npos ? std::string_view{} : v.substr(0, last + 1);
      }
      data.append(v);
    }
    sample_note = "sampled " + std::to_string(data.size()) + " of " + std::to_string(size) + " bytes: " +
                  std::to_string(kSampleWindows) + " evenly spaced windows of " + std::to_string(window) +
                  (whole_lines ? " bytes cut to whole lines" : " bytes");
    if (record_mode == "auto") {
      RecordSet set = records_from_bytes(std::move(data), path, mode, options, error);
      set.warnings.insert(set.warnings.begin(), "record mode auto: chose " + mode + " from the first window");
      set.warnings.insert(set.warnings.begin(), sample_note);
      set.source_bytes = size;
      return set;
    }
  }
  RecordSet set = records_from_bytes(std::move(data), path, record_mode, options, error);
  if (!sample_note.empty()) set.warnings.insert(set.warnings.begin(), sample_note);
  set.source_bytes = size;
  return set;
}

}  // namespace kvz
