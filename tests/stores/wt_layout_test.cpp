// The wiredtiger layout (blockgen/layouts/wiredtiger.cpp) against tables Debian's libwiredtiger
// 3.2.1 bulk-loads from the same records: five corpora, leaf_page_max 8 and 32 KiB, snappy and
// zlib. Page for page, the layout's blocks are the bytes WiredTiger compressed (each leaf page
// after its first 64 bytes, read back by stores/wiredtiger/wt_file.cpp), so the profile's
// stored bytes are the table's leaf bytes.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "blockgen/layouts.h"
#include "codecs/registry.h"
#include "real_stores.h"
#include "real_wiredtiger.h"
#include "stores/store_profile.h"
#include "stores/wiredtiger/wt_file.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;

TEST(WtLayout, LeafPagesAreTheOnesWiredTigerWrites) {
  const StoreProfile* wt = find_store_profile("wiredtiger");
  ASSERT_NE(wt, nullptr);
  for (const auto& corpus : real_wiredtiger::test_corpora()) {
    const RecordSet rs = real_stores::load_records(corpus, "auto", 512 << 10);
    for (size_t leaf_page_max : {size_t{8192}, size_t{32768}}) {
      std::string error;
      const BlockSet blocks = build_blocks(rs, "wiredtiger", leaf_page_max, error);
      ASSERT_TRUE(error.empty()) << error;
      for (const char* compressor : {"snappy", "zlib"}) {
        const std::string what = fmt::format("{} {} leaf_page_max {}", corpus, compressor, leaf_page_max);
        const std::string home = (fs::temp_directory_path() / fmt::format("kvz_wtl_{}", ::getpid())).string();
        ASSERT_EQ(real_wiredtiger::write_table(home, rs.records, compressor, leaf_page_max), "") << what;
        WtFile f;
        ASSERT_TRUE(read_wt_file(home + "/x.wt", f, error)) << what << ": " << error;
        ASSERT_EQ(f.overflow_items, 0u) << what << ": overflow items' addresses are not modelled byte for byte";
        ASSERT_EQ(blocks.count(), f.leaves.size()) << what;
        size_t same = 0;
        for (size_t i = 0; i < blocks.count(); ++i) {
          const auto block = blocks.block(i);
          const auto& image = f.leaves[i].image;
          same += image.size() == block.size() + 64 && std::equal(block.begin(), block.end(), image.begin() + 64);
        }
        EXPECT_EQ(same, blocks.count()) << what << ": pages whose compressed part is WiredTiger's, byte for byte";
        // Through kvzbench's codec and the profile's rule: the table's leaf bytes.
        const std::string options = std::string(compressor) == "zlib" ? ":zlib" : "";
        const CodecParams params{.level = std::string(compressor) == "zlib" ? 6 : 0, .options = options};
        auto session = CodecRegistry::instance().find(compressor)->open(params, nullptr);
        ASSERT_TRUE(session.ok()) << session.error;
        uint64_t stored = 0;
        for (size_t i = 0; i < blocks.count(); ++i) {
          std::vector<uint8_t> out(session.value->bound(blocks.block(i).size()));
          const CallResult r = session.value->compress(blocks.block(i), out);
          ASSERT_TRUE(r.ok());
          stored += store_block(*wt, {compressor, params.label(), false}, blocks.block(i).size(), r.size).bytes;
        }
        EXPECT_EQ(stored, f.leaf_bytes()) << what;
        std::printf("%-28s %-6s leaf_page_max %5zu: %3zu pages, predicted %7llu B, WiredTiger %7llu B\n",
                    corpus.c_str(), compressor, leaf_page_max, blocks.count(), static_cast<unsigned long long>(stored),
                    static_cast<unsigned long long>(f.leaf_bytes()));
        fs::remove_all(home);
      }
    }
  }
}

}  // namespace
}  // namespace kvz
