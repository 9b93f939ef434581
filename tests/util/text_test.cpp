// Text helpers behind every list option.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace kvz
