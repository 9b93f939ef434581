// bzip2 (codecs/codec_bzip2.cpp): the session's arena-backed stream calls make exactly the bytes
// of libbz2's own one-shot BZ2_bzBuffToBuffCompress at every level, decode them back, record
// the runtime version; and below 79,985 bytes the level changes only the header's level digit
// (why RocksDB 7.8's fixed blockSize100k 1 is one row whatever its configured level).
#include <bzlib.h>

#include <string>

#include "codec_test_support.h"

namespace kvz::test {
namespace {

const Codec& bzip2() {
  const Codec* c = CodecRegistry::instance().find("bzip2");
  EXPECT_NE(c, nullptr);
  return *c;
}

// libbz2's one-shot call at `level`, workFactor 30 (what 0 means).
Bytes buff_to_buff(const Bytes& in, int level) {
  Bytes out(in.size() + in.size() / 100 + 600);
  auto n = static_cast<unsigned>(out.size());
  const int r = BZ2_bzBuffToBuffCompress(reinterpret_cast<char*>(out.data()), &n,
                                         const_cast<char*>(reinterpret_cast<const char*>(in.data())),
                                         static_cast<unsigned>(in.size()), level, 0, 30);
  EXPECT_EQ(r, BZ_OK);
  out.resize(n);
  return out;
}

TEST(Bzip2, EveryLevelIsLibbz2sOwnOneShotCall) {
  for (size_t size : {size_t{0}, size_t{1}, size_t{4096}, size_t{65536}, size_t{150000}}) {
    const Bytes text = alice(size);
    for (int level = 1; level <= 9; ++level) {
      auto s = open_or_fail(bzip2(), {.level = level});
      const Bytes ref = buff_to_buff(text, level);
      for (int call = 0; call < 2; ++call) {  // a reused session leaks nothing between calls
        const Bytes ours = compress_all(*s, text);
        ASSERT_EQ(ours, ref) << "bzip2 " << level << " on " << size << " bytes";
        Bytes back(text.size());
        const CallResult r = s->decompress(ours, back);
        ASSERT_TRUE(r.ok()) << r.error;
        EXPECT_EQ(back, text);
      }
    }
  }
}

TEST(Bzip2, RecordsTheRuntimeVersion) {
  const std::string full = BZ2_bzlibVersion();  // "1.0.8, 13-Jul-2019"
  EXPECT_EQ(bzip2().info().version, full.substr(0, full.find(',')));
  EXPECT_EQ(bzip2().info().library, "libbz2");
  EXPECT_EQ(bzip2().info().default_level, 9);
}

// The worst case for bzip2's first stage (runs of exactly four bytes grow to five): 79,984
// bytes fill at most 99,980 of level 1's 99,981-byte block, so only the "BZh" digit differs;
// three bytes more can already split level 1's input in two blocks.
Bytes four_byte_runs(size_t n) {
  Bytes b;
  for (size_t i = 7; b.size() < n; ++i) b.push_back((i / 4) % 2 ? 'b' : 'a');
  return b;
}

Bytes with_digit(Bytes b, int level) {
  b.at(3) = static_cast<uint8_t>('0' + level);
  return b;
}

TEST(Bzip2, BelowOneHundredKilobytesTheLevelIsOnlyTheHeadersDigit) {
  for (const Bytes& text : {alice(4096), alice(16384), alice(65536), four_byte_runs(79984)}) {
    const Bytes one = buff_to_buff(text, 1);
    ASSERT_EQ(one.at(3), '1');
    for (int level = 2; level <= 9; ++level)
      EXPECT_EQ(compress_all(*open_or_fail(bzip2(), {.level = level}), text), with_digit(one, level))
          << text.size() << " bytes at level " << level;
  }
  const Bytes over = four_byte_runs(79987);
  EXPECT_NE(buff_to_buff(over, 9), with_digit(buff_to_buff(over, 1), 9));
}

TEST(Bzip2, RefusesWhatIsNotExactlyOneStream) {
  const Bytes text = alice(4096);
  auto s = open_or_fail(bzip2(), {.level = 9});
  const Bytes z = compress_all(*s, text);
  Bytes back(text.size());
  EXPECT_FALSE(s->decompress(Bytes(z.begin(), z.end() - 1), back).ok());  // truncated
  Bytes trailing = z;
  trailing.push_back(0);
  EXPECT_STREQ(s->decompress(trailing, back).error, "bzip2: trailing bytes after the stream");
  Bytes small(text.size() - 1);
  EXPECT_STREQ(s->decompress(z, small).error, "bzip2: no end of stream at the original size (longer, or truncated)");
  Bytes tiny(10);
  EXPECT_STREQ(s->compress(text, tiny).error, "output buffer too small");
  Bytes magic = z;
  magic[0] = 'X';
  EXPECT_STREQ(s->decompress(magic, back).error, "BZ_DATA_ERROR_MAGIC: not a bzip2 stream");
}

}  // namespace
}  // namespace kvz::test
