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
#include "util/bytes.h"

namespace kvz {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxDatasetBytes = size_t{1} << 30;

struct Options {
  std::string layout = "rocksdb";
  std::vector<std::string> sizes;
  std::vector<std::string> datasets;
  std::string seed_text = "1";
  uint64_t seed = 1;
  std::string dataset_bytes;
  double compression_ratio = 0.5;
  std::string mode = "auto";
  RecordOptions record;
  std::string max_bytes = "64M";
  std::string out;
  bool stats = false;
  std::vector<std::string> files;
};

int usage_error(const std::string& msg) {
  fmt::print(stderr, "kvzbench blocks: error: {}\n", msg);
  return 2;
}

void print_stats(const BlockSet& b) {
  const size_t n = b.count();
  const std::string size = b.layout == "values:single" ? "one block per value" : "block size " + format_byte_size(b.block_size);
  fmt::print("layout {}, {}: {} blocks, {} bytes\n", b.layout, size, n, b.total_bytes());
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
  if (b.layout != "raw") {
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
  if (b.layout == "raw" && c.key_bytes == 0) {
    fmt::print("  bytes          corpus bytes as is (no key/value split)\n");
  } else if (total > 0) {
    fmt::print("  bytes          keys {:.1f}%  values {:.1f}%  overhead {:.1f}%\n", 100.0 * double(c.key_bytes) / total,
               100.0 * double(c.value_bytes) / total, 100.0 * double(c.overhead_bytes) / total);
  }
}

int export_blocks(const BlockSet& b, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return usage_error(dir + ": cannot create directory: " + ec.message());
  // Remove blocks of an earlier export so the directory holds exactly this set.
  static const std::regex kBlockName("[0-9]{6,}\\.blk");
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_regular_file() && std::regex_match(e.path().filename().string(), kBlockName)) fs::remove(e.path(), ec);
  }
  std::ofstream index(fs::path(dir) / "index.tsv");
  index << "block\tfile\toffset\tbytes\trecords\n";
  size_t offset = 0;
  for (size_t i = 0; i < b.count(); ++i) {
    const std::string name = fmt::format("{:06}.blk", i);
    std::ofstream f(fs::path(dir) / name, std::ios::binary);
    const auto blk = b.block(i);
    f.write(reinterpret_cast<const char*>(blk.data()), static_cast<std::streamsize>(blk.size()));
    if (!f) {
      fmt::print(stderr, "kvzbench blocks: error: {}: write failed\n", (fs::path(dir) / name).string());
      return 1;
    }
    index << i << '\t' << name << '\t' << offset << '\t' << blk.size() << '\t'
          << (i < b.records_per_block.size() ? b.records_per_block[i] : 0) << '\n';
    offset += blk.size();
  }
  if (!index) {
    fmt::print(stderr, "kvzbench blocks: error: {}/index.tsv: write failed\n", dir);
    return 1;
  }
  fmt::print("wrote {} blocks ({} bytes) and index.tsv to {}\n", b.count(), b.total_bytes(), dir);
  return 0;
}

}  // namespace

