// The plan a run records (commands/run_plan_hash.h): the options that shape its cells change
// it, the shard index, outputs and presentation do not.
#include <gtest/gtest.h>

#include "commands/run_plan_hash.h"

namespace kvz {
namespace {

std::string plan_hash(RunArgs a) {
  RunPlan p;
  std::vector<CodecChoice> choices;
  std::string error;
  EXPECT_TRUE(make_plan(a, p, error)) << error;
  EXPECT_TRUE(make_choices(p, CodecRegistry::instance(), choices, error)) << error;
  RunMeta meta;
  record_plan(meta, p, choices);
  EXPECT_EQ(meta.extra.at("plan").size(), 16u);
  return meta.extra.at("plan");
}

RunArgs args(const std::string& codecs, const std::string& shard = "0/2") {
  RunArgs a;
  a.sources.datasets = "dbbench";
  a.codecs = codecs;
  a.shard = shard;
  return a;
}

TEST(RunPlanHash, TheOptionsThatShapeCellsChangeIt) {
  const std::string base = plan_hash(args("lz4/zstd:1"));
  EXPECT_EQ(plan_hash(args("lz4/zstd:1", "1/2")), base);  // another shard of the same sweep
  RunArgs shown = args("lz4/zstd:1");
  shown.json = "elsewhere.json";
  shown.sort = "ratio";
  shown.quiet = shown.wide = true;
  EXPECT_EQ(plan_hash(shown), base);
  EXPECT_NE(plan_hash(args("lz4/snappy")), base);
  EXPECT_NE(plan_hash(args("lz4/zstd:1", "0/3")), base);
  RunArgs longer = args("lz4/zstd:1");
  longer.time = 2.5;
  EXPECT_NE(plan_hash(longer), base);
  RunArgs blocks = args("lz4/zstd:1");
  blocks.sources.block_sizes = "16K";
  EXPECT_NE(plan_hash(blocks), base);
}

TEST(RunPlanHash, SourcesAreHashedApartWithTheirContents) {
  RunPlan p;
  std::vector<CorpusInfo> a = {{"x.json", "/a/x.json", 10, "aa"}}, b = a;
  b[0].sha256 = "bb";
  EXPECT_NE(plan_sources_text(p, a), plan_sources_text(p, b));
  b[0] = a[0];
  b[0].path = "/elsewhere/x.json";  // the same file read from another directory
  EXPECT_EQ(plan_sources_text(p, a), plan_sources_text(p, b));
}

}  // namespace
}  // namespace kvz
