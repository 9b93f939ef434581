// The per-level plan (judgement/level_plan.h) against a real RocksDB 7.8: kvzbench measures a
// corpus's records under --profile rocksdb, plans a codec per level for a small LSM (64 KiB
// memtables, 32 KiB files, 128 KiB level base, multiplier 4: L1..L3 fill with 2 MB), and
// a DB opened with the printed line loads the same records in a shuffled order and settles.
// Per level it compares:
// - the bytes the level holds (GetColumnFamilyMetaData) with the model's stored bytes;
// - the compressed data bytes (TableProperties::data_size of the level's files) with what
//   kvzbench's stored ratio predicts for the level's raw bytes (raw_key_size + raw_value_size,
//   RocksDB's own count) under the codec each file says it was written with;
// and the whole DB under the plan with the DB under the best single-codec line.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "judgement/level_plan.h"
#include "real_lsm.h"

namespace kvz {
namespace {

using namespace real_lsm;

// Pinned tolerances (what the three corpora showed over several runs, with room: the plan itself
// moves with the measured speeds, and RocksDB's compactions with its scheduling).
// A level's compressed data bytes against kvzbench's ratio on the level's raw bytes (per file, in
// the codec the file says it was written with): within 20 % for a level holding at least a
// quarter of the DB (0..2 % on logs and JSON; up to +16 % on us_zip_codes.csv's ~50-byte records
// in zstd: kvzbench's blocks carry sequence number 0, as SstFileWriter and a bottommost
// compaction write them, while a shuffled load leaves files with real, unordered sequence
// numbers, 8 bytes of a 60-byte entry: our reading, not measured apart); within 45 % for a
// smaller level, a sparse sample of the keys whose neighbours in a block are less alike (+20 ..
// +30 % seen).
constexpr double kDataTolerance = 0.20;
constexpr double kSparseDataTolerance = 0.45;
// A level above the deepest against its target less half a file: within 25 % when it has at
// least 8 files (-21 .. +17 % seen, under a loaded machine); with fewer, whose bytes move a file or more at a time
// (RocksDB moves files down once a level passes its target and widens a compaction's inputs when
// that costs nothing: -66 % seen on an L1 of one file), only at most 25 % above it.
// The deepest level holds the rest: its
// error is the others' summed plus the whole DB's (us_zip_codes.csv: the DB 14 % above the model,
// from the data error above), so it (with any level the real DB has below it) is held within
// 30 % of the whole DB's bytes (27 % seen). Part of both errors is the codec mix: files keep the
// codec they were written with, and while the DB grows a level that was the deepest takes the
// bottommost codec, so upper levels planned LZ4 hold zstd files that pack more data per target
// byte (us_zip_codes.csv: the real DB 20 % below the model). L0 is empty or one file once compaction settles (the
// model's L0 is the average while writing): not compared.
constexpr double kLevelTolerance = 0.25;
constexpr uint64_t kManyFiles = 8;
constexpr double kDeepestTolerance = 0.30;
// The plan's monthly cost at the DB's real bytes (CPU as modelled) against the best single
// codec's at its real bytes: at most 10 % more. Two DBs loaded alike differ by up to 8 % in
// bytes (us_zip_codes.csv, a plan of zstd on every level against the zstd line: 784,241 B and
// 725,486 B), so a plan the model prices a few % cheaper can come out a few % dearer (+6 % seen).
constexpr double kCostSlack = 0.10;
// The whole DB under the plan against the plan's total, each level on its own cut's rows: within
// 15 % (-6.8 .. +1.8 % seen over four runs of the three corpora, two of them beside a CI run: at
// 2 MB one file more or less in a level is a few %; the 100 MB loads of bench/scripts/
// lsm_real.sh are held to the 5 %: judgement/README.md).
constexpr double kTotalTolerance = 0.15;

// The LSM the test DB runs, as --workload gives it to the model; storage priced so a byte is
// worth a few cores at this scale.
std::string lsm_workload(double data_bytes) {
  return fmt::format(
      "write=1,read=4,storage=20000,cpu=0.04,size={:.0f},num_levels=5,multiplier=4,level_base=128K,"
      "write_buffer=64K,l0_trigger=2,target_file=32K",
      data_bytes);
}

// The monthly cost of both DBs at their real bytes, with the CPU the model gives each.
struct PlanCosts {
  const LevelPlan& plan;
  const Workload& w;
  uint64_t plan_bytes, single_bytes;
  double storage(uint64_t bytes) const { return static_cast<double>(bytes) / 1e9 * w.storage_usd_gb_month; }
  double plan_usd() const { return storage(plan_bytes) + plan.totals.cpu_usd; }
  double single_usd() const { return storage(single_bytes) + plan.single.cpu_usd; }
};

// The bytes of `level` and every level below it.
double bytes_from(const std::map<int, LevelReal>& levels, int level) {
  double sum = 0;
  for (const auto& [l, r] : levels)
    if (l >= level) sum += static_cast<double>(r.file_bytes);
  return sum;
}

// The predicted-vs-real figures of one corpus, for the note, and the checks.
void compare_levels(const std::string& corpus, const LevelPlan& plan, const std::map<int, LevelReal>& real) {
  const auto total = static_cast<double>(db_bytes(real));
  std::cout << fmt::format(
      "{}: {}\n  lvl codec(plan) files   real B  model B    diff   data B  pred. B    diff  kept  codecs\n", corpus,
      plan.line);
  for (const auto& lc : plan.levels) {
    const int level = lc.share.level;
    const auto it = real.find(level);
    const LevelReal r = it == real.end() ? LevelReal{} : it->second;
    const double level_diff = relative(static_cast<double>(r.file_bytes), lc.share.stored_bytes);
    const double data_diff = relative(static_cast<double>(r.data_bytes), r.predicted_data);
    std::string codecs;
    for (const auto& c : r.codecs) codecs += c + " ";
    const double kept = r.file_bytes ? static_cast<double>(r.kept_bytes) / static_cast<double>(r.file_bytes) : 0;
    std::cout << fmt::format("  L{} {:<14} {:>5} {:>8} {:>8.0f} {:>+6.1f}% {:>8} {:>8.0f} {:>+6.1f}% {:>4.0f}%  {}\n",
                             level, lc.rocksdb_type, r.files, r.file_bytes, lc.share.stored_bytes, level_diff * 100,
                             r.data_bytes, r.predicted_data, data_diff * 100, kept * 100, codecs);
    if (level == 0) continue;
    const bool big = static_cast<double>(r.file_bytes) >= total / 4;
    EXPECT_LE(std::abs(data_diff), big ? kDataTolerance : kSparseDataTolerance) << corpus << " L" << level;
    if (level < plan.levels.back().share.level)
      EXPECT_LE(r.files >= kManyFiles ? std::abs(level_diff) : level_diff, kLevelTolerance) << corpus << " L" << level;
    else
      EXPECT_LE(std::abs(bytes_from(real, level) - lc.share.stored_bytes), kDeepestTolerance * total)
          << corpus << " L" << level << " and below";
  }
  // Levels below the model's deepest (the real DB outgrew a level the model filled just short).
  for (const auto& [level, r] : real)
    if (level > plan.levels.back().share.level)
      std::cout << fmt::format("  L{} (below the model's deepest) {:>5} {:>8}\n", level, r.files, r.file_bytes);
}

TEST(LevelPlanReal, RocksDbLevelsHoldWhatThePlanPredicts) {
  for (const auto& corpus : kPlanCorpora) {
    MeasuredCorpus m = measure_corpus(corpus);
    ASSERT_FALSE(m.run.cells.empty());
    Workload w;
    std::string error;
    ASSERT_TRUE(parse_workload(lsm_workload(m.input), default_devices(), w, error)) << error;
    add_level_cuts(m, w);
    const auto plans = level_plans(m.run, w);
    ASSERT_EQ(plans.size(), 1u);
    const LevelPlan& plan = plans[0];
    const auto dir = fs::temp_directory_path() / ("kvz_levels_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    auto db = load_db(m.records, plan.line, (dir / "plan").string());
    ASSERT_NE(db, nullptr);
    const auto levels = real_levels(*db, m.stored, m.input_per_raw);
    compare_levels(corpus.path, plan, levels);
    auto single_db = load_db(m.records, plan.single_line, (dir / "single").string());
    ASSERT_NE(single_db, nullptr);
    const uint64_t plan_bytes = db_bytes(levels);
    const uint64_t single_bytes = db_bytes(real_levels(*single_db, m.stored, m.input_per_raw));
    const PlanCosts costs{plan, w, plan_bytes, single_bytes};
    std::cout << fmt::format(
        "  whole DB: plan {} B (model {:.0f}) ${:.2f}/month vs best single codec {} {} B (model {:.0f}) ${:.2f}/month "
        "(storage at the real bytes, CPU as modelled)\n",
        plan_bytes, plan.totals.stored_bytes, costs.plan_usd(), plan.single_label, single_bytes,
        plan.single.stored_bytes, costs.single_usd());
    EXPECT_LE(costs.plan_usd(), costs.single_usd() * (1 + kCostSlack)) << corpus.path;
    EXPECT_LE(std::abs(relative(static_cast<double>(plan_bytes), plan.totals.stored_bytes)), kTotalTolerance)
        << corpus.path;
    db.reset();
    single_db.reset();
    fs::remove_all(dir);
  }
}

}  // namespace
}  // namespace kvz
