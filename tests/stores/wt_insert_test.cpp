// WiredTiger tables filled by ordinary inserts (not a bulk load), against the profile's
// prediction: five corpora, leaf_page_max 8, 16, 32 and 64 KiB, snappy and zlib, each table
// written by Debian's libwiredtiger 3.2.1 through an ordinary cursor in key order and closed
// (its final checkpoint written). Compared: the bytes of the table's live leaf pages (read back
// by stores/wiredtiger/wt_file.cpp), the figure the profile predicts; the whole file also holds
// internal pages, the descriptor, checkpoint extent lists and blocks freed by earlier
// reconciliations, none of which the profile models (printed beside, not compared).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
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

// The profile's stored bytes for `blocks`: each block through the codec and the profile's rule.
uint64_t predicted_bytes(const StoreProfile& wt, const BlockSet& blocks, const std::string& compressor) {
  const bool zlib = compressor == "zlib";
  const CodecParams params{.level = zlib ? 6 : 0, .options = zlib ? ":zlib" : ""};
  auto session = CodecRegistry::instance().find(compressor)->open(params, nullptr);
  EXPECT_TRUE(session.ok()) << session.error;
  if (!session.ok()) return 0;
  uint64_t stored = 0;
  for (size_t i = 0; i < blocks.count(); ++i) {
    std::vector<uint8_t> out(session.value->bound(blocks.block(i).size()));
    const CallResult r = session.value->compress(blocks.block(i), out);
    EXPECT_TRUE(r.ok());
    stored += store_block(wt, {compressor, params.label(), false}, blocks.block(i).size(), r.size).bytes;
  }
  return stored;
}

TEST(WtInsert, InsertFilledTablesAgainstTheProfile) {
  const StoreProfile* wt = find_store_profile("wiredtiger");
  ASSERT_NE(wt, nullptr);
  for (const auto& corpus : real_wiredtiger::test_corpora()) {
    const RecordSet rs = real_stores::load_records(corpus, "auto", 512 << 10);
    for (size_t leaf_page_max : {size_t{8192}, size_t{16384}, size_t{32768}, size_t{65536}}) {
      std::string error;
      const BlockSet blocks = build_blocks(rs, wt->layout, leaf_page_max, error);
      ASSERT_TRUE(error.empty()) << error;
      for (const char* compressor : {"snappy", "zlib"}) {
        const std::string what = fmt::format("{} {} leaf_page_max {}", corpus, compressor, leaf_page_max);
        const std::string home = (fs::temp_directory_path() / fmt::format("kvz_wti_{}", ::getpid())).string();
        ASSERT_EQ(real_wiredtiger::write_table(home, rs.records, compressor, leaf_page_max, false), "") << what;
        WtFile f;
        ASSERT_TRUE(read_wt_file(home + "/x.wt", f, error)) << what << ": " << error;
        ASSERT_EQ(f.records.size(), rs.records.size()) << what;
        const uint64_t real = f.leaf_bytes(), predicted = predicted_bytes(*wt, blocks, compressor);
        const double err =
            100.0 * (static_cast<double>(predicted) - static_cast<double>(real)) / static_cast<double>(real);
        std::printf(
            "%-28s %-6s %2zu KiB: %3zu/%3zu pages, predicted %8llu B, real leaves %8llu B (file %8llu B): %+6.2f %%\n",
            corpus.c_str(), compressor, leaf_page_max / 1024, blocks.count(), f.leaves.size(),
            static_cast<unsigned long long>(predicted), static_cast<unsigned long long>(real),
            static_cast<unsigned long long>(fs::file_size(home + "/x.wt")), err);
        // The bulk-load pages measured −6.25 … +2.17 % off these tables (the last pages differ).
        EXPECT_LE(std::abs(err), 7.0) << what;
        fs::remove_all(home);
      }
    }
  }
}

}  // namespace
}  // namespace kvz
