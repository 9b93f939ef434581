// Options that reproduce the exact call a store makes: lz4 ":stream" (RocksDB 7.8's
// LZ4_Compress), zlib ":zlib" (compress2's windowBits 15), and ":fresh" (the state set up and
// torn down per block, as RocksDB 7.8's zlib, LZ4 and LZ4HC calls do).
#include <lz4.h>
#include <zlib.h>

#include "codec_test_support.h"

namespace kvz::test {
namespace {

const uint8_t* data_or_dummy(const Bytes& b) {
  static const uint8_t dummy = 0;
  return b.empty() ? &dummy : b.data();
}

// RocksDB 7.8 util/compression.h LZ4_Compress without a dictionary: LZ4_createStream,
// LZ4_compress_fast_continue (acceleration 1), LZ4_freeStream.
Bytes rocksdb78_lz4(const Bytes& in, int acceleration) {
  LZ4_stream_t* stream = LZ4_createStream();
  Bytes out(LZ4_compressBound(static_cast<int>(in.size())));
  int n = LZ4_compress_fast_continue(stream, reinterpret_cast<const char*>(data_or_dummy(in)),
                                     reinterpret_cast<char*>(out.data()), static_cast<int>(in.size()),
                                     static_cast<int>(out.size()), acceleration);
  LZ4_freeStream(stream);
  EXPECT_GT(n, 0);
  out.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return out;
}

std::vector<Bytes> blocks_of(const Bytes& data, size_t size) {
  std::vector<Bytes> out;
  for (size_t o = 0; o + size <= data.size(); o += size)
    out.emplace_back(data.begin() + static_cast<long>(o), data.begin() + static_cast<long>(o + size));
  return out;
}

TEST(Lz4Stream, SpecParsesAndLabelsIt) {
  std::string err;
  auto rows = parse_codec_spec("lz4:1:stream/lz4:stream/lz4:1", CodecRegistry::instance(), err);
  ASSERT_EQ(err, "");
  ASSERT_EQ(rows.size(), 2u);  // lz4:stream is lz4:1:stream: a duplicate
  EXPECT_EQ(rows[0].label(), "lz4 1 stream");
  EXPECT_EQ(rows[0].params.label(), "1:stream");
  EXPECT_EQ(rows[0].params.options, ":stream");
  EXPECT_EQ(rows[1].params.options, "");
}

// Same bytes as RocksDB's call, on one session reused across calls (no state may leak
// from one block into the next), and every output decodes back.
TEST(Lz4Stream, SameBytesAsRocksDbsStreamingCall) {
  const Codec& lz4 = *CodecRegistry::instance().find("lz4");
  std::vector<Bytes> inputs = blocks_of(alice(128 * 1024), 4096);
  inputs.push_back(alice(16 * 1024));
  inputs.push_back(random_bytes(4096, 7));
  inputs.push_back(Bytes(4096, 0));
  inputs.push_back({});
  for (int accel : {1, 8}) {
    auto s = open_or_fail(lz4, {.level = accel, .options = ":stream"});
    for (int round = 0; round < 2; ++round) {
      for (size_t i = 0; i < inputs.size(); ++i) {
        Bytes c = compress_all(*s, inputs[i]);
        EXPECT_EQ(c, rocksdb78_lz4(inputs[i], accel)) << "input " << i << " acceleration " << accel;
        Bytes back(inputs[i].size());
        CallResult r = s->decompress(c, back);
        EXPECT_TRUE(r.ok()) << r.error;
        EXPECT_EQ(back, inputs[i]);
      }
    }
  }
}

// The option matters: the one-shot call (kvz's plain lz4 row) gives other bytes for real
// 4 KiB blocks, and so does a LZ4_resetStream_fast'ed stream (newer RocksDB reuses one):
// a zeroed table offers position 0 as a match candidate, a fast-reset one does not.
TEST(Lz4Stream, DiffersFromOneShotAndFromAFastResetStream) {
  const Codec& lz4 = *CodecRegistry::instance().find("lz4");
  auto stream = open_or_fail(lz4, {.level = 1, .options = ":stream"});
  auto oneshot = open_or_fail(lz4, {.level = 1});
  LZ4_stream_t* reused = LZ4_createStream();
  size_t differs_from_oneshot = 0, differs_from_fast_reset = 0, blocks = 0;
  for (const Bytes& b : blocks_of(alice(128 * 1024), 4096)) {
    ++blocks;
    Bytes s = compress_all(*stream, b);
    if (s != compress_all(*oneshot, b)) ++differs_from_oneshot;
    LZ4_resetStream_fast(reused);
    Bytes r(LZ4_compressBound(4096));
    r.resize(static_cast<size_t>(LZ4_compress_fast_continue(reused, reinterpret_cast<const char*>(b.data()),
                                                            reinterpret_cast<char*>(r.data()), 4096,
                                                            static_cast<int>(r.size()), 1)));
    if (s != r) ++differs_from_fast_reset;
  }
  LZ4_freeStream(reused);
  EXPECT_GT(differs_from_oneshot, 0u) << "of " << blocks;
  EXPECT_GT(differs_from_fast_reset, 0u) << "of " << blocks;
  std::printf("alice29 4 KiB blocks: %zu, stream != one-shot: %zu, stream != fast-reset stream: %zu\n", blocks,
              differs_from_oneshot, differs_from_fast_reset);
}

TEST(Lz4Stream, OnlyLz4HasIt) {
  const auto& reg = CodecRegistry::instance();
  for (const char* name : {"lz4hc", "zstd", "zlib", "snappy"}) {
    auto s = reg.find(name)->open({.level = reg.find(name)->info().default_level, .options = ":stream"}, nullptr);
    EXPECT_FALSE(s.ok()) << name;
    EXPECT_NE(s.error.find("'stream'"), std::string::npos) << s.error;
  }
}

Bytes zlib_compress2(const Bytes& in, int level) {
  uLongf n = compressBound(static_cast<uLong>(in.size()));
  Bytes out(n);
  EXPECT_EQ(compress2(out.data(), &n, data_or_dummy(in), static_cast<uLong>(in.size()), level), Z_OK);
  out.resize(n);
  return out;
}

// RocksDB's Zlib_Compress: deflateInit2(level, Z_DEFLATED, -14, memLevel 8).
Bytes raw_deflate_14(const Bytes& in, int level) {
  z_stream s{};
  EXPECT_EQ(deflateInit2(&s, level, Z_DEFLATED, -14, 8, Z_DEFAULT_STRATEGY), Z_OK);
  Bytes out(deflateBound(&s, static_cast<uLong>(in.size())));
  s.next_in = const_cast<Bytef*>(data_or_dummy(in));
  s.avail_in = static_cast<uInt>(in.size());
  s.next_out = out.data();
  s.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&s, Z_FINISH), Z_STREAM_END);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

// 64 KiB inputs are where windowBits 14 and 15 part ways (matches 16..32 KiB back).
TEST(ZlibContainer, SameBytesAsCompress2AndRawStaysRocksDbs) {
  const Codec& zlib = *CodecRegistry::instance().find("zlib");
  const std::vector<Bytes> inputs = {
      alice(4096),           alice(64 * 1024),    corpus_prefix("json/twitter.json", 64 * 1024),
      random_bytes(4096, 3), Bytes(32 * 1024, 0), {}};
  for (int level : {1, 6, 9}) {
    auto wrapped = open_or_fail(zlib, {.level = level, .options = ":zlib"});
    auto raw = open_or_fail(zlib, {.level = level});
    for (size_t i = 0; i < inputs.size(); ++i) {
      Bytes c = compress_all(*wrapped, inputs[i]);
      EXPECT_EQ(c, zlib_compress2(inputs[i], level)) << "input " << i << " level " << level;
      Bytes back(inputs[i].size());
      EXPECT_TRUE(wrapped->decompress(c, back).ok());
      EXPECT_EQ(back, inputs[i]);
      EXPECT_EQ(compress_all(*raw, inputs[i]), raw_deflate_14(inputs[i], level))
          << "raw input " << i << " level " << level;
    }
  }
}

// Block after block, the fresh session writes what the reused one writes and reads it back.
void expect_same_bytes(Session& fresh, Session& reused, const std::vector<Bytes>& blocks) {
  for (const Bytes& b : blocks) {
    const Bytes c = compress_all(fresh, b);
    EXPECT_EQ(c, compress_all(reused, b));
    Bytes back(b.size());
    ASSERT_TRUE(fresh.decompress(c, back).ok());
    EXPECT_EQ(back, b);
  }
}

// ":fresh" changes the cost of a call, never its bytes: block after block, with and without a
// dictionary, each fresh row writes what its reused-state twin writes and reads it back; and
// it really sets zlib up per call (the library allocates on every call, the reused one never).
TEST(FreshCalls, SameBytesAsTheReusedStateEveryBlock) {
  const auto& reg = CodecRegistry::instance();
  const Bytes dict = alice(16 * 1024);
  const std::vector<Bytes> blocks = blocks_of(corpus_prefix("json/twitter.json", 64 * 1024), 4096);
  const std::pair<const char*, const char*> pairs[] = {
      {"lz4:1:stream:fresh", "lz4:1:stream"}, {"lz4hc:9:fresh", "lz4hc:9"}, {"zlib:6:fresh", "zlib:6"}};
  for (const auto& [fresh_spec, reused_spec] : pairs) {
    for (bool with_dict : {false, true}) {
      SCOPED_TRACE(std::string(fresh_spec) + (with_dict ? " dict" : ""));
      std::string err;
      auto fresh_row = parse_codec_spec(fresh_spec, reg, err).at(0);
      auto reused_row = parse_codec_spec(reused_spec, reg, err).at(0);
      ASSERT_EQ(err, "");
      std::shared_ptr<const PreparedDict> d1, d2;
      if (with_dict) {
        d1 = fresh_row.codec->prepare_dict(dict, fresh_row.params).value;
        d2 = reused_row.codec->prepare_dict(dict, reused_row.params).value;
      }
      auto fresh = fresh_row.codec->open(fresh_row.params, d1);
      auto reused = reused_row.codec->open(reused_row.params, d2);
      ASSERT_TRUE(fresh.ok() && reused.ok()) << fresh.error << reused.error;
      const uint64_t allocs0 = fresh.value->library_heap_allocations();
      expect_same_bytes(*fresh.value, *reused.value, blocks);
      if (std::string(fresh_spec).rfind("zlib", 0) == 0) {
        EXPECT_GE(fresh.value->library_heap_allocations() - allocs0, 2 * blocks.size());  // deflate + inflate
      }
    }
  }
}

// WiredTiger's calls (ext/compressors in its 3.2.1 tag): zstd through ZSTD_compress and
// ZSTD_decompress, a context per call (":fresh"), and zlib's container set up per call: the
// same bytes as the reused-state rows, block after block. zstd's fresh call takes no window
// and no dictionary.
TEST(FreshCalls, WiredTigersZstdAndZlibCallsWriteTheSameBytes) {
  const auto& reg = CodecRegistry::instance();
  const std::vector<Bytes> blocks = blocks_of(corpus_prefix("json/twitter.json", 64 * 1024), 8192);
  const std::pair<const char*, const char*> pairs[] = {
      {"zstd:6:fresh", "zstd:6"}, {"zstd:-3:fresh", "zstd:-3"}, {"zlib:6:zlib:fresh", "zlib:6:zlib"}};
  for (const auto& [fresh_spec, reused_spec] : pairs) {
    SCOPED_TRACE(fresh_spec);
    std::string err;
    auto fresh_row = parse_codec_spec(fresh_spec, reg, err).at(0);
    auto reused_row = parse_codec_spec(reused_spec, reg, err).at(0);
    ASSERT_EQ(err, "");
    auto fresh = fresh_row.codec->open(fresh_row.params, nullptr);
    auto reused = reused_row.codec->open(reused_row.params, nullptr);
    ASSERT_TRUE(fresh.ok() && reused.ok()) << fresh.error << reused.error;
    expect_same_bytes(*fresh.value, *reused.value, blocks);
  }
  std::string err;
  EXPECT_TRUE(parse_codec_spec("zstd:3:fresh:w20", reg, err).empty());
  EXPECT_NE(err.find("fresh takes no window and no dict="), std::string::npos) << err;
  err.clear();
  EXPECT_TRUE(parse_codec_spec("zstd:3:fresh:dict=16K", reg, err).empty());
  EXPECT_NE(err.find("fresh takes no window and no dict="), std::string::npos) << err;
}

}  // namespace
}  // namespace kvz::test
