// brotli: streaming encoder/decoder instances (the API the brotli tool uses). Brotli
// 1.0.9 cannot reset an instance, so one is created per call, but its memory comes from
// an arena the session owns (BrotliEncoderCreateInstance(alloc, free, opaque)): after
// warm-up a call does not touch the heap.
#include <brotli/decode.h>
#include <brotli/encode.h>

#include <fmt/format.h>

#include "codecs/codec_util.h"
#include "codecs/registry.h"
#include "codecs/session_memory.h"

namespace kvz {
namespace {

using detail::Arena;
using detail::data_or_dummy;

class BrotliSession final : public Session {
 public:
  explicit BrotliSession(const CodecParams& p)
      : quality_(p.level), lgwin_(detail::window_log_of(p, BROTLI_DEFAULT_WINDOW)) {}

  size_t bound(size_t n) const override { return BrotliEncoderMaxCompressedSize(n); }

  CallResult compress(ByteView in, MutableByteView out) noexcept override {
    enc_arena_.reset();
    BrotliEncoderState* s = BrotliEncoderCreateInstance(Arena::alloc_cb, Arena::free_cb, &enc_arena_);
    if (!s) return CallResult::Fail("brotli: cannot create encoder (out of memory)");
    BrotliEncoderSetParameter(s, BROTLI_PARAM_QUALITY, static_cast<uint32_t>(quality_));
    BrotliEncoderSetParameter(s, BROTLI_PARAM_LGWIN, static_cast<uint32_t>(lgwin_));
    BrotliEncoderSetParameter(s, BROTLI_PARAM_SIZE_HINT,
                              in.size() > (1u << 30) ? (1u << 30) : static_cast<uint32_t>(in.size()));
    size_t avail_in = in.size();
    const uint8_t* next_in = data_or_dummy(in);
    size_t avail_out = out.size();
    uint8_t* next_out = data_or_dummy(out);
    const char* error = nullptr;
    for (;;) {
      if (!BrotliEncoderCompressStream(s, BROTLI_OPERATION_FINISH, &avail_in, &next_in, &avail_out, &next_out,
                                       nullptr)) {
        error = "brotli: BrotliEncoderCompressStream failed";
        break;
      }
      if (BrotliEncoderIsFinished(s)) break;
      if (avail_out == 0) {
        error = detail::kOutputTooSmall;
        break;
      }
    }
    BrotliEncoderDestroyInstance(s);
    if (error) return CallResult::Fail(error);
    return CallResult::Ok(out.size() - avail_out);
  }

  CallResult decompress(ByteView in, MutableByteView out) noexcept override {
    dec_arena_.reset();
    BrotliDecoderState* s = BrotliDecoderCreateInstance(Arena::alloc_cb, Arena::free_cb, &dec_arena_);
    if (!s) return CallResult::Fail("brotli: cannot create decoder (out of memory)");
    size_t avail_in = in.size();
    const uint8_t* next_in = data_or_dummy(in);
    size_t avail_out = out.size();
    uint8_t* next_out = data_or_dummy(out);
    BrotliDecoderResult r = BrotliDecoderDecompressStream(s, &avail_in, &next_in, &avail_out, &next_out, nullptr);
    const char* error = nullptr;
    switch (r) {
      case BROTLI_DECODER_RESULT_SUCCESS:
        if (avail_in != 0)
          error = "brotli: trailing bytes after the stream";
        else if (avail_out != 0)
          error = detail::kSizeMismatch;
        break;
      case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
        error = "brotli: truncated input";
        break;
      case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
        error = "brotli: output larger than the original size";
        break;
      default:
        error = BrotliDecoderErrorString(BrotliDecoderGetErrorCode(s));
        break;
    }
    BrotliDecoderDestroyInstance(s);
    if (error) return CallResult::Fail(error);
    return CallResult::Ok(out.size());
  }

  size_t context_memory() const override { return enc_arena_.capacity() + dec_arena_.capacity(); }
  uint64_t library_heap_allocations() const override {
    return enc_arena_.heap_allocations() + dec_arena_.heap_allocations();
  }

 private:
  int quality_;
  int lgwin_;
  Arena enc_arena_;
  Arena dec_arena_;
};

class BrotliCodec final : public Codec {
 public:
  BrotliCodec() {
    uint32_t v = BrotliEncoderVersion();  // 0xMMMmmmppp: major << 24 | minor << 12 | patch
    info_.name = "brotli";
    info_.library = "libbrotli";
    info_.version = fmt::format("{}.{}.{}", v >> 24, (v >> 12) & 0xFFF, v & 0xFFF);
    info_.level_label = "quality";
    info_.min_level = BROTLI_MIN_QUALITY;
    info_.max_level = BROTLI_MAX_QUALITY;
    info_.default_level = BROTLI_DEFAULT_QUALITY;
    for (int l = BROTLI_MIN_QUALITY; l <= BROTLI_MAX_QUALITY; ++l) info_.standard_levels.push_back(l);
    info_.ratio_levels = {BROTLI_MAX_QUALITY};
    info_.options_help = fmt::format("wN (window log {}..{})", BROTLI_MIN_WINDOW_BITS, BROTLI_MAX_WINDOW_BITS);
    info_.notes = fmt::format(
        "streaming API, lgwin {} unless ':wN'; per-call instances on a "
        "session arena",
        BROTLI_DEFAULT_WINDOW);
  }
  const CodecInfo& info() const override { return info_; }
  std::string parse_options(const std::vector<std::string>& tokens, CodecParams& params) const override {
    return detail::parse_window_options(info_, tokens, BROTLI_MIN_WINDOW_BITS, BROTLI_MAX_WINDOW_BITS, params);
  }
  Expected<std::unique_ptr<Session>> open(const CodecParams& params,
                                          std::shared_ptr<const PreparedDict> dict) const override {
    if (auto err = check_params(params); !err.empty()) return {nullptr, err};
    if (dict) return {nullptr, "brotli does not support dictionaries"};
    return {std::make_unique<BrotliSession>(params), {}};
  }

 private:
  CodecInfo info_;
};

}  // namespace

void registerCodecBrotli(CodecRegistry& r) { r.add(std::make_unique<BrotliCodec>()); }

}  // namespace kvz
