// WiredTiger tables filled by ordinary inserts (not a bulk load), against the profile's
// prediction: five corpora (1 MiB of each), leaf_page_max 8, 16, 32 and 64 KiB, snappy and zlib, each table
// written by Debian's libwiredtiger 3.2.1 through an ordinary cursor in key order and closed
// (its final checkpoint written), and the eight tables of other corpora that set the band's
// bounds when every text corpus was measured (bench/scripts/wt_insert_band.sh). Compared: the
// bytes of the table's live leaf pages (read back by stores/wiredtiger/wt_file.cpp), the figure
// the profile predicts; the whole file also holds internal pages, overflow items' pages, the
// descriptor, checkpoint extent lists and blocks freed by earlier reconciliations, none of which
// the profile models (printed beside, not compared). The measured error per page size and codec,
// printed beside every insert-mode figure, is pinned here: every table within it, every bound
// reached (stores/wiredtiger/wt_insert_error.h says what the model leaves out). 1 MiB of each
// corpus: enough for the in-memory page to split (at 1.6 MB of footprint with the default cache).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "blockgen/layouts.h"
#include "codecs/registry.h"
#include "real_stores.h"
#include "real_wiredtiger.h"
#include "stores/store_profile.h"
#include "stores/wiredtiger/wt_file.h"
#include "stores/wiredtiger/wt_insert_error.h"

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

// The measured bounds of `codec` at `leaf_page_max` (stores/wiredtiger/wt_insert_error.h).
const WtInsertError* bounds(size_t leaf_page_max, const std::string& codec) {
  for (const WtInsertError& e : wiredtiger_insert_errors())
    if (e.leaf_page_max == leaf_page_max && e.codec == codec) return &e;
  return nullptr;
}

// One table: a corpus (1 MiB of it; "NAME@BYTES": its first BYTES), a leaf_page_max, a codec.
struct InsertCase {
  std::string corpus;
  size_t leaf_page_max;
  std::string codec;
};

// The tables the band is pinned on: every page size and codec of the WiredTiger tests' five
// corpora, and the tables that reached each bound when bench/scripts/wt_insert_band.sh measured
// every text corpus of shared/corpora (728 tables of 91 corpora, stores/README.md). With
// KVZ_WT_INSERT_CORPORA (names under KVZ_CORPORA, comma separated), every page size and codec of
// those corpora instead (the script: held-out files, the table printed).
std::vector<InsertCase> insert_cases() {
  std::vector<std::string> corpora = real_wiredtiger::test_corpora();
  std::vector<InsertCase> cases;
  if (const char* given = std::getenv("KVZ_WT_INSERT_CORPORA"); given && *given) {
    corpora.clear();
    for (std::string_view list = given; !list.empty();) {
      const size_t comma = std::min(list.find(','), list.size());
      if (comma) corpora.emplace_back(list.substr(0, comma));
      list.remove_prefix(std::min(comma + 1, list.size()));
    }
  } else {
    cases = {{"snappy/asyoulik.txt", 8192, "snappy"},
             {"canterbury/world192.txt", 16384, "snappy"},
             {"snappy/asyoulik.txt", 16384, "snappy"},
             {"canterbury/world192.txt", 16384, "zlib"},
             {"json/synthea_fhir.json", 32768, "snappy"},
             {"json/synthea_fhir.json", 32768, "zlib"},
             {"canterbury/world192.txt", 32768, "zlib"},
             {"nab/realKnownCause__machine_temperature_system_failure.csv", 32768, "snappy"}};
  }
  for (const auto& corpus : corpora)
    for (size_t leaf_page_max : {size_t{8192}, size_t{16384}, size_t{32768}, size_t{65536}})
      for (const char* codec : {"snappy", "zlib"}) cases.push_back({corpus, leaf_page_max, codec});
  return cases;
}

double percent_error(uint64_t predicted, uint64_t real) {
  return 100.0 * (static_cast<double>(predicted) - static_cast<double>(real)) / static_cast<double>(real);
}

