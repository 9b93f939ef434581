// Totals per table and the fleet answer's figures (results/table_totals.h) on a fleet survey
// built in memory (tests/results/fleet_fixture.h): sums across hosts, CPU models kept apart.
#include <gtest/gtest.h>

#include <map>
#include <set>

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
