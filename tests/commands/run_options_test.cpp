// CLI value parsing and the exit code rule of `kvzbench run`.
#include <gtest/gtest.h>

#include <csignal>

#include "bench/interrupt.h"
#include "commands/run_options.h"

namespace kvz {
namespace {

TEST(BlockSizes, AcceptsTheCliForms) {
  std::vector<size_t> v;
  std::string err;
  ASSERT_TRUE(parse_block_sizes("4096,4K,64KiB,1M", v, err)) << err;
  EXPECT_EQ(v, (std::vector<size_t>{4096, 65536, 1048576}));  // 4096 and 4K are one size
  std::string many;
  for (int i = 0; i < 5000; ++i) many += i % 2 ? "16K," : "4K,";
  ASSERT_TRUE(parse_block_sizes(many + "4K", v, err)) << err;
  EXPECT_EQ(v, (std::vector<size_t>{4096, 16384}));
}

TEST(BlockSizes, RejectsOutOfRangeAndGarbageWithOneLine) {
  for (const char* bad : {"0", "-4K", "abc", "512", "1023", "2M", "4K,", ""}) {
    std::vector<size_t> v;
    std::string err;
    EXPECT_FALSE(parse_block_sizes(bad, v, err)) << bad;
    EXPECT_FALSE(err.empty()) << bad;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  }
}

TEST(StallThresholds, MillisecondsToNanoseconds) {
  std::vector<uint64_t> ns;
  std::string err;
  ASSERT_TRUE(parse_stall_thresholds("0.5,1,2.25", ns, err)) << err;
  EXPECT_EQ(ns, (std::vector<uint64_t>{500'000, 1'000'000, 2'250'000}));
  EXPECT_FALSE(parse_stall_thresholds("0", ns, err));
  EXPECT_FALSE(parse_stall_thresholds("1ms", ns, err));
  EXPECT_FALSE(parse_stall_thresholds("nan", ns, err));
}

TEST(Shard, ParsesAndBoundsChecks) {
  int i = -1, n = -1;
  std::string err;
  ASSERT_TRUE(parse_shard("1/4", i, n, err));
  EXPECT_EQ(i, 1);
  EXPECT_EQ(n, 4);
  EXPECT_FALSE(parse_shard("4/4", i, n, err));
  EXPECT_FALSE(parse_shard("1", i, n, err));
  EXPECT_FALSE(parse_shard("a/b", i, n, err));
  EXPECT_FALSE(parse_shard("0/0", i, n, err));
}

TEST(Profiles, QuickIsSmallAndDeterministic) {
  const SweepProfile* q = find_sweep_profile("quick");
  ASSERT_NE(q, nullptr);
  EXPECT_TRUE(q->corpora.empty());  // CI baseline must not depend on corpora
  EXPECT_FALSE(q->all_corpora);
  EXPECT_EQ(find_sweep_profile("nope"), nullptr);
}

TEST(ExitCode, InterruptFailureAndCheck) {
  EXPECT_EQ(run_exit_code(0, 0, true, 0), 0);
  EXPECT_EQ(run_exit_code(0, 1, true, 0), 1);
  EXPECT_EQ(run_exit_code(0, 0, false, 0), 1);
  EXPECT_EQ(run_exit_code(0, 0, true, 1), 1);
  EXPECT_EQ(run_exit_code(SIGINT, 3, true, 0), 130);
  EXPECT_EQ(run_exit_code(SIGTERM, 0, true, 0), 143);
  EXPECT_EQ(run_exit_code(SIGHUP, 0, false, 1), 129);
}

}  // namespace
}  // namespace kvz
