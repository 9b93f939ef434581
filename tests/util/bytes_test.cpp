// Byte sizes: what the CLI accepts and how every report writes them back.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

#include "util/bytes.h"

namespace kvz {
namespace {

TEST(ByteSize, ParsesWhatTheCliAccepts) {
  const std::pair<const char*, size_t> good[] = {{"4096", 4096},
                                                 {"4K", 4096},
                                                 {"4KiB", 4096},
                                                 {"64KiB", 65536},
                                                 {"1M", 1u << 20},
                                                 {"16k", 16384},
                                                 {"2MiB", 2u << 20},
                                                 {"1G", 1ull << 30},
                                                 {"4kb", 4096},
                                                 {"100B", 100},
                                                 {"18446744073709551615", SIZE_MAX}};
  for (const auto& [text, value] : good) {
    size_t got = 0;
    EXPECT_TRUE(parse_byte_size(text, got)) << text;
    EXPECT_EQ(got, value) << text;
  }
  const char* bad[] = {
      "", "0", "0K", "-4K", "K", "4X", "4 K K", "1.5K", "+4", "99999999999999999999", "17179869184G", "4KiBB"};
  for (const char* text : bad) {
    size_t got = 7;
    EXPECT_FALSE(parse_byte_size(text, got)) << text;
    EXPECT_EQ(got, 7u) << text;
  }
}

TEST(ByteSize, FormatsBackToAParsableForm) {
  EXPECT_EQ(format_byte_size(4096), "4K");
  EXPECT_EQ(format_byte_size(1000), "1000");
  EXPECT_EQ(format_byte_size(1u << 20), "1M");
  EXPECT_EQ(format_byte_size(3ull << 30), "3G");
  EXPECT_EQ(format_byte_size(1536), "1536");
  for (size_t n : {size_t{1}, size_t{4096}, size_t{12345}, size_t{65536}, size_t{3} << 20}) {
    size_t back = 0;
    ASSERT_TRUE(parse_byte_size(format_byte_size(n), back));
    EXPECT_EQ(back, n);
  }
}

}  // namespace
}  // namespace kvz
