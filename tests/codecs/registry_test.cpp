// The codec table: order, versions, level metadata, and `kvzbench list`.
#include <lz4.h>
#include <zstd.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "codecs/list_cli.h"
#include "codec_test_support.h"

namespace kvz::test {
namespace {

TEST(Registry, FixedOrderWithMemcpyFirst) {
  EXPECT_EQ(CodecRegistry::instance().names(),
            (std::vector<std::string>{"memcpy", "zstd", "lz4", "lz4hc", "snappy", "zlib", "brotli",
                                      "xz", "lzo"}));
  EXPECT_EQ(CodecRegistry::instance().find("nope"), nullptr);
}

TEST(Registry, VersionsArePlausibleRuntimeVersions) {
  const std::regex version(R"(^\d+\.\d+(\.\d+)?$)");
  for (const auto& c : CodecRegistry::instance().codecs()) {
    const CodecInfo& i = c->info();
    EXPECT_TRUE(std::regex_match(i.version, version)) << i.name << ": '" << i.version << "'";
    EXPECT_FALSE(i.library.empty()) << i.name;
  }
  const auto& reg = CodecRegistry::instance();
  // Runtime, not header, versions: compare with the libraries' own runtime calls.
  EXPECT_EQ(reg.find("zstd")->info().version, ZSTD_versionString());
  EXPECT_EQ(reg.find("lz4")->info().version, LZ4_versionString());
  // The header macros agree on the major version (a plausibility check on decoding).
  EXPECT_EQ(reg.find("zstd")->info().version.substr(0, 2), "1.");
  EXPECT_EQ(reg.find("brotli")->info().version.substr(0, 2), "1.");
}

TEST(Registry, LevelMetadataIsConsistent) {
  for (const auto& c : CodecRegistry::instance().codecs()) {
    const CodecInfo& i = c->info();
    SCOPED_TRACE(i.name);
    EXPECT_TRUE(i.is_valid_level(i.default_level));
    EXPECT_FALSE(i.standard_levels.empty());
    for (const auto* list : {&i.standard_levels, &i.fast_levels, &i.ratio_levels, &i.extreme_levels})
      for (int l : *list) EXPECT_TRUE(i.is_valid_level(l)) << l;
    EXPECT_FALSE(i.notes.empty());
  }
  const auto& zstd = CodecRegistry::instance().find("zstd")->info();
  EXPECT_EQ(zstd.min_level, ZSTD_minCLevel());
  EXPECT_EQ(zstd.max_level, 22);
  EXPECT_EQ(zstd.level_range_text(), "-131072..22");
  EXPECT_EQ(CodecRegistry::instance().find("lzo")->info().level_range_text(), "1,11,12,15,999");
  EXPECT_FALSE(CodecRegistry::instance().find("lzo")->info().is_valid_level(2));
}

TEST(Registry, OpenRejectsInvalidParams) {
  const auto& reg = CodecRegistry::instance();
  auto s = reg.find("zstd")->open({.level = 23}, nullptr);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.error, "zstd level 23 out of range (-131072..22)");
  EXPECT_FALSE(reg.find("lz4hc")->open({.level = 13}, nullptr).ok());
  EXPECT_FALSE(reg.find("snappy")->open({.level = 1}, nullptr).ok());
  EXPECT_FALSE(reg.find("xz")->open({.level = 10}, nullptr).ok());
  EXPECT_FALSE(reg.find("brotli")->open({.level = 5, .window_log = 30}, nullptr).ok());
}

int run_list(std::vector<std::string> args, std::string& out) {
  args.insert(args.begin(), "list");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  int rc = list_main(static_cast<int>(argv.size()), argv.data());
  out = testing::internal::GetCapturedStdout();
  testing::internal::GetCapturedStderr();
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
