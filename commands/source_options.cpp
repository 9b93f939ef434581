#include "commands/source_options.h"

#include <set>

#include <fmt/format.h>

#include "blockgen/layouts.h"
#include "blockgen/records.h"
#include "blockgen/table.h"
#include "util/bytes.h"
#include "util/text.h"

namespace kvz {

void add_source_options(CLI::App& app, SourceArgs& a) {
  app.add_option("files", a.files, "corpus files (paths or manifest names)");
  app.add_option("--name", a.names,
                 "names for the files, comma separated, in order: the source in cell ids and reports "
                 "(default: the file name)");
  app.add_option("-d,--dataset", a.datasets, "built-in datasets, comma separated: " + join(dataset_names()));
  app.add_option("-l,--layout", a.layouts, "layouts, comma separated: " + join(layout_names()))->capture_default_str();
  app.add_option("-b,--block-size", a.block_sizes,
                 fmt::format("block sizes, e.g. 4K,64K ({}..{})", format_byte_size(kMinBlockSize),
                             format_byte_size(kMaxBlockSize)));
  app.add_option("-r,-m,--record-mode", a.record_mode, "record mode for corpus files: " + record_mode_help())
      ->capture_default_str();
  app.add_option("--key-field", a.record.key_field, "jsonl/json: field for the key; lines: 1-based field number");
  app.add_option("--value-field", a.record.value_field,
                 "jsonl/json: the value is this field alone (a string's text, else its JSON)");
  app.add_option("--key-columns", a.record.key_columns,
                 "csv/tsv: leading columns forming the key (default: the fewest, up to 3, that are unique)")
      ->check(CLI::Range(1, 1000));
  app.add_option("--max-bytes", a.max_bytes, "sample at most this much of each source");
  app.add_option("--dataset-bytes", a.dataset_bytes, "dataset size in key+value bytes");
  app.add_option("--seed", a.seed, "seed for datasets and the dictionary split, 0..2^64-1")->capture_default_str();
  app.add_option("--compression-ratio", a.compression_ratio, "dbbench/mixgraph value compressibility, (0, 1]")
      ->capture_default_str();
}

void note_given_sources(const CLI::App& app, SourceArgs& a) { a.layouts_given = app.count("--layout") > 0; }

std::string empty_option_value(const CLI::App& app) {
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->count() == 0 || opt->get_type_size_min() == 0 || opt->get_positional()) continue;  // flags, unused
    for (const std::string& value : opt->results()) {
      if (trim(value).empty()) return "option " + opt->get_name() + ": empty value";
    }
  }
  return "";
}

bool make_source_request(const SourceArgs& a, SourceRequest& r, std::string& error) {
  r.files = a.files;
  r.datasets = split_list(a.datasets);
  for (const auto& d : r.datasets) {
    if (!find_dataset(d)) {
      error = unknown_name_error("dataset", d, dataset_names());
      return false;
    }
  }
  error = record_mode_error(a.record_mode);
  if (error.empty()) error = record_options_error(a.record_mode, a.record);
  if (!error.empty()) return false;
  r.record_mode = a.record_mode;
  r.read_store_files = reads_store_files(a.record_mode);
  r.record = a.record;
  if (!a.names.empty()) {
    r.names = split_list(a.names);
    if (r.names.size() != r.files.size()) {
      error =
          fmt::format("--name gives {} name(s) for {} file(s): one per file, in order", r.names.size(), r.files.size());
      return false;
    }
    std::set<std::string> seen(r.datasets.begin(), r.datasets.end());
    for (const auto& n : r.names) {
      if (n.empty() || n.find('/') != std::string::npos || !seen.insert(n).second) {
        error = "--name '" + n + "': each name must be non-empty, unique (also among datasets) and without '/'";
        return false;
      }
    }
  }
  if (!parse_u64(a.seed, r.seed)) {
    error = "bad --seed '" + a.seed + "' (an integer 0..2^64-1)";
    return false;
  }
  if (!(a.compression_ratio > 0 && a.compression_ratio <= 1)) {
    error = "--compression-ratio must be in (0, 1]";
    return false;
  }
  r.dataset.compression_ratio = a.compression_ratio;
  return true;
}

}  // namespace kvz
