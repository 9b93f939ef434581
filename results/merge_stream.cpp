// `kvzbench merge` on files of any size: merge_result_files streams its inputs twice and never
// holds a run. The first pass reads each input's metadata (and skips the rest without keeping
// it), two inputs at a time; the rules of merge_plan.cpp then decide the merged metadata and
// each input's keys. The second pass hands each input's cells, as text, to merge_pipeline.h,
// which parses and formats them on every core and checks and writes them in order. The pieces
// are results_json.h's, so the file is the in-memory merge's, byte for byte.
#include <functional>
#include <future>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/json_fields.h"
#include "results/json_scan.h"
#include "results/merge_pipeline.h"
#include "results/merge_plan.h"
#include "results/results.h"
#include "results/results_json.h"

namespace kvz {

namespace {

using nlohmann::json;

struct InputHead {
  bool has_kvzbench = false, has_meta = false, has_cells = false;
  int schema_version = 0;
  RunMeta meta;
  uint64_t kvzbench_offset = 0;  // where the `kvzbench` object starts: pass 2 goes straight there
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
    head.kvzbench_offset = s.offset();
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

// Pass 2 over one input.
void stream_cells(const std::string& path, size_t input, const InputHead& head, MergePipeline& pipeline) {
  JsonFileScanner s;
  open_input(s, path);
  if (!s.seek(head.kvzbench_offset)) throw MergeRefusal(path + ": cannot read it again (not a regular file?)");
  s.members([&](const std::string& key) {
    if (key != "cells") return s.skip_value();
    s.elements([&] {
      std::string text;
      s.capture_value(text);
      pipeline.add(input, std::move(text));
    });
  });
  pipeline.end_input();
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

// Pass 1, two inputs at a time (reading is most of it); the error is the first input's in order.
bool read_heads(const std::vector<std::string>& paths, std::vector<InputHead>& heads, std::string& error) {
  heads.resize(paths.size());
  const auto read = [&](size_t i) {
    std::string e;
    on_input(paths[i], e, [&] { heads[i] = read_head(paths[i]); });
    return e;
  };
  for (size_t i = 0; i < paths.size(); i += 2) {
    auto second = i + 1 < paths.size() ? std::async(std::launch::async, read, i + 1) : std::future<std::string>();
    error = read(i);
    const std::string second_error = second.valid() ? second.get() : "";
    if (error.empty()) error = second_error;
    if (!error.empty()) return false;
  }
  return true;
}

// Pass 2: every input's cells through the pipeline. A cell before the point where an input's
// scan failed is still checked: its error, if it has one, is the one a single thread meets first.
bool merge_cells(const std::vector<std::string>& paths, const std::vector<InputHead>& heads, const MergePlan& plan,
                 const std::vector<std::set<std::string>>& codecs, MergeWriter& writer, std::string& error) {
  MergePipeline pipeline(plan, codecs, paths, writer);
  for (size_t i = 0; i < paths.size(); ++i) {
    if (on_input(paths[i], error, [&] { stream_cells(paths[i], i, heads[i], pipeline); })) continue;
    if (std::string earlier = pipeline.drain(); !earlier.empty()) error = earlier;
    return false;
  }
  error = pipeline.drain();
  return error.empty();
}

}  // namespace

bool load_results_meta(const std::string& path, RunMeta& meta, std::string& error) {
  return on_input(path, error, [&] { meta = read_head(path).meta; });
}

bool merge_result_files(const std::vector<std::string>& paths, const std::string& out_path, size_t& cells,
                        std::string& error, RunMeta* merged_meta) {
  std::vector<InputHead> heads;
  if (!read_heads(paths, heads, error)) return false;
  MergePlan plan(true);                       // `kvzbench merge`: one sweep or nothing
  std::vector<std::set<std::string>> codecs;  // each input's own codecs, as its loader checks
  for (size_t i = 0; i < heads.size(); ++i) {
    const InputHead& head = heads[i];
    plan.add_input(head.schema_version, head.meta, paths[i]);
    codecs.emplace_back();
    for (const auto& v : head.meta.codec_versions) codecs.back().insert(v.codec);
  }
  error = plan.finish();
  if (!error.empty()) return false;
  MergeWriter writer(plan, out_path);
  if (!writer.open(error) || !merge_cells(paths, heads, plan, codecs, writer, error)) return false;
  bool done = false;
  if (!on_input(out_path, error, [&] { done = writer.finish(error); })) return false;
  cells = writer.cells();
  if (done && merged_meta) *merged_meta = plan.meta();
  return done;
}

}  // namespace kvz
