// `kvzbench merge` on files of any size: merge_result_files streams its inputs twice and never
// holds a run. The first pass reads each input's metadata (and skips the rest without keeping
// it); the rules of merge_plan.cpp then decide the merged metadata and each input's keys. The
// second pass takes one cell at a time: it is parsed, keyed, checked against the cells before it
// (by id, and one current row per block set: the little kept per cell), its Google Benchmark
// rows written to the output and its own line to a spool file, which follows the metadata at
// the end. The pieces are results_json.h's, so the file is the in-memory merge's, byte for byte.
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "results/json_fields.h"
#include "results/json_scan.h"
#include "results/merge_plan.h"
#include "results/results.h"
#include "results/results_checks.h"
#include "results/results_json.h"
#include "util/files.h"

namespace kvz {

namespace {

using nlohmann::json;

// An error that is already the whole line (the input path is not prefixed again).
struct MergeRefusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct InputHead {
  bool has_kvzbench = false, has_meta = false, has_cells = false;
  int schema_version = 0;
  RunMeta meta;
};

void open_input(JsonFileScanner& scanner, const std::string& path) {
  if (!scanner.open(path)) throw MergeRefusal(path + ": cannot open (missing or unreadable)");
}

int schema_version_of(const std::string& path, const std::string& text) {
  const int version = json_fields::integer(json{{"schema_version", json::parse(text)}}, "schema_version", 0, 0);
  if (version != kResultsSchemaVersion)
    throw MergeRefusal(path + ": schema_version " + std::to_string(version) +
                       " is not supported (this kvzbench reads " + std::to_string(kResultsSchemaVersion) + ")");
  return version;
}

// Walks to the `kvzbench` object and hands each of its members to on_member.
void walk_kvzbench(JsonFileScanner& s, InputHead& head, const std::function<void(const std::string&)>& on_member) {
  s.members([&](const std::string& key) {
    if (key != "kvzbench") return s.skip_value();
    head.has_kvzbench = true;
    s.members(on_member);
  });
  s.expect_end();
}

// Pass 1: schema version and metadata; the cells are only skipped.
InputHead read_head(const std::string& path) {
  JsonFileScanner s;
  open_input(s, path);
  InputHead head;
  std::string text;
  walk_kvzbench(s, head, [&](const std::string& key) {
    if (key == "schema_version") {
      s.capture_value(text);
      head.schema_version = schema_version_of(path, text);
    } else if (key == "meta") {
      s.capture_value(text);
      meta_from_json(json::parse(text), head.meta);
      head.has_meta = true;
    } else {
      head.has_cells = head.has_cells || key == "cells";
      s.skip_value();
    }
  });
  if (!head.has_kvzbench) throw MergeRefusal(path + ": not a kvzbench result (no 'kvzbench' key)");
  if (!head.has_meta || !head.has_cells || head.schema_version == 0)
    throw std::runtime_error(std::string("'") + (head.schema_version == 0 ? "schema_version" : "meta/cells") +
                             "' missing");
  return head;
}

// Pass 2's state: the output, the spool of cell lines, and the little kept per cell.
class MergeWriter {
 public:
  MergeWriter(const MergePlan& plan, const std::string& out_path) : plan_(plan), out_(out_path) {}

  bool open(std::string& error) {
    spool_.reset(std::tmpfile());
    if (!spool_) {
      error = std::string("cannot create a temporary file for the cells: ") + std::strerror(errno);
      return false;
    }
    if (!out_.open(error)) return false;
    rows_ = results_head(plan_.meta());
    return true;
  }

  // One cell of input `input`: keyed by the plan, checked, written.
  void add(size_t input, const std::set<std::string>& codecs, CellResult& c) {
    plan_.qualify(input, c.key);
    check(input, codecs, c);
    append_gb_rows(rows_, first_row_, family_, c);
    line_.clear();
    append_cell(line_, first_cell_, c);
    if (std::fwrite(line_.data(), 1, line_.size(), spool_.get()) != line_.size())
      throw MergeRefusal(std::string("cannot write the cells' temporary file: ") + std::strerror(errno));
    if (rows_.size() > (1u << 20)) flush();
    ++cells_;
  }

