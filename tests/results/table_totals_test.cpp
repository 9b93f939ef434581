// Totals per table and the fleet answer's figures (results/table_totals.h) on a fleet survey
// built in memory (tests/results/fleet_fixture.h): sums across hosts, CPU models kept apart.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include <fmt/format.h>

#include "results/cell_view.h"
#include "results/table_totals.h"
#include "tests/results/fleet_fixture.h"

namespace kvz {
namespace {

using testing::fleet_files;
using testing::fleet_run;

const TableTotal& total_of(const std::vector<TableTotal>& totals, const std::string& table) {
  for (const auto& t : totals)
    if (t.table == table) return t;
  static const TableTotal none;
  ADD_FAILURE() << "no total for " << table;
  return none;
}

TEST(TableTotals, SumEachTablesFilesAcrossHosts) {
  const RunResults run = fleet_run();
  const auto totals = table_totals(run);
  ASSERT_EQ(totals.size(), 2u);
  std::map<std::string, uint64_t> on_disk;
  std::map<std::string, std::set<std::string>> hosts;
  for (const auto& f : fleet_files()) on_disk[f.table] += f.on_disk, hosts[f.table].insert(f.host);
  for (const auto& [table, bytes] : on_disk) {
    const TableTotal& t = total_of(totals, table);
    EXPECT_EQ(t.current_bytes, bytes);
    EXPECT_EQ(t.current, "lz4 1");  // cell_label: params "1", no codec_versions saying lz4 has no levels
    EXPECT_EQ(std::set<std::string>(t.hosts.begin(), t.hosts.end()), hosts[table]);
    ASSERT_EQ(t.candidates.size(), 2u);  // zstd 1 and zlib 6: the current row is no candidate
  }
}

TEST(TableTotals, CandidateBytesAreTheStoredBytesSummedAndSavingAgainstOnDisk) {
  const RunResults run = fleet_run();
  const auto totals = table_totals(run);
  const TableTotal& t = total_of(totals, "ks.events");
  for (const auto& cand : t.candidates) {
    uint64_t sum = 0;
    for (const auto& c : run.cells)
      if (!c.current && c.key.source == "nb-1-big-Data.db" &&
          c.key.codec + " " + std::to_string(c.key.level) == cand.label)
        sum += c.stored_bytes;
    EXPECT_EQ(cand.bytes, sum) << cand.label;
    EXPECT_DOUBLE_EQ(cand.saving_pct, 100.0 * (1.0 - static_cast<double>(sum) / static_cast<double>(t.current_bytes)));
  }
  EXPECT_LE(t.candidates[0].bytes, t.candidates[1].bytes);  // the fewest bytes first
  EXPECT_EQ(largest_saving(t), &t.candidates[0]);
}

// Seconds per CPU model: each file's input bytes at its own host's median speed, summed; the
// two models never pooled.
TEST(TableTotals, CpuSecondsAreSummedPerCpuModelFromEachHostsSpeed) {
  const RunResults run = fleet_run();
  const auto totals = table_totals(run);
  const TableTotal& t = total_of(totals, "ks.events");
  std::map<std::string, double> expected;
  for (const auto& c : run.cells)
    if (c.current && c.key.source == "nb-1-big-Data.db")
      expected[c.key.cpu] += static_cast<double>(c.input_bytes) / (c.compress_median() * 1e6);
  ASSERT_EQ(t.current_compress_seconds.size(), 2u);
  for (const auto& [cpu, s] : expected) EXPECT_DOUBLE_EQ(t.current_compress_seconds.at(cpu), s);
  const std::string factor = time_factor_text(t.candidates[0].compress_seconds, t.current_compress_seconds);
  EXPECT_NE(factor.find(" on EPYC 7B13"), std::string::npos) << factor;
  EXPECT_NE(factor.find(" on Xeon 8375C"), std::string::npos) << factor;
}

TEST(TableTotals, OneCpuModelGivesOneFactor) {
  RunResults run = fleet_run(false);
  run.meta.cpu_model = "EPYC 7B13";
  const auto totals = table_totals(run);
  const TableTotal& t = total_of(totals, "ks.events");
  const std::string factor = time_factor_text(t.candidates[0].compress_seconds, t.current_compress_seconds);
  EXPECT_EQ(factor.find(" on "), std::string::npos) << factor;
  EXPECT_EQ(factor.rfind("× ", 0), 0u) << factor;
}

TEST(TableTotals, ACandidateMissingOnAFileIsLeftOut) {
  RunResults run = fleet_run();
  std::erase_if(run.cells, [](const CellResult& c) { return c.key.host == "node2" && c.key.codec == "zlib"; });
  const auto totals = table_totals(run);
  const TableTotal& t = total_of(totals, "ks.events");
  ASSERT_EQ(t.candidates.size(), 1u);
  EXPECT_EQ(t.candidates[0].label.rfind("zstd", 0), 0u);
}

TEST(TableTotals, FleetOnlyWithSeveralHosts) {
  RunResults run = fleet_run();
  EXPECT_TRUE(is_fleet(run));
  std::erase_if(run.cells, [](const CellResult& c) { return c.key.host != "node1"; });
  std::erase_if(run.meta.corpora, [](const CorpusInfo& c) { return c.host != "node1"; });
  EXPECT_FALSE(is_fleet(run));
  EXPECT_EQ(table_totals(run).size(), 2u);  // a single host still gets its totals per table
}

TEST(TableTotals, AnswerNamesTheSwitchTheSavingAndTheHosts) {
  const auto totals = table_totals(fleet_run());
  const TableTotal& t = total_of(totals, "ks.events");
  const std::string text = table_answer_text(t);
  EXPECT_EQ(text.rfind("lz4 1 → " + t.candidates[0].label + " saves ", 0), 0u) << text;
  EXPECT_NE(text.find("across 3 files on 3 hosts; compress time × "), std::string::npos) << text;
  EXPECT_EQ(decimal_bytes(2'900'000'000'000), "2.90 TB");
  EXPECT_EQ(decimal_bytes(512), "512 B");
}

}  // namespace
}  // namespace kvz

