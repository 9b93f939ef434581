#pragma once
// The source flags `run` and `blocks` share, defined once: what to read (files, datasets), how
// to cut records (record mode, key options) and blocks (layouts, sizes), and how much.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "blockgen/pipeline.h"

namespace kvz {

struct SourceArgs {
  std::vector<std::string> files;
  std::string names;        // comma list: --name, one per file
  std::string datasets;     // comma list
  std::string layouts;      // comma list; each command sets its default
  std::string block_sizes;  // comma list; "" = the command's default
  std::string record_mode = "auto";
  std::string max_bytes;      // "" = the command's default
  std::string dataset_bytes;  // "" = the command's default
  std::string seed = "1";
  double compression_ratio = 0.5;
  RecordOptions record;
  bool layouts_given = false;  // set by note_given_sources after parsing
};

// files, -d, -l, -b, -r/-m, --key-field, --key-columns, --max-bytes, --dataset-bytes, --seed,
// --compression-ratio.
void add_source_options(CLI::App& app, SourceArgs& args);
void note_given_sources(const CLI::App& app, SourceArgs& args);
// "" or one line naming the first option given an empty value (`--json ''`, `-c ''`): an
// empty value is a mistake, never "use the default".
std::string empty_option_value(const CLI::App& app);

// The checks every command makes of those flags, and the request they make (files, datasets,
// record mode and key options, seed, dataset options). Sizes and layouts are the command's.
bool make_source_request(const SourceArgs& args, SourceRequest& request, std::string& error);

}  // namespace kvz
