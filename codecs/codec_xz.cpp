// xz: liblzma's one-shot .xz stream encoder/decoder (LZMA2, CRC64 as the xz tool) with
// presets 0..9 and "e" (LZMA_PRESET_EXTREME). liblzma builds its encoder per call; its
// memory comes from a session arena through lzma_allocator, so warm calls skip the heap.
// The LZMA dictionary is sized to the block (never above the preset's): a 64 MiB
// dictionary set up for a 4 KiB block would measure memset, not compression.
#include <lzma.h>

#include <fmt/format.h>

#include <algorithm>

#include "codecs/codec_util.h"
#include "codecs/registry.h"
#include "codecs/session_memory.h"

namespace kvz {
namespace {

using detail::Arena;
using detail::data_or_dummy;

constexpr detail::ErrorName kLzmaErrors[] = {
    {LZMA_OK, "LZMA_OK"},
    {LZMA_STREAM_END, "LZMA_STREAM_END"},
    {LZMA_NO_CHECK, "LZMA_NO_CHECK"},
    {LZMA_UNSUPPORTED_CHECK, "LZMA_UNSUPPORTED_CHECK"},
    {LZMA_GET_CHECK, "LZMA_GET_CHECK"},
    {LZMA_MEM_ERROR, "LZMA_MEM_ERROR: cannot allocate memory"},
    {LZMA_MEMLIMIT_ERROR, "LZMA_MEMLIMIT_ERROR: memory usage limit reached"},
    {LZMA_FORMAT_ERROR, "LZMA_FORMAT_ERROR: file format not recognized"},
    {LZMA_OPTIONS_ERROR, "LZMA_OPTIONS_ERROR: unsupported options"},
    {LZMA_DATA_ERROR, "LZMA_DATA_ERROR: compressed data is corrupt"},
    {LZMA_BUF_ERROR, "LZMA_BUF_ERROR: no progress possible (buffer too small or input truncated)"},
    {LZMA_PROG_ERROR, "LZMA_PROG_ERROR: programming error"}};

const char* lzma_ret_name(lzma_ret r) {
  return detail::error_name(kLzmaErrors, static_cast<int>(r), "liblzma: unknown error");
}

void* lzma_alloc_cb(void* opaque, size_t nmemb, size_t size) {
  if (size != 0 && nmemb > SIZE_MAX / size) return nullptr;
  return Arena::alloc_cb(opaque, nmemb * size);
}

class XzSession final : public detail::ArenaSession {
 public:
  // `lzbench`: lzbench 2.x's call instead of kvzbench's: lzma_stream_encoder_mt (one thread),
  // no integrity check, the preset's own dictionary (lzbench bench/lz_codecs.cpp,
  // lzbench_xz_compress).
  XzSession(const lzma_options_lzma& preset, uint32_t preset_id, bool lzbench)
      : preset_(preset), preset_id_(preset_id), lzbench_(lzbench) {
    enc_alloc_ = {lzma_alloc_cb, Arena::free_cb, &enc_arena_};
    dec_alloc_ = {lzma_alloc_cb, Arena::free_cb, &dec_arena_};
    // A corrupt header may claim a huge dictionary: never let the decoder ask for more
    // than this preset could have produced.
    memlimit_ = static_cast<uint64_t>(preset_.dict_size) * 2 + (8u << 20);
  }

  size_t bound(size_t n) const override { return lzma_stream_buffer_bound(n); }

  CallResult compress(ByteView in, MutableByteView out) noexcept override {
    enc_arena_.reset();
    if (lzbench_) return compress_as_lzbench(in, out);
    lzma_options_lzma opt = preset_;
    size_t dict = std::max<size_t>(in.size(), LZMA_DICT_SIZE_MIN);
    if (dict < opt.dict_size) opt.dict_size = static_cast<uint32_t>(dict);
    lzma_filter filters[2] = {{LZMA_FILTER_LZMA2, &opt}, {LZMA_VLI_UNKNOWN, nullptr}};
    size_t out_pos = 0;
    lzma_ret r = lzma_stream_buffer_encode(filters, LZMA_CHECK_CRC64, &enc_alloc_, data_or_dummy(in), in.size(),
                                           data_or_dummy(out), &out_pos, out.size());
    if (r == LZMA_BUF_ERROR) return CallResult::Fail(detail::kOutputTooSmall);
    if (r != LZMA_OK) return CallResult::Fail(lzma_ret_name(r));
    return CallResult::Ok(out_pos);
  }

