// Recommendations are made on the measured spread: speeds within noise tie, and the tie goes
// to the better size, so the last digit of a noisy speed never decides a pick.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "judgement/analysis.h"
#include "judgement/cost.h"
#include "judgement/store_config.h"
#include "results/cell_view.h"
#include "results/run_summary.h"
#include "tests/results/fixture.h"

#include <algorithm>
#include <memory>
#include <set>
#include <stdexcept>

namespace kvz {
namespace {

const Recommendation& pick(const GroupRecommendations& g, const std::string& workload) {
  for (const auto& p : g.picks)
    if (p.workload == workload) return p;
  throw std::runtime_error("no pick " + workload);
}

// zstd 1 at 191.7 MB/s and zstd 3 at 191.3 MB/s (the 64K case) are one result: the tie
// goes to the better ratio, and both are named.
TEST(Recommend, SpeedsWithinNoiseAreATieWonByTheBetterRatio) {
  RunResults r;
  r.cells = {testing::latency_cell("zstd", 1, 2.30, {191.7, 185.0, 196.0}, {900, 910, 905}),
             testing::latency_cell("zstd", 3, 2.40, {191.3, 188.0, 194.0}, {880, 890, 885}),
             testing::latency_cell("zlib", 6, 2.45, {60, 61, 59}, {400, 401, 399})};
  const auto g = recommend(r, {});
  ASSERT_EQ(g.size(), 1u);
  const Recommendation& w = pick(g[0], "write-heavy");
  ASSERT_TRUE(w.choice);
  EXPECT_EQ(w.choice->label, "zstd 3");
  ASSERT_EQ(w.ties.size(), 1u);
  EXPECT_EQ(w.ties[0].label, "zstd 1");
  EXPECT_EQ(w.choice_text(), "zstd 3 ≈ zstd 1");
  // The same figures in the other order give the same pick: no dependence on the last digit.
  std::swap(r.cells[0].compress_mbps, r.cells[1].compress_mbps);
  EXPECT_EQ(pick(recommend(r, {})[0], "write-heavy").choice_text(), "zstd 3 ≈ zstd 1");
}

TEST(Recommend, ASpeedOutsideTheNoiseIsNoTie) {
  RunResults r;
  // 300 vs 240 MB/s: 20 % apart, ranges (295-305, 236-244) apart.
  r.cells = {testing::latency_cell("lz4", 1, 2.00, {300, 295, 305}, {4000, 4000, 4000}),
             testing::latency_cell("snappy", 0, 2.05, {240, 236, 244}, {1500, 1500, 1500})};
  const auto g = recommend(r, {});
  const Recommendation& w = pick(g[0], "write-heavy");
  EXPECT_EQ(w.choice_text(), "lz4 1");
  EXPECT_TRUE(w.ties.empty());
  // Overlapping ranges tie even beyond 5 %: 300 (250-310) vs 270 (260-280).
  r.cells[0].compress_mbps = {300, 250, 310};
  r.cells[1].compress_mbps = {270, 260, 280};
  EXPECT_EQ(pick(recommend(r, {})[0], "write-heavy").choice_text(), "snappy 0 ≈ lz4 1");
}

// The noise is each candidate's typical cell: one source with an outlier repetition (a VM
// hiccup) does not turn a clear 10 % lead into a tie, in one run and not the next.
TEST(Recommend, OneOutlierRepetitionDoesNotMakeATie) {
  RunResults r;
  for (int s = 0; s < 5; ++s) {
    const bool hiccup = s == 2;
    r.cells.push_back(testing::latency_cell("lz4hc", 9, 2.10, {100, 100, 100}, {hiccup ? 5200.0 : 8000.0, 8000, 8080}));
    r.cells.push_back(testing::latency_cell("lz4", 1, 2.00, {700, 700, 700}, {7200, 7150, 7250}));
    const std::string source = fmt::format("s{}", s);
    r.cells[r.cells.size() - 2].key.source = source;
    r.cells.back().key.source = source;
  }
  const auto groups = recommend(r, {});
  ASSERT_EQ(groups.size(), 1u);
  const Recommendation& rh = pick(groups[0], "read-heavy");
  EXPECT_EQ(rh.choice_text(), "lz4hc 9");
  // The same outlier in most cells is the noise: then the two are a tie.
  for (auto& c : r.cells)
    if (c.key.codec == "lz4hc") c.decompress_mbps[0] = 5200;
  EXPECT_EQ(pick(recommend(r, {})[0], "read-heavy").choice_text(), "lz4hc 9 ≈ lz4 1");
}

// Latency-bound reads each block's intrinsic cost (its fastest call), not the worst call: a
// call the scheduler stretched to 4 ms does not rule a codec out; a block that costs 600 us
// every time does.
TEST(Recommend, LatencyBoundUsesTheIntrinsicWorstBlock) {
  RunResults r;
  r.cells = {testing::latency_cell("lz4", 1, 2.0, {700, 700, 700}, {4000, 4000, 4000}, 20),
             testing::latency_cell("zstd", 3, 2.4, {300, 300, 300}, {900, 900, 900}, 120),
             testing::latency_cell("zstd", 19, 2.7, {8, 8, 8}, {800, 800, 800}, 600)};
  const auto g = recommend(r, {});
  const Recommendation& l = pick(g[0], "latency-bound");
  EXPECT_EQ(l.choice_text(), "zstd 3");
  EXPECT_NE(l.why.find("p99.9 — (too few calls)"), std::string::npos) << l.why;
  // Every rule is a different question.
  std::set<std::string> rules;
  for (const auto& p : g[0].picks) rules.insert(p.rule);
  EXPECT_EQ(rules.size(), g[0].picks.size());
}

// A dictionary whose block makes the data bigger (net gain below 1) is never picked, however
// fast: here the dictionary row would win every speed rule and tie on size.
TEST(Recommend, ADictionaryThatLosesIsNeverPicked) {
  RunResults r;
  CellResult with = testing::latency_cell("zstd", 1, 2.2, {900, 900, 900}, {3000, 3000, 3000}, 20);
  with.key.params = "1:dict=16K";
  with.key.dict_size = 16384;
  with.dict_bytes = 16384;
  with.dict_method = "file";
  with.dict_gain = 0.98;
  r.cells = {with, testing::latency_cell("zstd", 1, 2.25, {300, 300, 300}, {900, 900, 900}, 120)};
  const auto g = recommend(r, {});
  ASSERT_EQ(g.size(), 1u);
  for (const auto& p : g[0].picks) EXPECT_EQ(p.choice_text(), "zstd 1") << p.workload;
  // Nor does it set the bar: with the best ratio (3.0, a loss on some source) out, write-heavy's
  // "within 10 % of the best" is measured against the best row that can be picked.
  r.cells[0].key.params = "1:dict=16K";
  r.cells[0].compressed_bytes = r.cells[0].stored_bytes = static_cast<uint64_t>(409600 / 3.0);
  EXPECT_EQ(pick(recommend(r, {})[0], "write-heavy").choice_text(), "zstd 1");
  r.cells[0].dict_gain = 1.02;  // the same row, a net gain: now it wins the speed rules
  EXPECT_EQ(pick(recommend(r, {})[0], "write-heavy").choice_text(), "zstd 1:dict=16K");
}

// In a store's terms (judgement/store_config.h): picks only among what the store writes, each
// with the line that applies it, as text: presentation never sees the store profile.
TEST(Recommend, InAStoresTermsEachPickCarriesItsConfigLine) {
  RunResults r = testing::make_run(43, 3);
  EXPECT_EQ(run_store(r), "");
  for (const auto& g : recommend_for_run_store(r, {}))
    for (const auto& p : g.picks) EXPECT_FALSE(p.config) << p.workload;
  EXPECT_EQ(pick(recommend(r, {})[0], "cold data").choice_text(), "xz 6");
  const auto rocks = recommend_for_store(r, {}, "rocksdb");
  ASSERT_EQ(rocks.size(), recommend(r, {}).size());          // the same groups
  const Recommendation& cold = pick(rocks[0], "cold data");  // 4K: RocksDB writes no xz
  EXPECT_EQ(cold.choice_text(), "zlib 6");
  ASSERT_TRUE(cold.config);
  EXPECT_EQ(cold.config->store, "rocksdb");
  EXPECT_TRUE(cold.config->writable);
  EXPECT_EQ(cold.config->line,
            "compression=kZlibCompression;bottommost_compression=kZlibCompression;compression_opts={level=6};"
            "block_based_table_factory={block_size=4096}");
  // Cells measured under a store profile: that store's terms without naming it.
  for (auto& c : r.cells) c.key.profile = "rocksdb";
  EXPECT_EQ(run_store(r), "rocksdb");
  const auto in_run_store = recommend_for_run_store(r, {});
  const Recommendation& run_cold = pick(in_run_store[0], "cold data");
  ASSERT_TRUE(run_cold.config);
  EXPECT_EQ(run_cold.config->line, cold.config->line);
  const auto names = store_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "leveldb"), names.end());
}

