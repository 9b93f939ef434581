// Every codec at every standard level round-trips the sample inputs byte for byte.
#include <brotli/encode.h>
#include <lzma.h>
#include <zstd.h>
#define LZ4_HC_STATIC_LINKING_ONLY
#include <lz4.h>
#include <lz4hc.h>

#include "codec_test_support.h"

namespace kvz::test {
namespace {

struct Input {
  const char* name;
  Bytes data;
};

std::vector<Input> inputs() {
  return {{"empty", {}},
          {"one_byte", {0x5a}},
          {"zeros_64k", Bytes(64 * 1024, 0)},
          {"random_64k", random_bytes(64 * 1024, 42)},
          {"alice_64k", alice()}};
}

class RoundTrip : public ::testing::TestWithParam<CodecChoice> {};

TEST_P(RoundTrip, EveryInputComesBackExactly) {
  const CodecChoice& choice = GetParam();
  auto session = open_or_fail(*choice.codec, choice.params);
  ASSERT_TRUE(session);
  const CodecInfo& info = choice.codec->info();
  const bool is_copy = info.is_reference;
  // Extreme speed settings (zstd -100, lz4 65537) may legitimately not compress text.
  const bool standard = std::find(info.standard_levels.begin(), info.standard_levels.end(), choice.params.level) !=
                        info.standard_levels.end();
  // Twice: the second pass runs on warm contexts/arenas, which must not change anything.
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& input : inputs()) {
      SCOPED_TRACE(std::string(input.name) + " " + choice.label());
      Bytes packed = compress_all(*session, input.data);
      ASSERT_LE(packed.size(), session->bound(input.data.size()));
      Bytes back(input.data.size(), 0xEE);
      CallResult r = session->decompress(packed, back);
      ASSERT_TRUE(r.ok()) << r.error;
      EXPECT_EQ(r.size, input.data.size());
      EXPECT_TRUE(back == input.data);
      if (!is_copy && std::string(input.name) == "zeros_64k") {
        EXPECT_LT(packed.size(), input.data.size() / 10) << "zeros must compress";
      }
      if (!is_copy && standard && std::string(input.name) == "alice_64k") {
        EXPECT_LT(packed.size(), input.data.size()) << "text must compress";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllStandardLevels, RoundTrip, ::testing::ValuesIn(all_choices("all")), choice_name);
INSTANTIATE_TEST_SUITE_P(
    Options, RoundTrip,
    ::testing::ValuesIn(all_choices("zlib:1,6,9:zlib/brotli:5:w10/brotli:11:w24/zstd:3:w10/zstd:19:w28/"
                                    "xz:0e,3e/zstd:-100/lz4:65537/lz4:1,8:stream")),
    choice_name);

// Our sessions must produce what the libraries' own one-shot calls produce: the numbers
// describe the library, not an adapter artefact.
TEST(Faithful, SameBytesAsTheLibrariesSimpleApi) {
  Bytes text = alice(16 * 1024);
  const auto& reg = CodecRegistry::instance();
  for (int level : {-5, 1, 3, 19}) {
    auto s = open_or_fail(*reg.find("zstd"), {.level = level});
    Bytes ref(ZSTD_compressBound(text.size()));
    ref.resize(ZSTD_compress(ref.data(), ref.size(), text.data(), text.size(), level));
    EXPECT_EQ(compress_all(*s, text), ref) << "zstd " << level;
  }
  for (int accel : {1, 8}) {
    auto s = open_or_fail(*reg.find("lz4"), {.level = accel});
    Bytes ref(LZ4_compressBound(static_cast<int>(text.size())));
    ref.resize(LZ4_compress_fast(reinterpret_cast<const char*>(text.data()), reinterpret_cast<char*>(ref.data()),
                                 static_cast<int>(text.size()), static_cast<int>(ref.size()), accel));
    EXPECT_EQ(compress_all(*s, text), ref) << "lz4 " << accel;
  }
  for (int level : {1, 9, 12}) {
    auto s = open_or_fail(*reg.find("lz4hc"), {.level = level});
    Bytes ref(LZ4_compressBound(static_cast<int>(text.size())));
    ref.resize(LZ4_compress_HC(reinterpret_cast<const char*>(text.data()), reinterpret_cast<char*>(ref.data()),
                               static_cast<int>(text.size()), static_cast<int>(ref.size()), level));
    // Several calls on one session: the fast reset must not leak state between calls.
    for (int i = 0; i < 3; ++i) EXPECT_EQ(compress_all(*s, text), ref) << "lz4hc " << level;
  }
  for (int quality : {0, 1, 5, 9, 10, 11}) {
    auto s = open_or_fail(*reg.find("brotli"), {.level = quality});
    Bytes ref(BrotliEncoderMaxCompressedSize(text.size()));
    size_t n = ref.size();
    ASSERT_TRUE(BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, text.size(), text.data(), &n,
                                      ref.data()));
    ref.resize(n);
    EXPECT_EQ(compress_all(*s, text), ref) << "brotli " << quality;
  }
}

// xz sizes its LZMA dictionary to the block; the output must stay as small as with the
// preset's full dictionary (lzma_easy_buffer_encode), within 0.1%.
TEST(Faithful, XzBlockSizedDictionaryKeepsTheRatio) {
  for (size_t size : {size_t{4096}, size_t{65536}}) {
    Bytes text = alice(size);
    for (uint32_t preset : {0u, 6u, 9u}) {
      auto s = open_or_fail(*CodecRegistry::instance().find("xz"), {.level = static_cast<int>(preset)});
      Bytes ref(lzma_stream_buffer_bound(text.size()));
      size_t n = 0;
      ASSERT_EQ(lzma_easy_buffer_encode(preset, LZMA_CHECK_CRC64, nullptr, text.data(), text.size(), ref.data(), &n,
                                        ref.size()),
                LZMA_OK);
      double ours = static_cast<double>(compress_all(*s, text).size());
      EXPECT_LE(ours, static_cast<double>(n) * 1.001) << "xz " << preset << " on " << size;
    }
  }
}

}  // namespace
}  // namespace kvz::test
