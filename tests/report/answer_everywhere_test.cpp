// The console, the Markdown, the HTML and results.json open on the same answer (report/answer.h run_answer):
// the same groups in the same order, the same workloads, picks and configuration lines; a fleet's
// per-file rows keyed by host in each. Each output is read back into one shape (ShownGroup) and
// compared with the list every writer is made from, so results.json's `recommendations` can be
// held to it the same way: read it into ShownGroups and call expect_shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "judgement/answer.h"
#include "report/answer.h"
#include "report/console.h"
#include "report/html_data.h"
#include "report/writers.h"
#include "tests/results/fixture.h"
#include "tests/results/fleet_fixture.h"
#include "util/text.h"

namespace kvz {
namespace {

struct ShownPick {
  std::string workload, pick, config;  // pick: the choice's label, or "none"
};
struct ShownGroup {
  std::string group;
  std::vector<ShownPick> picks;
};

std::string without_spaces(std::string s) {
  std::erase(s, ' ');
  return s;
}

// What every output must show: the answer's groups, picks and lines (a line compared without
// its spaces, which the console's wrapping may move).
std::vector<ShownGroup> expected(const std::vector<GroupRecommendations>& answer) {
  std::vector<ShownGroup> out;
  for (const auto& g : answer) {
    out.push_back({g.group, {}});
    for (const auto& p : g.picks)
      out.back().picks.push_back({p.workload, p.choice ? p.choice->label : "none",
                                  p.config && p.config->writable ? without_spaces(p.config->line) : ""});
  }
  return out;
}

void expect_shows(const std::vector<GroupRecommendations>& answer, const std::vector<ShownGroup>& shown,
                  const std::string& where) {
  const auto want = expected(answer);
  ASSERT_EQ(shown.size(), want.size()) << where;
  for (size_t g = 0; g < want.size(); ++g) {
    EXPECT_EQ(shown[g].group, want[g].group) << where;
    ASSERT_EQ(shown[g].picks.size(), want[g].picks.size()) << where << ": " << want[g].group;
    for (size_t p = 0; p < want[g].picks.size(); ++p) {
      const ShownPick &s = shown[g].picks[p], &w = want[g].picks[p];
      EXPECT_EQ(s.workload, w.workload) << where;
      EXPECT_EQ(s.pick, w.pick) << where << ": " << w.workload;
      EXPECT_EQ(s.config, w.config) << where << ": " << w.workload;
    }
  }
}

// The console's answer: "recommendations, GROUP (...)", a line per pick, its store's line under
// it (continued on lines indented deeper), then why; everything before the first table.
std::vector<ShownGroup> console_answer(const std::string& text) {
  std::vector<ShownGroup> groups;
  std::istringstream in(text);
  const std::regex pick(R"(^  (\S[^ ]*(?: [^ ]+)?) +(.+?)(?:\s+[0-9]+\.[0-9]{3}\s.*)?$)");
  bool in_group = false;   // a group runs from its heading to the next blank line
  bool in_config = false;  // after a pick, until its "why:": its store's line
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("== ", 0) == 0) break;  // the tables
    std::smatch m;
    if (line.rfind("recommendations, ", 0) == 0) {
      groups.push_back({line.substr(17, line.find(" (stored ratio") - 17), {}});
      in_group = true;
    } else if (line.empty()) {
      in_group = false;
    } else if (line.rfind("    why:", 0) == 0) {
      in_config = false;  // why the pick, and a code change, under its line: not the line
    } else if (in_group && in_config && line.rfind("    ", 0) == 0 && !groups.back().picks.empty()) {
      const size_t colon = line.find(": ");  // "    rocksdb: LINE", then its continuation lines
      groups.back().picks.back().config +=
          without_spaces(line.rfind("     ", 0) == 0 || colon == std::string::npos ? line : line.substr(colon + 2));
    } else if (in_group && std::regex_match(line, m, pick)) {
      std::string choice = m[2];
      choice = choice.substr(0, std::min(choice.find(" ≈ "), choice.find(" +")));
      groups.back().picks.push_back({m[1], choice.rfind("none:", 0) == 0 ? "none" : choice, ""});
      in_config = true;
    }
  }
  return groups;
}

