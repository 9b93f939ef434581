// `kvzbench check`: exit codes over real files.
#include <gtest/gtest.h>

#include <fstream>

#include "commands/report.h"
#include "report/writers.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

class CheckMain : public ::testing::Test {
 protected:
  std::string dir = ::testing::TempDir();
  std::string path(const char* name) { return dir + "/kvz_check_" + name; }
  int run(std::vector<std::string> args) {
    args.insert(args.begin(), "check");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    return check_main(static_cast<int>(argv.size()), argv.data());
  }
};

TEST_F(CheckMain, ExitCodes) {
  const RunResults r = testing::make_run(30);
  std::string err;
  ASSERT_TRUE(save_results(path("cur.json"), r, err)) << err;
  ASSERT_TRUE(save_results(path("fast.json"), testing::scaled(r, 1.3), err)) << err;
  {
    std::ofstream f(path("corrupt.json"));
    f << "{\"kvzbench\": {\"schema_version\": 1, \"meta\": {}, \"cells\": [ {\"key\": ";
  }
  EXPECT_EQ(run({"--baseline", path("cur.json"), path("cur.json")}), 0);
  EXPECT_EQ(run({"--baseline", path("fast.json"), path("cur.json")}), 1);
  EXPECT_EQ(run({"--baseline", path("fast.json"), path("cur.json"), "--no-speed"}), 0);
  EXPECT_EQ(run({"--baseline", path("corrupt.json"), path("cur.json")}), 2);
  EXPECT_EQ(run({"--baseline", path("absent.json"), path("cur.json")}), 2);
  EXPECT_EQ(run({"--baseline", path("cur.json"), path("corrupt.json")}), 2);
  EXPECT_EQ(run({path("cur.json")}), 2);  // no --baseline
  EXPECT_EQ(run({"--baseline", path("cur.json"), path("cur.json"), "--threshold", "x"}), 2);
}

}  // namespace
}  // namespace kvz
