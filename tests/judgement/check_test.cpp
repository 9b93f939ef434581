#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "judgement/check.h"
#include "tests/results/fixture.h"

namespace kvz {

namespace {

CheckStatus status_of(const CheckReport& rep, const std::string& id) {
  for (const auto& c : rep.cells)
    if (c.id == id) return c.status;
  ADD_FAILURE() << "no cell " << id;
  return CheckStatus::Pass;
}

size_t count(const CheckReport& rep, CheckStatus s) {
  size_t n = 0;
  for (const auto& c : rep.cells) n += c.status == s;
  return n;
}

}  // namespace

TEST(Check, RunAgainstItselfPasses) {
  const RunResults r = testing::make_run(10);
  std::ostringstream out;
  EXPECT_EQ(check_results(r, r, {}, out), 0);
  const auto rep = check_cells(r, r, {});
  EXPECT_EQ(count(rep, CheckStatus::Pass), r.cells.size());
  EXPECT_NE(out.str().find("check: PASS"), std::string::npos);
  EXPECT_NE(out.str().find("geometric mean vs baseline: compress speed 1.000x"), std::string::npos);
}

// check's text within the console's width (CheckOptions::width): a row whose cell would pass it
// puts the cell beside its status and the figures on the next line, under their headings.
TEST(Check, TextFitsTheWidth) {
  RunResults r = testing::make_run(10);
  for (auto& c : r.cells) c.key.source = "a-source-with-a-long-name.json";
  CheckOptions opt;
  opt.width = 80;
  std::ostringstream out;
  EXPECT_EQ(check_results(r, r, opt, out), 0);
  std::istringstream lines(out.str());
  size_t rows = 0;
  for (std::string line; std::getline(lines, line);) {
    size_t columns = 0;
    for (unsigned char ch : line) columns += (ch & 0xC0) != 0x80;
    EXPECT_LE(columns, 80u) << line;
    rows += line.rfind("PASS      a-source-with-a-long-name.json/", 0) == 0;
  }
  EXPECT_EQ(rows, r.cells.size()) << out.str();
  EXPECT_NE(out.str().find("\n          =            "), std::string::npos) << out.str();  // the figures, under
}

TEST(Check, BaselineThirtyPercentFasterFails) {
  const RunResults cur = testing::make_run(11);
  const RunResults base = testing::scaled(cur, 1.3);
  const auto rep = check_cells(base, cur, {});
  EXPECT_EQ(rep.exit_code, 1);
  for (const auto& c : rep.cells) {
    if (c.id.find("/memcpy/") != std::string::npos) {
      EXPECT_EQ(c.status, CheckStatus::Pass);
      continue;
    }
    EXPECT_EQ(c.status, CheckStatus::Fail) << c.id;
    EXPECT_NEAR(c.compress.slowdown, 1 - 1 / 1.3, 1e-9);
    EXPECT_LT(c.compress.p, 0.01);
  }
}

TEST(Check, UniformlyFasterMachineCancelsThroughMemcpy) {
  // Everything, memcpy included, 30 % faster in the baseline: normalised speeds are equal.
  const RunResults cur = testing::make_run(12);
  RunResults base = cur;
  for (auto& c : base.cells)
    for (auto* speeds : {&c.compress_mbps, &c.decompress_mbps, &c.compress_cpu_mbps, &c.decompress_cpu_mbps})
      for (auto& v : *speeds) v *= 1.3;
  EXPECT_EQ(check_cells(base, cur, {}).exit_code, 0);
}

// Only the memcpy rows moved (a noisy reference, codecs unchanged): not a FAIL.
TEST(Check, MemcpyNoiseAloneIsNotFail) {
  const RunResults base = testing::make_run(22);
  RunResults cur = base;
  for (auto& c : cur.cells) {
    if (c.key.codec != "memcpy") continue;
    for (auto* speeds : {&c.compress_mbps, &c.decompress_mbps, &c.compress_cpu_mbps, &c.decompress_cpu_mbps})
      for (auto& v : *speeds) v *= 1.4;
  }
  const auto rep = check_cells(base, cur, {});
  EXPECT_EQ(rep.exit_code, 0);
  EXPECT_EQ(count(rep, CheckStatus::Unstable), cur.cells.size() - 2);
}

TEST(Check, OnePercentSmallerBaselineFails) {
  const RunResults cur = testing::make_run(13);
  RunResults base = cur;
  auto& c = base.cells[3];
  c.compressed_bytes = static_cast<uint64_t>(static_cast<double>(c.compressed_bytes) * 0.99);
  const auto rep = check_cells(base, cur, {});
  EXPECT_EQ(rep.exit_code, 1);
  EXPECT_EQ(status_of(rep, c.key.id()), CheckStatus::Fail);
  EXPECT_EQ(count(rep, CheckStatus::Fail), 1u);
  // Even one byte differs: same library version means exact equality.
  base = cur;
  base.cells[3].compressed_bytes -= 1;
  base.cells[3].stored_bytes -= 1;
  EXPECT_EQ(check_cells(base, cur, {}).exit_code, 1);
}

TEST(Check, OtherLibraryVersionAllowsHalfPercent) {
  const RunResults cur = testing::make_run(14);
  RunResults base = cur;
  base.meta.codec_versions[2].version = "1.5.2";  // zstd
  size_t zstd = 0;
  for (size_t i = 0; i < base.cells.size(); ++i)
    if (base.cells[i].key.codec == "zstd") zstd = i;
  // 0.3 % ratio loss: tolerated, and the output says so with the re-baseline command.
  base.cells[zstd].compressed_bytes =
      static_cast<uint64_t>(static_cast<double>(cur.cells[zstd].compressed_bytes) * 0.997);
  std::ostringstream out;
  EXPECT_EQ(check_results(base, cur, {}, out), 0);
  EXPECT_NE(out.str().find("zstd: libzstd 1.5.2 -> libzstd 1.5.4"), std::string::npos);
  EXPECT_NE(out.str().find("re-baseline: cp CURRENT.json BASE.json"), std::string::npos);
  // 1 % loss: fails.
  base.cells[zstd].compressed_bytes =
      static_cast<uint64_t>(static_cast<double>(cur.cells[zstd].compressed_bytes) * 0.99);
  EXPECT_EQ(check_cells(base, cur, {}).exit_code, 1);
}

TEST(Check, RoundTripFailureAlwaysFails) {
  const RunResults base = testing::make_run(15);
  RunResults cur = base;
  cur.cells[2].status = CellStatus::Failed;
  cur.cells[2].failure = "round trip mismatch at block 3 (offset 100)";
  cur.cells[2].compress_mbps.clear();
  CheckOptions opt;
  opt.speed_gate = false;
  const auto rep = check_cells(base, cur, opt);
  EXPECT_EQ(rep.exit_code, 1);
  EXPECT_EQ(status_of(rep, cur.cells[2].key.id()), CheckStatus::Fail);
}

// Another machine or build: speeds are SKIPPED (exit 0), but a size change still FAILs.
void expect_speeds_skipped_sizes_kept(RunResults base, const RunResults& cur) {
  auto rep = check_cells(base, cur, {});
  EXPECT_EQ(rep.exit_code, 0);
  EXPECT_EQ(status_of(rep, cur.cells[1].key.id()), CheckStatus::Skipped);
  base.cells[1].compressed_bytes += 10;
  EXPECT_EQ(check_cells(base, cur, {}).exit_code, 1);
}

TEST(Check, CpuChangeSkipsSpeedButKeepsSizes) {
  const RunResults cur = testing::make_run(16);
  RunResults base = testing::scaled(cur, 1.5);
  base.meta.cpu_model = "Another CPU";
  expect_speeds_skipped_sizes_kept(base, cur);
}

TEST(Check, BuildChangeSkipsSpeedButKeepsSizes) {
  const RunResults cur = testing::make_run(16);
  RunResults base = testing::scaled(cur, 1.5);  // a Release baseline 1.5x faster than a sanitizer run
  base.meta.build_type = "Release";
  base.meta.cxx_flags = "-O3 -DNDEBUG";
  RunResults asan = cur;
  asan.meta.build_type = "Debug";
  asan.meta.cxx_flags = "-g -fsanitize=address,undefined";
  EXPECT_FALSE(check_cells(base, asan, {}).build_match);
  expect_speeds_skipped_sizes_kept(base, asan);
}

TEST(Check, NewAndMissingCells) {
  const RunResults base = testing::make_run(17);
  RunResults cur = base;
  const std::string gone = cur.cells.back().key.id();
  cur.cells.pop_back();
  cur.cells.push_back(cur.cells[1]);
  cur.cells.back().key.level = 9;
  cur.cells.back().key.params = "9";
  auto rep = check_cells(base, cur, {});
  EXPECT_EQ(rep.exit_code, 0);
  EXPECT_EQ(status_of(rep, gone), CheckStatus::Missing);
  EXPECT_EQ(status_of(rep, cur.cells.back().key.id()), CheckStatus::New);
  CheckOptions strict;
  strict.fail_on_missing = true;
  EXPECT_EQ(check_cells(base, cur, strict).exit_code, 1);
}

// CPU-time speeds are the gate by default; a slowdown seen only in wall time (time spent
// descheduled on a busy machine) is not the codec's.
TEST(Check, GatesOnCpuTimeSpeeds) {
  const RunResults cur = testing::make_run(19);
  RunResults base = cur;
  for (auto& c : base.cells) {
    if (c.key.codec == "memcpy") continue;
    for (auto& v : c.compress_mbps) v *= 1.5;
  }
  EXPECT_EQ(check_cells(base, cur, {}).exit_code, 0);
  CheckOptions wall;
  wall.use_cpu_time = false;
  EXPECT_EQ(check_cells(base, cur, wall).exit_code, 1);
  // A run without CPU-time speeds falls back to wall time on both sides.
  RunResults no_cpu = base;
  for (auto& c : no_cpu.cells) c.compress_cpu_mbps.clear();
  EXPECT_EQ(check_cells(no_cpu, cur, {}).exit_code, 1);
}

// Whole cells shifted up and down between runs (machine state), one by 20 %: the scatter across
// cells is run-to-run noise, so no FAIL. A single cell 30 % slower in a quiet run still FAILs.
TEST(Check, RunToRunScatterIsUnstableNotFail) {
  const RunResults base = testing::make_run(23, 9, 0.01);
  const double factors[] = {0.8, 1.18, 0.9, 1.12, 0.86, 1.06, 0.94, 1.2, 0.84, 1.1, 0.97, 1.15};
  RunResults cur = base;
  size_t i = 0;
  std::string slowest;
  for (auto& c : cur.cells) {
    if (c.key.codec == "memcpy") continue;
    if (i == 0) slowest = c.key.id();
    for (auto* speeds : {&c.compress_mbps, &c.decompress_mbps, &c.compress_cpu_mbps, &c.decompress_cpu_mbps})
      for (auto& v : *speeds) v *= factors[i];
    ++i;
  }
  auto rep = check_cells(base, cur, {});
  EXPECT_EQ(rep.exit_code, 0);
  EXPECT_EQ(status_of(rep, slowest), CheckStatus::Unstable);
  EXPECT_GT(rep.compress_noise, 0.1);

  cur = base;
  for (auto* speeds : {&cur.cells[1].compress_mbps, &cur.cells[1].decompress_mbps, &cur.cells[1].compress_cpu_mbps,
                       &cur.cells[1].decompress_cpu_mbps})
    for (auto& v : *speeds) v *= 0.7;
  rep = check_cells(base, cur, {});
  EXPECT_EQ(rep.exit_code, 1);
  EXPECT_EQ(status_of(rep, cur.cells[1].key.id()), CheckStatus::Fail);
  EXPECT_EQ(count(rep, CheckStatus::Fail), 1u);
}

TEST(Check, TooFewRepetitionsNeverFail) {
  const RunResults cur = testing::make_run(18, 5);
  const RunResults base = testing::scaled(cur, 1.3);
  const auto rep = check_cells(base, cur, {});
  EXPECT_EQ(rep.exit_code, 0);
  EXPECT_EQ(status_of(rep, cur.cells[1].key.id()), CheckStatus::Unstable);
}

// Two honest runs of the same build: two samples from one noisy distribution. Over many
// pairs, with 4 % noise per repetition (bench's repeatability target is a 3 % CV), independent
// in every cell and in the memcpy rows, check never says FAIL.
TEST(Check, HonestRunsAreNeverFail) {
  size_t unstable = 0, pass = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const RunResults a = testing::make_run(1000 + seed, 9, 0.04);
    const RunResults b = testing::make_run(5000 + seed, 9, 0.04);
    const auto rep = check_cells(a, b, {});
    ASSERT_EQ(rep.exit_code, 0) << "seed " << seed;
    unstable += count(rep, CheckStatus::Unstable);
    pass += count(rep, CheckStatus::Pass);
  }
  EXPECT_GT(pass, unstable);
}