// The Markdown's answer: "**GROUP**", then a table row per pick.
std::vector<ShownGroup> markdown_answer(const std::string& md) {
  std::vector<ShownGroup> groups;
  std::istringstream in(md.substr(md.find("### The answer")));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("### ", 0) == 0 && line != "### The answer") break;
    if (line.rfind("**", 0) == 0) groups.push_back({line.substr(2, line.size() - 4), {}});
    if (groups.empty() || line.rfind("| ", 0) != 0 || line.rfind("| workload", 0) == 0) continue;
    std::vector<std::string> cells;
    std::string cell;
    for (size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '|' && line[i - 1] != '\\') {
        cells.push_back(std::string(trim(cell)));
        cell.clear();
      } else {
        cell += line[i];
      }
    }
    const std::string choice = cells.at(1);
    std::string config = cells.size() >= 8 ? cells.at(6) : "";  // a store's configuration column
    if (!config.empty() && config.front() == '`') config = config.substr(1, config.size() - 2);
    groups.back().picks.push_back({cells.at(0), choice.substr(0, choice.find(" ≈ ")),
                                   without_spaces(std::regex_replace(config, std::regex(R"(\\\|)"), "|"))});
  }
  return groups;
}

// The HTML's answer as the page opens on it: the pooled groups (source null) in the default
// store's syntax.
std::vector<ShownGroup> html_answer(const nlohmann::json& answer) {
  std::vector<ShownGroup> groups;
  const std::string store = answer["default_store"];
  for (const auto& g : answer["groups"]) {
    if (!g["source"].is_null()) continue;
    groups.push_back({g["group"], {}});
    for (const auto& p : g["by_store"][store])
      groups.back().picks.push_back({p["workload"], p.contains("pick") ? p["pick"].get<std::string>() : "none",
                                     p.value("writable", false) ? without_spaces(p["config"]) : ""});
  }
  return groups;
}

// Two sources at two block sizes under RocksDB's profile, lz4hc levels that tie: config lines,
// tie chains, and a pick pooled over sources that neither source alone gives.
RunResults tied_rocksdb_run() {
  RunResults r = testing::make_run(43, 3);
  std::mt19937_64 rng(9);
  for (const auto& fc : testing::fixture_codecs())
    r.cells.push_back(testing::make_cell(fc, 4096, rng, 3, 0.02, "second"));
  for (int level = 1; level <= 9; ++level)
    r.cells.push_back(testing::make_cell({"lz4hc", level, 2.4, 90, 3400}, 4096, rng, 3, 0.001, "second"));
  for (auto& c : r.cells) c.key.profile = "rocksdb";
  return r;
}

// results.json's `recommendations` as `run` writes them (judgement/answer.h add_answer), saved
// and read back: a record per pick, in the answer's order.
std::vector<ShownGroup> json_answer(const RunResults& run) {
  RunResults judged = run;
  // The fixture's extra codecs (lz4hc) named among the run's, as a real run names every codec.
  auto& versions = judged.meta.codec_versions;
  for (const auto& c : judged.cells)
    if (std::none_of(versions.begin(), versions.end(), [&](const CodecVersion& v) { return v.codec == c.key.codec; }))
      versions.push_back({c.key.codec, c.key.codec, "fixture"});
  add_answer(judged);
  RunResults loaded;
  std::string error;
  EXPECT_TRUE(results_from_json(results_to_json(judged), loaded, error)) << error;
  std::vector<ShownGroup> groups;
  for (const auto& r : loaded.recommendations) {
    if (groups.empty() || groups.back().group != r.group) groups.push_back({r.group, {}});
    std::string line;
    for (const auto& l : r.config)
      if (l.store == "rocksdb") line = without_spaces(l.line);
    groups.back().picks.push_back({r.workload, r.pick.empty() ? "none" : r.pick, line});
  }
  return groups;
}

TEST(AnswerEverywhere, ConsoleMarkdownAndHtmlOpenOnTheSameAnswer) {
  const RunResults run = tied_rocksdb_run();
  const auto answer = run_answer(run, RecommendOptions{});
  ASSERT_EQ(answer.size(), 2u);  // 4K and 64K, the sources pooled
  std::ostringstream console;
  print_run_console(console, run, ConsoleOptions{});
  expect_shows(answer, console_answer(console.str()), "console");
  const std::string md = markdown_summary(run, ReportOptions{});
  expect_shows(answer, markdown_answer(md), "markdown");
  const auto html = html_data({run}, ReportOptions{})["answer"];
  EXPECT_EQ(html["default_store"], "rocksdb");
  expect_shows(answer, html_answer(html), "html");
  expect_shows(answer, json_answer(run), "results.json");
  // Each opens on it: the console before its first table, the Markdown before its cells.
  EXPECT_LT(console.str().find("recommendations, "), console.str().find("\n== "));
  EXPECT_LT(md.find("### The answer"), md.find("### Cells"));
  EXPECT_LT(md.find("### The answer"), 400u) << md.substr(0, 600);
  // The lines are RocksDB's, under every pick that has one.
  size_t lines = 0;
  for (const auto& g : answer)
    for (const auto& p : g.picks) lines += p.config && p.config->writable;
  EXPECT_EQ(lines, 10u);
}

