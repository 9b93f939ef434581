// The cost ranking and the per-level plan agree, or one line says why not (judgement/plan_agreement.h).
#include <gtest/gtest.h>

#include "judgement/plan_agreement.h"

namespace kvz {
namespace {

GroupCosts ranking(const std::string& cheapest, double usd) {
  GroupCosts g;
  g.group = "rocksdb: rocksdb 16K stream T1";
  CostRow top;
  top.label = cheapest;
  top.total_usd = usd;
  g.rows = {top};
  return g;
}

LevelPlan plan(const std::string& single, double storage, double cpu) {
  LevelPlan p;
  p.group = "rocksdb: rocksdb 16K stream T1";
  p.single_label = single;
  p.single.storage_usd = storage;
  p.single.cpu_usd = cpu;
  return p;
}

TEST(PlanAgreement, SameCodecNothingToSay) {
  EXPECT_EQ(ranking_plan_difference(ranking("zstd 3", 20), plan("zstd 3", 15, 4)), "");
  EXPECT_EQ(ranking_plan_difference(ranking("uncompressed", 20), plan("none", 20, 0)), "");
}

// The case: the ranking's zstd 3:dict=16K, the plan's lz4: the plan has no dictionaries
// and charges compaction; both say their dollars.
TEST(PlanAgreement, ADictionaryTheLevelsCannotTake) {
  const std::string why =
      ranking_plan_difference(ranking("zstd 3:dict=16K", 54.94), plan("lz4 1:stream:fresh", 15, 6.08));
  EXPECT_EQ(why,
            "the ranking's cheapest, zstd 3:dict=16K ($54.94), is not the plan's best single codec, lz4 1:stream:fresh "
            "($21.08): the plan takes each codec at RocksDB's default call without a dictionary (compression_opts is "
            "shared by every level), and the plan charges compaction's rewrites and reads on every level, the "
            "ranking one compression per byte written");
  // Two plain rows: only compaction differs.
  const std::string plain = ranking_plan_difference(ranking("zstd 3", 30), plan("lz4 1", 15, 6));
  EXPECT_EQ(plain.find("dictionary"), std::string::npos) << plain;
  EXPECT_NE(plain.find("compaction's rewrites and reads"), std::string::npos) << plain;
}

}  // namespace
}  // namespace kvz
