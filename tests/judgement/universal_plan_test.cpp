// The universal compaction model (judgement/universal_model.h) replayed by hand, the universal
// plan's choice and line (judgement/universal_plan.h), the per-family pick (judgement/family_plan.h)
// and the --workload keys that ask for them.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "judgement/family_plan.h"
#include "tests/judgement/workload_fixture.h"
#include "tests/results/fixture.h"
#include "util/text.h"

namespace kvz {
namespace {

constexpr double kBytesPerGiB = 1024.0 * 1024 * 1024;

// Flushes of one byte, trigger 4, 7 levels: the picker's rules worked by hand.
LsmOptions unit_lsm(int flushes) {
  LsmOptions o;
  o.data_bytes = flushes;
  o.write_buffer = 1 / kMemtableFill;  // a flush holds 1 byte
  return o;
}

TEST(UniversalModel, FourRunsWithTheNewerThreeTimesTheOldestMergeIntoTheLastLevel) {
  // Runs 1,1,1,1: the three newer are 300 % of the oldest (>= 200 %): everything into L6.
  const UniversalShape s = universal_shape(unit_lsm(4), UniversalOptions{}, [](int) { return 1.0; });
  ASSERT_EQ(s.runs.size(), 1u);
  EXPECT_EQ(s.runs[0].level, 6);
  EXPECT_DOUBLE_EQ(s.runs[0].stored_bytes, 4);
  EXPECT_DOUBLE_EQ(s.write_amplification(), 2);  // 4 flushed, 4 merged
  EXPECT_DOUBLE_EQ(s.peak_stored_bytes, 8);      // the inputs and the output at once
  EXPECT_DOUBLE_EQ(s.size_amplification, 0);
}

TEST(UniversalModel, ASizeRatioMergeGoesJustAboveTheNextOlderRun) {
  // After L6=4: flushes 5..7 give 1,1,1,L6 4 (75 %: no size amplification); 1+1+1 = 3 stops
  // before 4 > 3 x 1.01: the three L0 files merge into L5. Flush 8 adds an L0 file.
  const UniversalShape s = universal_shape(unit_lsm(8), UniversalOptions{}, [](int) { return 1.0; });
  ASSERT_EQ(s.runs.size(), 3u);
  EXPECT_EQ(s.runs[0].level, 0);
  EXPECT_EQ(s.runs[1].level, 5);
  EXPECT_DOUBLE_EQ(s.runs[1].data_bytes, 3);
  EXPECT_EQ(s.runs[2].level, 6);
  EXPECT_DOUBLE_EQ(s.write_amplification(), (8 + 4 + 3) / 8.0);
  EXPECT_DOUBLE_EQ(s.size_amplification, 1);  // (1 + 3) / 4
  ASSERT_EQ(s.levels.size(), 3u);             // L0, L5, L6
  EXPECT_DOUBLE_EQ(s.levels[0].rewrites, 1);
  EXPECT_DOUBLE_EQ(s.levels[0].compaction_reads, 7 / 8.0);
  EXPECT_DOUBLE_EQ(s.levels[1].read_share, 3 / 8.0);
  EXPECT_DOUBLE_EQ(s.levels[2].rewrites, 4 / 8.0);
}

TEST(UniversalModel, TheLastLevelsCodecChangesWhichRunsMerge) {
  // L6 compressed 2:1 stores 2: at flush 7 the stretch 1,1,1 (3 x 1.01 >= 2) takes L6 in too.
  const UniversalShape s = universal_shape(unit_lsm(7), UniversalOptions{}, [](int l) { return l == 6 ? 2.0 : 1.0; });
  ASSERT_EQ(s.runs.size(), 1u);
  EXPECT_EQ(s.runs[0].level, 6);
  EXPECT_DOUBLE_EQ(s.runs[0].stored_bytes, 3.5);
}

TEST(UniversalModel, MoreRunsThanTheTriggerMergeTheNewest) {
  // Trigger 2. Flush 2: 1,1 merge (L6 2); flush 4: 1,1 and L6 2 (<= 2 x 1.01) merge (L6 4);
  // flush 6: 1,1 stop before 4 (L5 2); flush 7: 1, L5 2, L6 4 merge neither by size amplification
  // (75 %) nor by ratio (2 > 1.01, 4 > 2.02), but 3 runs > 2: the newest 3 - 2 + 1 merge into L5.
  LsmOptions o = unit_lsm(7);
  o.l0_trigger = 2;
  const UniversalShape s = universal_shape(o, UniversalOptions{}, [](int) { return 1.0; });
  ASSERT_EQ(s.runs.size(), 2u);
  EXPECT_EQ(s.runs[0].level, 5);
  EXPECT_DOUBLE_EQ(s.runs[0].data_bytes, 3);
  EXPECT_EQ(s.runs[1].level, 6);
  EXPECT_DOUBLE_EQ(s.runs[1].data_bytes, 4);
  EXPECT_DOUBLE_EQ(s.write_amplification(), (7 + 2 + 4 + 2 + 3) / 7.0);
}

// One byte a second (a flush a second), each compaction 2.5 s a byte (compress speed 0.4 B/s).
UniversalShape paced(const LsmOptions& o) {
  const RunCodecs slow = [](int, int, const RunSample&) { return RunCodec{1.0, 0.4e-6, 0}; };
  return universal_replay(o, UniversalOptions{}, slow, {.flush_bytes = memtable_data(o), .ingest_mbps = 1e-6});
}

TEST(UniversalModel, CompactionBehindTheWritesLeavesMoreInTheLastRun) {
  // Flush 4 (t = 4 s): all four into L6, 10 s. Flushes 5..8 arrive meanwhile: the load ends at
  // 8 s. At 14 s the picker sees 1,1,1,1 and L6 4: 75 %, no size amplification, but the stretch
  // takes L6 in (4 <= 4 x 1.01): one run of 8, where the unpaced replay leaves L0 1, L5 3, L6 4.
  const UniversalShape s = paced(unit_lsm(8));
  ASSERT_EQ(s.runs.size(), 1u);
  EXPECT_EQ(s.runs[0].level, 6);
  EXPECT_DOUBLE_EQ(s.runs[0].data_bytes, 8);
  EXPECT_DOUBLE_EQ(s.write_amplification(), (8 + 4 + 8) / 8.0);
  EXPECT_DOUBLE_EQ(s.load_seconds, 8);
  EXPECT_DOUBLE_EQ(s.stalled_seconds, 0);
  EXPECT_EQ(universal_shape(unit_lsm(8), UniversalOptions{}, [](int) { return 1.0; }).runs.size(), 3u);
}

TEST(UniversalModel, WritesSlowToTheDelayedRateAtTwentySortedRuns) {
  // Flushes of 1 MB at 20 MB/s: one each 0.05 s. The first compaction (flush 4) takes 400 s, so
  // runs pile up: from 20 on, flushes 21..24 come at the delayed write rate (16 MiB/s).
  LsmOptions o;
  o.data_bytes = 24e6;
  o.write_buffer = 1e6 / kMemtableFill;
  const RunCodecs slow = [](int, int, const RunSample&) { return RunCodec{1.0, 0.01, 0}; };
  const UniversalShape s =
      universal_replay(o, UniversalOptions{}, slow, {.flush_bytes = memtable_data(o), .ingest_mbps = 20});
  const double slowed = 4 / kDelayedWriteMBps;
  EXPECT_NEAR(s.load_seconds, 20 * 0.05 + slowed, 1e-9);
  EXPECT_NEAR(s.stalled_seconds, slowed, 1e-9);
}

TEST(UniversalModel, APacedLoadIsTheMeanOfItsReplaysWithEachLevelsRange) {
  // 100 flushes of 1 MB at 50 MB/s, compactions at 100 MB/s: the replays (compaction times apart)
  // end in different places of the merge cycle.
  LsmOptions o;
  o.data_bytes = 100e6;
  o.write_buffer = 1e6 / kMemtableFill;
  const RunCodecs codec = [](int, int, const RunSample&) { return RunCodec{2.0, 100, 0}; };
  const UniversalShape mean = universal_shape(o, UniversalOptions{}, codec, 50);
  std::vector<UniversalShape> replays;
  for (int i = 0; i < kPaceReplays; ++i)
    replays.push_back(universal_replay(o, UniversalOptions{}, codec,
                                       {.flush_bytes = 1e6,
                                        .ingest_mbps = 50,
                                        .time_factor = pace_time_factor(i),
                                        .jitter_seed = replays.size() + 1}));
  EXPECT_EQ(mean.flushes, 100);  // every replay flushes a memtable's data: the load's flush count
  EXPECT_DOUBLE_EQ(mean.flush_bytes, 1e6);
  double data = 0, stored = 0, peak = 0;
  for (const auto& r : mean.runs) {
    data += r.data_bytes;
    stored += r.stored_bytes;
    EXPECT_LE(r.min_stored, r.stored_bytes + 1e-6);
    EXPECT_GE(r.max_stored, r.stored_bytes - 1e-6);
  }
  EXPECT_NEAR(data, o.data_bytes, 1);                                      // every replay holds all the data
  EXPECT_NEAR(stored, o.data_bytes / 2, o.data_bytes / 2 * kFlushJitter);  // each flush's file within the jitter
  double bottom = 0;
  for (const auto& r : replays) {
    peak = std::max(peak, r.peak_stored_bytes);
    bottom += r.runs.back().stored_bytes / static_cast<double>(replays.size());
  }
  EXPECT_DOUBLE_EQ(mean.peak_stored_bytes, peak);
  ASSERT_EQ(mean.runs.back().level, 6);
  EXPECT_NEAR(mean.runs.back().stored_bytes, bottom, 1e-6 * bottom);
  EXPECT_LT(mean.runs.back().min_stored, mean.runs.back().max_stored);  // the replays disagree
  // Seeded: the same inputs give the same shape.
  EXPECT_EQ(universal_shape(o, UniversalOptions{}, codec, 50).runs.back().stored_bytes, mean.runs.back().stored_bytes);
}

TEST(UniversalModel, ReplaysTakeCompactionsAtSevenTenthsToTwiceSevenTenthsOfTheirEstimate) {
  EXPECT_DOUBLE_EQ(pace_time_factor(0), 0.7);
  EXPECT_DOUBLE_EQ(pace_time_factor(kPaceReplays - 1), 1.4);
  EXPECT_NEAR(pace_time_factor(kPaceReplays / 2), std::sqrt(0.7 * 1.4), 1e-12);  // even steps of the log
  for (int i = 1; i < kPaceReplays; ++i)
    EXPECT_NEAR(pace_time_factor(i) / pace_time_factor(i - 1), std::pow(2, 1.0 / (kPaceReplays - 1)), 1e-12);
}

TEST(UniversalModel, ACompactionTakesItsRecordsAndItsTableFilesBytes) {
  // 8 flushes of 1 MB, one a second, the codec taking no time. Of 1,000-byte records the merge at
  // flush 4 takes 4,000 x kUniversalRecordNs and 4 MB at kUniversalFileMBps, 21 ms: done before
  // flush 5, the unpaced shape (L0 1, L5 3, L6 4). Of 0.1-byte records (4 x 10^7 of them) it takes
  // 16 s and ends after the last flush: then the four L0 files and L6 merge, one run of 8.
  LsmOptions o;
  o.data_bytes = 8e6;
  const RunCodecs free = [](int, int, const RunSample&) { return RunCodec{1.0, 0, 0}; };
  const auto runs = [&](double record_bytes) {
    o.record_bytes = record_bytes;
    return universal_replay(o, UniversalOptions{}, free, {.flush_bytes = 1e6, .ingest_mbps = 1}).runs;
  };
  EXPECT_EQ(runs(1000).size(), 3u);
  const auto slow = runs(0.1);
  ASSERT_EQ(slow.size(), 1u);
  EXPECT_EQ(slow[0].level, 6);
  EXPECT_DOUBLE_EQ(slow[0].data_bytes, 8e6);
}

TEST(UniversalModel, RunsKnowTheirWritesAndWhichKeepTheirNumbers) {
  // 8 unpaced flushes: L0 [7/8, 1), L5 [4/8, 7/8) by a size-ratio merge that stops above the
  // oldest run (shuffled: L6 overlaps its keys, so it keeps its numbers), L6 [0, 4/8) by a merge of
  // everything (zeroed).
  const auto ratio = [](int) { return 1.0; };
  const UniversalShape shuffled = universal_shape(unit_lsm(8), UniversalOptions{}, ratio);
  ASSERT_EQ(shuffled.runs.size(), 3u);
  EXPECT_DOUBLE_EQ(shuffled.runs[0].from, 7 / 8.0);
  EXPECT_DOUBLE_EQ(shuffled.runs[0].to, 1);
  EXPECT_DOUBLE_EQ(shuffled.runs[0].kept, 1);
  EXPECT_DOUBLE_EQ(shuffled.runs[1].from, 4 / 8.0);
  EXPECT_DOUBLE_EQ(shuffled.runs[1].to, 7 / 8.0);
  EXPECT_DOUBLE_EQ(shuffled.runs[1].kept, 1);
  EXPECT_DOUBLE_EQ(shuffled.runs[2].from, 0);
  EXPECT_DOUBLE_EQ(shuffled.runs[2].to, 4 / 8.0);
  EXPECT_DOUBLE_EQ(shuffled.runs[2].kept, 0);
  // Ascending: L6 holds only smaller keys, so the merge into L5 is bottommost too.
  LsmOptions o = unit_lsm(8);
  o.order = LoadOrder::Ascending;
  const UniversalShape ascending = universal_shape(o, UniversalOptions{}, ratio);
  ASSERT_EQ(ascending.runs.size(), 3u);
  EXPECT_DOUBLE_EQ(ascending.runs[0].kept, 1);  // a flush keeps them
  EXPECT_DOUBLE_EQ(ascending.runs[1].kept, 0);
  EXPECT_DOUBLE_EQ(ascending.runs[2].kept, 0);
}

TEST(UniversalModel, DataIsKeptAndReadsLandWhereTheDataIs) {
  LsmOptions o;
  o.data_bytes = 100 * kBytesPerGiB;
  const UniversalShape s = universal_shape(o, UniversalOptions{}, [](int) { return 2.0; });
  double data = 0, reads = 0;
  for (const auto& r : s.runs) data += r.data_bytes;
  for (const auto& l : s.levels) reads += l.read_share;
  EXPECT_NEAR(data, o.data_bytes, 1);
  EXPECT_NEAR(reads, 1, 1e-12);
  EXPECT_EQ(s.flushes, 2000);  // of 64 MiB x kMemtableFill
  EXPECT_NEAR(s.stored_bytes(), 50 * kBytesPerGiB, 1);
  EXPECT_GE(s.peak_stored_bytes, s.stored_bytes());
  EXPECT_LE(s.runs.size(), 4u);  // more runs than the trigger merge down to it
}

// A RocksDB run: none is free, lz4 fast and weak, zstd slow and strong, zlib slower (default calls).
RunResults three_codec_rocksdb_run() {
  return testing::store_run("rocksdb",
                            {{{"lz4", 1, 2.0, 800, 4000}, "1:stream:fresh"},
                             {{"zstd", 3, 4.0, 200, 900}, "3"},
                             {{"zlib", 6, 3.5, 40, 300}, "6:fresh"}},
                            16384, 7);
}

Workload workload(const std::string& text) { return testing::parsed_workload(text); }

TEST(UniversalPlan, LineSetsUniversalAPerLevelEntryForEveryLevelAndTheLastAsBottommost) {
  const auto plans = universal_plans(three_codec_rocksdb_run(),
                                     workload("write=2,read=50,storage=0.1,cpu=0.05,size=20G,style=universal"));
  ASSERT_EQ(plans.size(), 1u);
  const UniversalPlan& p = plans[0];
  EXPECT_EQ(p.line.rfind("compaction_style=kCompactionStyleUniversal;compaction_options_universal={size_ratio=1;"
                         "min_merge_width=2;max_merge_width=4294967295;max_size_amplification_percent=200;"
                         "compression_size_percent=-1};num_levels=7;compression_per_level=",
                         0),
            0u)
      << p.line;
  const size_t from = p.line.find("compression_per_level=") + 22;
  const auto types = split_list(p.line.substr(from, p.line.find(';', from) - from), ':');
  ASSERT_EQ(types.size(), 7u);
  EXPECT_NE(p.line.find(";bottommost_compression=" + types.back() + ";block_based_table_factory={block_size=16384}"),
            std::string::npos);
  for (const auto& l : p.levels) EXPECT_EQ(types[static_cast<size_t>(l.share.level)], l.rocksdb_type);
  EXPECT_LE(p.totals.total_usd(), p.single.total_usd() + 1e-9);
  EXPECT_DOUBLE_EQ(p.totals.storage_usd, p.shape.peak_stored_bytes / 1e9 * 0.1);  // priced at the peak
}

// Coordinate descent against every assignment of none and the three codecs to the 7 entries.
TEST(UniversalPlan, PlanIsTheCheapestOfEveryAssignment) {
  const Workload w = workload("write=20,read=50,storage=0.1,cpu=0.05,size=4G,style=universal");
  const RunResults run = three_codec_rocksdb_run();
  const UniversalPlan p = universal_plans(run, w).at(0);
  std::vector<double> ratio = {1.0};
  for (size_t i = 0; i < 3; ++i)
    ratio.push_back(static_cast<double>(run.cells[i].input_bytes) / static_cast<double>(run.cells[i].stored_bytes));
  const std::vector<double> cmb = {0, 800, 200, 40}, dmb = {0, 4000, 900, 300};
  double cheapest = INFINITY;
  std::vector<int> pick(7, 0);
  LsmOptions lsm = w.lsm;
  lsm.block_size = 16384;  // the run's: each run's table file counted
  for (int n = 0; n < 16384; ++n) {
    for (int l = 0, v = n; l < 7; ++l, v /= 4) pick[static_cast<size_t>(l)] = v % 4;
    // Paced at write=20 MB/s: each codec's speeds time the compactions ("none" takes no time).
    const auto codec = [&](int slot, int, const RunSample&) {
      const int k = pick[static_cast<size_t>(slot)];
      return RunCodec{ratio[static_cast<size_t>(k)], cmb[static_cast<size_t>(k)], dmb[static_cast<size_t>(k)]};
    };
    const UniversalShape s = universal_shape(lsm, w.universal_options, codec, w.write_mbps);
    double cores = 0;
    for (const auto& l : s.levels) {
      const int k = pick[static_cast<size_t>(l.level)];
      if (k)
        cores += w.write_mbps * l.rewrites / cmb[k] +
                 (w.write_mbps * l.compaction_reads + w.read_mbps * l.read_share) / dmb[k];
    }
    cheapest = std::min(cheapest, s.peak_stored_bytes / 1e9 * 0.1 + cores * 0.05 * 720);
  }
  EXPECT_NEAR(p.totals.total_usd(), cheapest, 1e-6 * cheapest);
}

// A T2 run's speeds are two workers' total (judgement/analysis.h): the same cells measured on two
// threads give twice the speeds, and a compaction, on one thread, takes as long as on a T1 run.
TEST(UniversalPlan, ACompactionRunsOnOneOfTheThreadsTheSpeedsWereMeasuredOn) {
  // Storage dear, CPU cheap: zstd and zlib, whose compactions slow the writes at 200 MB/s.
  const Workload w = workload("write=200,read=50,storage=10,cpu=0.001,size=2G,style=universal");
  const RunResults one = three_codec_rocksdb_run();
  RunResults two = one;
  for (auto& c : two.cells) c.key.threads = 2;
  const UniversalPlan p1 = universal_plans(one, w).at(0), p2 = universal_plans(two, w).at(0);
  EXPECT_EQ(p2.line, p1.line);
  ASSERT_EQ(p2.shape.runs.size(), p1.shape.runs.size());
  for (size_t i = 0; i < p1.shape.runs.size(); ++i)
    EXPECT_NEAR(p2.shape.runs[i].stored_bytes, p1.shape.runs[i].stored_bytes, 1e-9 * p1.shape.runs[i].stored_bytes);
  EXPECT_NEAR(p2.shape.stalled_seconds, p1.shape.stalled_seconds, 1e-9 * (1 + p1.shape.stalled_seconds));
  EXPECT_GT(p1.shape.stalled_seconds, 0);  // the compactions' time shows: writes slowed behind them
}

TEST(UniversalPlan, WorkloadKeysSetTheUniversalOptions) {
  const Workload w = workload(
      "write=2,read=50,storage=0.1,cpu=0.05,size=1G,style=universal,size_ratio=10,min_merge_width=3,"
      "max_merge_width=8,size_amp=150,num_levels=4,write_buffer=1M,l0_trigger=6");
  EXPECT_TRUE(w.universal);
  EXPECT_EQ(w.universal_options.size_ratio, 10u);
  EXPECT_EQ(w.universal_options.min_merge_width, 3u);
  EXPECT_EQ(w.universal_options.max_merge_width, 8u);
  EXPECT_EQ(w.universal_options.max_size_amplification_percent, 150u);
  EXPECT_EQ(universal_options_line(w.lsm, w.universal_options),
            "compaction_style=kCompactionStyleUniversal;compaction_options_universal={size_ratio=10;min_merge_width=3;"
            "max_merge_width=8;max_size_amplification_percent=150;compression_size_percent=-1};num_levels=4;"
            "write_buffer_size=1048576;level0_file_num_compaction_trigger=6");
  EXPECT_FALSE(workload("write=2,read=50,storage=0.1,cpu=0.05,size=1G,style=leveled").universal);
}

TEST(UniversalPlan, WorkloadKeysRefuseBadValues) {
  const std::string base = "write=2,read=50,storage=0.1,cpu=0.05";
  for (const char* bad :
       {",size=1G,style=tiered", ",style=universal", ",size=1G,size_ratio=1", ",size=1G,style=universal,multiplier=4",
        ",size=1G,style=universal,min_merge_width=1", ",size=1G,style=universal,min_merge_width=4,max_merge_width=3",
        ",size=1G,style=universal,size_amp=0", ",size=1G,style=universal,dynamic=1"}) {
    Workload w;
    std::string error;
    EXPECT_FALSE(parse_workload(base + bad, default_devices(), w, error)) << bad;
    EXPECT_NE(error.find("--workload"), std::string::npos) << error;
  }
}

TEST(FamilyPlan, FamiliesGiveTheirOwnLoadAndTheSumsAsTheWholeLoad) {
  const Workload w =
      workload("storage=0.1,cpu=0.05,family=hot:write=40:read=100:size=2G,family=cold:write=0.1:read=1:size=2T");
  ASSERT_EQ(w.families.size(), 2u);
  EXPECT_EQ(w.families[0].name, "hot");
  EXPECT_DOUBLE_EQ(w.families[0].write_mbps, 40);
  EXPECT_DOUBLE_EQ(w.families[1].data_bytes, 2048 * kBytesPerGiB);
  EXPECT_DOUBLE_EQ(w.write_mbps, 40.1);
  EXPECT_DOUBLE_EQ(w.read_mbps, 101);
}

TEST(FamilyPlan, EachFamilyTakesTheCheaperStyleAndItsLine) {
  const Workload w =
      workload("storage=0.1,cpu=0.05,family=hot:write=40:read=100:size=2G,family=cold:write=0.1:read=1:size=2T");
  const auto plans = family_plans(three_codec_rocksdb_run(), w);
  ASSERT_EQ(plans.size(), 2u);
  for (const auto& p : plans) {
    const double leveled = p.leveled.totals.total_usd(), universal = p.universal.totals.total_usd();
    EXPECT_EQ(p.universal_wins, universal < leveled) << p.family.name;
    EXPECT_DOUBLE_EQ(p.total_usd(), std::min(leveled, universal));
    EXPECT_EQ(p.line().rfind("compaction_style=kCompactionStyleUniversal", 0) == 0, p.universal_wins);
    EXPECT_DOUBLE_EQ(p.leveled.lsm.data_bytes, p.family.data_bytes);
    EXPECT_DOUBLE_EQ(p.universal.lsm.data_bytes, p.family.data_bytes);
  }
  EXPECT_EQ(plans[0].family.name, "hot");
  EXPECT_EQ(plans[1].family.name, "cold");
}

TEST(FamilyPlan, BadFamiliesAreRefused) {
  for (const char* bad :
       {"family=hot", "family=:write=1:read=1:size=1G", "family=h t:write=1:read=1:size=1G",
        "family=hot:write=1:read=1", "family=hot:write=1:read=1:size=1G:ttl=5",
        "family=hot:write=1:write=2:read=1:size=1G", "family=hot:write=x:read=1:size=1G",
        "family=a:write=1:read=1:size=1G,family=a:write=1:read=1:size=1G", "size=1G,family=a:write=1:read=1:size=1G"}) {
    Workload w;
    std::string error;
    EXPECT_FALSE(parse_workload(std::string("storage=0.1,cpu=0.05,") + bad, default_devices(), w, error)) << bad;
    EXPECT_NE(error.find("--workload"), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace kvz