namespace kvz {
namespace {

using testing::fleet_run;

// A store file whose result records the files' sizes (stat) and data blocks apart from the
// blocks measured: on disk now is the files' sizes, a candidate's the files with its data blocks
// in place of theirs, scaled from the measured blocks to all of them.
TEST(TableTotals, OnDiskIsTheFilesSizesWithTheDataBlocksShare) {
  RunResults run = fleet_run();
  uint64_t stat = 0, data = 0;
  for (auto& c : run.meta.corpora)
    if (c.table == "ks.events") {
      c.data_bytes = c.bytes;  // every data block...
      c.bytes += 1000;         // ... and 1,000 B of other parts per file
      c.files = 1;
      stat += c.bytes, data += c.data_bytes;
    }
  for (auto& c : run.cells)
    if (c.current) *c.on_disk_bytes /= 2;  // half the blocks measured (--max-bytes)
  const auto totals = table_totals(run);
  const TableTotal& t = total_of(totals, "ks.events");
  EXPECT_EQ(t.current_bytes, stat);
  EXPECT_EQ(t.data_bytes, data);
  EXPECT_EQ(data_share_text(t), fmt::format("{:.1f} %", 100.0 * static_cast<double>(data) / static_cast<double>(stat)));
  for (const auto& cand : t.candidates) {
    uint64_t expected = 0;
    for (const auto& c : run.cells)
      if (!c.current && c.key.source == "nb-1-big-Data.db" && cell_label(run, c) == cand.label)
        expected += 1000 + 2 * c.stored_bytes;
    EXPECT_NEAR(static_cast<double>(cand.bytes), static_cast<double>(expected), 3.0) << cand.label;
  }
}

// A DB's levels from several hosts: per table and level, each summed across the hosts.
TEST(TableTotals, LevelTotalsSumEachLevelAcrossHosts) {
  RunResults run = fleet_run();
  std::map<std::string, int> level_of = {{"node1", 6}, {"node2", 6}, {"node3", 0}};
  for (auto& c : run.meta.corpora) c.level = c.table == "ks.events" ? level_of[c.host] : -1, c.files = 3;
  const auto levels = level_totals(run);
  ASSERT_EQ(levels.size(), 2u);  // L6 on node1 and node2, L0 on node3; ks.users has no level
  const TableTotal& l6 = levels[0].level == 6 ? levels[0] : levels[1];
  EXPECT_EQ(l6.table, "ks.events");
  EXPECT_EQ(l6.files, 6u);
  EXPECT_EQ(l6.current_bytes, 3'000'000u);
  EXPECT_EQ(l6.hosts, (std::vector<std::string>{"node1", "node2"}));
  EXPECT_EQ(l6.bytes_by_host.at("node2"), 2'000'000u);
  EXPECT_EQ(table_totals(run).size(), 2u);  // the table totals are unchanged by levels
}

}  // namespace
}  // namespace kvz
