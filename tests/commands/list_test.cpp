// `kvzbench list`: one row per codec, JSON, exit codes.
#include <gtest/gtest.h>
#include <zstd.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "codecs/registry.h"
#include "commands/list.h"
#include "util/text.h"

namespace kvz::test {
namespace {

int run_list(std::vector<std::string> args, std::string& out) {
  args.insert(args.begin(), "list");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  int rc = list_main(static_cast<int>(argv.size()), argv.data());
  out = ::testing::internal::GetCapturedStdout();
  ::testing::internal::GetCapturedStderr();
  return rc;
}

// A row per codec, its notes under it indented, every line within 100 columns (no COLUMNS, and
// not a terminal: the console's default width).
TEST(ListCli, TablePrintsOneRowPerCodecWithinOneHundredColumns) {
  unsetenv("COLUMNS");
  std::string out;
  ASSERT_EQ(run_list({}, out), 0);
  std::vector<std::string> rows;
  std::stringstream ss(out);
  for (std::string l; std::getline(ss, l);) {
    EXPECT_LE(display_width(l), 100u) << l;
    if (l.rfind("    ", 0) != 0) rows.push_back(l);  // notes are indented
  }
  const auto names = CodecRegistry::instance().names();
  ASSERT_EQ(rows.size(), names.size() + 1);  // header + one row each
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(rows[i + 1].rfind(names[i] + " ", 0), 0u) << rows[i + 1];
    EXPECT_NE(rows[i + 1].find(CodecRegistry::instance().codecs()[i]->info().version), std::string::npos);
  }
  EXPECT_NE(out.find("-7..-1,1..22"), std::string::npos);
  EXPECT_NE(out.find("0..9,6e,9e"), std::string::npos);
  EXPECT_NE(out.find("    " + CodecRegistry::instance().codecs()[1]->info().notes.substr(0, 20)), std::string::npos);
}

TEST(ListCli, JsonIsMachineReadable) {
  std::string out;
  ASSERT_EQ(run_list({"--json"}, out), 0);
  auto j = nlohmann::json::parse(out);
  ASSERT_EQ(j["codecs"].size(), CodecRegistry::instance().codecs().size());
  EXPECT_EQ(j["codecs"][0]["name"], "memcpy");
  EXPECT_EQ(j["codecs"][1]["min_level"], ZSTD_minCLevel());
  EXPECT_EQ(j["codecs"][1]["supports_dict"], true);
}

TEST(ListCli, BadOptionExitsTwo) {
  std::string out;
  EXPECT_EQ(run_list({"--bogus"}, out), 2);
  EXPECT_EQ(run_list({"--help"}, out), 0);
}

}  // namespace
}  // namespace kvz::test
