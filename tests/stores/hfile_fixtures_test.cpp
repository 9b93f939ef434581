// HBase against its own files (shared/fixtures/stores/hbase, HFiles written by HBase 2.4.9's
// writer for Apache Hudi's tests): every block's CRC32C verified, every data block
// decompressed; the hbase profile's rule over those raw blocks, with kvzbench's compressor at
// the file's codec, predicts the data blocks' bytes on disk (stores/README.md has the table).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "codecs/registry.h"
#include "store_runs.h"
#include "stores/hbase/hfile.h"
#include "stores/shared/file_bytes.h"
#include "stores/store_profile.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;

fs::path hbase_fixtures() { return store_runs::fixtures_dir() / "hbase"; }

struct Expected {
  const char* file;
  uint64_t data_blocks;  // the MANIFEST's count
  int64_t delta_bytes;   // predicted minus real data-block bytes, as found (Debian 12's zlib 1.2.13)
};

TEST(HfileFixtures, DataBlocksReadAndTheirBytesPredicted) {
  const Expected sets[] = {
      {"hudi_1_0_hbase_2_4_9_16KB_GZ_20000/hudi_1_0_hbase_2_4_9_16KB_GZ_20000.hfile", 72, 0},
      {"hudi_1_0_hbase_2_4_9_512KB_GZ_20000/hudi_1_0_hbase_2_4_9_512KB_GZ_20000.hfile", 3, 0},
      {"hudi_1_0_hbase_2_4_9_16KB_NONE_5000/hudi_1_0_hbase_2_4_9_16KB_NONE_5000.hfile", 18, 0},
  };
  const StoreProfile* hbase = find_store_profile("hbase");
  ASSERT_NE(hbase, nullptr);
  std::vector<Record> gz_cells;
  for (const auto& set : sets) {
    Hfile f;
    std::string error;
    ASSERT_TRUE(read_hfile((hbase_fixtures() / set.file).string(), f, error)) << error;
    EXPECT_EQ(f.major, 3) << set.file;
    EXPECT_EQ(f.data_blocks(), set.data_blocks) << set.file;
    const bool gz = f.codec == "GZ";
    const CodecParams params{.level = 6, .options = ":zlib"};
    auto session = CodecRegistry::instance().find("zlib")->open(params, nullptr);
    ASSERT_TRUE(session.ok()) << session.error;
    uint64_t real = 0, predicted = 0, raw = 0, exact = 0;
    for (const auto& b : f.blocks) {
      if (b.magic != "DATABLK*") continue;
      std::vector<uint8_t> out(session.value->bound(b.raw.size()));
      const CallResult r = session.value->compress(b.raw, out);
      ASSERT_TRUE(r.ok());
      const BlockCodec codec{gz ? "zlib" : "memcpy", gz ? "6:zlib" : "", !gz};
      const uint64_t p = store_block(*hbase, codec, b.raw.size(), r.size).bytes;
      real += b.on_disk;
      predicted += p;
      raw += b.raw.size();
      exact += p == b.on_disk;
    }
    std::printf("%-40s %-4s %3llu data blocks (%llu exact): raw %7llu, on disk %7llu, predicted %7llu\n",
                fs::path(set.file).filename().c_str(), f.codec.c_str(),
                static_cast<unsigned long long>(f.data_blocks()), static_cast<unsigned long long>(exact),
                static_cast<unsigned long long>(raw), static_cast<unsigned long long>(real),
                static_cast<unsigned long long>(predicted));
    EXPECT_EQ(static_cast<int64_t>(predicted) - static_cast<int64_t>(real), set.delta_bytes) << set.file;
    EXPECT_EQ(exact, f.data_blocks()) << set.file << ": every block, not only the sum";
    // The cells, as records: the trailer's entry count, the same cells whatever the block size.
    std::vector<Record> cells;
    ASSERT_TRUE(hfile_records(f, cells)) << set.file;
    EXPECT_EQ(cells.size(), f.entries) << set.file;
    if (std::string(set.file).find("_GZ_20000") != std::string::npos) {
      if (gz_cells.empty()) {
        gz_cells = cells;
      } else {
        ASSERT_EQ(cells.size(), gz_cells.size());
        for (size_t i = 0; i < cells.size(); ++i) ASSERT_EQ(cells[i].key, gz_cells[i].key) << i;
      }
    }
  }
}

// HFile v1 (HBase 0.9x, the fixture's README): its data index names 2 blocks, each one gzip
// member of "DATABLK*" + cells; the first decompresses to 65,560 bytes, the cells are the
// trailer's 1,000, and the blocks run back to back up to the data index.
TEST(HfileFixtures, VersionOneReadsThroughItsDataIndex) {
  Hfile f;
  std::string error;
  const auto path = hbase_fixtures() / "hfile_v1_gz_8e8ab58/8e8ab58dcf39412da19833fcd8f687ac";
  ASSERT_TRUE(read_hfile(path.string(), f, error)) << error;
  EXPECT_EQ(f.major, 1);
  EXPECT_EQ(f.codec, "GZ");
  ASSERT_EQ(f.data_blocks(), 2u);
  EXPECT_EQ(f.blocks[0].raw.size(), 65560u);
  EXPECT_EQ(f.blocks[0].offset, 0u);
  EXPECT_EQ(f.blocks[1].offset, f.blocks[0].on_disk);
  std::vector<Record> cells;
  ASSERT_TRUE(hfile_records(f, cells));
  EXPECT_EQ(cells.size(), 1000u);
  for (size_t i = 1; i < cells.size(); ++i) ASSERT_LT(cells[i - 1].key, cells[i].key) << i;
  // A truncated v1 file: the data index is no longer where the trailer says.
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(read_whole_file(path.string(), bytes, error));
  std::vector<uint8_t> cut(bytes.begin() + 100, bytes.end());
  EXPECT_FALSE(parse_hfile(cut, "v1.hfile", f, error));
  EXPECT_EQ(error,
            fmt::format("v1.hfile: offset {}: the data index is not where the trailer says", cut.size() - 60 + 16));
}

TEST(HfileFixtures, BadInputIsAOneLineError) {
  Hfile f;
  std::string error;
  const std::vector<uint8_t> junk(5000, 7);
  EXPECT_FALSE(parse_hfile(junk, "junk.hfile", f, error));
  EXPECT_EQ(error,
            "junk.hfile: offset 4996: no HFile trailer: the last 4 bytes are no HFile version (a truncated "
            "file?)");
  std::vector<uint8_t> v4(junk);
  v4[v4.size() - 1] = 4, v4[v4.size() - 2] = 0, v4[v4.size() - 3] = 0, v4[v4.size() - 4] = 0;
  EXPECT_FALSE(parse_hfile(v4, "v4.hfile", f, error));
  EXPECT_EQ(error, "v4.hfile: offset 4996: HFile version 4.0: this reader takes v1, v2 and v3");
}

}  // namespace
}  // namespace kvz
