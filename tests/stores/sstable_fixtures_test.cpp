// Cassandra and ScyllaDB against their own files (shared/fixtures/stores, written by those
// stores' test suites): every Data.db is read through its CompressionInfo.db, every chunk's
// checksum verified and decompressed with kvzbench's sessions; then the store profile's rule,
// applied to those raw chunks with kvzbench's compressor at the file's codec and chunk size,
// predicts the Data.db size, compared here with the real one (stores/README.md has the table).
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "codecs/registry.h"
#include "store_runs.h"
#include "stores/cassandra/sstable_data.h"
#include "stores/store_profile.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;

using store_runs::fixtures_dir;

struct Fixture {
  std::string dir, store;
  size_t chunks = 0;  // from the MANIFEST notes ("21 chunks"); 0 when not stated
};

std::vector<Fixture> sstable_fixtures() {
  std::vector<Fixture> out;
  std::ifstream manifest(fixtures_dir() / "MANIFEST.tsv");
  std::string line;
  std::getline(manifest, line);  // header
  while (std::getline(manifest, line)) {
    std::vector<std::string> f;
    size_t pos = 0;
    for (size_t tab; (tab = line.find('\t', pos)) != std::string::npos; pos = tab + 1)
      f.push_back(line.substr(pos, tab - pos));
    f.push_back(line.substr(pos));
    if (f.size() < 12 || (f[1] != "cassandra" && f[1] != "scylladb")) continue;
    std::smatch m;
    const std::regex chunks(R"((\d+) chunks?)");
    out.push_back({f[0], f[1], std::regex_search(f[11], m, chunks) ? std::stoul(m[1]) : 0});
  }
  return out;
}

std::string data_db_in(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.size() > 8 && name.compare(name.size() - 8, 8, "-Data.db") == 0) return e.path().string();
  }
  return "";
}

// The profile's prediction of the Data.db size from the raw chunks: kvzbench compresses each
// with the file's codec and level (LZ4Compressor: lz4 fast; Deflate: zlib container, level 6),
// the store's rule adds its framing.
std::vector<uint64_t> predicted_chunks(const SstableData& t, const std::string& store) {
  const StoreProfile* profile = find_store_profile(store == "scylladb" ? "scylla" : "cassandra");
  EXPECT_NE(profile, nullptr);
  const std::string options = t.codec == "zlib" ? ":zlib" : "";
  const CodecParams params{.level = t.level, .options = options};
  auto session = CodecRegistry::instance().find(t.codec)->open(params, nullptr);
  EXPECT_TRUE(session.ok()) << session.error;
  std::vector<uint64_t> bytes;
  for (const auto& c : t.chunks) {
    std::vector<uint8_t> out(session.value->bound(c.raw.size()));
    const CallResult r = session.value->compress(c.raw, out);
    EXPECT_TRUE(r.ok());
    bytes.push_back(store_block(*profile, {t.codec, params.label(), false}, c.raw.size(), r.size).bytes);
  }
  return bytes;
}

// Predicted minus real Data.db bytes, as found with Debian 12's liblz4 1.9.4, libzstd 1.5.4,
// snappy 1.1.9 and zlib 1.2.13 (stores/README.md): 0 where the store's compressor makes the
// same bytes; the others were written by other library versions (zstd-jni, Java snappy, the
// LZ4 of the Cassandra 2.2 era).
const std::map<std::string, int64_t> kDeltaBytes = {
    {"cassandra/legacy_nb_clust", 0},
    {"cassandra/legacy_nb_clust_counter", 0},
    {"cassandra/legacy_na_clust", 0},
    {"cassandra/legacy_me_clust", 0},
    {"scylladb/zstd-multiple_chunks-mc", 19},
    {"scylladb/zstd-pk_different_types-mc", 0},
    {"scylladb/lz4-pk_different_types-mc", 0},
    {"scylladb/snappy-pk_different_types-mc", -1},
    {"scylladb/deflate-pk_different_types-mc", 0},
    {"scylladb/lz4-large_partition-me", 0},
    {"scylladb/lz4-composite-la", 1},
    {"scylladb/lz4-scylla_written-cdc_generation_descriptions_v2-me", 0},
};

