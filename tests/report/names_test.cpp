// Names are data (report/markup.h, report/terminal_view.h): a hostile source name through each
// format's one escaping, and through the writers that print it: the console, CSV, Markdown,
// HTML and JUnit XML.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "report/check_writers.h"
#include "report/console.h"
#include "report/markup.h"
#include "report/table_totals_writers.h"
#include "report/terminal_view.h"
#include "report/writers.h"
#include "tests/results/fixture.h"
#include "tests/results/fleet_fixture.h"
#include "util/text.h"

namespace kvz {
namespace {

// The names the third attack used (issue 35): a terminal escape sequence, a newline and a fake
// passing gate, a spreadsheet formula, a table-breaking pipe with an HTML tag, a javascript: link.
const std::string kEscape = "evil\x1b]0;owned\x07\x1b[2J.json";
const std::string kFakePass = "cf\nkvzbench check: PASS (0 of 0 cells failed)";
const std::string kFormula = "=cmd|' -C calc'!A0";
const std::string kTag = "a|b<img src=x onerror=alert(1)>";
const std::string kLink = "[x](javascript:alert(1))";

RunResults run_named(const std::string& name) {
  RunResults r = testing::make_run(3);
  for (auto& c : r.cells) c.key.source = name;
  r.meta.hostname = name;
  r.meta.corpora.push_back({name, "/data/" + name, 1000, "", "", ""});
  return r;
}

bool no_control(const std::string& text) {
  for (const char c : text)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f) return false;
  return true;
}

TEST(Names, ConsoleEscapesControlCharactersAndLineBreaks) {
  EXPECT_EQ(one_line(kEscape), "evil\\x1b]0;owned\\x07\\x1b[2J.json");
  EXPECT_EQ(one_line("csi\xc2\x9b"
                     "2J"),
            "csi\\u009b2J");                          // the 8-bit CSI, as UTF-8
  EXPECT_EQ(one_line("caf\xc3\xa9"), "caf\xc3\xa9");  // other non-ASCII stays
  for (const std::string& name : {kEscape, kFakePass}) {
    std::ostringstream out;
    const RunResults shown = terminal_view(run_named(name));
    print_console_table(out, shown, TableSort::CompressSpeed);
    print_recommendations(out, shown);
    EXPECT_TRUE(no_control(out.str())) << out.str();
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);) EXPECT_NE(line.rfind("kvzbench check: PASS", 0), 0u) << line;
  }
}

// A fleet survey's table and host names (a keyspace or column family, KVZ_NODE_NAME) through the
// fleet answer and the totals per table, in the console and in Markdown.
TEST(Names, TableAndHostNamesInTheFleetAnswer) {
  RunResults fleet = testing::fleet_run();
  for (auto& c : fleet.meta.corpora) c.table = kFakePass, c.host = kEscape + c.host;
  for (auto& c : fleet.cells) c.key.host = kEscape + c.key.host;
  std::ostringstream out;
  const RunResults shown = terminal_view(fleet);
  print_fleet_answer(out, shown);
  print_table_totals(out, shown);
  EXPECT_NE(out.str().find("cf\\nkvzbench check: PASS"), std::string::npos) << out.str();
  EXPECT_TRUE(no_control(out.str())) << out.str();
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) EXPECT_NE(line.rfind("kvzbench check: PASS", 0), 0u) << line;
  const std::string md = markdown_summary(fleet, ReportOptions{});
  EXPECT_TRUE(no_control(md));
  EXPECT_EQ(md.find("\nkvzbench check: PASS"), std::string::npos);
  for (auto& c : fleet.meta.corpora) c.table = kTag + kFakePass;
  const std::string html = fleet_answer_html(fleet) + table_totals_html(fleet);
  EXPECT_TRUE(no_control(html)) << html;
  EXPECT_EQ(html.find("<img"), std::string::npos) << html;
  EXPECT_NE(html.find("a|b&lt;img src=x onerror=alert(1)&gt;cf\\nkvzbench check: PASS"), std::string::npos) << html;
}