// A real 15 % slowdown with 2 % noise over 15 repetitions: every codec cell FAILs.
TEST(Check, ModestRealSlowdownIsCaught) {
  const RunResults cur = testing::make_run(20, 15, 0.02);
  const RunResults base = testing::scaled(testing::make_run(21, 15, 0.02), 1.0 / 0.85);
  const auto rep = check_cells(base, cur, {});
  EXPECT_EQ(rep.exit_code, 1);
  EXPECT_EQ(count(rep, CheckStatus::Pass), 2u);  // the two memcpy rows
}

// A gate that compared nothing, or a run cut short, has not passed.
TEST(Check, NothingComparedOrInterruptedFails) {
  const RunResults base = testing::make_run(30);
  RunResults empty = base;
  empty.cells.clear();
  std::ostringstream out;
  EXPECT_EQ(check_results(base, empty, {}, out), 1);
  EXPECT_NE(out.str().find("nothing was compared"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("compress speed n/a (0 cells)"), std::string::npos) << out.str();
  RunResults cut = base;
  cut.meta.interrupted = true;
  EXPECT_EQ(check_cells(base, cut, {}).exit_code, 1);
  EXPECT_EQ(check_cells(cut, base, {}).exit_code, 1);
}

// A shard against a full baseline: the other shards' cells are not MISSING, and without a
// memcpy row in the shard the speeds are still judged (raw): halved speeds FAIL.
TEST(Check, ShardIsJudgedOnItsOwnCells) {
  const RunResults base = testing::make_run(31);
  const RunResults shard = testing::first_of_two_shards(base);
  const auto same = check_cells(base, shard, {});
  EXPECT_EQ(same.exit_code, 0);
  EXPECT_EQ(count(same, CheckStatus::Missing), 0u);
  const auto halved = check_cells(base, testing::scaled(shard, 0.5), {});
  EXPECT_EQ(halved.exit_code, 1);
  EXPECT_GT(count(halved, CheckStatus::Fail), 0u);
}

// A merged file is whole whatever shard mark its first input left (results/shard_mark.h): a cell
// it lacks is MISSING, not another shard's.
TEST(Check, AMergedFileIsNoShard) {
  const RunResults base = testing::make_run(32);
  RunResults merged = base;
  merged.meta.extra["shard"] = "0/2";  // as merges before this one kept it
  merged.meta.extra["merged_inputs"] = "2";
  merged.cells.pop_back();
  const auto rep = check_cells(base, merged, {});
  EXPECT_EQ(count(rep, CheckStatus::Missing), 1u);
  EXPECT_EQ(count(rep, CheckStatus::Skipped), 0u);
}

}  // namespace kvz
