// A table's own compression options (CompressionInfo.db), checked as the store checks them:
// issue 24 found a ZstdCompressor compression_level of "abc" read as level 0 and 99999999999
// wrapped into a level. A ScyllaDB file (compression_level=5) with its options rewritten.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "store_runs.h"
#include "stores/cassandra/sstable_data.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;
using Options = std::vector<std::pair<std::string, std::string>>;

std::vector<uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put_be(std::vector<uint8_t>& out, uint64_t v, int n) {
  for (int i = n - 1; i >= 0; --i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void put_text(std::vector<uint8_t>& out, const std::string& s) {
  put_be(out, s.size(), 2);
  out.insert(out.end(), s.begin(), s.end());
}

// `info` with its option list replaced (the class name before it and the chunk table after it
// kept as they are).
std::vector<uint8_t> with_options(const std::vector<uint8_t>& info, const Options& options) {
  size_t pos = 2 + (size_t{info[0]} << 8 | info[1]);  // past the class name
  std::vector<uint8_t> out(info.begin(), info.begin() + static_cast<std::ptrdiff_t>(pos));
  uint32_t count = 0;
  for (int i = 0; i < 4; ++i) count = count << 8 | info[pos++];
  for (uint32_t i = 0; i < 2 * count; ++i) pos += 2 + (size_t{info[pos]} << 8 | info[pos + 1]);
  put_be(out, options.size(), 4);
  for (const auto& [k, v] : options) {
    put_text(out, k);
    put_text(out, v);
  }
  out.insert(out.end(), info.begin() + static_cast<std::ptrdiff_t>(pos), info.end());
  return out;
}

struct Table {
  std::vector<uint8_t> info, data;
};

Table zstd_table() {
  const fs::path dir = store_runs::fixtures_dir() / "scylladb/zstd-multiple_chunks-mc";
  return {read_bytes(dir / "mc-1-big-CompressionInfo.db"), read_bytes(dir / "mc-1-big-Data.db")};
}

std::string parse_error(const Table& t, const Options& options, SstableData& out) {
  std::string error;
  if (parse_sstable_data(with_options(t.info, options), t.data, "mc", "x-Data.db", out, error)) return "";
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  return error;
}

TEST(StoreOptions, ZstdLevelIsAWholeNumberInZstdsRange) {
  const Table t = zstd_table();
  ASSERT_FALSE(t.info.empty()) << store_runs::fixtures_dir();
  SstableData out;
  ASSERT_EQ(parse_error(t, {{"compression_level", "5"}}, out), "");
  EXPECT_EQ(out.level, 5);  // the rewrite keeps the file readable
  ASSERT_EQ(parse_error(t, {{"compression_level", "-3"}}, out), "");
  EXPECT_EQ(out.level, -3);
  for (const char* bad : {"abc", "99999999999", "4294967299", "23", "-200000", "", "3 "}) {
    const std::string e = parse_error(t, {{"compression_level", bad}}, out);
    EXPECT_EQ(e.rfind("x-Data.db (CompressionInfo.db): option compression_level '" + std::string(bad) +
                          "' is not a level of ZstdCompressor (",
                      0),
              0u)
        << bad << ": " << e;
  }
}

TEST(StoreOptions, Lz4OptionsAreKnownWordsAndLevels) {
  const Table t = zstd_table();
  ASSERT_FALSE(t.info.empty());
  SstableData out;
  EXPECT_EQ(parse_error(t, {{"lz4_compressor_type", "high"}, {"lz4_high_compressor_level", "9"}}, out), "");
  EXPECT_EQ(parse_error(t, {{"lz4_compressor_type", "medium"}}, out),
            "x-Data.db (CompressionInfo.db): option lz4_compressor_type 'medium' is neither fast nor high");
  EXPECT_EQ(parse_error(t, {{"lz4_high_compressor_level", "99999999999"}}, out),
            "x-Data.db (CompressionInfo.db): option lz4_high_compressor_level '99999999999' is not a level of "
            "ZstdCompressor (1..17)");
  EXPECT_EQ(parse_error(t, {{"crc_check_chance", "1.0"}}, out), "");  // not a level: left as the store reads it
}

}  // namespace
}  // namespace kvz
