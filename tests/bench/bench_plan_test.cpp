// The plan and what the engine derives from it before timing anything: one cell per row asked
// for, the shards' cells, cache-mode job lists and the latency passes' call counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench/cell.h"
#include "bench/latency_pass.h"
#include "engine_fixture.h"

namespace kvz {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): the engine tests' fixture

// A row asked for twice (a profile's dictionary rows next to the same row named by the user)
// is one cell with its own repetitions: two cells would share one benchmark name, and the
// engine would give one of them both cells' repetitions and report the other missing.
TEST(Engine, ARowAskedForTwiceIsOneCell) {
  Fixture f;
  std::vector<CodecChoice> rows = f.choose({f.rle, f.rle, f.copy});
  CodecChoice with_dict = rows[0];
  with_dict.params.dict_size = 1024;
  std::vector<CodecChoice> dict_rows = rows;
  dict_rows.insert(dict_rows.end(), {with_dict, with_dict});
  EXPECT_EQ(build_matrix({mixed_blocks(16, 4096)}, dict_rows, f.reg).cells.size(), 3u);  // memcpy, rle, rle+dict

  const EngineOutcome o = run_matrix(build_matrix({mixed_blocks(16, 4096)}, rows, f.reg), fast_options());
  ASSERT_EQ(o.cells.size(), 2u);  // memcpy, rle
  EXPECT_TRUE(o.warnings.empty()) << o.warnings.front();
  for (const auto& c : o.cells) {
    EXPECT_FALSE(c.partial_set) << c.key.id();
    EXPECT_EQ(c.compress_mbps.size(), 2u) << c.key.id();
  }
}

TEST(Jobs, StreamSplitsDisjointlyHotRepeatsColdExceedsCache) {
  Fixture f;
  BlockGroup g = mixed_blocks(10, 2048);
  CellState cell;
  cell.group = &g;
  cell.codec = f.rle;
  for (size_t i = 0; i < 10; ++i) cell.measured.push_back(i);
  EngineOptions opt;
  std::vector<uint8_t> arena;
  std::set<const uint8_t*> seen;
  for (int w = 0; w < 3; ++w) {
    for (const Job& j : make_jobs(cell, Direction::Compress, w, 3, opt, arena)) EXPECT_TRUE(seen.insert(j.in).second);
  }
  EXPECT_EQ(seen.size(), 10u);

  opt.cache = "hot";
  const auto hot = make_jobs(cell, Direction::Compress, 0, 1, opt, arena);
  ASSERT_EQ(hot.size(), 10u);
  for (const Job& j : hot) EXPECT_EQ(j.in, hot[0].in);

  opt.cache = "cold";
  opt.llc_bytes = 1 << 20;
  const auto cold = make_jobs(cell, Direction::Compress, 0, 1, opt, arena);
  uint64_t bytes = 0;
  for (const Job& j : cold) bytes += j.in_size;
  EXPECT_GE(bytes, 4ull << 20);
  EXPECT_EQ(std::memcmp(cold[10].in, g.blocks.block(0).data(), 2048), 0);  // second copy, same bytes
  EXPECT_NE(cold[10].in, g.blocks.block(0).data());
}

// Shards run whole block sets (their memcpy row and dictionaries with them), and together every
// cell once.
TEST(Engine, ShardsRunWholeBlockSetsAndTogetherEveryCellOnce) {
  Fixture f;
  Matrix m = build_matrix({mixed_blocks(6, 4096, "a"), mixed_blocks(6, 4096, "b"), mixed_blocks(6, 4096, "c")},
                          f.choose({f.rle, f.spying}), f.reg);
  ASSERT_EQ(m.cells.size(), 9u);
  std::multiset<std::string> all;
  std::map<std::string, std::set<int>> shards_of_source;
  for (int s = 0; s < 2; ++s) {
    EngineOptions opt = fast_options();
    opt.shard_index = s;
    opt.shard_count = 2;
    for (const auto& c : run_matrix(m, opt).cells) {
      all.insert(c.key.id());
      shards_of_source[c.key.source].insert(s);
    }
  }
  EXPECT_EQ(all.size(), 9u);
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), 9u);  // none twice
  for (const auto& [source, shards] : shards_of_source) EXPECT_EQ(shards.size(), 1u) << source;
}

