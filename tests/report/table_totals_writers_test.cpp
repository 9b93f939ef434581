// The fleet answer opens the console, Markdown and HTML of a merged fleet survey, one line per
// table; the totals per table follow (report/table_totals_writers.h).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>

#include "report/table_totals_writers.h"
#include "report/writers.h"
#include "results/table_totals.h"
#include "tests/results/fleet_fixture.h"

namespace kvz {
namespace {

using testing::fleet_run;

TEST(TableTotalsWriters, ConsoleOpensOnOneLinePerTable) {
  const RunResults run = fleet_run();
  std::ostringstream out;
  print_fleet_answer(out, run);
  // A line wider than the console is continued on the next, four spaces in: joined again here.
  const std::string text = std::regex_replace(out.str(), std::regex("\n    "), " ");
  ASSERT_EQ(text.rfind("fleet answer, per table across hosts", 0), 0u) << text;
  for (const auto& t : table_totals(run))
    EXPECT_NE(text.find("  " + t.table + ": " + table_answer_text(t) + "\n"), std::string::npos) << text;
}

TEST(TableTotalsWriters, MarkdownOpensOnTheFleetAnswer) {
  const RunResults run = fleet_run();
  const std::string md = markdown_summary(run, ReportOptions{});
  ASSERT_EQ(md.rfind("## Fleet answer, per table across hosts\n\n- ", 0), 0u) << md.substr(0, 200);
  for (const auto& t : table_totals(run)) {
    EXPECT_NE(md.find("- " + t.table + ": " + table_answer_text(t)), std::string::npos);
    EXPECT_NE(md.find(fmt::format("| {} (on disk now: the files' sizes, data blocks {}) | {} |", t.current,
                                  data_share_text(t), t.current_bytes)),
              std::string::npos);
  }
}

TEST(TableTotalsWriters, HtmlOpensOnTheFleetAnswer) {
  const RunResults run = fleet_run();
  const std::string path = ::testing::TempDir() + "fleet.html";
  std::string error;
  ASSERT_TRUE(write_html(path, {run}, error)) << error;
  std::ifstream in(path);
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t h1 = html.find("<h1>kvzbench report</h1>\n");
  ASSERT_NE(h1, std::string::npos);
  EXPECT_EQ(html.find("<section id=\"fleet\">"), h1 + std::string("<h1>kvzbench report</h1>\n").size());
  EXPECT_NE(html.find("<section id=\"table-totals\">"), std::string::npos);
}

TEST(TableTotalsWriters, OneHostHasTotalsButNoFleetAnswer) {
  RunResults run = fleet_run();
  std::erase_if(run.cells, [](const CellResult& c) { return c.key.host != "node1"; });
  std::erase_if(run.meta.corpora, [](const CorpusInfo& c) { return c.host != "node1"; });
  std::ostringstream fleet, totals;
  print_fleet_answer(fleet, run);
  print_table_totals(totals, run);
  EXPECT_EQ(fleet.str(), "");
  EXPECT_NE(totals.str().find("\ntotal per table"), std::string::npos);
  EXPECT_NE(totals.str().find("ks.users (cassandra): 1 file on node1\n"), std::string::npos) << totals.str();
  EXPECT_EQ(markdown_summary(run, ReportOptions{}).find("Fleet answer"), std::string::npos);
}

}  // namespace
}  // namespace kvz
