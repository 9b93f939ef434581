// lzo: the lzo1x variants, chosen by "level": 1 = lzo1x_1, 11 = lzo1x_1_11, 12 = lzo1x_1_12,
// 15 = lzo1x_1_15, 999 = lzo1x_999. One lzo1x_decompress_safe decodes them all. The
// compressors do not check the output capacity, so a buffer below the worst case is refused.
#include <lzo/lzo1x.h>

#include <memory>

#include "codecs/codec_util.h"
#include "codecs/registry.h"

namespace kvz {
namespace {

using detail::data_or_dummy;

using LzoCompressFn = int (*)(const lzo_bytep, lzo_uint, lzo_bytep, lzo_uintp, lzo_voidp);

struct LzoVariant {
  int level;
  LzoCompressFn fn;
  size_t work_memory;
};

constexpr LzoVariant kVariants[] = {
    {1, lzo1x_1_compress, LZO1X_1_MEM_COMPRESS},        {11, lzo1x_1_11_compress, LZO1X_1_11_MEM_COMPRESS},
    {12, lzo1x_1_12_compress, LZO1X_1_12_MEM_COMPRESS}, {15, lzo1x_1_15_compress, LZO1X_1_15_MEM_COMPRESS},
    {999, lzo1x_999_compress, LZO1X_999_MEM_COMPRESS},
};

constexpr detail::ErrorName kLzoErrors[] = {
    {LZO_E_ERROR, "LZO_E_ERROR"},
    {LZO_E_OUT_OF_MEMORY, "LZO_E_OUT_OF_MEMORY"},
    {LZO_E_NOT_COMPRESSIBLE, "LZO_E_NOT_COMPRESSIBLE"},
    {LZO_E_INPUT_OVERRUN, "LZO_E_INPUT_OVERRUN: truncated or corrupt input"},
    {LZO_E_OUTPUT_OVERRUN, "LZO_E_OUTPUT_OVERRUN: output larger than the original size"},
    {LZO_E_LOOKBEHIND_OVERRUN, "LZO_E_LOOKBEHIND_OVERRUN: corrupt input"},
    {LZO_E_EOF_NOT_FOUND, "LZO_E_EOF_NOT_FOUND: corrupt input"},
    {LZO_E_INPUT_NOT_CONSUMED, "LZO_E_INPUT_NOT_CONSUMED: trailing bytes"},
    {LZO_E_INVALID_ARGUMENT, "LZO_E_INVALID_ARGUMENT"},
    {LZO_E_INVALID_ALIGNMENT, "LZO_E_INVALID_ALIGNMENT"},
    {LZO_E_OUTPUT_NOT_CONSUMED, "LZO_E_OUTPUT_NOT_CONSUMED"},
    {LZO_E_INTERNAL_ERROR, "LZO_E_INTERNAL_ERROR"}};

const char* lzo_error_name(int r) { return detail::error_name(kLzoErrors, r, "lzo: unknown error"); }

size_t lzo_bound(size_t n) { return n + n / 16 + 64 + 3; }  // lzo1x worst case (LZO FAQ)

class LzoSession final : public Session {
 public:
  explicit LzoSession(const LzoVariant& v)
      : variant_(v), work_(std::make_unique<lzo_align_t[]>(v.work_memory / sizeof(lzo_align_t) + 1)) {}

  size_t bound(size_t n) const override { return lzo_bound(n); }

  CallResult compress(ByteView in, MutableByteView out) noexcept override {
    if (out.size() < lzo_bound(in.size()))
      return CallResult::Fail("output buffer smaller than lzo's worst case (lzo1x has no capacity check)");
    lzo_uint n = 0;
    int r = variant_.fn(data_or_dummy(in), in.size(), data_or_dummy(out), &n, work_.get());
    if (r != LZO_E_OK) return CallResult::Fail(lzo_error_name(r));
    return CallResult::Ok(n);
  }

  CallResult decompress(ByteView in, MutableByteView out) noexcept override {
    lzo_uint n = out.size();
    int r = lzo1x_decompress_safe(data_or_dummy(in), in.size(), data_or_dummy(out), &n, nullptr);
    if (r != LZO_E_OK) return CallResult::Fail(lzo_error_name(r));
    if (n != out.size()) return CallResult::Fail(detail::kSizeMismatch);
    return CallResult::Ok(n);
  }

  ContextMemory context_memory() const override { return {variant_.work_memory, 0}; }

 private:
  LzoVariant variant_;
  std::unique_ptr<lzo_align_t[]> work_;
};

std::vector<int> variant_levels() {
  std::vector<int> levels;
  for (const auto& v : kVariants) levels.push_back(v.level);
  return levels;
}

class LzoCodec final : public Codec {
 public:
  // One data row, kept as written: the formatter would put one field per line.
  // clang-format off
  LzoCodec()
      : Codec({.name = "lzo", .library = "liblzo2", .version = lzo_version_string(),
               .min_level = 1, .max_level = 999, .default_level = 1,
               .valid_levels = variant_levels(), .standard_levels = variant_levels(), .fast_levels = {1},
               .needs_original_size = true,  // the lzo1x stream does not record it
               .level_label = "variant",
               .notes = "level = lzo1x variant: 1 lzo1x_1, 11 lzo1x_1_11, 12 lzo1x_1_12, 15 lzo1x_1_15, "
                        "999 lzo1x_999; compress needs a worst-case output buffer"}),
        init_ok_(lzo_init() == LZO_E_OK) {}
  // clang-format on
  Expected<std::unique_ptr<Session>> open_session(const CodecParams& params,
                                                  std::shared_ptr<const PreparedDict>) const override {
    if (!init_ok_) return {nullptr, "lzo: lzo_init failed"};
    for (const auto& v : kVariants)
      if (v.level == params.level) return {std::make_unique<LzoSession>(v), {}};
    return {nullptr, "lzo: unknown variant"};
  }

 private:
  bool init_ok_ = false;
};

}  // namespace

void registerCodecLzo(CodecRegistry& r) { r.add(std::make_unique<LzoCodec>()); }

}  // namespace kvz