// A run shown in part (`report` of a million-cell sweep): its pooled cells hold every cell, so
// the picks, the store table, the picks in a store's terms and the cost model are the whole
// run's, while the picks per source come from the cells held.
TEST(Recommend, ARunShownInPartIsJudgedOnEveryCell) {
  RunResults whole = testing::make_sweep(44, 12);
  for (auto& c : whole.cells) c.key.profile = "rocksdb";
  auto pooled = std::make_shared<PooledCells>();
  for (const auto& c : whole.cells) pooled->add(whole, c);
  RunResults shown = whole;
  shown.cells.resize(14);  // one source's cells
  auto summary = std::make_shared<RunSummary>();
  summary->pooled = pooled;
  shown.summary = summary;
  const auto texts = [](const std::vector<GroupRecommendations>& groups) {
    std::vector<std::string> out;
    for (const auto& g : groups)
      for (const auto& p : g.picks)
        out.push_back(g.group + " | " + p.workload + " | " + p.choice_text() + " | " + p.why +
                      (p.config ? " | " + p.config->line : ""));
    return out;
  };
  EXPECT_EQ(texts(recommend(shown, {})), texts(recommend(whole, {})));
  EXPECT_EQ(texts(recommend_for_store(shown, {}, "leveldb")), texts(recommend_for_store(whole, {}, "leveldb")));
  RunResults held = shown;
  held.summary = nullptr;
  RecommendOptions per_source;
  per_source.per_source = true;
  EXPECT_EQ(texts(recommend(shown, per_source)), texts(recommend(held, per_source)));
  EXPECT_NE(texts(recommend(held, {})), texts(recommend(whole, {})));  // the held cells alone differ
  const auto rows = [](const std::vector<StoreRow>& table) {
    std::vector<std::string> out;
    for (const auto& s : table)
      out.push_back(fmt::format("{} {} {} {} {:.6g} {:.6g}", s.profile, s.label, s.input_bytes, s.stored_bytes,
                                s.compress_mbps, s.worst_us));
    return out;
  };
  EXPECT_EQ(rows(store_table(shown)), rows(store_table(whole)));
  Workload w;
  w.write_mbps = 50;
  w.read_mbps = 200;
  w.storage_usd_gb_month = 0.08;
  w.cpu_usd_core_hour = 0.04;
  const auto costs = [&](const RunResults& r) {
    std::vector<std::string> out;
    for (const auto& g : cost_model(r, w, default_devices()))
      for (const auto& c : g.rows) out.push_back(fmt::format("{} {} {:.6f}", g.group, c.label, c.total_usd));
    return out;
  };
  EXPECT_EQ(costs(shown), costs(whole));
}

}  // namespace
}  // namespace kvz
