// lzbench's syntax means lzbench's configuration: a row written `name,L` makes the bytes of
// the call lzbench 2.x makes for that codec (bench/lz_codecs.cpp), checked here against the
// libraries called the same way.
#include <brotli/encode.h>
#include <gtest/gtest.h>
#include <lz4.h>
#include <lz4hc.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <string>
#include <vector>

#include "codecs/registry.h"
#include "codecs/spec.h"

namespace kvz {
namespace {

std::vector<uint8_t> sample_block() {
  std::string s;
  for (int i = 0; s.size() < 4096; ++i)
    s += "{\"id\":" + std::to_string(i * 7919 % 1000) + ",\"name\":\"user" + std::to_string(i % 37) + "\"},";
  s.resize(4096);
  return {s.begin(), s.end()};
}

CodecChoice only_row(const std::string& spec) {
  std::string error;
  const std::vector<CodecChoice> rows = parse_codec_spec(spec, CodecRegistry::instance(), error);
  EXPECT_EQ(error, "") << spec;
  EXPECT_EQ(rows.size(), 1u) << spec;
  return rows.empty() ? CodecChoice{} : rows.front();
}

std::vector<uint8_t> kvz_bytes(const std::string& spec, const std::vector<uint8_t>& in) {
  const CodecChoice row = only_row(spec);
  auto s = row.codec->open(row.params, nullptr);
  EXPECT_TRUE(s.ok()) << s.error;
  std::vector<uint8_t> out(s.value->bound(in.size()));
  const CallResult r = s.value->compress(in, out);
  EXPECT_TRUE(r.ok()) << (r.error ? r.error : "");
  out.resize(r.size);
  std::vector<uint8_t> back(in.size());
  EXPECT_TRUE(s.value->decompress(out, back).ok()) << spec;
  EXPECT_EQ(back, in) << spec;
  return out;
}

TEST(Lzbench, NamesMapToLzbenchsConfiguration) {
  EXPECT_EQ(only_row("zlib,6").params.label(), "6:zlib");
  EXPECT_EQ(only_row("xz,6").params.label(), "6:lzbench");
  EXPECT_EQ(only_row("zstd,3").params.label(), "3");
  EXPECT_EQ(only_row("lz4fast,17").params.label(), "17");
  EXPECT_EQ(only_row("lzo1x_999").params.label(), "999");
  EXPECT_EQ(only_row("zlib:6").params.label(), "6");  // kvzbench's own syntax keeps its own row
}

TEST(Lzbench, ZlibIsCompress2) {
  const auto in = sample_block();
  std::vector<uint8_t> ref(compressBound(in.size()));
  uLongf n = ref.size();
  ASSERT_EQ(compress2(ref.data(), &n, in.data(), in.size(), 6), Z_OK);
  ref.resize(n);
  EXPECT_EQ(kvz_bytes("zlib,6", in), ref);
  EXPECT_NE(kvz_bytes("zlib:6", in).size(), ref.size());  // RocksDB's raw deflate: another configuration
}

TEST(Lzbench, XzIsTheMultithreadedEncoderWithoutACheck) {
  const auto in = sample_block();
  std::vector<uint8_t> ref(lzma_stream_buffer_bound(in.size()));
  lzma_stream strm = LZMA_STREAM_INIT;
  lzma_mt mt{};
  mt.preset = 1;
  mt.check = LZMA_CHECK_NONE;
  mt.threads = 1;
  ASSERT_EQ(lzma_stream_encoder_mt(&strm, &mt), LZMA_OK);
  strm.next_in = in.data();
  strm.avail_in = in.size();
  strm.next_out = ref.data();
  strm.avail_out = ref.size();
  ASSERT_EQ(lzma_code(&strm, LZMA_FINISH), LZMA_STREAM_END);
  ref.resize(strm.total_out);
  lzma_end(&strm);
  EXPECT_EQ(kvz_bytes("xz,1", in), ref);
  EXPECT_NE(kvz_bytes("xz:1", in).size(), ref.size());  // kvzbench's xz row: CRC64, block-sized dictionary
}

TEST(Lzbench, TheOtherCodecsAreTheSameCalls) {
  const auto in = sample_block();
  const char* src = reinterpret_cast<const char*>(in.data());
  const int n = static_cast<int>(in.size());
  std::vector<uint8_t> ref(ZSTD_compressBound(in.size()) + LZ4_compressBound(n) + 1024);
  auto as = [&](size_t size) { return std::vector<uint8_t>(ref.begin(), ref.begin() + static_cast<long>(size)); };

  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 3);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
  const size_t z = ZSTD_compress2(cctx, ref.data(), ref.size(), in.data(), in.size());
  ZSTD_freeCCtx(cctx);
  ASSERT_FALSE(ZSTD_isError(z));
  EXPECT_EQ(kvz_bytes("zstd,3", in), as(z));

  char* dst = reinterpret_cast<char*>(ref.data());
  const int cap = static_cast<int>(ref.size());
  EXPECT_EQ(kvz_bytes("lz4,1", in), as(static_cast<size_t>(LZ4_compress_default(src, dst, n, cap))));
  EXPECT_EQ(kvz_bytes("lz4fast,17", in), as(static_cast<size_t>(LZ4_compress_fast(src, dst, n, cap, 17))));
  EXPECT_EQ(kvz_bytes("lz4hc,9", in), as(static_cast<size_t>(LZ4_compress_HC(src, dst, n, cap, 9))));

  size_t b = ref.size();
  ASSERT_TRUE(
      BrotliEncoderCompress(5, BROTLI_DEFAULT_WINDOW, BROTLI_DEFAULT_MODE, in.size(), in.data(), &b, ref.data()));
  EXPECT_EQ(kvz_bytes("brotli,5", in), as(b));
}

}  // namespace
}  // namespace kvz
