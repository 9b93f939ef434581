// A second measurement of a few cells (EngineOptions::only_cells, commands/run_contenders.h): the
// engine runs those and none of the others, memcpy included.
#include <gtest/gtest.h>

#include "tests/bench/engine_fixture.h"

namespace kvz {
namespace {

TEST(OnlyCells, TheEngineRunsTheNamedCellsAlone) {
  testing::Fixture f;
  std::vector<BlockGroup> groups;
  groups.push_back(testing::mixed_blocks(8, 4096));
  const Matrix m = build_matrix(std::move(groups), f.choose({f.copy, f.rle}), f.reg);
  EngineOptions opt = testing::fast_options();
  const EngineOutcome all = run_matrix(m, opt);
  ASSERT_GE(all.cells.size(), 2u);
  const CellResult* rle = testing::find(all, "rle");
  ASSERT_TRUE(rle);
  opt.only_cells = {rle->key.id()};
  const EngineOutcome again = run_matrix(m, opt);
  ASSERT_EQ(again.cells.size(), 1u);
  EXPECT_EQ(again.cells[0].key.id(), rle->key.id());
  EXPECT_GT(again.cells[0].compress_latency.intrinsic.fastest_sum_ns, 0);
}

}  // namespace
}  // namespace kvz
