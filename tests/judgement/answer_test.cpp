// The answer as data (judgement/answer.h): one record per pick, as recommend_for_run_store makes
// them, with the line per store; add_answer also judges the machine's load.
#include <gtest/gtest.h>

#include <set>

#include "judgement/answer.h"
#include "judgement/store_config.h"
#include "results/results.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

TEST(Answer, OneRecordPerPickWithItsFiguresAndReason) {
  RunResults r = testing::make_run(43, 3);
  for (auto& c : r.cells) c.key.profile = "rocksdb";
  const auto groups = recommend_for_run_store(r, {});
  const auto records = recommendation_records(r);
  size_t i = 0;
  for (const auto& g : groups)
    for (const auto& p : g.picks) {
      ASSERT_LT(i, records.size());
      const RecommendationRecord& rec = records[i++];
      EXPECT_EQ(rec.group, g.group);
      EXPECT_EQ(rec.workload, p.workload);
      ASSERT_TRUE(p.choice);
      EXPECT_EQ(rec.pick, p.choice->label);
      EXPECT_EQ(rec.ties.size(), p.ties.size());
      EXPECT_EQ(rec.decided, p.decided);
      EXPECT_DOUBLE_EQ(rec.stored_ratio, p.choice->stored_ratio);
      EXPECT_DOUBLE_EQ(rec.compress_mbps, p.choice->compress_mbps);
      EXPECT_DOUBLE_EQ(rec.cost_usd_month, p.cost_usd);
      EXPECT_EQ(rec.speeds_by, "fastest calls");
      EXPECT_EQ(rec.reason, p.why);
      EXPECT_EQ(rec.rule, p.rule);
      ASSERT_EQ(rec.config.size(), 1u);  // under the profile: the store's line, its own call
      EXPECT_EQ(rec.config[0].store, "rocksdb");
      EXPECT_EQ(rec.config[0].line, p.config->line);
      EXPECT_TRUE(rec.config[0].store_call);
    }
  EXPECT_EQ(i, records.size());
}

// Without a store profile a pick is kvz's own call: every store that writes it gets its line,
// marked as not measured under that store.
TEST(Answer, WithoutAProfileTheLineOfEveryStoreThatWritesThePick) {
  const RunResults r = testing::make_run(43, 3);
  bool zstd_seen = false;
  for (const auto& rec : recommendation_records(r)) {
    for (const auto& l : rec.config) EXPECT_FALSE(l.store_call) << rec.workload;
    if (rec.pick.rfind("zstd", 0) != 0) continue;
    zstd_seen = true;
    std::set<std::string> stores;
    for (const auto& l : rec.config) stores.insert(l.store);
    EXPECT_TRUE(stores.count("rocksdb")) << rec.workload;
    EXPECT_TRUE(stores.count("cassandra")) << rec.workload;
    EXPECT_FALSE(stores.count("leveldb")) << rec.workload;  // LevelDB 1.23 writes no zstd
  }
  EXPECT_TRUE(zstd_seen);
}

TEST(Answer, AddAnswerJudgesTheLoadAndStoresThePicks) {
  RunResults r = testing::make_run(43, 3);
  r.meta.cores = 2;
  r.meta.machine_load.recorded = true;
  r.meta.machine_load.wall_seconds = 10;
  r.meta.machine_load.process_cpu_seconds = 1;
  for (auto& c : r.cells) c.compress_latency.preempted_calls = c.compress_latency.calls;  // every call switched out
  add_answer(r);
  EXPECT_EQ(r.meta.machine_load.verdict, "too busy to decide");
  ASSERT_FALSE(r.recommendations.empty());
  for (const auto& rec : r.recommendations) EXPECT_FALSE(rec.decided) << rec.workload;
}

}  // namespace
}  // namespace kvz
