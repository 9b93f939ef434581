#pragma once
// Where `kvzbench run` writes, settled before it measures: the given paths, or a directory of
// its own (kvzbench-results/<UTC time>, "-2", "-3"... if taken). Every output is checked
// writable and distinct from the other outputs, from the inputs and from the --check
// baseline, so a long run is never lost to a typo or an overwritten input.
#include <string>
#include <vector>

#include "report/writers.h"
#include "results/results_fwd.h"

namespace kvz {

struct OutputFiles {
  std::string json, csv, md, html;
  // The default directory prepare_outputs made ("" when paths were given), and whether it made
  // kvzbench-results/ too: remove_unused_results_directory takes them away again.
  std::string made_dir;
  bool made_parent = false;
};

// Fills `out` from the given paths (any may be empty) or, when none is given, creates a new
// default directory. `inputs` are the files the run reads (corpora, baseline). "" or one line.
// `--out-dir DIR`: DIR/results-<index>-of-<count>.json into `path`, DIR created if missing (the
// shards of a sweep share it). The error, or "".
std::string shard_results_file(const std::string& dir, int index, int count, std::string& path);

std::string prepare_outputs(const OutputFiles& given, const std::vector<std::string>& inputs, OutputFiles& out);

// "" or one line when an output is one of `inputs` (checked again once the sources are
// resolved: a sweep's corpora are known only then).
std::string output_overwrites_input(const OutputFiles& out, const std::vector<std::string>& inputs);

// A run that ends before writing a file into the directory prepare_outputs made (a source that
// does not read, a failed write) leaves no empty kvzbench-results/<time>/ behind: removed when
// empty, with kvzbench-results/ when this run made it and it is empty too.
void remove_unused_results_directory(const OutputFiles& out);

// Whether any output is standard output ("-", /dev/stdout, ...).
bool writes_stdout(const OutputFiles& out);

// Writes every output (atomically). Paths written go to `written`; errors to stderr, one line
// each. False when any failed. An interrupted run never replaces a complete result: when the
// --json file holds one, every output goes beside its target as NAME.interrupted.EXT (a warning
// says so; results/README.md "One sweep").
// Markdown and HTML with `opt` (the cost model's workload, when given).
bool write_outputs(const OutputFiles& out, const RunResults& r, const ReportOptions& opt,
                   std::vector<std::string>& written);

}  // namespace kvz
