// What a run records of the machine and its answer, in its results file: meta.machine_load (and
// Google Benchmark's context load_avg), each direction's fastest-call sums, and the
// `recommendations` array after the cells.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "results/results.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

TEST(AnswerJson, MachineLoadAndFastestSumsRoundTrip) {
  RunResults r = testing::make_run(7, 3);
  MachineLoad& l = r.meta.machine_load;
  l.recorded = true;
  l.load_avg_start[0] = 6.25;
  l.load_avg_start[1] = 3.5;
  l.load_avg_start[2] = 1.0;
  l.load_avg_end[0] = 7.5;
  l.load_avg_end[1] = 4;
  l.load_avg_end[2] = 1.5;
  l.wall_seconds = 12.5;
  l.process_cpu_seconds = 3.5;
  l.others_cores = 1.75;
  l.steal_share = 0.01;
  l.preempted_share = 0.375;
  l.verdict = "busy";
  l.verdict_text = "this run had 0.28 of the 1 core it could use";
  r.cells[2].compress_latency.intrinsic.fastest_sum_other_ns = 123456;
  const std::string text = results_to_json(r);
  const auto doc = nlohmann::json::parse(text);
  EXPECT_EQ(doc["context"]["load_avg"], nlohmann::json::array({6.25, 3.5, 1.0}));  // as Google Benchmark records it
  EXPECT_EQ(doc["kvzbench"]["meta"]["machine_load"]["verdict"], "busy");
  EXPECT_EQ(doc["kvzbench"]["meta"]["machine_load"]["cpu_mhz_min"], -1);  // not readable
  // Per cell, the share of its timed calls switched out.
  const CellResult& c1 = r.cells[1];
  EXPECT_DOUBLE_EQ(doc["kvzbench"]["cells"][1]["preempted_share"].get<double>(),
                   static_cast<double>(c1.compress_latency.preempted_calls + c1.decompress_latency.preempted_calls) /
                       static_cast<double>(c1.compress_latency.calls + c1.decompress_latency.calls));
  RunResults back;
  std::string err;
  ASSERT_TRUE(results_from_json(text, back, err)) << err;
  const MachineLoad& b = back.meta.machine_load;
  EXPECT_TRUE(b.recorded);
  EXPECT_DOUBLE_EQ(b.load_avg_end[0], 7.5);
  EXPECT_DOUBLE_EQ(b.others_cores, 1.75);
  EXPECT_DOUBLE_EQ(b.preempted_share, 0.375);
  EXPECT_LT(b.cpu_mhz_max, 0);
  EXPECT_EQ(b.verdict_text, l.verdict_text);
  for (size_t i = 0; i < r.cells.size(); ++i)
    EXPECT_DOUBLE_EQ(back.cells[i].decompress_latency.intrinsic.fastest_sum_ns,
                     r.cells[i].decompress_latency.intrinsic.fastest_sum_ns);
  EXPECT_DOUBLE_EQ(back.cells[2].compress_latency.intrinsic.fastest_sum_other_ns, 123456);
  EXPECT_EQ(back.cells[1].compress_latency.intrinsic.fastest_sum_other_ns, 0);
  // A file written before the record has none, and no load average in its context.
  RunResults old = testing::make_run(7, 3);
  const auto old_doc = nlohmann::json::parse(results_to_json(old));
  EXPECT_FALSE(old_doc["kvzbench"]["meta"].contains("machine_load"));
  EXPECT_TRUE(old_doc["context"]["load_avg"].empty());
}

TEST(AnswerJson, RecommendationsFollowTheCells) {
  RunResults r = testing::make_run(7, 3);
  RecommendationRecord rec;
  rec.group = "rocksdb 4K stream T1";
  rec.workload = "write-heavy";
  rec.pick = "zstd 1";
  rec.ties = {"zstd -1"};
  rec.decided = false;
  rec.speeds_by = "fastest calls";
  rec.stored_ratio = 2.8;
  rec.cost_usd_month = 21.5;
  rec.reason = "$21.50/month";
  rec.config = {{"rocksdb", "compression=kZSTD", true}};
  r.recommendations = {rec};
  const auto doc = nlohmann::json::parse(results_to_json(r));
  const auto& recs = doc["kvzbench"]["recommendations"];
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0]["pick"], "zstd 1");
  EXPECT_EQ(recs[0]["ties"], nlohmann::json::array({"zstd -1"}));
  EXPECT_EQ(recs[0]["decided"], false);
  EXPECT_EQ(recs[0]["config"][0]["store"], "rocksdb");
  EXPECT_EQ(recs[0]["config"][0]["store_call"], true);
  EXPECT_DOUBLE_EQ(recs[0]["cost_usd_month"].get<double>(), 21.5);
  // Both loaders read it back.
  RunResults back;
  std::string err;
  ASSERT_TRUE(results_from_json(results_to_json(r), back, err)) << err;
  EXPECT_EQ(back.cells.size(), r.cells.size());
  const std::string path = ::testing::TempDir() + "/kvz_answer_json.json";
  ASSERT_TRUE(save_results(path, r, err)) << err;
  RunResults loaded;
  ASSERT_TRUE(load_results(path, loaded, err)) << err;
  for (const RunResults* x : {&back, &loaded}) {
    ASSERT_EQ(x->recommendations.size(), 1u);
    const RecommendationRecord& b = x->recommendations[0];
    EXPECT_EQ(b.pick, "zstd 1");
    EXPECT_EQ(b.ties, rec.ties);
    EXPECT_FALSE(b.decided);
    EXPECT_DOUBLE_EQ(b.cost_usd_month, 21.5);
    ASSERT_EQ(b.config.size(), 1u);
    EXPECT_EQ(b.config[0].line, "compression=kZSTD");
  }
  // A merge holds no answer: its answer is computed again from the cells.
  RunResults merged;
  ASSERT_TRUE(merge_results({r}, merged, err)) << err;
  EXPECT_TRUE(merged.recommendations.empty());
  const std::string merged_path = ::testing::TempDir() + "/kvz_answer_json_merged.json";
  size_t cells = 0;
  ASSERT_TRUE(merge_result_files({path}, merged_path, cells, err)) << err;
  EXPECT_FALSE(nlohmann::json::parse(std::ifstream(merged_path))["kvzbench"].contains("recommendations"));
}

}  // namespace
}  // namespace kvz
