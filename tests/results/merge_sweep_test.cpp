// A merge is one sweep or nothing (results/README.md "One sweep"): shards of different plans,
// interrupted inputs and block sets cut short are refused, naming them; a merged file is no
// shard; fleet inputs may read different sources under one plan.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "results/results.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;

// Three shards of one sweep, each recording the plan (options and sources) `run` would.
std::vector<RunResults> planned_shards() {
  RunResults all = testing::make_run(3);
  all.meta.extra["plan"] = "a1b2c3d4e5f60718";
  all.meta.extra["plan_sources"] = "0011223344556677";
  all.meta.command_line = "kvzbench run -c lz4/zstd:1 --shard auto";
  std::vector<RunResults> shards(3, all);
  for (size_t s = 0; s < shards.size(); ++s) {
    shards[s].cells.clear();
    shards[s].meta.extra["shard"] = std::to_string(s) + "/3";
    shards[s].meta.extra["shard_scheduler"] = "Slurm array task " + std::to_string(s) + " of 0-2:1";
    for (size_t i = s; i < all.cells.size(); i += 3) shards[s].cells.push_back(all.cells[i]);
  }
  return shards;
}

TEST(MergeSweep, OnePlanMergesIntoAFileThatIsNoShard) {
  RunResults m;
  std::string err;
  ASSERT_TRUE(merge_results(planned_shards(), m, err, true)) << err;
  EXPECT_EQ(m.meta.extra.count("shard"), 0u);  // check would skip the cells "another shard" holds
  EXPECT_EQ(m.meta.extra.count("shard_scheduler"), 0u);
  EXPECT_EQ(m.meta.extra.at("merged_inputs"), "3");
  EXPECT_EQ(m.meta.extra.at("plan"), "a1b2c3d4e5f60718");
  EXPECT_EQ(m.meta.extra.at("plan_sources"), "0011223344556677");
}

TEST(MergeSweep, ShardsOfAnotherPlanAreRefusedNamingBoth) {
  auto shards = planned_shards();
  shards[1].meta.extra["plan"] = "ffffffffffffffff";
  shards[1].meta.command_line = "kvzbench run -c lz4/snappy --shard auto";
  RunResults m;
  std::string err;
  EXPECT_FALSE(merge_results(shards, m, err, true));
  EXPECT_EQ(err,
            "input 1 and input 2 are not one sweep: their options differ ('kvzbench run -c lz4/zstd:1 --shard auto' "
            "and 'kvzbench run -c lz4/snappy --shard auto')");
  shards = planned_shards();
  shards[2].meta.extra["plan_sources"] = "7766554433221100";  // another corpus, same options
  EXPECT_FALSE(merge_results(shards, m, err, true));
  EXPECT_NE(err.find("input 1 and input 3 are not one sweep: their sources differ"), std::string::npos) << err;
  shards = planned_shards();
  shards[0].meta.extra.erase("plan");
  EXPECT_FALSE(merge_results(shards, m, err, true));
  EXPECT_NE(err.find("input 1 records no plan"), std::string::npos) << err;
}

// A fleet survey: one plan on every host, each host's own store files.
TEST(MergeSweep, HostsOfOnePlanMayReadTheirOwnSources) {
  RunResults a = testing::make_run(3), b = a;
  for (auto* r : {&a, &b}) r->meta.extra["plan"] = "a1b2c3d4e5f60718";
  a.meta.hostname = "node1";
  b.meta.hostname = "node2";
  a.meta.extra["plan_sources"] = "1111111111111111";
  b.meta.extra["plan_sources"] = "2222222222222222";
  for (auto& c : b.cells) c.key.source = "other.json";
  RunResults m;
  std::string err;
  ASSERT_TRUE(merge_results({a, b}, m, err, true)) << err;
  EXPECT_EQ(m.meta.extra.count("plan_sources"), 0u);  // neither host's alone
  b.meta.extra["plan"] = "ffffffffffffffff";
  EXPECT_FALSE(merge_results({a, b}, m, err, true));
  EXPECT_NE(err.find("their options differ"), std::string::npos) << err;
}

// `report`'s join of several runs (not `kvzbench merge`) takes an interrupted run or another plan,
// and shows the interruption.
TEST(MergeSweep, ReportsJoinIsNoSweep) {
  auto shards = planned_shards();
  shards[1].meta.interrupted = true;
  shards[1].cells[0].partial_set = true;
  shards[2].meta.extra["plan"] = "ffffffffffffffff";
  RunResults m;
  std::string err;
  ASSERT_TRUE(merge_results(shards, m, err)) << err;
  EXPECT_TRUE(m.meta.interrupted);
}

// Files written before plans were recorded merge as they did.
TEST(MergeSweep, InputsWithoutPlansMergeAsBefore) {
  auto shards = planned_shards();
  for (auto& s : shards) s.meta.extra.erase("plan"), s.meta.extra.erase("plan_sources");
  RunResults m;
  std::string err;
  EXPECT_TRUE(merge_results(shards, m, err, true)) << err;
}

TEST(MergeSweep, AnInterruptedInputIsRefusedNamingIt) {
  auto shards = planned_shards();
  shards[1].meta.interrupted = true;
  shards[2].meta.interrupted = true;
  RunResults m;
  std::string err;
  EXPECT_FALSE(merge_results(shards, m, err, true));
  EXPECT_EQ(err, "input 2, input 3 were interrupted (meta.interrupted): merge only complete runs; run them again");
  // A block set cut short is refused even without the meta flag (an edit can lose it).
  shards = planned_shards();
  shards[2].cells[0].partial_set = true;
  EXPECT_FALSE(merge_results(shards, m, err, true));
  EXPECT_EQ(err, "input 3: cell " + shards[2].cells[0].key.id() +
                     " is of a block set a stop cut short (partial_set): merge only complete runs");
}

// The streamed merge names the files and leaves no output.
TEST(MergeSweep, TheStreamedMergeNamesTheFiles) {
  std::string tmpl = (fs::temp_directory_path() / "kvz_merge_sweep_XXXXXX").string();
  const fs::path dir = ::mkdtemp(tmpl.data());
  auto shards = planned_shards();
  shards[1].meta.interrupted = true;
  std::vector<std::string> paths;
  std::string err;
  for (size_t i = 0; i < shards.size(); ++i) {
    paths.push_back((dir / ("s" + std::to_string(i) + ".json")).string());
    ASSERT_TRUE(save_results(paths.back(), shards[i], err)) << err;
  }
  size_t cells = 0;
  const std::string out = (dir / "all.json").string();
  EXPECT_FALSE(merge_result_files(paths, out, cells, err));
  EXPECT_EQ(err, paths[1] + " was interrupted (meta.interrupted): merge only complete runs; run it again");
  shards[1].meta.interrupted = false;
  shards[1].cells[1].partial_set = true;
  ASSERT_TRUE(save_results(paths[1], shards[1], err)) << err;
  EXPECT_FALSE(merge_result_files(paths, out, cells, err));
  EXPECT_EQ(err.rfind(paths[1] + ": cell " + shards[1].cells[1].key.id() + " is of a block set a stop cut short", 0),
            0u)
      << err;
  EXPECT_FALSE(fs::exists(out));
  RunMeta meta;
  EXPECT_TRUE(load_results_meta(paths[0], meta, err)) << err;
  EXPECT_EQ(meta.extra.at("shard"), "0/3");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace kvz
