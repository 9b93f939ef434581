// report_file (report/report_file.h), `kvzbench report FILE`: a result up to the limit is shown
// whole, as the writers show a loaded run; past it, in part: the answer, the store table, the
// costs and the totals per table over every cell, the cell table of the block sets with the most
// input bytes, each output saying so, and the CSV of every cell, byte for byte the whole run's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include <unistd.h>

#include <sys/stat.h>

#include "report/report_file.h"
#include "report/writers.h"
#include "results/results.h"
#include "tests/results/fixture.h"
#include "tests/results/fleet_fixture.h"
#include "tests/util/temp_dir.h"

namespace kvz {
namespace {

struct Reports {
  std::string html, md, csv;
};

// This process's own directory: ctest runs each test in a process of its own, two at once, and
// a name shared in /tmp would be another test's file.
std::string out_path(const char* name) {
  static const testing::TempDir dir("kvz_report_file");
  return (dir.path / name).string();
}

Reports report_of(const std::string& path, const ReportScale& scale, const ReportOptions& opt = {}) {
  const ReportOutputs out{out_path("r.html"), out_path("r.md"), out_path("r.csv")};
  std::string error;
  EXPECT_TRUE(report_file(path, out, opt, error, scale)) << error;
  return {testing::file_text(out.html), testing::file_text(out.md), testing::file_text(out.csv)};
}

// What the writers write of the run loaded whole.
Reports whole_reports(const std::string& path, const ReportOptions& opt = {}) {
  RunResults run;
  std::string error;
  EXPECT_TRUE(load_results(path, run, error)) << error;
  EXPECT_TRUE(write_html(out_path("w.html"), {run}, opt, error)) << error;
  EXPECT_TRUE(write_csv(out_path("w.csv"), run, error)) << error;
  return {testing::file_text(out_path("w.html")), markdown_summary(run, opt), testing::file_text(out_path("w.csv"))};
}

// The Markdown from `heading` up to the next heading of its level or above ("" when absent).
std::string section(const std::string& md, const std::string& heading) {
  const size_t at = md.find(heading);
  if (at == std::string::npos) return "";
  const std::string level = heading.substr(0, heading.find(' ') + 1);  // "### "
  size_t end = md.size();
  for (std::string h = level; h.size() > 2; h.erase(0, 1)) end = std::min(end, md.find("\n" + h, at + 1));
  return md.substr(at, end - at);
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

// The limits report/README.md states.
TEST(ReportFile, WholeUpTo5000CellsThen200BlockSetsAndThe100FirstFailedCells) {
  const ReportScale scale;
  EXPECT_EQ(scale.whole_cells, 5000u);
  EXPECT_EQ(scale.shown_block_sets, 200u);
  EXPECT_EQ(scale.shown_failed, 100u);
}

TEST(ReportFile, AResultUpToTheLimitIsShownWholeAsTheWritersShowIt) {
  const testing::TempFile file(results_to_json(testing::make_run(61, 3)));
  const Reports got = report_of(file.path, {}), want = whole_reports(file.path);
  EXPECT_EQ(got.md, want.md);
  EXPECT_TRUE(got.csv == want.csv) << got.csv.size() << " bytes, not " << want.csv.size();
  EXPECT_TRUE(got.html == want.html) << got.html.size() << " bytes, not " << want.html.size();
  EXPECT_EQ(got.md.find("too many to show each"), std::string::npos);
}

// 40 block sets of 7 cells (20 sources x 2 block sizes), a failed cell in the smallest, a limit
// of 100 cells and 3 block sets: the 64K sets of the last 3 sources (the largest) are shown.
TEST(ReportFile, PastTheLimitTheAnswerIsOverEveryCellAndTheTablesShowTheLargestSets) {
  RunResults run = testing::make_sweep(62, 20);
  for (auto& c : run.cells) c.key.profile = "rocksdb";
  run.cells[2].status = CellStatus::Failed;
  run.cells[2].failure = "round trip mismatch at block 3";
  run.cells[2].compress_mbps = run.cells[2].decompress_mbps = {};
  run.cells[2].compress_cpu_mbps = run.cells[2].decompress_cpu_mbps = {};
  const testing::TempFile file(results_to_json(run));
  ReportOptions opt;
  opt.workload = Workload{};
  opt.workload->write_mbps = 50;
  opt.workload->read_mbps = 200;
  opt.workload->storage_usd_gb_month = 0.08;
  opt.workload->cpu_usd_core_hour = 0.04;
  const Reports got = report_of(file.path, {.whole_cells = 100, .shown_block_sets = 3, .shown_failed = 5}, opt);
  const Reports want = whole_reports(file.path, opt);
  EXPECT_TRUE(got.csv == want.csv) << got.csv.size() << " bytes, not " << want.csv.size();  // every cell, streamed
  for (const char* heading : {"### The answer", "### Monthly cost", "### Store profiles"}) {
    EXPECT_NE(section(want.md, heading), "") << heading;
    EXPECT_EQ(section(got.md, heading), section(want.md, heading)) << heading;
  }
  EXPECT_NE(got.md.find("This result has 280 cells in 40 block sets, too many to show each"), std::string::npos);
  EXPECT_NE(got.md.find("show the 3 block sets with the most input bytes (21 cells), and 1 of the 1 failed cells"),
            std::string::npos);
  const std::string cells = section(got.md, "### Cells");
  EXPECT_EQ(count_of(cells, "| src19 |") + count_of(cells, "| src18 |") + count_of(cells, "| src17 |"), 21u);
  EXPECT_EQ(count_of(cells, "| src16 |") + count_of(cells, "| src0 |"), 0u);
  EXPECT_NE(got.md.find("### Failed cells (1)"), std::string::npos);
  EXPECT_NE(got.html.find("<p class=\"note\" id=\"in-part\">This result has 280 cells"), std::string::npos);
  EXPECT_NE(got.html.find("1 run(s), 22 cells."), std::string::npos);  // the shown sets and the failed cell
}

// A fleet survey past the limit: the totals per table and the fleet answer over every file.
TEST(ReportFile, InPartTheTotalsPerTableAreEveryFilesTotals) {
  RunResults fleet = testing::fleet_run();
  fleet.meta.codec_versions = {{"lz4", "liblz4", "1.9.4"}, {"zstd", "libzstd", "1.5.4"}, {"zlib", "zlib", "1.2.13"}};
  const testing::TempFile file(results_to_json(fleet));
  const Reports got = report_of(file.path, {.whole_cells = 4, .shown_block_sets = 1, .shown_failed = 0});
  const Reports want = whole_reports(file.path);
  for (const char* heading : {"## Total per table", "## Fleet answer"}) {
    EXPECT_NE(section(want.md, heading), "") << heading;
    EXPECT_EQ(section(got.md, heading), section(want.md, heading)) << heading;
  }
  EXPECT_NE(got.md.find("the 1 block sets with the most input bytes (3 cells)"), std::string::npos);
  EXPECT_TRUE(got.csv == want.csv) << got.csv.size() << " bytes, not " << want.csv.size();
}

// Each set's reference row last (kvzbench writes it first): the first pass cannot write a row
// before its set's reference is known, so a second pass writes the CSV, the same bytes.
TEST(ReportFile, CellsBeforeTheirReferenceRowGetTheirCsvFromASecondPass) {
  RunResults run = testing::make_sweep(63, 4);
  std::reverse(run.cells.begin(), run.cells.end());
  const testing::TempFile file(results_to_json(run));
  const Reports got = report_of(file.path, {.whole_cells = 10, .shown_block_sets = 1, .shown_failed = 0});
  const Reports want = whole_reports(file.path);
  // Every row has its speed relative to its own set's memcpy row (1 for memcpy itself).
  std::istringstream rows(want.csv);
  std::string row;
  std::getline(rows, row);
  const auto column =
      std::count(row.begin(), row.begin() + static_cast<long>(row.find(",compress_rel_memcpy,")), ',') + 1;
  size_t ones = 0;
  while (std::getline(rows, row)) {
    std::istringstream fields(row);
    std::string field;
    for (long i = 0; i <= column; ++i) std::getline(fields, field, ',');
    EXPECT_FALSE(field.empty()) << row;
    ones += field == "1";
  }
  EXPECT_EQ(ones, 8u);  // the 8 memcpy rows
  EXPECT_TRUE(got.csv == want.csv) << got.csv.size() << " bytes, not " << want.csv.size();
}

// A FIFO cannot take back rows the first pass wrote: it gets the CSV once, after the file is read,
// whether the file is shown whole or in part.
TEST(ReportFile, APipeGetsTheCsvOnceTheFileIsRead) {
  RunResults run = testing::make_sweep(64, 4);
  std::reverse(run.cells.begin(), run.cells.end());  // a second pass: the first writes nothing
  const testing::TempFile file(results_to_json(run));
  const std::string want = whole_reports(file.path).csv;
  for (const size_t whole_cells : {size_t{10}, size_t{5000}}) {
    // A pipe as a shell hands it over (/dev/fd/N); a named FIFO is refused (util/output_target.h).
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    std::string got;
    std::thread reader([&] { got = testing::file_text("/dev/fd/" + std::to_string(fds[0])); });
    std::string error;
    EXPECT_TRUE(
        report_file(file.path, {"", "", "/dev/fd/" + std::to_string(fds[1])}, {}, error, {.whole_cells = whole_cells}))
        << error;
    ::close(fds[1]);  // the reader's end of file
    reader.join();
    ::close(fds[0]);
    EXPECT_TRUE(got == want) << whole_cells << ": " << got.size() << " bytes, not " << want.size();
  }
  const std::string fifo = out_path("csv.fifo");
  // A pipe as the input: read once, so shown whole up to the limit; past it, one line.
  std::remove(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo) << testing::file_text(file.path); });
  std::string error;
  EXPECT_FALSE(report_file(fifo, {"", out_path("pipe.md"), ""}, {}, error, {.whole_cells = 10}));
  writer.join();
  EXPECT_EQ(error, fifo + ": not a regular file, and a result of 56 cells is read twice: save it to a file first");
  std::remove(fifo.c_str());
}

}  // namespace kvz