  bool finish(std::string& error) {
    flush();
    rows_ = results_middle(plan_.schema_version(), plan_.meta());
    flush();
    if (std::fflush(spool_.get()) != 0 || std::fseek(spool_.get(), 0, SEEK_SET) != 0)
      throw MergeRefusal(std::string("cannot read the cells' temporary file back: ") + std::strerror(errno));
    std::vector<char> chunk(1 << 20);
    for (size_t n; (n = std::fread(chunk.data(), 1, chunk.size(), spool_.get())) > 0;) {
      rows_.assign(chunk.data(), n);
      flush();
    }
    rows_ = kResultsTail;
    flush();
    return out_.commit(error);
  }

  size_t cells() const { return cells_; }

 private:
  void check(size_t input, const std::set<std::string>& codecs, const CellResult& c) {
    const auto [it, first] = owner_.emplace(c.key.id(), input);
    if (!first && it->second == input) throw std::runtime_error("cell " + c.key.id() + " appears twice");
    if (!first)
      throw MergeRefusal("cell " + c.key.id() + " is in input " + std::to_string(it->second + 1) + " and input " +
                         std::to_string(input + 1) + ": merge joins disjoint results only");
    if (std::string e = cell_consistency_error(codecs, c); !e.empty()) throw std::runtime_error(e);
    if (std::string e = current_.add(c); !e.empty()) throw MergeRefusal(e);
  }

  void flush() {
    std::string error;
    if (!out_.write(rows_, error)) throw MergeRefusal(error);
    rows_.clear();
  }

  const MergePlan& plan_;
  StreamedFileWriter out_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> spool_{nullptr, &std::fclose};
  std::string rows_, line_;
  bool first_row_ = true, first_cell_ = true;
  int family_ = 0;
  size_t cells_ = 0;
  std::unordered_map<std::string, size_t> owner_;  // cell id -> input: ~150 bytes a cell
  CurrentRows current_;
};

// Pass 2 over one input.
void stream_cells(const std::string& path, size_t input, const std::set<std::string>& codecs, MergeWriter& writer) {
  JsonFileScanner s;
  open_input(s, path);
  InputHead head;
  std::string text;
  walk_kvzbench(s, head, [&](const std::string& key) {
    if (key != "cells") return s.skip_value();
    s.elements([&] {
      s.capture_value(text);
      CellResult c;
      cell_from_json(json::parse(text), c);
      writer.add(input, codecs, c);
    });
  });
}

// Runs one step on one input; an error is one line, a malformed input's naming the input as
// load_results would.
template <typename Step>
bool on_input(const std::string& path, std::string& error, Step step) {
  try {
    step();
    return true;
  } catch (const MergeRefusal& e) {
    error = e.what();
  } catch (const std::exception& e) {
    error = path + ": malformed kvzbench result: " + e.what();
  }
  return false;
}

}  // namespace

bool merge_result_files(const std::vector<std::string>& paths, const std::string& out_path, size_t& cells,
                        std::string& error, RunMeta* merged_meta) {
  MergePlan plan;
  std::vector<std::set<std::string>> codecs;  // each input's own codecs, as its loader checks
  for (const auto& path : paths) {
    InputHead head;
    if (!on_input(path, error, [&] { head = read_head(path); })) return false;
    plan.add_input(head.schema_version, head.meta);
    codecs.emplace_back();
    for (const auto& v : head.meta.codec_versions) codecs.back().insert(v.codec);
  }
  error = plan.finish();
  if (!error.empty()) return false;
  MergeWriter writer(plan, out_path);
  if (!writer.open(error)) return false;
  for (size_t i = 0; i < paths.size(); ++i)
    if (!on_input(paths[i], error, [&] { stream_cells(paths[i], i, codecs[i], writer); })) return false;
  bool done = false;
  if (!on_input(out_path, error, [&] { done = writer.finish(error); })) return false;
  cells = writer.cells();
  if (done && merged_meta) *merged_meta = plan.meta();
  return done;
}

}  // namespace kvz
