// load_compact_results: a results file read as load_results reads it (results_reader.h: the same
// structure, refusals and checks), but of each cell only the members `check` reads are parsed;
// the latency blocks, half a cell's text, are passed over unparsed.
#include <set>
#include <stdexcept>
#include <string_view>

#include <nlohmann/json.hpp>

#include "results/results.h"
#include "results/results_checks.h"
#include "results/results_compact.h"
#include "results/results_json.h"
#include "results/results_reader.h"
#include "results/stream_batches.h"

namespace kvz {

namespace {

using nlohmann::json;

// The members of a cell CompactCells keeps (and the flags cell_from_json and the loader's checks read).
bool kept_member(std::string_view key) {
  static constexpr std::string_view kKept[] = {"key",
                                               "status",
                                               "failure",
                                               "reference",
                                               "current",
                                               "partial_set",
                                               "blocks",
                                               "input_bytes",
                                               "compressed_bytes",
                                               "stored_bytes",
                                               "blocks_kept_raw",
                                               "compress_mbps",
                                               "decompress_mbps",
                                               "compress_cpu_mbps",
                                               "decompress_cpu_mbps"};
  for (const std::string_view k : kKept)
    if (k == key) return true;
  return false;
}

size_t skip_space(std::string_view t, size_t i) {
  while (i < t.size() && (t[i] == ' ' || t[i] == '\n' || t[i] == '\r' || t[i] == '\t')) ++i;
  return i;
}

// The end of the string opening at t[i] (one past its closing quote), or npos.
size_t string_end(std::string_view t, size_t i) {
  for (++i; i < t.size(); ++i) {  // a plain loop: find_first_of calls memchr once a byte
    if (t[i] == '\\') {
      ++i;  // the escaped byte
    } else if (t[i] == '"') {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

bool is_scalar_byte(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '+' || c == '.';
}

// One past the value starting at t[i], found as the file scanner finds a skipped value (json_scan.h):
// brackets counted outside strings, a scalar ends at the first byte that cannot continue it.
size_t value_end(std::string_view t, size_t i) {
  if (i >= t.size()) return std::string_view::npos;
  if (t[i] == '"') return string_end(t, i);
  if (t[i] != '{' && t[i] != '[') {
    const size_t start = i;
    while (i < t.size() && is_scalar_byte(t[i])) ++i;
    return i > start ? i : std::string_view::npos;
  }
  for (int depth = 0; i < t.size();) {
    if (t[i] == '"') {
      i = string_end(t, i);
      if (i == std::string_view::npos) return i;
      continue;
    }
    if (t[i] == '{' || t[i] == '[') ++depth;
    if ((t[i] == '}' || t[i] == ']') && --depth == 0) return i + 1;
    ++i;
  }
  return std::string_view::npos;
}

// The cell's object with only its kept members, as text for nlohmann: the dropped members (the
// latency blocks, half a cell) are passed over as the file's other skipped parts are, checked for
// closed strings and balanced brackets only. False when the text is not a plain object of plainly
// named members: the caller then parses it whole, for json::parse's own refusal.
bool kept_members_text(std::string_view t, std::string& out) {
  size_t i = skip_space(t, 0);
  if (i >= t.size() || t[i] != '{') return false;
  out.assign(1, '{');  // not = "{": GCC 12 misreads it as an overlapping copy (-Wrestrict)
  for (i = skip_space(t, i + 1); i < t.size() && t[i] != '}';) {
    const size_t name_end = t[i] == '"' ? string_end(t, i) : std::string_view::npos;
    if (name_end == std::string_view::npos) return false;
    const std::string_view name = t.substr(i + 1, name_end - i - 2);
    const size_t colon = skip_space(t, name_end);
    if (name.find('\\') != std::string_view::npos || colon >= t.size() || t[colon] != ':') return false;
    const size_t end = value_end(t, skip_space(t, colon + 1));
    if (end == std::string_view::npos) return false;
    if (kept_member(name)) out.append(out.size() > 1 ? "," : "").append(t.substr(i, end - i));
    i = skip_space(t, end);
    if (i < t.size() && t[i] == ',')
      i = skip_space(t, i + 1);
    else if (i >= t.size() || t[i] != '}')
      return false;
  }
  if (i >= t.size() || skip_space(t, i + 1) != t.size()) return false;
  out += '}';
  return true;
}

// One cell's document: its kept members, or the whole cell when its text is not plain.
json kept_document(const std::string& text, std::string& scratch) {
  return kept_members_text(text, scratch) ? json::parse(scratch) : json::parse(text);
}

// The compact run being read: cells kept compact, checked as results_consistency_error checks them.
struct CompactLoad {
  CompactRun run;
  bool meta_seen = false;
  std::set<std::string> known_codecs;
  CurrentRows current_rows;
  std::string first_error;
  std::string scratch;  // a cell's kept members, reused

  void add_cell(const std::string& text) {
    if (!meta_seen) throw CellsBeforeMeta{};
    CellResult c;
    cell_from_json(kept_document(text, scratch), c);
    const std::string id = c.key.id();
    if (run.cells.find(id)) throw std::runtime_error("cell " + id + " appears twice");
    if (first_error.empty()) first_error = cell_consistency_error(known_codecs, c);
    if (first_error.empty()) first_error = current_rows.add(c);
    run.cells.add(facts_of(c, id));
  }
};

}  // namespace

bool load_compact_results(const std::string& path, CompactRun& out, std::string& error) {
  CompactLoad load;
  ResultsFileSink sink;
  sink.schema_version = &load.run.schema_version;
  sink.meta = &load.run.meta;
  sink.on_meta = [&] {
    load.meta_seen = true;
    for (const auto& v : load.run.meta.codec_versions) load.known_codecs.insert(v.codec);
  };
  sink.on_cell = [&](const std::string& text) { load.add_cell(text); };
  sink.consistency_error = [&] { return load.first_error; };
  try {
    if (!read_results_file(path, sink, error)) return false;
  } catch (const CellsBeforeMeta&) {
    RunResults whole;
    if (!load_results(path, whole, error)) return false;
    out = compact_run(whole);
    return true;
  }
  out = std::move(load.run);
  return true;
}

}  // namespace kvz