  CallResult decompress(ByteView in, MutableByteView out) noexcept override {
    dec_arena_.reset();
    uint64_t memlimit = memlimit_;
    size_t in_pos = 0;
    size_t out_pos = 0;
    lzma_ret r = lzma_stream_buffer_decode(&memlimit, 0, &dec_alloc_, data_or_dummy(in), &in_pos, in.size(),
                                           data_or_dummy(out), &out_pos, out.size());
    if (r != LZMA_OK) return CallResult::Fail(lzma_ret_name(r));
    if (in_pos != in.size()) return CallResult::Fail("xz: trailing bytes after the stream");
    if (out_pos != out.size()) return CallResult::Fail(detail::kSizeMismatch);
    return CallResult::Ok(out_pos);
  }

 private:
  CallResult compress_as_lzbench(ByteView in, MutableByteView out) noexcept {
    lzma_stream strm = LZMA_STREAM_INIT;
    strm.allocator = &enc_alloc_;
    lzma_mt mt{};
    mt.preset = preset_id_;
    mt.check = LZMA_CHECK_NONE;
    mt.threads = 1;
    mt.block_size = 0;
    lzma_ret r = lzma_stream_encoder_mt(&strm, &mt);
    if (r != LZMA_OK) return CallResult::Fail(lzma_ret_name(r));
    strm.next_in = data_or_dummy(in);
    strm.avail_in = in.size();
    strm.next_out = data_or_dummy(out);
    strm.avail_out = out.size();
    r = lzma_code(&strm, LZMA_FINISH);
    const size_t written = static_cast<size_t>(strm.total_out);
    lzma_end(&strm);
    if (r == LZMA_BUF_ERROR || (r == LZMA_OK && strm.avail_out == 0)) return CallResult::Fail(detail::kOutputTooSmall);
    if (r != LZMA_STREAM_END) return CallResult::Fail(lzma_ret_name(r));
    return CallResult::Ok(written);
  }

  lzma_options_lzma preset_;
  uint32_t preset_id_ = 0;
  bool lzbench_ = false;
  lzma_allocator enc_alloc_{};
  lzma_allocator dec_alloc_{};
  uint64_t memlimit_ = 0;
};

class XzCodec final : public Codec {
 public:
  // One data row, kept as written: the formatter would put one field per line.
  // clang-format off
  XzCodec()
      : Codec({.name = "xz", .library = "liblzma", .version = lzma_version_string(),
               .min_level = 0, .max_level = 9, .default_level = 6,  // LZMA_PRESET_DEFAULT
               .standard_levels = CodecInfo::level_range(0, 9), .ratio_levels = {6, 9}, .level_label = "preset",
               .notes = "xz stream, LZMA2, CRC64; 'e' = extreme; LZMA dictionary sized to the block "
                        "(never above the preset's) so per-call encoder setup does not swamp small blocks",
               .options_help = "e (LZMA_PRESET_EXTREME, also written as a level: 6e), lzbench (lzbench's call: "
                               "lzma_stream_encoder_mt, no check, the preset's dictionary)",
               .extra_standard = {{.level = 6, .options = "e"}, {.level = 9, .options = "e"}}}) {}
  // clang-format on
  // xz's options: extreme ("e" or "extreme", canonical "e", so the label reads "6e") and
  // "lzbench" (lzbench's call; canonical ":lzbench": "6:lzbench", "6e:lzbench").
  std::string parse_options(const std::vector<std::string>& tokens, CodecParams& params) const override {
    bool extreme = false, lzbench = false;
    for (const auto& t : tokens) {
      if (t == "e" || t == "extreme") {
        extreme = true;
      } else if (t == "lzbench") {
        lzbench = true;
      } else {
        return detail::unknown_option(info(), t);
      }
    }
    params.options = fmt::format("{}{}", extreme ? "e" : "", lzbench ? ":lzbench" : "");
    return {};
  }
  Expected<std::unique_ptr<Session>> open_session(const CodecParams& params,
                                                  std::shared_ptr<const PreparedDict>) const override {
    lzma_options_lzma preset{};
    const auto tokens = params.option_tokens();
    const bool extreme = std::find(tokens.begin(), tokens.end(), "e") != tokens.end();
    const bool lzbench = std::find(tokens.begin(), tokens.end(), "lzbench") != tokens.end();
    const uint32_t p = static_cast<uint32_t>(params.level) | (extreme ? LZMA_PRESET_EXTREME : 0u);
    if (lzma_lzma_preset(&preset, p)) return {nullptr, "xz: liblzma rejected the preset"};
    return {std::make_unique<XzSession>(preset, p, lzbench), {}};
  }
};

}  // namespace

void registerCodecXz(CodecRegistry& r) { r.add(std::make_unique<XzCodec>()); }

}  // namespace kvz
