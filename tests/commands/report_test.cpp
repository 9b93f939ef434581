#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "commands/report.h"
#include "report/writers.h"
#include "tests/results/fixture.h"

namespace kvz {

namespace {

int call(int (*fn)(int, char**), const char* cmd, std::vector<std::string> args) {
  args.insert(args.begin(), cmd);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return fn(static_cast<int>(argv.size()), argv.data());
}

std::string tmp(const char* name) { return ::testing::TempDir() + "/kvz_cli_" + name; }

}  // namespace

TEST(ReportCli, WritesEveryFormatAndRejectsBadInput) {
  std::string err;
  ASSERT_TRUE(save_results(tmp("r.json"), testing::make_run(50, 3), err)) << err;
  EXPECT_EQ(call(report_main, "report",
                 {tmp("r.json"), "-o", tmp("r.html"), "--md", tmp("r.md"), "--csv", tmp("r.csv"), "--device",
                  "disk:200:5000"}),
            0);
  for (const char* f : {"r.html", "r.md", "r.csv"}) EXPECT_TRUE(std::ifstream(tmp(f)).good()) << f;
  std::stringstream html;
  html << std::ifstream(tmp("r.html")).rdbuf();
  EXPECT_NE(html.str().find("disk: 200 MB/s, 5000 us"), std::string::npos);
  EXPECT_EQ(call(report_main, "report", {tmp("absent.json")}), 2);
  EXPECT_EQ(call(report_main, "report", {tmp("r.json"), "--device", "disk:fast:1"}), 2);
  EXPECT_EQ(call(report_main, "report", {tmp("r.json"), "--space-min-decompress", "-7"}), 2);
  EXPECT_EQ(call(report_main, "report", {}), 2);
  // The cost model: a section in the Markdown (and the HTML), a bad workload refused.
  EXPECT_EQ(call(report_main, "report",
                 {tmp("r.json"), "--md", tmp("cost.md"), "--workload", "write=50,read=200,storage=0.08,cpu=0.04"}),
            0);
  std::stringstream md;
  md << std::ifstream(tmp("cost.md")).rdbuf();
  EXPECT_NE(md.str().find("### Monthly cost (30 days at 50 MB/s written, 200 MB/s read"), std::string::npos);
  EXPECT_EQ(call(report_main, "report", {tmp("r.json"), "--workload", "write=50"}), 2);
}

// `report base.json new.json`: both runs in one page, compared with check's verdicts; and
// `check --html` writes the same comparison.
TEST(ReportCli, TwoRunsAreComparedInOneReport) {
  std::string err;
  const RunResults a = testing::make_run(51, 3), b = testing::make_run(52, 3);
  ASSERT_TRUE(save_results(tmp("a2.json"), a, err)) << err;
  ASSERT_TRUE(save_results(tmp("b2.json"), b, err)) << err;
  std::remove(tmp("two.html").c_str());
  ASSERT_EQ(call(report_main, "report", {tmp("a2.json"), tmp("b2.json"), "-o", tmp("two.html")}), 0);
  std::stringstream html;
  html << std::ifstream(tmp("two.html")).rdbuf();
  EXPECT_NE(html.str().find("2 run(s), 28 cells"), std::string::npos);
  EXPECT_NE(html.str().find("\"compare\":{"), std::string::npos);
  EXPECT_NE(html.str().find("cells compared"), std::string::npos);
  std::remove(tmp("c.html").c_str());
  EXPECT_EQ(call(check_main, "check", {"-b", tmp("a2.json"), tmp("b2.json"), "--no-speed", "--html", tmp("c.html")}),
            0);
  std::stringstream checked;
  checked << std::ifstream(tmp("c.html")).rdbuf();
  EXPECT_NE(checked.str().find("check passes"), std::string::npos);
}

// Inputs are read and merged before anything is written: a failure leaves no half-done output.
TEST(ReportCli, AFailedMergeWritesNoFile) {
  std::string err;
  ASSERT_TRUE(save_results(tmp("same.json"), testing::make_run(53, 3), err)) << err;
  std::remove(tmp("none.html").c_str());
  EXPECT_EQ(
      call(report_main, "report", {tmp("same.json"), tmp("same.json"), "-o", tmp("none.html"), "--md", tmp("none.md")}),
      2);
  EXPECT_FALSE(std::ifstream(tmp("none.html")).good());
}

TEST(MergeCli, JoinsAndRefuses) {
  const RunResults all = testing::make_run(53, 3);
  RunResults a = all, b = all;
  a.cells.resize(5);
  b.cells.erase(b.cells.begin(), b.cells.begin() + 5);
  std::string err;
  ASSERT_TRUE(save_results(tmp("a.json"), a, err));
  ASSERT_TRUE(save_results(tmp("b.json"), b, err));
  EXPECT_EQ(call(merge_main, "merge", {tmp("a.json"), tmp("b.json"), "-o", tmp("ab.json")}), 0);
  RunResults m;
  ASSERT_TRUE(load_results(tmp("ab.json"), m, err)) << err;
  EXPECT_EQ(m.cells.size(), all.cells.size());
  EXPECT_EQ(call(merge_main, "merge", {tmp("a.json"), tmp("a.json"), "-o", tmp("aa.json")}), 2);
  EXPECT_EQ(call(merge_main, "merge", {tmp("a.json"), tmp("b.json")}), 2);  // no -o
  {
    std::ofstream f(tmp("v2.json"));
    f << R"({"kvzbench": {"schema_version": 2, "meta": {}, "cells": []}})";
  }
  EXPECT_EQ(call(merge_main, "merge", {tmp("a.json"), tmp("v2.json"), "-o", tmp("x.json")}), 2);
}

// Issue 36: a merged file of shards (and a merge of merges) in every format `report` and `check`
// write. A merge that kept its first input's shard mark ("0/2", as merges did) is whole all the
// same: `report merged.json --md` used to say "shard 1 of 2 is missing".
TEST(ReportCli, AMergedFileInEveryFormat) {
  const RunResults all = testing::make_run(54, 3);
  std::string err;
  for (int i : {0, 1}) {
    RunResults shard = all;
    shard.meta.extra["shard"] = std::to_string(i) + "/2";
    shard.cells.clear();
    for (size_t c = 0; c < all.cells.size(); ++c)
      if (static_cast<int>(c % 2) == i) shard.cells.push_back(all.cells[c]);
    ASSERT_TRUE(save_results(tmp(i ? "s1.json" : "s0.json"), shard, err)) << err;
  }
  ASSERT_EQ(call(merge_main, "merge", {tmp("s0.json"), tmp("s1.json"), "-o", tmp("m.json")}), 0);
  RunResults old_mark;  // a merge from before: its first input's mark kept
  ASSERT_TRUE(load_results(tmp("m.json"), old_mark, err)) << err;
  old_mark.meta.extra["shard"] = "0/2";
  ASSERT_TRUE(save_results(tmp("m_old.json"), old_mark, err)) << err;
  ASSERT_EQ(call(merge_main, "merge", {tmp("m_old.json"), "-o", tmp("mm.json")}), 0);  // a merge of a merge
  for (const char* merged : {"m.json", "m_old.json", "mm.json"}) {
    EXPECT_EQ(
        call(report_main, "report", {tmp(merged), "--md", tmp("m.md"), "--csv", tmp("m.csv"), "-o", tmp("m.html")}), 0)
        << merged;
    std::stringstream csv_file;
    csv_file << std::ifstream(tmp("m.csv")).rdbuf();
    const std::string csv = csv_file.str();
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + static_cast<long>(all.cells.size()));
    EXPECT_EQ(call(check_main, "check",
                   {"-b", tmp(merged), tmp(merged), "--no-speed", "--html", tmp("c.html"), "--junit", tmp("c.xml"),
                    "--markdown", tmp("c.md")}),
              0)
        << merged;
    std::stringstream junit;
    junit << std::ifstream(tmp("c.xml")).rdbuf();
    EXPECT_EQ(junit.str().find("not in shard"), std::string::npos) << merged;
  }
  // Against a baseline with a cell more, a merged file's lack is MISSING (--fail-missing fails),
  // never "not in shard 0/2".
  RunResults more = all;
  more.cells.push_back(all.cells.back());
  more.cells.back().key.source = "other";
  ASSERT_TRUE(save_results(tmp("more.json"), more, err)) << err;
  EXPECT_EQ(call(check_main, "check", {"-b", tmp("more.json"), tmp("m_old.json"), "--no-speed", "--fail-missing"}), 1);
}

}  // namespace kvz
