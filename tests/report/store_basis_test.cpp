// What a store's stored bytes assume, beside the figure (stores/store_profile.h
// store_figure_basis): WiredTiger's load, in the console's store table and the HTML's.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "report/console.h"
#include "report/writers.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

std::string console_store_table(const RunResults& r) {
  std::ostringstream out;
  print_store_table(out, r);
  return out.str();
}

std::string html_of(const RunResults& r) {
  const std::string path = ::testing::TempDir() + "/kvz_basis.html";
  std::string error;
  EXPECT_TRUE(write_html(path, {r}, error)) << error;
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(StoreBasis, WiredTigerFiguresSayWhichLoadTheyAssume) {
  RunResults bulk = testing::make_run(44, 3);
  for (auto& c : bulk.cells) c.key.profile = "wiredtiger";
  EXPECT_NE(console_store_table(bulk).find("\n    stored B: bytes the store writes, bulk load\n"), std::string::npos);
  EXPECT_NE(html_of(bulk).find(R"("basis":"bytes the store writes, bulk load")"), std::string::npos);

  RunResults insert = testing::make_run(44, 3);
  for (auto& c : insert.cells) c.key.profile = "wiredtiger:load=insert";
  EXPECT_NE(console_store_table(insert).find("\n    stored B: insert-filled, "), std::string::npos);
  EXPECT_NE(html_of(insert).find(R"("basis":"insert-filled, )"), std::string::npos);

  // Stores whose figure needs no such note print none.
  RunResults rocksdb = testing::make_run(44, 3);
  for (auto& c : rocksdb.cells) c.key.profile = "rocksdb";
  EXPECT_EQ(console_store_table(rocksdb).find("stored B: "), std::string::npos);
}

}  // namespace
}  // namespace kvz