TEST(SstableFixtures, EveryDataDbReadsAndItsSizeIsPredicted) {
  const auto fixtures = sstable_fixtures();
  ASSERT_EQ(fixtures.size(), 12u) << "fixtures: " << fixtures_dir();
  for (const auto& f : fixtures) {
    const std::string data_db = data_db_in(fixtures_dir() / f.dir);
    ASSERT_FALSE(data_db.empty()) << f.dir;
    SstableData t;
    std::string error;
    ASSERT_TRUE(read_sstable_data(data_db, t, error)) << error;
    if (f.chunks) {
      EXPECT_EQ(t.chunks.size(), f.chunks) << f.dir;
    }
    uint64_t raw = 0;
    for (const auto& c : t.chunks) raw += c.raw.size();
    EXPECT_EQ(raw, t.data_length) << f.dir;
    EXPECT_EQ(t.data_db_bytes(), fs::file_size(data_db)) << f.dir;
    const auto chunks = predicted_chunks(t, f.store);
    uint64_t predicted = 0;
    size_t exact = 0;
    for (size_t i = 0; i < chunks.size(); ++i) {
      predicted += chunks[i];
      exact += chunks[i] == t.chunks[i].stored;
    }
    ASSERT_TRUE(kDeltaBytes.count(f.dir)) << f.dir;
    const int64_t delta = static_cast<int64_t>(predicted) - static_cast<int64_t>(t.data_db_bytes());
    EXPECT_EQ(delta, kDeltaBytes.at(f.dir)) << f.dir;
    if (delta == 0) {
      EXPECT_EQ(exact, chunks.size()) << f.dir << ": every chunk, not only the sum";
    }
    const double error_pct = 100.0 * (static_cast<double>(predicted) - static_cast<double>(t.data_db_bytes())) /
                             static_cast<double>(t.data_db_bytes());
    std::printf(
        "%-58s %-17s chunk %6u: %3zu chunks (%zu exact), raw %7llu, Data.db %7llu, predicted %7llu (%+.2f %%)\n",
        f.dir.c_str(), t.compressor.c_str(), t.chunk_length, t.chunks.size(), exact,
        static_cast<unsigned long long>(raw), static_cast<unsigned long long>(t.data_db_bytes()),
        static_cast<unsigned long long>(predicted), error_pct);
  }
}

std::vector<uint8_t> slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Bad input: one line naming the file and the byte offset, never a crash or a wrong number.
TEST(SstableFixtures, BadInputIsOneLineWithTheOffset) {
  const fs::path dir = fixtures_dir() / "cassandra/legacy_nb_clust";
  const auto info = slurp(dir / "nb-1-big-CompressionInfo.db"), data = slurp(dir / "nb-1-big-Data.db");
  ASSERT_FALSE(info.empty());
  ASSERT_FALSE(data.empty());
  SstableData t;
  std::string error;
  ASSERT_TRUE(parse_sstable_data(info, data, "nb", "x-Data.db", t, error)) << error;
  ASSERT_FALSE(t.chunks.empty());
  const size_t end = t.chunks[0].stored;  // `t` is reset by every parse below

  auto flipped = data;
  flipped[100] ^= 0x10;  // inside chunk 0
  EXPECT_FALSE(parse_sstable_data(info, flipped, "nb", "x-Data.db", t, error));
  EXPECT_EQ(error, "x-Data.db: offset 0: chunk 0 fails its crc32 checksum");

  const std::vector<uint8_t> cut(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(data.size() / 2));
  EXPECT_FALSE(parse_sstable_data(info, cut, "nb", "x-Data.db", t, error));
  EXPECT_NE(error.find("x-Data.db: offset "), std::string::npos) << error;

  const std::vector<uint8_t> short_info(info.begin(), info.begin() + 20);
  EXPECT_FALSE(parse_sstable_data(short_info, data, "nb", "x-Data.db", t, error));
  EXPECT_EQ(error.rfind("x-Data.db (CompressionInfo.db): offset ", 0), 0u) << error;

  auto unknown = info;
  unknown[2] = 'X';  // "XZ4Compressor"
  EXPECT_FALSE(parse_sstable_data(unknown, data, "nb", "x-Data.db", t, error));
  EXPECT_NE(error.find("unknown compressor 'XZ4Compressor'"), std::string::npos) << error;

  // A chunk whose LZ4 length prefix disagrees with the chunk length, its checksum made to match.
  auto wrong = data;
  wrong[0] ^= 0x01;
  const uLong crc = crc32(crc32(0, nullptr, 0), wrong.data(), static_cast<uInt>(end - 4));
  for (size_t k = 0; k < 4; ++k) wrong[end - 4 + k] = static_cast<uint8_t>(crc >> (24 - 8 * k));
  EXPECT_FALSE(parse_sstable_data(info, wrong, "nb", "x-Data.db", t, error));
  EXPECT_EQ(error, "x-Data.db: offset 0: chunk 0 states 16385 raw bytes, 16384 expected");

  const fs::path lonely = fs::temp_directory_path() / "kvz-1-big-Data.db";
  std::ofstream(lonely) << "x";
  EXPECT_FALSE(read_sstable_data(lonely.string(), t, error));
  EXPECT_NE(error.find("no kvz-1-big-CompressionInfo.db beside it"), std::string::npos) << error;
  fs::remove(lonely);
}

}  // namespace
}  // namespace kvz