TEST(Names, CsvNeutralisesFormulasAndQuotes) {
  EXPECT_EQ(csv_escape(kFormula), "\"'=cmd|' -C calc'!A0\"");
  for (const std::string lead : {"+", "-", "@"}) EXPECT_EQ(csv_escape(lead + "1+1"), "\"'" + lead + "1+1\"");
  EXPECT_EQ(csv_escape("\tx"), "\"'\\tx\"");
  EXPECT_EQ(csv_escape("\rx"), "\"'\\rx\"");
  EXPECT_EQ(csv_escape("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_escape("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_escape(kFakePass), "cf\\nkvzbench check: PASS (0 of 0 cells failed)");
  EXPECT_EQ(csv_escape("twitter.json"), "twitter.json");
  RunResults r = run_named(kFormula);
  std::string csv;
  {
    const std::string path = ::testing::TempDir() + "names.csv";
    std::string error;
    ASSERT_TRUE(write_csv(path, r, error)) << error;
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    csv = s.str();
  }
  EXPECT_EQ(csv.find(",=cmd"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",\"'=cmd|' -C calc'!A0\","), std::string::npos) << csv;
}

TEST(Names, MarkdownKeepsRowsAndPassesNoTagOrLink) {
  EXPECT_EQ(markdown_escape(kTag), "a\\|b&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(markdown_escape(kLink), "\\[x\\](javascript:alert(1))");
  EXPECT_EQ(markdown_escape(kFakePass), "cf\\\\nkvzbench check: PASS (0 of 0 cells failed)");
  for (const std::string& name : {kTag, kLink, kFakePass, kEscape}) {
    const RunResults r = run_named(name);
    const std::string md = markdown_summary(r, ReportOptions{});
    EXPECT_EQ(md.find("<img"), std::string::npos);
    EXPECT_EQ(md.find("[x](javascript"), std::string::npos);  // "\\[x\\](...)": no link
    EXPECT_TRUE(no_control(md));
    // Every cell table row has the header's number of cells.
    std::istringstream lines(md);
    size_t header_pipes = 0, rows = 0;
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("| source |", 0) == 0) header_pipes = std::count(line.begin(), line.end(), '|');
      if (header_pipes && line.rfind("| ", 0) == 0 && line.find(r.cells[0].key.layout) != std::string::npos) {
        size_t pipes = 0;
        for (size_t i = 0; i < line.size(); ++i) pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
        EXPECT_EQ(pipes, header_pipes) << line;
        ++rows;
      }
    }
    EXPECT_GT(rows, 0u) << md;
  }
}

// HTML: the names reach the page only inside the JSON the script reads with textContent; no '<'
// of theirs is in the page, so neither "</script>" nor "<!--" can end or hold the element.
TEST(Names, HtmlKeepsNamesInsideItsData) {
  const std::string name = "</script><!--<script>" + kTag;
  const std::string path = ::testing::TempDir() + "names.html";
  std::string error;
  ASSERT_TRUE(write_html(path, {run_named(name)}, ReportOptions{}, error)) << error;
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  const std::string page = s.str();
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_EQ(page.find("<!--<script>"), std::string::npos);
  const std::string open = "id=\"kvz-data\">";
  const size_t begin = page.find(open), end = page.find("</script>", begin);
  ASSERT_NE(begin, std::string::npos);
  const auto data = nlohmann::json::parse(page.substr(begin + open.size(), end - begin - open.size()));
  EXPECT_NE(data.dump().find(name), std::string::npos);  // the name itself, to the script
}

// JUnit XML: markup and control characters never pass (xml_escape).
TEST(Names, HtmlEscapeShowsControlCharactersAndMarkup) {
  EXPECT_EQ(html_escape(kTag), "a|b&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(html_escape(kEscape), "evil\\x1b]0;owned\\x07\\x1b[2J.json");
  EXPECT_EQ(html_escape("\"q\" & 'a'"), "&quot;q&quot; &amp; 'a'");
}

TEST(Names, JunitEscapesMarkupAndControlCharacters) {
  EXPECT_EQ(xml_escape(kTag), "a|b&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(xml_escape(kFakePass), "cf&#10;kvzbench check: PASS (0 of 0 cells failed)");
  EXPECT_EQ(xml_escape(kEscape).find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace kvz
