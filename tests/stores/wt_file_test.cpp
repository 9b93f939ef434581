// WiredTiger files read back (stores/wiredtiger/wt_file.cpp): tables written here by
// Debian's libwiredtiger 3.2.1 with no compressor and with its snappy and zlib extensions, at
// two leaf_page_max values (8 and 32 KiB), over five corpora. The records read back are the records written,
// the leaf pages found are as many as WiredTiger counts, and the file's own codec as the
// current row stores exactly the leaf pages' bytes on disk (stores/wiredtiger/wiredtiger.cpp's framing:
// the 64 bytes kept as they are, the compressor's prefix, allocation units, the keep-raw rule).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/engine.h"
#include "blockgen/layouts.h"
#include "blockgen/source_registry.h"
#include "commands/run_plan.h"
#include "real_stores.h"
#include "real_wiredtiger.h"
#include "store_runs.h"
#include "stores/shared/file_bytes.h"
#include "stores/wiredtiger/wt_file.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;

TEST(WtFile, TablesWiredTigerWroteReadBackExactly) {
  for (const auto& corpus : real_wiredtiger::test_corpora()) {
    const RecordSet rs = real_stores::load_records(corpus, "auto", 512 << 10);
    ASSERT_GT(rs.records.size(), 100u) << corpus;
    for (const char* compressor : {"none", "snappy", "zlib"}) {
      ASSERT_FALSE(std::string(compressor) != "none" && real_wiredtiger::extension(compressor).empty())
          << "libwiredtiger-dev ships libwiredtiger_" << compressor << ".so";
      for (size_t leaf_page_max : {size_t{8192}, size_t{32768}}) {
        const std::string what = fmt::format("{} {} leaf_page_max {}", corpus, compressor, leaf_page_max);
        const std::string home = (fs::temp_directory_path() / fmt::format("kvz_wt_{}", ::getpid())).string();
        ASSERT_EQ(real_wiredtiger::write_table(home, rs.records, compressor, leaf_page_max), "") << what;
        const std::string path = home + "/x.wt";
        EXPECT_EQ(SourceRegistry::global().store_of(path), "wiredtiger");
        WtFile f;
        std::string error;
        ASSERT_TRUE(read_wt_file(path, f, error)) << what << ": " << error;
        EXPECT_EQ(f.allocation_size, 4096u) << what;
        ASSERT_EQ(f.records.size(), rs.records.size()) << what;
        for (size_t i = 0; i < f.records.size(); ++i) {
          ASSERT_EQ(f.records[i].key, rs.records[i].key) << what << " record " << i;
          ASSERT_EQ(f.records[i].value, rs.records[i].value) << what << " record " << i;
        }
        EXPECT_EQ(static_cast<int64_t>(f.leaves.size()), real_wiredtiger::leaf_pages(home, compressor)) << what;
        std::string label;
        const CellResult cur = store_runs::current_row(path, label);
        EXPECT_EQ(cur.status, CellStatus::Ok) << what << ": " << cur.failure;
        ASSERT_TRUE(cur.on_disk_bytes.has_value()) << what;
        EXPECT_EQ(*cur.on_disk_bytes, f.leaf_bytes()) << what;
        EXPECT_EQ(cur.stored_bytes, f.leaf_bytes())
            << what << " (" << label << "): the current row is the file's bytes";
        EXPECT_EQ(cur.key.profile, "wiredtiger");
        size_t largest = 0;
        for (const auto& p : f.leaves) largest = std::max(largest, p.image.size());
        std::printf("%-28s %-6s leaf_page_max %5zu: %3zu leaves, largest image %6zu B, %7llu B on disk\n",
                    corpus.c_str(), compressor, leaf_page_max, f.leaves.size(), largest,
                    static_cast<unsigned long long>(f.leaf_bytes()));
        // With a compressor and 32 KiB pages WiredTiger lets a page grow to several times
        // leaf_page_max before it writes it; at 8 KiB, and without a compressor, it does not.
        if (std::string(compressor) != "none" && leaf_page_max == 32768) {
          EXPECT_GT(largest, 3 * leaf_page_max) << what;
        } else {
          EXPECT_LE(largest, leaf_page_max) << what;
        }
        // A flipped bit in a live leaf's first 64 bytes: its checksum no longer holds, the
        // tree names a block the scan does not find.
        std::vector<uint8_t> bytes;
        ASSERT_TRUE(read_whole_file(path, bytes, error));
        bytes[f.leaves.back().offset + 41] ^= 0x10;
        EXPECT_FALSE(parse_wt_file(bytes, "x.wt", f, error)) << what;
        EXPECT_EQ(error.rfind("x.wt: offset ", 0), 0u) << error;
        fs::remove_all(home);
      }
    }
  }
}

// Keys and values past leaf_key_max / leaf_value_max live on overflow pages: read through them.
TEST(WtFile, OverflowItemsReadBack) {
  RecordSet rs = real_stores::load_records("json/twitter.json", "auto", 64 << 10);
  ASSERT_GT(rs.records.size(), 10u);
  rs.records.push_back({std::string(5000, '~'), std::string(200000, 'v')});  // sorts last: '~' > any JSON key byte
  const std::string home = (fs::temp_directory_path() / fmt::format("kvz_wt_ovfl_{}", ::getpid())).string();
  ASSERT_EQ(real_wiredtiger::write_table(home, rs.records, "snappy", 32768), "");
  WtFile f;
  std::string error;
  ASSERT_TRUE(read_wt_file(home + "/x.wt", f, error)) << error;
  EXPECT_EQ(f.overflow_items, 2u);
  ASSERT_EQ(f.records.size(), rs.records.size());
  EXPECT_EQ(f.records.back().key, rs.records.back().key);
  EXPECT_EQ(f.records.back().value, rs.records.back().value);
  fs::remove_all(home);
}

TEST(WtFile, BadInputIsAOneLineError) {
  WtFile f;
  std::string error;
  std::vector<uint8_t> junk(8192, 0);
  EXPECT_FALSE(parse_wt_file(junk, "j.wt", f, error));
  EXPECT_EQ(error, "j.wt: offset 0: no WiredTiger block-manager descriptor");
  junk[0] = 0x41, junk[1] = 0xd8, junk[2] = 0x01, junk[4] = 0x01;  // magic 120897, major 1
  EXPECT_FALSE(parse_wt_file(junk, "j.wt", f, error));
  EXPECT_EQ(error, "j.wt: offset 0: no valid WiredTiger block");
}

}  // namespace
}  // namespace kvz
