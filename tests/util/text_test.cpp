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

// What `width()` gives with `fd` a file (not a terminal) and $COLUMNS unset ("") or set to each
// of `columns`, in that order; $COLUMNS and `fd` as they were afterwards.
std::vector<size_t> widths_in_a_file(int fd, const std::vector<std::string>& columns, size_t (*width)()) {
  const int saved = dup(fd);
  FILE* file = std::tmpfile();
  if (saved < 0 || !file || dup2(fileno(file), fd) < 0) return {};
  const char* env = std::getenv("COLUMNS");
  const std::string old = env ? env : "";
  std::vector<size_t> out;
  for (const auto& c : columns) {
    c.empty() ? unsetenv("COLUMNS") : setenv("COLUMNS", c.c_str(), 1);
    out.push_back(width());
  }
  env ? setenv("COLUMNS", old.c_str(), 1) : unsetenv("COLUMNS");
  dup2(saved, fd);
  close(saved);
  std::fclose(file);
  return out;
}

// Issue 24: warnings were wrapped at 80 columns in a file. Not a terminal: one line, unless
// $COLUMNS asks for a width (5 is none).
TEST(Text, StderrWidthIsZeroForAFileUnlessColumnsIsSet) {
  EXPECT_EQ(widths_in_a_file(STDERR_FILENO, {"", "100", "5"}, stderr_wrap_width), (std::vector<size_t>{0, 99, 0}));
}

// The console report's width (issue 36): stdout not a terminal, $COLUMNS when it says one, else
// 100; never under 60, the narrowest the tables shrink to.
TEST(Text, ConsoleColumnsAreColumnsElseOneHundred) {
  EXPECT_EQ(widths_in_a_file(STDOUT_FILENO, {"", "132", "40", "x"}, console_columns),
            (std::vector<size_t>{100, 132, kMinConsoleColumns, 100}));
}

// Columns are characters, not bytes: µ, ≈ and — are one each.
TEST(Text, DisplayWidthCountsCharacters) {
  EXPECT_EQ(display_width("zstd 1 ≈ zstd 3"), 15u);
  EXPECT_EQ(display_width("worst µs —"), 10u);
  EXPECT_EQ(display_width(""), 0u);
}

// A word wider than the line (a cell id, an option's syntax) breaks after its commas, else its
// slashes, its pieces joined again with no space; filled lines have no indent.
TEST(Text, LongWordsBreakAfterCommasOrSlashes) {
  EXPECT_EQ(wrap_words("warning:", "x twitter.json:lines/rocksdb/16K/zstd/3/T1 y", 24),
            "warning: x\n    twitter.json:lines/\n    rocksdb/16K/zstd/3/\n    T1 y");
  EXPECT_EQ(fill_lines("size=500G [,num_levels=,multiplier=,dynamic=1]", 20),
            (std::vector<std::string>{"size=500G [,", "num_levels=,", "multiplier=,", "dynamic=1]"}));
  EXPECT_EQ(fill_lines("aaa bbb ccc", 7), (std::vector<std::string>{"aaa bbb", "ccc"}));
  EXPECT_TRUE(fill_lines("", 10).empty());
  const std::string word = "a-word-of-sixty-four-characters-with-neither-comma-nor-slash-in-i";
  EXPECT_EQ(fill_lines(word + " x", 20), (std::vector<std::string>{word, "x"}));  // it stands alone
}

}  // namespace
}  // namespace kvz
