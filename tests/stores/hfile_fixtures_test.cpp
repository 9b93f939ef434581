// HBase against its own files (shared/fixtures/stores/hbase, HFiles written by HBase 2.4.9's
// writer for Apache Hudi's tests): every block's CRC32C verified, every data block
// decompressed; the hbase profile's rule over those raw blocks, with kvzbench's compressor at
// the file's codec, predicts the data blocks' bytes on disk (stores/README.md has the table).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "blockgen/store_files/hfile.h"
#include "codecs/registry.h"
#include "stores/store_profile.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;

fs::path hbase_fixtures() {
  if (const char* dir = std::getenv("KVZ_FIXTURES")) return fs::path(dir) / "hbase";
  const char* corpora = std::getenv("KVZ_CORPORA");
  return fs::path(corpora ? corpora : KVZ_SOURCE_DIR "/../shared/corpora") / ".." / "fixtures" / "stores" / "hbase";
}

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

TEST(HfileFixtures, VersionOneAndBadInputAreOneLineErrors) {
  Hfile f;
  std::string error;
  EXPECT_FALSE(
      read_hfile((hbase_fixtures() / "hfile_v1_gz_8e8ab58/8e8ab58dcf39412da19833fcd8f687ac").string(), f, error));
  EXPECT_NE(error.find("HFile version 1.0: this reader takes v2 and v3"), std::string::npos) << error;
  const std::vector<uint8_t> junk(5000, 7);
  EXPECT_FALSE(parse_hfile(junk, "junk.hfile", f, error));
  EXPECT_EQ(error.rfind("junk.hfile: offset ", 0), 0u) << error;
}

}  // namespace
}  // namespace kvz