// Each table's error, printed as a table; each within the bounds the profile prints beside
// its figures, and every bound reached by some table (they are what was measured, no wider).
TEST(WtInsert, InsertFilledTablesWithinTheMeasuredError) {
  const StoreProfile* wt = find_store_profile("wiredtiger:load=insert");
  ASSERT_NE(wt, nullptr);
  ASSERT_EQ(wt->layout, "wiredtiger:insert");
  std::map<std::pair<size_t, std::string>, std::pair<double, double>> seen;  // lowest, highest error
  std::printf("%-28s %-6s %-8s %6s %10s %10s %10s %8s\n", "corpus", "codec", "leaf max", "pages", "predicted", "real",
              "file", "error");
  std::map<std::string, RecordSet> records;
  for (const InsertCase& c : insert_cases()) {
    const size_t at = c.corpus.find('@');
    const size_t bytes = at == std::string::npos ? size_t{1} << 20 : std::stoul(c.corpus.substr(at + 1));
    auto [rs, fresh_corpus] = records.try_emplace(c.corpus);
    if (fresh_corpus) rs->second = real_stores::load_records(c.corpus.substr(0, at), "auto", bytes);
    std::string error;
    const BlockSet blocks = build_blocks(rs->second, wt->layout, c.leaf_page_max, error);
    ASSERT_TRUE(error.empty()) << error;
    const std::string what = fmt::format("{} {} leaf_page_max {}", c.corpus, c.codec, c.leaf_page_max);
    const std::string home = (fs::temp_directory_path() / fmt::format("kvz_wti_{}", ::getpid())).string();
    ASSERT_EQ(real_wiredtiger::write_table(home, rs->second.records, c.codec, c.leaf_page_max, false), "") << what;
    WtFile f;
    ASSERT_TRUE(read_wt_file(home + "/x.wt", f, error)) << what << ": " << error;
    ASSERT_EQ(f.records.size(), rs->second.records.size()) << what;
    const uint64_t real = f.leaf_bytes(), predicted = predicted_bytes(*wt, blocks, c.codec);
    const double err = percent_error(predicted, real);
    std::printf("%-28s %-6s %5zu KiB %6zu %10llu %10llu %10llu %+7.2f%%\n", c.corpus.c_str(), c.codec.c_str(),
                c.leaf_page_max / 1024, f.leaves.size(), static_cast<unsigned long long>(predicted),
                static_cast<unsigned long long>(real), static_cast<unsigned long long>(fs::file_size(home + "/x.wt")),
                err);
    const WtInsertError* b = bounds(c.leaf_page_max, c.codec);
    ASSERT_NE(b, nullptr) << what << ": no measured bounds";
    EXPECT_GE(err, b->low - 0.05) << what;
    EXPECT_LE(err, b->high + 0.05) << what;
    auto [it, fresh] = seen.try_emplace({c.leaf_page_max, c.codec}, err, err);
    it->second = {std::min(it->second.first, err), std::max(it->second.second, err)};
    fs::remove_all(home);
  }
  ASSERT_EQ(seen.size(), wiredtiger_insert_errors().size());
  for (const WtInsertError& e : wiredtiger_insert_errors()) {
    const auto [low, high] = seen.at({e.leaf_page_max, std::string(e.codec)});
    EXPECT_NEAR(e.low, std::floor(low * 10) / 10, 1e-9) << e.leaf_page_max << " " << e.codec;
    EXPECT_NEAR(e.high, std::ceil(high * 10) / 10, 1e-9) << e.leaf_page_max << " " << e.codec;
  }
}

// load= picks the pages and what the reports print beside the figure.
TEST(WtInsert, LoadOptionNamesTheLoadModelled) {
  const StoreProfile* bulk = find_store_profile("wiredtiger");
  const StoreProfile* insert = find_store_profile("wiredtiger:load=insert");
  ASSERT_NE(bulk, nullptr);
  ASSERT_NE(insert, nullptr);
  EXPECT_EQ(find_store_profile("wiredtiger:load=bulk")->layout, "wiredtiger");
  EXPECT_EQ(store_figure_basis(*bulk, "snappy", 32768), "bytes the store writes, bulk load");
  const WtInsertError& e = wiredtiger_insert_errors()[2];
  EXPECT_EQ(store_figure_basis(*insert, std::string(e.codec), e.leaf_page_max),
            fmt::format("insert-filled, measured error {}{:.1f} … {}{:.1f} %", e.low > 0 ? "+" : "", e.low,
                        e.high > 0 ? "+" : "", e.high));
  EXPECT_NE(store_figure_basis(*insert, "zstd", 32768).find("insert-filled, not measured for zstd"), std::string::npos);
  std::string error;
  EXPECT_EQ(find_store_profile("wiredtiger:load=random", error), nullptr);
  EXPECT_EQ(error, "wiredtiger: load must be bulk or insert, got 'random'");
  EXPECT_EQ(store_figure_basis(*find_store_profile("rocksdb"), "lz4", 4096), "");
}

}  // namespace
}  // namespace kvz
