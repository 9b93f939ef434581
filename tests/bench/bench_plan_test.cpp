// The plan and what the engine derives from it before timing anything: one cell per row asked
// for, the shards' cells, cache-mode job lists and the latency passes' call counts.
#include <gtest/gtest.h>

#include <set>

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

TEST(Engine, ShardsPartitionCellsButAlwaysMeasureMemcpy) {
  Fixture f;
  Matrix m = build_matrix({mixed_blocks(6, 4096)}, f.choose({f.rle, f.spying}), f.reg);
  ASSERT_EQ(m.cells.size(), 3u);
  std::multiset<std::string> all;
  for (int s = 0; s < 2; ++s) {
    EngineOptions opt = fast_options();
    opt.shard_index = s;
    opt.shard_count = 2;
    for (const auto& c : run_matrix(m, opt).cells) all.insert(c.key.codec);
  }
  EXPECT_EQ(all, (std::multiset<std::string>{"memcpy", "rle", "rle-spy"}));
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
