#include "commands/run_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

#include "blockgen/block.h"
#include "blockgen/table.h"
#include "codecs/spec.h"
#include "util/bytes.h"
#include "util/text.h"

namespace kvz {

namespace {

// The levels stores actually ship (RocksDB/Cassandra/Scylla defaults and their usual
// alternatives), one row per codec family: what the default run calls "standard levels".
// `-c all` sweeps every level the codecs table lists.
constexpr const char* kStandardLevels = "lz4/lz4hc:9/snappy/zstd:-1,1,3,9,19/zlib:1,6,9/brotli:1,6/xz:1,6/lzo:1";

}  // namespace

// The default run compresses what RocksDB writes (rocksdb-layout data blocks) from 512 KiB of
// each source: 8 blocks of 64 KiB, 128 of 4 KiB. brotli 11 (under 1 MB/s) is left to `-c all`
// and `full`: alone it took 40 % of the default run's time; so are zstd 9 and 19 with a
// dictionary (19: 13 % once every block is timed three times for its intrinsic cost; 9 brought
// the run to 91-95 s once dictionary rows measured every block, `--dict-method file`).
// One data row per profile, kept as written: the formatter would put one field per line.
// clang-format off
const std::vector<SweepProfile>& sweep_profiles() {
  static const std::vector<SweepProfile> profiles = {
      // CI: two synthetic datasets only, so the committed baseline never depends on corpora.
      {.name = "quick", .datasets = {"dbbench", "json-docs"}, .codecs = "lz4/snappy/zstd:1,3",
       .block_sizes = {4096, 65536}, .layouts = {"rocksdb"}, .dict_sizes = {16384}, .dict_codecs = {"zstd"},
       .sample_bytes = size_t{256} << 10, .seconds_per_cell = 0.2, .repetitions = 3, .latency_seconds = 0.05},
      {.name = "default", .datasets = {"dbbench", "mixgraph", "cache", "json-docs", "timeseries"},
       .corpora = {"json/twitter.json", "logs/apache_access_logs.log"}, .codecs = kStandardLevels,
       .block_sizes = {4096, 16384, 65536}, .layouts = {"rocksdb"}, .dict_sizes = {16384}, .dict_codecs = {"zstd"},
       .dict_max_level = 3, .sample_bytes = size_t{512} << 10, .seconds_per_cell = 0.03, .repetitions = 3, .latency_seconds = 0.02},
      {.name = "full", .datasets = {"dbbench", "mixgraph", "cache", "json-docs", "timeseries"}, .all_corpora = true,
       .codecs = "all", .block_sizes = {4096, 16384, 65536}, .layouts = {"raw", "rocksdb"},
       .dict_sizes = {16384, 65536}, .sample_bytes = size_t{1} << 20, .seconds_per_cell = 0.5, .repetitions = 5,
       .latency_seconds = 0.5},
  };
  return profiles;
}
// clang-format on

const SweepProfile* find_sweep_profile(const std::string& name) { return find_row(sweep_profiles(), name); }

namespace {

// A comma-separated list, each item through `parse_item` (which returns "" or the item's
// one-line error); `empty` is the error for a list with no items.
template <class T, class ParseItem>
bool parse_list(const std::string& text, std::vector<T>& out, std::string& error, const char* empty,
                ParseItem parse_item) {
  out.clear();
  for (std::string_view piece : split(text, ",")) {
    T value{};
    error = parse_item(std::string(piece), value);
    if (!error.empty()) return false;
    out.push_back(value);
  }
  if (out.empty()) error = empty;
  return !out.empty();
}

// "4K,4096,4K" is one size: de-duplicated as parsed, before anything is built per size.
void drop_repeats(std::vector<size_t>& sizes) {
  std::set<size_t> seen;
  std::erase_if(sizes, [&](size_t n) { return !seen.insert(n).second; });
}

}  // namespace

double budget_scale(double default_seconds, int default_repetitions, double seconds, int repetitions) {
  const double time_share = default_seconds > 0 ? std::min(1.0, seconds / default_seconds) : 1.0;
  const double reps_share =
      default_repetitions > 0 ? std::min(1.0, static_cast<double>(repetitions) / default_repetitions) : 1.0;
  return time_share * reps_share;
}

bool parse_block_sizes(const std::string& text, std::vector<size_t>& out, std::string& error) {
  const bool ok =
      parse_list(text, out, error, "empty block size list", [](const std::string& item, size_t& n) -> std::string {
        if (!parse_byte_size(item, n))
          return fmt::format("invalid block size '{}': expected a positive size like 4096, 4K or 64KiB", item);
        if (n < kMinBlockSize || n > kMaxBlockSize)
          return fmt::format("block size '{}' out of range: must be between {} and {}", item,
                             format_byte_size(kMinBlockSize), format_byte_size(kMaxBlockSize));
        return "";
      });
  drop_repeats(out);
  return ok;
}

bool parse_dict_sizes(const std::string& text, std::vector<size_t>& out, std::string& error) {
  const bool ok = parse_list(text, out, error, "empty --dict list", [](const std::string& item, size_t& n) {
    if (!parse_byte_size(item, n) || n < kMinDictSize || n > kMaxDictSize)
      return fmt::format("invalid --dict size '{}': expected a dictionary size in {}..{}, e.g. 16K", item,
                         format_byte_size(kMinDictSize), format_byte_size(kMaxDictSize));
    return std::string();
  });
  drop_repeats(out);
  return ok;
}

bool parse_stall_thresholds(const std::string& text, std::vector<uint64_t>& out_ns, std::string& error) {
  return parse_list(text, out_ns, error, "empty stall threshold list", [](const std::string& item, uint64_t& ns) {
    double ms = 0;
    if (!parse_double(item, ms) || ms <= 0 || ms > 60000)
      return fmt::format("invalid stall threshold '{}': expected milliseconds > 0, e.g. 0.5,1", item);
    ns = static_cast<uint64_t>(std::llround(ms * 1e6));
    return std::string();
  });
}

bool parse_shard(const std::string& text, int& index, int& count, std::string& error) {
  const auto slash = text.find('/');
  char* e1 = nullptr;
  char* e2 = nullptr;
  if (slash == std::string::npos) {
    error = fmt::format("invalid --shard '{}': expected I/N, e.g. 0/4", text);
    return false;
  }
  const std::string a = text.substr(0, slash), b = text.substr(slash + 1);
  const long i = std::strtol(a.c_str(), &e1, 10);
  const long n = std::strtol(b.c_str(), &e2, 10);
  if (a.empty() || b.empty() || *e1 || *e2 || n < 1 || n > 100000 || i < 0 || i >= n) {
    error = fmt::format("invalid --shard '{}': expected I/N with 0 <= I < N", text);
    return false;
  }
  index = static_cast<int>(i);
  count = static_cast<int>(n);
  return true;
}

bool parse_cpu_list(const std::string& text, std::vector<int>& out, std::string& error) {
  return parse_list(text, out, error, "empty --pin list", [&text](const std::string& item, int& cpu) {
    if (!parse_int(item, cpu) || cpu < 0 || cpu > 4095)
      return fmt::format("invalid --pin '{}': expected a CPU number or list, e.g. 2 or 0,2", text);
    return std::string();
  });
}

}  // namespace kvz
