// `kvzbench list`: one row per codec, JSON, exit codes.
#include <gtest/gtest.h>
#include <zstd.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "codecs/registry.h"
#include "commands/list.h"

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

TEST(ListCli, TablePrintsOneRowPerCodec) {
  std::string out;
  ASSERT_EQ(run_list({}, out), 0);
  std::vector<std::string> lines;
  std::stringstream ss(out);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  const auto names = CodecRegistry::instance().names();
  ASSERT_EQ(lines.size(), names.size() + 1);  // header + one row each
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(lines[i + 1].rfind(names[i] + " ", 0), 0u) << lines[i + 1];
    EXPECT_NE(lines[i + 1].find(CodecRegistry::instance().codecs()[i]->info().version), std::string::npos);
  }
  EXPECT_NE(out.find("-7..-1,1..22"), std::string::npos);
  EXPECT_NE(out.find("0..9,6e,9e"), std::string::npos);
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
