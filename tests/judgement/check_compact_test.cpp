// check_compact (judgement/check.h), what `kvzbench check` runs on two files: on compact runs
// read by load_compact_results, the same verdict, row for row, and the same console text as
// check_cells and check_results on the whole runs load_results reads from the same files.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "judgement/check.h"
#include "results/results.h"
#include "results/results_compact.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;

struct SavedRun {
  std::string path;
  explicit SavedRun(const RunResults& r) {
    std::string tmpl = (fs::temp_directory_path() / "kvz_check_compact_XXXXXX").string();
    ::close(::mkstemp(tmpl.data()));
    path = tmpl;
    std::string error;
    EXPECT_TRUE(save_results(path, r, error)) << error;
  }
  ~SavedRun() { fs::remove(path); }
};

// Every field of a verdict, compared at once (GoogleTest prints both tuples when they differ).
auto speed_fields(const SpeedVerdict& v) { return std::tie(v.status, v.slowdown, v.p, v.note, v.compared, v.cpu_time); }
auto summary_fields(const CheckReport& r) {
  return std::tie(r.cpu_match, r.build_match, r.version_changes, r.compress_noise, r.decompress_noise, r.compared,
                  r.refusal, r.exit_code);
}

void expect_same_speed(const SpeedVerdict& a, const SpeedVerdict& b, const std::string& id) {
  EXPECT_EQ(speed_fields(a), speed_fields(b)) << id;
}
void expect_same_summary(const CheckReport& a, const CheckReport& b) {
  EXPECT_EQ(summary_fields(a), summary_fields(b));
}

// Both runs through files both ways: the whole-run verdict and text against the compact ones.
void expect_same_check(const RunResults& baseline, const RunResults& current, const CheckOptions& opt = {}) {
  const SavedRun base_file(baseline), cur_file(current);
  RunResults base, cur;
  CompactRun compact_base, compact_cur;
  std::string error;
  ASSERT_TRUE(load_results(base_file.path, base, error)) << error;
  ASSERT_TRUE(load_results(cur_file.path, cur, error)) << error;
  ASSERT_TRUE(load_compact_results(base_file.path, compact_base, error)) << error;
  ASSERT_TRUE(load_compact_results(cur_file.path, compact_cur, error)) << error;
  const CheckReport whole = check_cells(base, cur, opt);
  const CompactCheckReport compact = check_compact(compact_base, compact_cur, opt);
  expect_same_summary(compact.summary, whole);
  ASSERT_EQ(compact.size(), whole.cells.size());
  for (size_t i = 0; i < whole.cells.size(); ++i) {
    const CellCheck a = compact.cell(i);
    const CellCheck& b = whole.cells[i];
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.status, b.status) << b.id;
    EXPECT_EQ(a.size_note, b.size_note) << b.id;
    EXPECT_EQ(a.size_status, b.size_status) << b.id;
    EXPECT_EQ(a.note, b.note) << b.id;
    EXPECT_EQ(a.size_ratio, b.size_ratio) << b.id;
    expect_same_speed(a.compress, b.compress, b.id);
    expect_same_speed(a.decompress, b.decompress, b.id);
  }
  std::ostringstream whole_text, compact_text;
  EXPECT_EQ(check_results(base, cur, opt, whole_text), whole.exit_code);
  print_check_text(compact_base.meta, compact_cur.meta, opt, compact, compact_text);
  EXPECT_EQ(compact_text.str(), whole_text.str());
}

void scale_speeds(CellResult& c, double factor) {
  for (auto* speeds : {&c.compress_mbps, &c.decompress_mbps, &c.compress_cpu_mbps, &c.decompress_cpu_mbps})
    for (auto& v : *speeds) v *= factor;
}

}  // namespace

TEST(CheckCompact, SameVerdictAsWholeRunsOnPassAndFail) {
  const RunResults cur = testing::make_run(11);
  expect_same_check(cur, cur);
  expect_same_check(testing::scaled(cur, 1.3), cur);                       // every codec FAILs
  expect_same_check(testing::scaled(cur, 1.3), testing::make_run(12, 5));  // too few repetitions
}

TEST(CheckCompact, SameVerdictOnSizesFailuresNewAndMissing) {
  const RunResults base = testing::make_run(17);
  RunResults cur = base;
  cur.cells[2].status = CellStatus::Failed;
  cur.cells[2].failure = "round trip mismatch at block 3 (offset 100)";
  cur.cells[3].compressed_bytes -= 1;
  cur.cells[4].input_bytes += 4096;
  cur.cells.pop_back();  // MISSING
  cur.cells.push_back(cur.cells[1]);
  cur.cells.back().key.level = 9;  // NEW
  cur.cells.back().key.params = "9";
  expect_same_check(base, cur);
  CheckOptions strict;
  strict.fail_on_missing = true;
  expect_same_check(base, cur, strict);
  RunResults other_zstd = base;
  other_zstd.meta.codec_versions[2].version = "1.5.2";
  expect_same_check(other_zstd, cur);  // a library change: the re-baseline line
}

TEST(CheckCompact, SameVerdictOnNoiseAndSkippedSpeeds) {
  const RunResults base = testing::make_run(23, 9, 0.01);
  RunResults cur = base;
  const double factors[] = {0.8, 1.18, 0.9, 1.12, 0.86, 1.06, 0.94, 1.2, 0.84, 1.1, 0.97, 1.15, 0.7};
  for (size_t i = 1; i < cur.cells.size(); ++i) scale_speeds(cur.cells[i], factors[i % std::size(factors)]);
  expect_same_check(base, cur);  // run-to-run noise: FAILs within it become UNSTABLE
  RunResults no_cpu = base;
  for (auto& c : no_cpu.cells) c.compress_cpu_mbps.clear();
  expect_same_check(no_cpu, cur);  // wall time
  CheckOptions off;
  off.speed_gate = false;
  expect_same_check(base, cur, off);
  RunResults other_cpu = base;
  other_cpu.meta.cpu_model = "Another CPU";
  expect_same_check(other_cpu, cur);
}

TEST(CheckCompact, SameVerdictOnShardsAndRunsCutShort) {
  const RunResults base = testing::make_run(31);
  const RunResults shard = testing::first_of_two_shards(base);
  expect_same_check(base, testing::scaled(shard, 0.5));  // no memcpy row: raw speeds
  RunResults cut = base;
  cut.cells[4].partial_set = true;
  expect_same_check(base, cut);
  RunResults empty = base;
  empty.cells.clear();
  expect_same_check(base, empty);  // nothing compared
}

}  // namespace kvz