// The costliest block set first onto the least loaded shard: costed by bytes, a set of 40
// blocks and four of 10 over two shards are 40 | 10+10+10+10, whatever the order they come in;
// every shard computes the same assignment.
TEST(Plan, ShardsAreAssignedByEstimatedCost) {
  Fixture f;
  std::vector<BlockGroup> groups;
  for (size_t blocks : {10, 10, 40, 10, 10}) groups.push_back(mixed_blocks(blocks, 4096));
  const Matrix m = build_matrix(std::move(groups), f.choose({f.rle}), f.reg);
  EngineOptions opt = fast_options();
  opt.shard_count = 2;
  opt.seconds_per_cell = opt.latency_seconds = 0;  // cost by bytes alone
  const std::vector<int> shard_of = assign_shards(m, opt);
  EXPECT_EQ(shard_of, (std::vector<int>{1, 1, 0, 1, 1}));
  EXPECT_GT(estimated_group_seconds(m, 2, opt), estimated_group_seconds(m, 0, opt));
  opt.shard_index = 1;  // another shard's view of the same plan
  EXPECT_EQ(assign_shards(m, opt), shard_of);
  opt.latency_seconds = 1;  // fixed costs per row dominate: the sets spread by count, 2 | 3
  const std::vector<int> by_count = assign_shards(m, opt);
  EXPECT_EQ(by_count, (std::vector<int>{1, 1, 0, 0, 1}));
  opt.shard_count = 8;  // more shards than sets: some run nothing
  const std::vector<int> wide = assign_shards(m, opt);
  EXPECT_EQ(std::set<int>(wide.begin(), wide.end()).size(), 5u);
}

// The estimate weighs a set's bytes by what makes the default sweep's sets slower (measured with
// bench/scripts/shard_balance.py): blocks that repeat themselves and larger blocks.
TEST(Plan, RepetitiveAndLargerBlocksAreEstimatedCostlier) {
  Fixture f;
  auto uniform = [](bool repetitive, size_t size) {
    BlockGroup g = mixed_blocks(0, size);
    std::mt19937 rng(3);
    std::vector<uint8_t> b(size);
    for (size_t i = 0; i < (64 << 10) / size; ++i) {
      for (size_t j = 0; j < size; ++j) b[j] = repetitive ? static_cast<uint8_t>(j % 61) : static_cast<uint8_t>(rng());
      g.blocks.add_block(b, 1);
    }
    return g;
  };
  std::vector<BlockGroup> groups;
  groups.push_back(uniform(false, 4096));
  groups.push_back(uniform(true, 4096));
  groups.push_back(uniform(true, 16384));
  const Matrix m = build_matrix(std::move(groups), f.choose({f.rle}), f.reg);
  EngineOptions opt = fast_options();
  opt.seconds_per_cell = opt.latency_seconds = 0;
  const double noise = estimated_group_seconds(m, 0, opt), repeats = estimated_group_seconds(m, 1, opt);
  EXPECT_GT(repeats, 1.9 * noise);  // every position but a block's first 61 repeats: x ~2
  EXPECT_GT(estimated_group_seconds(m, 2, opt), repeats);
}

// Calls are sized by what the percentiles need, not by time: whole rounds over the blocks,
// every block at least three times, 1,000 calls wherever a call takes 100 µs or less.
TEST(LatencyCalls, SizedByCallsNotTime) {
  EngineOptions o;
  o.latency_calls = 10'000;
  o.latency_seconds = 0.02;
  // 2 µs calls: the cap allows 0.02 / 3.5 µs = 5,714 calls, rounded up to whole rounds of 128.
  EXPECT_EQ(latency_calls(128, 2e-6, 3, o), 5760u);
  // 90 µs calls: the cap allows 218, p99.9 needs 1,000: 8 rounds of 128.
  EXPECT_EQ(latency_calls(128, 90e-6, 3, o), 1024u);
  // 300 µs calls: no p99.9 floor; the cap (66 calls) or three rounds, whichever is more.
  EXPECT_EQ(latency_calls(8, 300e-6, 3, o), 72u);
  EXPECT_EQ(latency_calls(128, 300e-6, 3, o), 384u);
  EXPECT_EQ(latency_calls(128, 300e-6, 2, o), 256u);
  // Fewer calls asked for: no p99.9 floor beyond the request, still three per block.
  o.latency_calls = 100;
  EXPECT_EQ(latency_calls(128, 2e-6, 3, o), 384u);
  EXPECT_EQ(latency_calls(4, 2e-6, 3, o), 100u);
}

}  // namespace
}  // namespace kvz
