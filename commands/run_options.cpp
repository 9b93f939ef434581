#include "commands/run_options.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "codecs/spec.h"
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
// and `full`: alone it took 40 % of the default run's time.
const std::vector<SweepProfile>& sweep_profiles() {
  static const std::vector<SweepProfile> profiles = {
      // CI: two synthetic datasets only, so the committed baseline never depends on corpora.
      {"quick",
       {"dbbench", "json-docs"},
       {},
       false,
       "lz4/snappy/zstd:1,3",
       {4096, 65536},
       {"rocksdb"},
       {16384},
       {"zstd"},
       size_t{256} << 10,
       0.2,
       3},
      {"default",
       {"dbbench", "mixgraph", "cache", "json-docs", "timeseries"},
       {"json/twitter.json", "logs/apache_access_logs.log"},
       false,
       kStandardLevels,
       {4096, 16384, 65536},
       {"rocksdb"},
       {16384},
       {"zstd"},
       size_t{512} << 10,
       0.03,
       3},
      {"full",
       {"dbbench", "mixgraph", "cache", "json-docs", "timeseries"},
       {},
       true,
       "all",
       {4096, 16384, 65536},
       {"raw", "rocksdb"},
       {16384, 65536},
       {},
       size_t{1} << 20,
       0.5,
       5},
  };
  return profiles;
}

const SweepProfile* find_sweep_profile(const std::string& name) {
  for (const auto& p : sweep_profiles())
    if (p.name == name) return &p;
  return nullptr;
}

bool parse_block_sizes(const std::string& text, std::vector<size_t>& out, std::string& error) {
  out.clear();
  for (std::string_view piece : split(text, ",")) {
    const std::string item(piece);
    size_t n = 0;
    if (!parse_byte_size(item, n)) {
      error = fmt::format("invalid block size '{}': expected a positive size like 4096, 4K or 64KiB", item);
      return false;
    }
    if (n < 1024 || n > (size_t{1} << 20)) {
      error = fmt::format("block size '{}' out of range: must be between 1K and 1M", item);
      return false;
    }
    out.push_back(n);
  }
  if (out.empty()) {
    error = "empty block size list";
    return false;
  }
  return true;
}

bool parse_stall_thresholds(const std::string& text, std::vector<uint64_t>& out_ns, std::string& error) {
  out_ns.clear();
  for (std::string_view piece : split(text, ",")) {
    const std::string item(piece);
    char* end = nullptr;
    const double ms = std::strtod(item.c_str(), &end);
    if (item.empty() || end != item.c_str() + item.size() || !std::isfinite(ms) || ms <= 0 || ms > 60000) {
      error = fmt::format("invalid stall threshold '{}': expected milliseconds > 0, e.g. 0.5,1", item);
      return false;
    }
    out_ns.push_back(static_cast<uint64_t>(std::llround(ms * 1e6)));
  }
  if (out_ns.empty()) {
    error = "empty stall threshold list";
    return false;
  }
  return true;
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
  out.clear();
  for (std::string_view piece : split(text, ",")) {
    const std::string item(piece);
    char* end = nullptr;
    const long cpu = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end || cpu < 0 || cpu > 4095) {
      error = fmt::format("invalid --pin '{}': expected a CPU number or list, e.g. 2 or 0,2", text);
      return false;
    }
    out.push_back(static_cast<int>(cpu));
  }
  if (out.empty()) {
    error = "empty --pin list";
    return false;
  }
  return true;
}

}  // namespace kvz
