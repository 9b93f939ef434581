// load_results: a results file read front to back, one cell at a time (json_scan.h), never
// whole: a file's text and its nlohmann document cost ~30 KB a cell on top of the model, so a
// 100,000-cell merged sweep needed over 4 GiB to load (bench/scripts/merge_scale.sh).
#include <new>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "results/json_fields.h"
#include "results/json_scan.h"
#include "results/results.h"
#include "results/results_checks.h"
#include "results/results_json.h"
#include "results/results_reader.h"

namespace kvz {

namespace {

using nlohmann::json;

struct Seen {
  bool kvzbench = false, schema = false, meta = false, cells = false;
};

void read_kvzbench_member(JsonFileScanner& s, const std::string& key, ResultsFileSink& sink, Seen& seen) {
  std::string text;
  if (key == "schema_version") {
    s.capture_value(text);
    const int version = json_fields::integer(json{{"schema_version", json::parse(text)}}, "schema_version", 0, 0);
    *sink.schema_version = version;
    seen.schema = true;
    if (version != kResultsSchemaVersion)
      throw LoadRefusal("schema_version " + std::to_string(version) + " is not supported (this kvzbench reads " +
                        std::to_string(kResultsSchemaVersion) + ")");
  } else if (key == "meta") {
    s.capture_value(text);
    meta_from_json(json::parse(text), *sink.meta);
    seen.meta = true;
    if (sink.on_meta) sink.on_meta();
  } else if (key == "cells") {
    seen.cells = true;
    s.elements([&] {
      sink.cell_offset = s.offset();
      s.capture_value(text);
      sink.on_cell(text);
    });
  } else if (key == "recommendations" && sink.on_recommendations) {
    s.capture_value(text);
    sink.on_recommendations(text);
  } else {
    s.skip_value();
  }
}

// The file's kvzbench part, as results_from_json reads it from a string.
void read_results(JsonFileScanner& s, ResultsFileSink& sink) {
  Seen seen;
  s.members([&](const std::string& key) {
    if (key != "kvzbench") return s.skip_value();
    seen.kvzbench = true;
    s.members([&](const std::string& k) { read_kvzbench_member(s, k, sink, seen); });
  });
  s.expect_end();
  if (!seen.kvzbench) throw LoadRefusal("not a kvzbench result (no 'kvzbench' key)");
  if (!seen.schema) throw json_fields::bad("schema_version", "missing");
  if (!seen.meta || !seen.cells) throw std::runtime_error(seen.meta ? "'cells' missing" : "'meta' missing");
  if (std::string e = sink.consistency_error(); !e.empty()) throw std::runtime_error(e);
}

}  // namespace

bool read_results_file(const std::string& path, ResultsFileSink& sink, std::string& error) {
  JsonFileScanner scanner;
  if (!scanner.open(path)) {
    error = path + ": cannot open (missing or unreadable)";
    return false;
  }
  try {
    read_results(scanner, sink);
    return true;
  } catch (const std::exception&) {
    error = path + ": " + load_failure_text(std::current_exception());
  }
  return false;
}

std::string load_failure_text(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const LoadRefusal& e) {
    return e.what();
  } catch (const JsonScanError& e) {
    return e.what();
  } catch (const json::parse_error&) {
    return "not valid JSON";
  } catch (const std::bad_alloc&) {
    return "out of memory loading its cells";
  } catch (const std::exception& e) {
    return std::string("malformed kvzbench result: ") + e.what();
  }
}

bool load_results(const std::string& path, RunResults& out, std::string& error) {
  RunResults r;
  std::set<std::string> ids;
  ResultsFileSink sink;
  sink.schema_version = &r.schema_version;
  sink.meta = &r.meta;
  sink.on_cell = [&](const std::string& text) {
    CellResult c;
    cell_from_json(json::parse(text), c);
    if (!ids.insert(c.key.id()).second) throw std::runtime_error("cell " + c.key.id() + " appears twice");
    r.cells.push_back(std::move(c));
  };
  sink.on_recommendations = [&](const std::string& text) {
    r.recommendations = recommendations_from_json(json::parse(text));
  };
  sink.consistency_error = [&] { return results_consistency_error(r); };
  if (!read_results_file(path, sink, error)) return false;
  out = std::move(r);
  return true;
}

}  // namespace kvz
