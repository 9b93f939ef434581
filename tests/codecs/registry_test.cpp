// The codec table: order, versions, level metadata, and `kvzbench list`.
#include <lz4.h>
#include <zstd.h>

#include <regex>

#include "codec_test_support.h"

namespace kvz::test {
namespace {

TEST(Registry, FixedOrderWithMemcpyFirst) {
  EXPECT_EQ(CodecRegistry::instance().names(), (std::vector<std::string>{"memcpy", "zstd", "lz4", "lz4hc", "snappy",
                                                                         "zlib", "brotli", "xz", "lzo", "bzip2"}));
  EXPECT_EQ(CodecRegistry::instance().find("nope"), nullptr);
}

TEST(Registry, RejectsASecondCodecOfTheSameName) {
  CodecRegistry r;
  registerCodecMemcpy(r);
  EXPECT_THROW(registerCodecMemcpy(r), std::logic_error);
  EXPECT_EQ(r.names(), std::vector<std::string>{"memcpy"});
}

TEST(Registry, OnlyMemcpyIsTheReferenceRow) {
  for (const auto& c : CodecRegistry::instance().codecs())
    EXPECT_EQ(c->info().is_reference, c->info().name == "memcpy") << c->info().name;
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
    for (const auto* list : {&i.standard_levels, &i.fast_levels, &i.ratio_levels})
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
  EXPECT_FALSE(reg.find("brotli")->open({.level = 5, .options = ":w30"}, nullptr).ok());
  EXPECT_FALSE(reg.find("zstd")->open({.level = 3, .options = ":stream"}, nullptr).ok());
  EXPECT_FALSE(reg.find("zlib")->open({.level = 3, .options = ":raw"}, nullptr).ok());  // not canonical
}

}  // namespace
}  // namespace kvz::test
