// The Markdown summary's latency columns: a percentile without the calls behind it reads "—",
// and the worst blocks are named (tests/judgement/recommend_test.cpp pins the picks themselves).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/writers.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

// A percentile without the calls behind it reads "—" in every text output.
TEST(MarkdownLatency, UnsupportedPercentilesReadAsDashes) {
  RunResults r;
  r.cells = {testing::latency_cell("lz4", 1, 2.0, {700, 700, 700}, {4000, 4000, 4000}, 20)};
  const std::string md = markdown_summary(r, {});
  EXPECT_NE(md.find("| — |"), std::string::npos);
  EXPECT_NE(md.find("300/300"), std::string::npos);  // the calls, compress/decompress
  // The worst blocks are named, so `kvzbench blocks --out` can export them ("\\#": a literal "#"
  // in Markdown, as every cell's text is escaped).
  EXPECT_NE(md.find("c \\#17 4096→1203 B, d \\#17 4096→1203 B"), std::string::npos) << md;
}

}  // namespace
}  // namespace kvz