int blocks_main(int argc, char** argv) {
  Options o;
  CLI::App app{"Build the blocks a store would compress; print statistics or export them."};
  app.name("kvzbench blocks");
  app.add_option("-l,--layout", o.layout, "raw, leveldb, rocksdb, hbase, values, values:single (default rocksdb)");
  app.add_option("-b,--block-size", o.sizes, "target block size(s), 1K..1M, comma-separated (default 1K,4K,16K,64K)")
      ->delimiter(',')
      ->allow_extra_args(false);
  app.add_option("-d,--dataset", o.datasets, "synthetic dataset: dbbench, mixgraph, cache, json-docs, timeseries")
      ->allow_extra_args(false);
  app.add_option("--seed", o.seed_text, "dataset seed, 0..2^64-1 (default 1)");
  app.add_option("--dataset-bytes", o.dataset_bytes, "dataset size in key+value bytes (default 16M)");
  app.add_option("--compression-ratio", o.compression_ratio, "dbbench/mixgraph value compressibility (default 0.5)");
  app.add_option("-m,--record-mode", o.mode, "auto, lines, jsonl, json, csv, tsv, fixed:N, bytes (default auto)");
  app.add_option("--key-field", o.record.key_field, "jsonl/json: field for the key; lines: 1-based field number");
  app.add_option("--key-columns", o.record.key_columns, "csv/tsv: leading columns forming the key (default: the fewest, up to 3, that are unique)")
      ->check(CLI::Range(1, 1000));
  app.add_option("--max-bytes", o.max_bytes, "sample at most this much of each corpus (default 64M)");
  app.add_option("--out", o.out, "write NNNNNN.blk files and index.tsv to this directory");
  app.add_flag("--stats", o.stats, "print block count, sizes, records per block, byte composition");
  app.add_option("files", o.files, "corpus files or manifest names");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    fmt::print("{}", app.help());
    return 0;
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }

  if (!is_valid_layout(o.layout)) return usage_error("unknown layout '" + o.layout + "' (raw, leveldb, rocksdb, hbase, values, values:single)");
  if (!is_valid_record_mode(o.mode)) return usage_error("unknown record mode '" + o.mode + "' (auto, lines, jsonl, json, csv, tsv, fixed:N, bytes)");
  if (!o.stats && o.out.empty()) return usage_error("nothing to do: give --stats and/or --out DIR");
  if (o.files.empty() && o.datasets.empty()) return usage_error("no input: give corpus files or -d DATASET");
  std::vector<size_t> sizes;
  for (const auto& s : o.sizes) {
    size_t v = 0;
    if (!parse_byte_size(s, v)) return usage_error("bad block size '" + s + "' (e.g. 4096, 4K, 1M)");
    if (v < kMinBlockSize || v > kMaxBlockSize) return usage_error("block size " + s + " out of range 1K..1M");
    sizes.push_back(v);
  }
  // values:single ignores the block size: one pass is enough.
  if (o.layout == "values:single") sizes.resize(1, 4096);
  if (sizes.empty()) sizes = kDefaultBlockSizes;
  size_t max_bytes = 0, dataset_bytes = 0;
  if (!parse_byte_size(o.max_bytes, max_bytes) || max_bytes == 0) return usage_error("bad --max-bytes '" + o.max_bytes + "'");
  if (!o.dataset_bytes.empty() && (!parse_byte_size(o.dataset_bytes, dataset_bytes) || dataset_bytes == 0))
    return usage_error("bad --dataset-bytes '" + o.dataset_bytes + "'");
  {
    const char* end = o.seed_text.data() + o.seed_text.size();
    auto [p, ec] = std::from_chars(o.seed_text.data(), end, o.seed);
    if (ec != std::errc() || p != end) return usage_error("bad --seed '" + o.seed_text + "' (an integer 0..2^64-1)");
  }
  if (dataset_bytes > kMaxDatasetBytes) return usage_error("--dataset-bytes above 1G: datasets are built in memory");
  if (!o.out.empty() && (sizes.size() != 1 || o.files.size() + o.datasets.size() != 1))
    return usage_error("--out takes exactly one input and one block size");
  for (const auto& d : o.datasets)
    if (!is_valid_dataset(d)) return usage_error("unknown dataset '" + d + "' (dbbench, mixgraph, cache, json-docs, timeseries)");
  if (o.layout == "raw" && o.mode == "auto") o.mode = "bytes";  // raw chunks the file bytes as they are
  o.record.keep_raw = o.layout == "raw";

  // Resolve every input before building anything, so a typo fails fast.
  std::vector<std::string> paths;
  for (const auto& f : o.files) {
    std::string error;
    const std::string p = resolve_corpus(f, error);
    if (p.empty()) return usage_error(error);
    paths.push_back(p);
  }

  auto handle = [&](const RecordSet& records) -> int {
    for (const auto& w : records.warnings) fmt::print(stderr, "note: {}: {}\n", records.source, w);
    if (o.stats) {
      fmt::print("{}: {} bytes{}, record mode {} ({}), {} records\n", records.source, records.source_bytes,
                 records.sampled_bytes < records.source_bytes ? fmt::format(" (sampled {})", records.sampled_bytes) : "",
                 records.record_mode, records.detail, records.records.size());
    }
    for (size_t size : sizes) {
      std::string error;
      const BlockSet b = build_blocks(records, o.layout, size, error);
      if (!error.empty()) return usage_error(error);
      for (size_t i = records.warnings.size(); i < b.warnings.size(); ++i)
        fmt::print(stderr, "note: {}: {}\n", records.source, b.warnings[i]);
      if (o.stats) print_stats(b);
      if (!o.out.empty()) {
        if (const int rc = export_blocks(b, o.out)) return rc;
      }
    }
    return 0;
  };

  for (const auto& p : paths) {
    std::string error;
    const RecordSet records = read_corpus(p, o.mode, max_bytes, o.record, error);
    if (!error.empty()) return usage_error(error);
    if (const int rc = handle(records)) return rc;
  }
  for (const auto& d : o.datasets) {
    std::string error;
    DatasetOptions dopt;
    dopt.compression_ratio = o.compression_ratio;
    const RecordSet records = generate_dataset(d, o.seed, dataset_bytes, dopt, error);
    if (!error.empty()) return usage_error(error);
    if (const int rc = handle(records)) return rc;
  }
  return 0;
}

}  // namespace kvz
