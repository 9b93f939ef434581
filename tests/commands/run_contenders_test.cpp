// Ties measured again (commands/run_contenders.h): the tied candidates' cells are the contenders,
// at most kMaxContenderCells; a second window keeps the lower fastest-call sum with the other
// beside it and leaves the repetitions as they were.
#include <gtest/gtest.h>

#include <random>

#include "commands/run_contenders.h"
#include "results/results.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

TEST(RunContenders, TheSecondWindowKeepsTheLowerSum) {
  RunResults r = testing::make_run(5, 3);
  CellResult& c = r.cells[2];
  const double compress = c.compress_latency.intrinsic.fastest_sum_ns;
  const double decompress = c.decompress_latency.intrinsic.fastest_sum_ns;
  CellResult again = c;
  again.compress_latency.intrinsic.fastest_sum_ns = compress * 0.9;  // faster this time
  again.compress_latency.intrinsic.worst_block_ns = 1;
  again.decompress_latency.intrinsic.fastest_sum_ns = decompress * 1.2;  // slower this time
  again.compress_mbps = {1, 2};
  fold_second_window(r.cells, {again});
  EXPECT_DOUBLE_EQ(c.compress_latency.intrinsic.fastest_sum_ns, compress * 0.9);
  EXPECT_DOUBLE_EQ(c.compress_latency.intrinsic.fastest_sum_other_ns, compress);
  EXPECT_DOUBLE_EQ(c.compress_latency.intrinsic.worst_block_ns, 1);  // that window's figures, whole
  EXPECT_DOUBLE_EQ(c.decompress_latency.intrinsic.fastest_sum_ns, decompress);
  EXPECT_DOUBLE_EQ(c.decompress_latency.intrinsic.fastest_sum_other_ns, decompress * 1.2);
  EXPECT_EQ(c.compress_mbps.size(), 3u);  // the run's repetitions, as every other cell's
  EXPECT_EQ(r.cells[3].compress_latency.intrinsic.fastest_sum_other_ns, 0);
}

// Twelve lz4hc levels of equal ratio and speed all tie: their cells are the contenders, the
// first kMaxContenderCells of them; a run without ties has none.
TEST(RunContenders, TheTiedCandidatesCellsAtMostTwelve) {
  RunResults r = testing::make_run(5, 3);
  const size_t before = contender_cells(r).size();
  EXPECT_EQ(before, 0u);
  r.cells.clear();
  std::mt19937_64 rng(5);
  for (int level = 1; level <= 14; ++level)
    r.cells.push_back(testing::make_cell({"lz4hc", level, 2.0, 300, 3000}, 4096, rng, 3, 0.001));
  for (auto& c : r.cells) c.compressed_bytes = c.stored_bytes = c.input_bytes / 2;
  const auto ids = contender_cells(r);
  EXPECT_EQ(ids.size(), kMaxContenderCells);
  EXPECT_EQ(ids.front(), r.cells.front().key.id());
}

}  // namespace
}  // namespace kvz
