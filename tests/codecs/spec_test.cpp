// The codec spec grammar and byte sizes, good and bad, table-driven.
#include <fmt/format.h>

#include "codec_test_support.h"

namespace kvz::test {
namespace {

std::string labels(const std::string& spec, std::string* error = nullptr) {
  std::string err;
  auto rows = parse_codec_spec(spec, CodecRegistry::instance(), err);
  if (error) *error = err;
  std::vector<std::string> out;
  for (const auto& r : rows) out.push_back(r.label());
  return fmt::format("{}", fmt::join(out, "|"));
}

// A spec and what it must give: the row labels ("zstd 1|zstd 3"), or a part of the error.
struct SpecCase {
  const char* spec;
  const char* expected;
};

TEST(Spec, GoodSpecs) {
  const SpecCase cases[] = {
      {"zstd:1,3,9", "zstd 1|zstd 3|zstd 9"},
      {"zstd:1..4", "zstd 1|zstd 2|zstd 3|zstd 4"},
      {"zstd:-5", "zstd -5"},
      {"zstd:-3..-1", "zstd -3|zstd -2|zstd -1"},
      {"zstd", "zstd 3"},
      {"lz4hc:all",
       "lz4hc 1|lz4hc 2|lz4hc 3|lz4hc 4|lz4hc 5|lz4hc 6|lz4hc 7|lz4hc 8|lz4hc 9|"
       "lz4hc 10|lz4hc 11|lz4hc 12"},
      {"lz4:all", "lz4 1|lz4 2|lz4 4|lz4 8|lz4 16|lz4 32"},
      {"zstd:3:dict=16K", "zstd 3 dict=16K"},
      {"zstd:3:rawdict=16K", "zstd 3 rawdict=16K"},
      {"lz4:1:stream:rawdict=16K", "lz4 1 stream rawdict=16K"},
      {"xz:6e", "xz 6e"},
      {"xz:all", "xz 0|xz 1|xz 2|xz 3|xz 4|xz 5|xz 6|xz 7|xz 8|xz 9|xz 6e|xz 9e"},
      {"xz:e", "xz 6e"},
      {"zlib:6:zlib", "zlib 6 zlib"},
      {"zlib:6:raw", "zlib 6"},
      {"lz4:1:stream", "lz4 1 stream"},
      {"lz4:1,8:stream:dict=16K", "lz4 1 stream dict=16K|lz4 8 stream dict=16K"},
      {"brotli:11:w22", "brotli 11 w22"},
      {"zstd:19:w24", "zstd 19 w24"},
      {"zstd:1/lz4", "zstd 1|lz4 1"},
      {"zstd:1+snappy+memcpy", "zstd 1|snappy|memcpy"},
      {"zstd:1,1/zstd:1", "zstd 1"},  // duplicates removed
      {"lzo:1..999", "lzo 1|lzo 11|lzo 12|lzo 15|lzo 999"},
      {"lzo:all", "lzo 1|lzo 11|lzo 12|lzo 15|lzo 999"},
      {"bzip2", "bzip2 9"},
      {" zstd:1 / lz4 ", "zstd 1|lz4 1"},
      // lzbench's -e syntax
      {"zstd,1,3/lz4/lzo1x,1", "zstd 1|zstd 3|lz4 1|lzo 1"},
      {"lz4hc,9", "lz4hc 9"},
      {"lzo1x_999", "lzo 999"},
      {"lzo1x,11,12,15", "lzo 11|lzo 12|lzo 15"},
      {"lz4fast,17", "lz4 17"},
      {"ratio", "zstd 19|zstd 22|lz4hc 12|zlib 9|brotli 11|xz 6|xz 9"},
      {"fast", "memcpy|zstd -5|zstd -1|zstd 1|lz4 1|snappy|lzo 1"},
  };
  for (const auto& c : cases) {
    std::string err;
    EXPECT_EQ(labels(c.spec, &err), c.expected) << c.spec;
    EXPECT_EQ(err, "") << c.spec;
  }
}

TEST(Spec, AllCoversEveryCodecAtEveryStandardLevel) {
  auto rows = all_choices("all");
  size_t expected = 0;
  for (const auto& c : CodecRegistry::instance().codecs())
    expected += c->info().standard_levels.size() + c->info().extra_standard.size();
  EXPECT_EQ(rows.size(), expected);
  // zstd -7..-1 and 1..22, xz 0..9 + 6e, 9e, memcpy and snappy once, bzip2 1..9.
  EXPECT_EQ(expected, 1u + 29 + 6 + 12 + 1 + 9 + 12 + 12 + 5 + 9);
  EXPECT_EQ(rows.front().label(), "memcpy");
}

TEST(Spec, BadSpecsGiveOneLineErrors) {
  const SpecCase cases[] = {
      {"zsdt", "unknown codec 'zsdt': did you mean 'zstd'? (known: memcpy, zstd, lz4, lz4hc, snappy, zlib, brotli"},
      {"foo", "unknown codec 'foo' (known: memcpy, zstd, lz4, lz4hc, snappy, zlib, brotli, xz, lzo"},
      {"lzo1x_1_1", "unknown codec 'lzo1x_1_1': did you mean 'lzo1x_1_11', 'lzo1x_1_12' or 'lzo1x_1_15'?"},
      {"al", "unknown codec 'al': did you mean 'all'?"},
      {"zstd:23", "zstd level 23 out of range (-131072..22)"},
      {"zstd:1..23", "zstd level 23 out of range (-131072..22)"},
      {"zstd:-131073", "out of range (-131072..22)"},
      {"lz4:0", "lz4 acceleration 0 out of range (1..65537)"},
      {"lz4:1..65537", "more than 1000 levels"},
      {"lzo:2", "lzo variant 2 out of range (1,11,12,15,999)"},
      {"bzip2:0", "bzip2 blockSize100k 0 out of range (1..9)"},
      {"zstd:abc", "unknown option 'abc' for zstd"},
      {"zstd:", "bad zstd level ''"},
      {"zstd:9..1", "empty zstd range"},
      {"snappy:1", "snappy has no levels"},
      {"brotli:5:dict=16K", "brotli does not support dictionaries"},
      {"zstd:3:dict=1K", "dictionary size 1K out of range (4K..112K)"},
      {"zstd:3:dict=lots", "bad dictionary size 'lots'"},
      {"zstd:3:w9", "zstd window log 9 out of range"},
      {"brotli:5:w25", "brotli window log 25 out of range (10..24)"},
      {"lz4:1:w16", "unknown option 'w16' for lz4 (options: stream"},
      {"zstd:3:w20:dict=16K", "cannot be combined"},
      {"zstd:6e", "unknown option 'e' for zstd (options: wN"},
      {"lz4:1:zlib", "unknown option 'zlib' for lz4"},
      {"lz4hc:9:stream", "unknown option 'stream' for lz4hc"},
      {"zstd:3:stream", "unknown option 'stream' for zstd"},
      {"zlib:1:zlib:raw", "contradict each other"},
      {"zstd:3:dict=16K:dict=32K", "dict= given twice"},
      {"zstd:3:dict=16K:rawdict=16K", "zstd: dict= or rawdict= given twice"},
      {"zstd:3:rawdict=lots", "bad dictionary size 'lots' (e.g. rawdict=16K)"},
      {"brotli:5:rawdict=16K", "brotli does not support dictionaries"},
      {"snappy:fast", "snappy takes no options (got 'fast')"},
      {"zstd:3:fast", "unknown option 'fast' for zstd"},
      {"", "empty codec spec"},
      {"zstd//lz4", "empty item"},
      {"all:3", "alias 'all' takes no levels"},
      {"lzo1x_999,1", "give no levels"},
  };
  for (const auto& c : cases) {
    std::string err;
    EXPECT_EQ(labels(c.spec, &err), "") << c.spec;
    EXPECT_NE(err.find(c.expected), std::string::npos) << c.spec << " -> " << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << "one line: " << err;
  }
}

TEST(Spec, ParamsLabelIsStable) {
  EXPECT_EQ((CodecParams{.level = 3}).label(), "3");
  const auto& reg = CodecRegistry::instance();
  EXPECT_EQ(labels("xz:6e/zlib:6:zlib/brotli:11:w22/lz4:1:stream/zstd:3:dict=16K/zlib:6:raw"),
            "xz 6e|zlib 6 zlib|brotli 11 w22|lz4 1 stream|zstd 3 dict=16K|zlib 6");
  std::string err;
  const auto rows = parse_codec_spec("xz:6e/zlib:6:zlib/brotli:11:w22/lz4:1:stream", reg, err);
  ASSERT_EQ(rows.size(), 4u) << err;
  EXPECT_EQ(rows[0].params.label(), "6e");
  EXPECT_EQ(rows[1].params.label(), "6:zlib");
  EXPECT_EQ(rows[2].params.label(), "11:w22");
  EXPECT_EQ(rows[3].params.label(), "1:stream");
  EXPECT_EQ((CodecParams{.level = 3, .dict_size = 16384}).label(), "3:dict=16K");
  EXPECT_EQ((CodecParams{.level = 3, .dict_size = 16384, .raw_dict = true}).label(), "3:rawdict=16K");
}

}  // namespace
}  // namespace kvz::test
