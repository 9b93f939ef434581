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

class BrotliSession final : public detail::ArenaSession {
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

 private:
  int quality_;
  int lgwin_;
};

// BrotliEncoderVersion() is 0xMMMmmmppp: major << 24 | minor << 12 | patch.
std::string version_text(uint32_t v) { return fmt::format("{}.{}.{}", v >> 24, (v >> 12) & 0xFFF, v & 0xFFF); }

class BrotliCodec final : public Codec {
 public:
  // One data row, kept as written: the formatter would put one field per line.
  // clang-format off
  BrotliCodec()
      : Codec({.name = "brotli", .library = "libbrotli", .version = version_text(BrotliEncoderVersion()),
               .min_level = BROTLI_MIN_QUALITY, .max_level = BROTLI_MAX_QUALITY, .default_level = BROTLI_DEFAULT_QUALITY,
               .standard_levels = CodecInfo::level_range(BROTLI_MIN_QUALITY, BROTLI_MAX_QUALITY),
               .ratio_levels = {BROTLI_MAX_QUALITY}, .level_label = "quality",
               .notes = fmt::format("streaming API, lgwin {} unless ':wN'; per-call instances on a session arena",
                                    BROTLI_DEFAULT_WINDOW),
               .options_help = fmt::format("wN (window log {}..{})", BROTLI_MIN_WINDOW_BITS, BROTLI_MAX_WINDOW_BITS)}) {}
  // clang-format on
  std::string parse_options(const std::vector<std::string>& tokens, CodecParams& params) const override {
    return detail::parse_window_options(info(), tokens, BROTLI_MIN_WINDOW_BITS, BROTLI_MAX_WINDOW_BITS, params);
  }
  Expected<std::unique_ptr<Session>> open_session(const CodecParams& params,
                                                  std::shared_ptr<const PreparedDict>) const override {
    return {std::make_unique<BrotliSession>(params), {}};
  }
};

}  // namespace

void registerCodecBrotli(CodecRegistry& r) { r.add(std::make_unique<BrotliCodec>()); }

}  // namespace kvz
