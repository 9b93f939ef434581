// Text helpers behind every list option.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "util/text.h"

namespace kvz {
namespace {

TEST(Text, SplitKeepsEmptyPieces) {
  const auto parts = split("a,,b/c", ",/");
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(parts[0], "a");
  EXPECT_EQ(parts[1], "");
  EXPECT_EQ(parts[3], "c");
  EXPECT_EQ(split("", ",").size(), 1u);
}

TEST(Text, SplitListTrimsAndDropsEmptyItems) {
  EXPECT_EQ(split_list(" 4K, 64K ,,"), (std::vector<std::string>{"4K", "64K"}));
  EXPECT_TRUE(split_list("").empty());
  EXPECT_EQ(split_list("a/b", '/'), (std::vector<std::string>{"a", "b"}));
}

TEST(Text, JoinTrimLower) {
  EXPECT_EQ(join({"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(join({}, "/"), "");
  EXPECT_EQ(trim("  x y \t"), "x y");
  EXPECT_EQ(to_lower("KiB"), "kib");
}

TEST(Text, WholeStringNumbers) {
  int i = 0;
  EXPECT_TRUE(parse_int("-5", i));
  EXPECT_EQ(i, -5);
  EXPECT_FALSE(parse_int("5x", i));
  EXPECT_FALSE(parse_int("", i));
  EXPECT_FALSE(parse_int("99999999999", i));
  uint64_t u = 0;
  EXPECT_TRUE(parse_u64("18446744073709551615", u));
  EXPECT_FALSE(parse_u64("-1", u));
  double d = 0;
  EXPECT_TRUE(parse_double("1e3", d));
  EXPECT_DOUBLE_EQ(d, 1000);
  EXPECT_FALSE(parse_double("nan", d));
  EXPECT_FALSE(parse_double("inf", d));
  EXPECT_FALSE(parse_double("1.5ms", d));
}

TEST(Text, WrapWordsCutsAtSpacesOrNotAtAll) {
  EXPECT_EQ(wrap_words("warning:", "aaa bbb ccc", 15), "warning: aaa\n    bbb ccc");
  EXPECT_EQ(wrap_words("warning:", "aaa bbb ccc", 0), "warning: aaa bbb ccc");
  EXPECT_EQ(wrap_words("w:", "\xc3\xa9\xc3\xa9\xc3\xa9 x", 6), "w: \xc3\xa9\xc3\xa9\xc3\xa9\n    x");  // code points
  EXPECT_EQ(wrap_words("warning:", "averyveryverylongword b", 10), "warning:\n    averyveryverylongword\n    b");
}

// Issue 36: a typo gets the names it was closest to, never a far one, never the name itself.
TEST(Text, ClosestNamesAreTyposOnly) {
  const std::vector<std::string> codecs{"memcpy", "zstd", "lz4", "lz4hc", "snappy", "zlib", "xz", "lzo"};
  EXPECT_EQ(closest_names("zstdd", codecs), (std::vector<std::string>{"zstd"}));
  EXPECT_EQ(closest_names("snapy", codecs), (std::vector<std::string>{"snappy"}));
  EXPECT_EQ(closest_names("LZ4", codecs), (std::vector<std::string>{"lz4"}));  // case ignored
  EXPECT_EQ(closest_names("lz4hv", codecs), (std::vector<std::string>{"lz4hc"}));
  EXPECT_EQ(closest_names("rocksbd", {"rocksdb", "leveldb"}), (std::vector<std::string>{"rocksdb"}));  // a swap is one
  EXPECT_EQ(closest_names("lz5", codecs), (std::vector<std::string>{"lz4", "lzo"}));                   // ties, in order
  EXPECT_TRUE(closest_names("zstd", codecs).empty());                                                  // no typo
  EXPECT_TRUE(closest_names("brotli", codecs).empty());                                                // nothing close
  EXPECT_TRUE(closest_names("foo", {"run", "list"}).empty());
  EXPECT_TRUE(closest_names("foo", {"lzo"}).empty());  // 2 edits in 3 letters: no typo
  EXPECT_TRUE(closest_names("", codecs).empty());
  EXPECT_TRUE(closest_names(std::string(1000, 'z'), codecs).empty());
  EXPECT_EQ(did_you_mean("zstdd", codecs), "did you mean 'zstd'?");
  EXPECT_EQ(did_you_mean("lz5", codecs), "did you mean 'lz4' or 'lzo'?");
  EXPECT_EQ(did_you_mean("x", {"a", "b", "c", "d"}), "did you mean 'a', 'b' or 'c'?");
  EXPECT_EQ(did_you_mean("brotli", codecs), "");
}

// Issue 24: warnings were wrapped at 80 columns in a file. Not a terminal: one line, unless
// $COLUMNS asks for a width.
TEST(Text, StderrWidthIsZeroForAFileUnlessColumnsIsSet) {
  const int saved = dup(STDERR_FILENO);
  ASSERT_GE(saved, 0);
  FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  ASSERT_GE(dup2(fileno(file), STDERR_FILENO), 0);
  const char* env = std::getenv("COLUMNS");
  const std::string old = env ? env : "";
  unsetenv("COLUMNS");
  const size_t plain = stderr_wrap_width();
  setenv("COLUMNS", "100", 1);
  const size_t sized = stderr_wrap_width();
  setenv("COLUMNS", "5", 1);  // not a width: ignored
  const size_t tiny = stderr_wrap_width();
  env ? setenv("COLUMNS", old.c_str(), 1) : unsetenv("COLUMNS");
  dup2(saved, STDERR_FILENO);
  close(saved);
  std::fclose(file);
  EXPECT_EQ(plain, 0u);
  EXPECT_EQ(sized, 99u);
  EXPECT_EQ(tiny, 0u);
}

}  // namespace
}  // namespace kvz