// Without a store profile the answer is among every codec, with no line, everywhere: the HTML
// opens on "any" store, not on RocksDB's narrower pick.
TEST(AnswerEverywhere, WithoutAProfileTheHtmlOpensOnAnyStore) {
  const RunResults run = testing::make_run(43, 3);
  const auto answer = run_answer(run, RecommendOptions{});
  const auto html = html_data({run}, ReportOptions{})["answer"];
  EXPECT_EQ(html["default_store"], "any");
  expect_shows(answer, html_answer(html), "html");
  std::ostringstream console;
  print_run_console(console, run, ConsoleOptions{});
  expect_shows(answer, console_answer(console.str()), "console");
  expect_shows(answer, markdown_answer(markdown_summary(run, ReportOptions{})), "markdown");
  bool xz = false;  // RocksDB cannot write xz: only an answer among every codec picks it
  for (const auto& g : answer)
    for (const auto& p : g.picks) xz = xz || (p.choice && p.choice->codec == "xz");
  EXPECT_TRUE(xz);
}

// The marks the answer and the tables use are explained once, under the answer, before the
// first table; a long tie chain is cut to "+N tied" on the console and listed whole elsewhere.
TEST(AnswerEverywhere, MarksAreExplainedUnderTheAnswer) {
  RunResults run = tied_rocksdb_run();
  run.cells[3].key.params = "1:fresh";
  // The nine lz4hc levels as RocksDB calls them (a context per block): the store's own call, so
  // they are candidates, all alike, and read-heavy's pick ties with the other eight.
  for (auto& c : run.cells)
    if (c.key.codec == "lz4hc") c.key.params = std::to_string(c.key.level) + ":fresh";
  std::ostringstream console;
  print_run_console(console, run, ConsoleOptions{});
  const std::string text = console.str();
  const size_t marks = text.find("\nmarks:\n");
  ASSERT_NE(marks, std::string::npos) << text;
  EXPECT_LT(marks, text.find("\n== "));
  for (const char* mark : {"  ≈ ", "  +N tied ", "  :fresh "})
    EXPECT_NE(text.find(mark, marks), std::string::npos) << mark;
  EXPECT_NE(text.find(" tied "), std::string::npos);
  EXPECT_NE(text.find("as RocksDB calls the codec"), std::string::npos);
  const std::string md = markdown_summary(run, ReportOptions{});
  EXPECT_NE(md.find("- `:fresh`: "), std::string::npos);
  EXPECT_EQ(md.find(" tied"), std::string::npos);  // every tie listed
}

// A merged fleet survey: the same file name on three hosts is three files in every output, and
// the pooled answer pools them (one group per block set).
TEST(AnswerEverywhere, FleetRowsCarryTheirHost) {
  const RunResults run = testing::fleet_run();
  std::ostringstream console;
  print_run_console(console, run, ConsoleOptions{});
  const std::string md = markdown_summary(run, ReportOptions{});
  const auto html = html_data({run}, ReportOptions{});
  for (const char* host : {"node1", "node2", "node3"}) {
    const std::string file = std::string("nb-1-big-Data.db@") + host;
    EXPECT_NE(console.str().find("== " + file + " ("), std::string::npos) << console.str();
    EXPECT_NE(md.find("| " + file + " |"), std::string::npos) << file;            // the cell rows
    EXPECT_NE(md.find("### " + file + " as stored"), std::string::npos) << file;  // the switches
    size_t groups = 0;
    for (const auto& g : html["answer"]["groups"]) groups += g["source"] == file;
    EXPECT_EQ(groups, 1u) << file;  // its own picks, apart from the other hosts' files
  }
  std::set<std::string> sources;
  for (const auto& c : html["cells"]) sources.insert(c["source"]);
  EXPECT_EQ(sources.size(), 4u);  // nb-1 on three hosts, nb-2 on one
}

}  // namespace
}  // namespace kvz
