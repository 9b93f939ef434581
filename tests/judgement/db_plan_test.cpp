// The DB as it stands, priced per level (judgement/db_plan.h) on a run built in memory: a RocksDB
// family whose L0 and L6 were each a source (as a DB read through its MANIFEST gives them).
#include <gtest/gtest.h>

#include "judgement/db_plan.h"
#include "judgement/level_plan.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

using testing::FixtureCodec;
using testing::make_cell;

// Each level's files and data, and zstd 3's speeds measured on its blocks (slower on L0 and L5).
struct LevelFixture {
  int level;
  uint64_t file_bytes, data_bytes, input;
  double zstd_c, zstd_d;
};
constexpr LevelFixture kLevels[] = {{0, 60'000, 58'000, 150'000, 30, 110},
                                    {5, 500'000, 485'000, 1'300'000, 30, 110},
                                    {6, 2'000'000, 1'940'000, 5'200'000, 300, 1100}};

// The level's current row (lz4, RocksDB's call) and two candidates, as-stored under rocksdb.
RunResults db_run(const std::string& options = "", const std::string& profile = "rocksdb") {
  RunResults r;
  r.meta.hostname = "node1";
  std::mt19937_64 rng(3);
  for (const auto& l : kLevels) {
    const FixtureCodec rows[] = {
        {"lz4", 1, 2.6, 700, 3500}, {"zstd", 3, 3.9, l.zstd_c, l.zstd_d}, {"snappy", 0, 2.5, 600, 1800}};
    const std::string source = fmt::format("db:default/L{}", l.level);
    CorpusInfo c{
        source, "/data/db", l.file_bytes, "", "rocksdb default/L" + std::to_string(l.level), "/data/db:default"};
    c.level = l.level;
    c.files = l.level == 0 ? 1 : 9;
    c.data_bytes = l.data_bytes;
    c.codecs = {{"lz4", c.files}};
    c.options = options;
    r.meta.corpora.push_back(c);
    for (const auto& fc : rows) {
      CellResult cell = make_cell(fc, 4096, rng, 3, 0.01, source);
      cell.key.layout = "as-stored";
      cell.key.record_mode = "rocksdb-table";
      cell.key.profile = profile;
      cell.key.params = std::string(fc.codec) == "lz4" ? "1:stream:fresh" : std::string(fc.codec) == "zstd" ? "3" : "";
      cell.input_bytes = l.input;
      cell.stored_bytes = static_cast<uint64_t>(static_cast<double>(l.input) / fc.ratio);
      if (std::string(fc.codec) == "lz4") cell.current = true, cell.on_disk_bytes = l.data_bytes;
      r.cells.push_back(cell);
    }
  }
  return r;
}

Workload rates(double write, double read, double storage, double cpu) {
  Workload w;
  w.write_mbps = write;
  w.read_mbps = read;
  w.storage_usd_gb_month = storage;
  w.cpu_usd_core_hour = cpu;
  return w;
}

TEST(DbPlan, LevelsAreTheFilesAsTheyStandPricedPerLevel) {
  const RunResults run = db_run();
  const Workload w = rates(2, 50, 0.08, 0.04);
  const auto plans = db_plans(run, w);
  ASSERT_EQ(plans.size(), 1u);
  const DbPlan& p = plans[0];
  EXPECT_EQ(p.table, "/data/db:default");
  ASSERT_TRUE(p.priced) << p.why_not;
  ASSERT_EQ(p.levels.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const DbLevelPlan& l = p.levels[i];
    EXPECT_EQ(l.level.level, kLevels[i].level);
    EXPECT_EQ(l.now.bytes, kLevels[i].file_bytes);  // the files' sizes, exactly
    EXPECT_EQ(l.level.data_bytes, kLevels[i].data_bytes);
    EXPECT_EQ(l.now.label, "lz4 1:stream:fresh");
    EXPECT_EQ(l.now.type, "kLZ4Compression");
    EXPECT_DOUBLE_EQ(l.share.data_bytes, static_cast<double>(kLevels[i].input));
    EXPECT_DOUBLE_EQ(l.now.storage_usd, static_cast<double>(l.now.bytes) / 1e9 * 0.08);
    EXPECT_GT(l.now.cores, 0);
    EXPECT_LE(l.pick.total_usd(), l.now.total_usd());
  }
  // A candidate's bytes: the files' other parts as they are, its data blocks in place of theirs.
  const DbLevelPlan& l6 = p.levels[2];
  for (const auto& c : l6.level.candidates)
    if (c.label == "zstd 3") {
      EXPECT_EQ(c.bytes, kLevels[2].file_bytes - kLevels[2].data_bytes + static_cast<uint64_t>(5'200'000 / 3.9));
    }
  EXPECT_LE(p.plan_usd, p.now_usd);
  EXPECT_EQ(p.line.rfind("compression_per_level=", 0), 0u) << p.line;
}

TEST(DbPlan, DearStorageTakesTheSmallestCheapCpuKeepsTheFastest) {
  const auto dear_storage = db_plans(db_run(), rates(0.01, 0.01, 10, 0.0001));
  ASSERT_TRUE(dear_storage[0].priced);
  for (const auto& l : dear_storage[0].levels) EXPECT_EQ(l.pick.label, "zstd 3") << "L" << l.level.level;
  // Every entry the same: one is enough (a level past the list takes the last).
  EXPECT_EQ(dear_storage[0].line, "compression_per_level=kZSTD;bottommost_compression=kZSTD");
  const auto dear_cpu = db_plans(db_run(), rates(200, 2000, 0.0001, 10));
  for (const auto& l : dear_cpu[0].levels) EXPECT_EQ(l.pick.label, "lz4 1:stream:fresh") << "L" << l.level.level;
}

// Writes only, storage 50,000 times a core-hour: zstd 3 pays for itself on L6, where it is fast,
// and not on L0 and L5, where it is ten times slower. The line follows the family's own sizing:
// static, entry i is level i; dynamic, L0 then the base level (L5) on.
Workload mixed() { return rates(1, 0, 10, 0.0002); }

TEST(DbPlan, EachLevelItsOwnCodecInTheFamilysOwnLevelSizing) {
  const auto fixed = db_plans(db_run("level_compaction_dynamic_level_bytes=false;num_levels=7"), mixed());
  ASSERT_TRUE(fixed[0].priced);
  EXPECT_EQ(fixed[0].levels[0].pick.label, "lz4 1:stream:fresh");
  EXPECT_EQ(fixed[0].levels[1].pick.label, "lz4 1:stream:fresh");
  EXPECT_EQ(fixed[0].levels[2].pick.label, "zstd 3");
  EXPECT_LT(fixed[0].plan_usd, fixed[0].now_usd);
  const std::string lz4 = "kLZ4Compression";
  EXPECT_EQ(fixed[0].line, "compression_per_level=" + lz4 + ":" + lz4 + ":" + lz4 + ":" + lz4 + ":" + lz4 + ":" + lz4 +
                               ":kZSTD;bottommost_compression=kZSTD");
  const auto dynamic = db_plans(db_run("level_compaction_dynamic_level_bytes=true;num_levels=7"), mixed());
  EXPECT_EQ(dynamic[0].line, "compression_per_level=" + lz4 + ":" + lz4 + ":kZSTD;bottommost_compression=kZSTD");
}

TEST(DbPlan, UniversalAndLevelDbGetTheirLevelsNoPlan) {
  const auto universal = db_plans(db_run("compaction_style=kCompactionStyleUniversal"), rates(2, 50, 0.08, 0.04));
  EXPECT_FALSE(universal[0].priced);
  EXPECT_NE(universal[0].why_not.find("universal"), std::string::npos);
  const auto leveldb = db_plans(db_run("", "leveldb"), rates(2, 50, 0.08, 0.04));
  EXPECT_FALSE(leveldb[0].priced);
  EXPECT_EQ(leveldb[0].levels.size(), 3u);  // its levels still listed
}

TEST(DbPlan, NoLevelsNoPlan) {
  RunResults run = db_run();
  for (auto& c : run.meta.corpora) c.level = -1;
  EXPECT_TRUE(db_plans(run, default_db_workload()).empty());
}

}  // namespace
}  // namespace kvz
