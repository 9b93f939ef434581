// `kvzbench blocks`: build blocks from corpora or datasets, print their statistics or
// export them one file per block (README: "Export and inspect").
#include "commands/blocks.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <regex>

#include "blockgen/corpus.h"
#include "blockgen/layouts.h"
#include "blockgen/records.h"
#include "blockgen/table.h"
#include "commands/cli_errors.h"
#include "commands/help_format.h"
#include "commands/run_options.h"
#include "commands/source_options.h"
#include "util/bytes.h"
#include "util/files.h"
#include "util/output_paths.h"
#include "util/output_target.h"
#include "util/text.h"

namespace kvz {

namespace fs = std::filesystem;

namespace {

struct Options {
  Options() { sources.layouts = "rocksdb"; }
  SourceArgs sources;
  std::string out;
  bool stats = false;
};

int blocks_usage_error(const std::string& msg) {
  fmt::print(stderr, "kvzbench blocks: error: {}\n", one_line(msg));
  return 2;
}

void print_stats(const BlockSet& b) {
  const size_t n = b.count();
  const LayoutInfo* layout = find_layout(b.layout);
  const std::string size = layout->needs_store_file ? "the file's own blocks (" + b.origin.store + ", " +
                                                          (b.origin.codec.empty() ? "mixed" : b.origin.codec) + ")"
                           : layout->ignores_block_size ? "one block per value"
                                                        : "block size " + format_byte_size(b.block_size);
  fmt::print("{}\n", wrap_words(fmt::format("layout {},", b.layout),
                                fmt::format("{}: {} blocks, {} bytes", size, n, b.total_bytes()), console_columns()));
  if (n == 0) {
    fmt::print("  (no blocks: no input)\n");
    return;
  }
  size_t mn = SIZE_MAX, mx = 0;
  for (size_t i = 0; i < n; ++i) {
    mn = std::min(mn, b.block(i).size());
    mx = std::max(mx, b.block(i).size());
  }
  fmt::print("  block bytes    min {:>8}  mean {:>10.1f}  max {:>8}\n", mn, double(b.total_bytes()) / double(n), mx);
  if (layout->needs_records) {
    const auto [rmin, rmax] = std::minmax_element(b.records_per_block.begin(), b.records_per_block.end());
    uint64_t rsum = 0;
    for (auto r : b.records_per_block) rsum += r;
    fmt::print("  records/block  min {:>8}  mean {:>10.1f}  max {:>8}   ({} records)\n", *rmin,
               double(rsum) / double(n), *rmax, b.composition.records);
  } else {
    fmt::print("  records/block  n/a (raw chunks)\n");
  }
  const auto& c = b.composition;
  const double total = double(c.key_bytes + c.value_bytes + c.overhead_bytes);
  if (!layout->needs_records && c.key_bytes == 0) {
    fmt::print("  bytes          corpus bytes as is (no key/value split)\n");
  } else if (total > 0) {
    fmt::print("  bytes          keys {:.1f}%  values {:.1f}%  overhead {:.1f}%\n", 100.0 * double(c.key_bytes) / total,
               100.0 * double(c.value_bytes) / total, 100.0 * double(c.overhead_bytes) / total);
  }
}

// Every block file and index.tsv are written atomically; index.tsv last, so it only ever
// lists blocks that are whole on disk. Blocks of an earlier, larger export are removed after.
int export_blocks(const BlockSet& b, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return blocks_usage_error(dir + ": cannot create directory: " + ec.message());
  std::string index = "block\tfile\toffset\tbytes\trecords\n";
  std::string error;
  size_t offset = 0;
  for (size_t i = 0; i < b.count(); ++i) {
    const std::string name = fmt::format("{:06}.blk", i);
    const auto blk = b.block(i);
    const std::string_view bytes(reinterpret_cast<const char*>(blk.data()), blk.size());
    if (!write_file_atomically((fs::path(dir) / name).string(), bytes, error)) {
      fmt::print(stderr, "kvzbench blocks: error: {}\n", error);
      return 1;
    }
    index += fmt::format("{}\t{}\t{}\t{}\t{}\n", i, name, offset, blk.size(),
                         i < b.records_per_block.size() ? b.records_per_block[i] : 0);
    offset += blk.size();
  }
  if (!write_file_atomically((fs::path(dir) / "index.tsv").string(), index, error)) {
    fmt::print(stderr, "kvzbench blocks: error: {}\n", error);
    return 1;
  }
  static const std::regex kBlockName("[0-9]{6,}\\.blk");
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string file = e.path().filename().string();
    uint64_t index_of = 0;
    if (!e.is_regular_file() || !std::regex_match(file, kBlockName)) continue;
    if (!parse_u64(std::string_view(file).substr(0, file.size() - 4), index_of) || index_of >= b.count())
      fs::remove(e.path(), ec);
  }
  fmt::print("wrote {} blocks ({} bytes) and index.tsv to {}\n", b.count(), b.total_bytes(), dir);
  return 0;
}

// The App `blocks` parses with; describe_blocks hands the same one to the man page and completions.
void init_app(CLI::App& app, Options& o) {
  app.description("Build the blocks a store would compress; print statistics or export them.");
  fit_help(app);  // within the console's width
  app.name("kvzbench blocks");
  add_source_options(app, o.sources);
  app.add_option("--out", o.out, "write NNNNNN.blk files and index.tsv to this directory");
  app.add_flag("--stats", o.stats, "print block count, sizes, records per block, byte composition");
}

// The options, or false with the exit code: 0 after --help, 2 on a usage error.
bool parse_blocks_args(int argc, char** argv, Options& o, int& code) {
  CLI::App app;
  init_app(app, o);
  if (std::string theirs = foreign_flag_error(app, argc, argv); !theirs.empty()) {
    code = blocks_usage_error(theirs);
    return false;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    fmt::print("{}", app.help());
    code = 0;
    return false;
  } catch (const CLI::ParseError& e) {
    code = blocks_usage_error(parse_error_line(app, e));
    return false;
  }
  if (std::string empty = empty_option_value(app); !empty.empty()) {
    code = blocks_usage_error(empty);
    return false;
  }
  return true;
}

// What to build, resolved before anything is read: one layout, the block sizes, the sources.
struct BlocksPlan {
  const LayoutInfo* layout = nullptr;
  std::vector<size_t> sizes = kDefaultBlockSizes;
  SourceRequest request;
};

bool failed(std::string& error, std::string message) {
  error = std::move(message);
  return false;
}

// False with a one-line error (exit 2).
bool make_blocks_plan(const Options& o, BlocksPlan& p, std::string& error) {
  const SourceArgs& src = o.sources;
  const std::vector<std::string> layouts = split_list(src.layouts);
  if (layouts.size() != 1) return failed(error, "-l takes one layout here: " + join(layout_names()));
  p.layout = find_layout(layouts.front());
  if (!p.layout) return failed(error, unknown_name_error("layout", layouts.front(), layout_names()));
  if (!o.stats && o.out.empty()) return failed(error, "nothing to do: give --stats and/or --out DIR");
  if (src.files.empty() && src.datasets.empty()) return failed(error, "no input: give corpus files or -d DATASET");
  if (!src.block_sizes.empty() && !parse_block_sizes(src.block_sizes, p.sizes, error)) return false;
  if (p.layout->ignores_block_size) p.sizes.resize(1, 4096);  // one pass is enough
  SourceRequest& request = p.request;
  if (!make_source_request(src, request, error)) return false;
  // --max-bytes caps every source, datasets too, as in `run` (files alone: 64M).
  if (!parse_byte_size(src.max_bytes.empty() ? "64M" : src.max_bytes, request.file_max_bytes))
    return failed(error, "bad --max-bytes '" + src.max_bytes + "'");
  if (!src.max_bytes.empty()) request.dataset_bytes = request.file_max_bytes;
  if (!src.dataset_bytes.empty() && !parse_byte_size(src.dataset_bytes, request.dataset_bytes))
    return failed(error, "bad --dataset-bytes '" + src.dataset_bytes + "'");
  if (!o.out.empty() && (p.sizes.size() != 1 || request.files.size() + request.datasets.size() != 1))
    return failed(error, "--out takes exactly one input and one block size");
  if (!o.out.empty()) {
    std::vector<NamedPath> inputs;
    for (const auto& f : src.files) inputs.push_back({"", f});
    if (error = check_output_directory({"--out", o.out}, inputs); !error.empty()) return false;
    if (error = check_directory_link(o.out); !error.empty()) return failed(error, "--out " + error);
    never_follow_links_in(o.out);  // a link planted among the blocks is replaced, never followed
    remove_temporaries_on_signals();
  }
  // The raw layout chunks a file's bytes as they are; record layouts need no raw copy.
  if (!p.layout->needs_records && request.record_mode == "auto") request.record_mode = "bytes";
  request.record.keep_raw = !p.layout->needs_records;
  return true;
}

// Each source's blocks at each size: statistics and/or the export. The exit code.
int build_all(const Options& o, const BlocksPlan& p, const std::vector<Source>& sources) {
  std::string error;
  for (const auto& s : sources) {
    const RecordSet& records = s.records;
    if (o.stats) {  // within the console's width, continued four columns in; names escaped
      fmt::print("{}\n", wrap_words(fmt::format("{}:", one_line(records.source)),
                                    fmt::format("{} bytes{}, record mode {} ({}), {} records", records.source_bytes,
                                                records.sampled_bytes < records.source_bytes
                                                    ? fmt::format(" (sampled {})", records.sampled_bytes)
                                                    : "",
                                                one_line(records.record_mode), one_line(records.detail),
                                                records.records.size()),
                                    console_columns()));
    }
    for (size_t size : p.sizes) {
      const BlockSet b = build_blocks(records, p.layout->name, size, error);
      if (!error.empty()) return blocks_usage_error(error);
      for (size_t i = records.warnings.size(); i < b.warnings.size(); ++i)
        fmt::print(stderr, "{}\n",
                   wrap_words("note:", one_line(records.source) + ": " + one_line(b.warnings[i]), stderr_wrap_width()));
      if (o.stats) print_stats(b);
      if (!o.out.empty()) {
        if (const int rc = export_blocks(b, o.out)) return rc;
      }
    }
  }
  return 0;
}

}  // namespace

void describe_blocks(CLI::App& app) {
  static Options o;  // what the options bind to: a described App is never parsed
  init_app(app, o);
}

int blocks_main(int argc, char** argv) {
  Options o;
  int code = 0;
  if (!parse_blocks_args(argc, argv, o, code)) return code;
  BlocksPlan plan;
  std::string error;
  if (!make_blocks_plan(o, plan, error)) return blocks_usage_error(error);
  std::vector<Source> sources;
  std::vector<std::string> warnings;
  const bool loaded = load_sources(plan.request, sources, warnings, error);
  for (const auto& w : warnings) fmt::print(stderr, "{}\n", wrap_words("note:", one_line(w), stderr_wrap_width()));
  if (!loaded) return blocks_usage_error(error);
  return build_all(o, plan, sources);
}

}  // namespace kvz
