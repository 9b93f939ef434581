// snappy: RawCompress / RawUncompress. snappy 1.1.9 allocates its hash table inside
// RawCompress on every call and has no API to hand it reusable memory: the one known
// exception to the allocation-free hot path (CodecInfo::allocations_per_compress, pinned by
// tests/codecs/allocation_test.cpp; shown by `list`).
#include <snappy.h>

#include <fmt/format.h>

#include "codecs/codec_util.h"
#include "codecs/registry.h"

namespace kvz {
namespace {

using detail::data_or_dummy;

class SnappySession final : public Session {
 public:
  size_t bound(size_t n) const override { return snappy::MaxCompressedLength(n); }
  CallResult compress(ByteView in, MutableByteView out) noexcept override {
    // RawCompress writes without a capacity check: only a worst-case buffer is safe.
    if (out.size() < snappy::MaxCompressedLength(in.size()))
      return CallResult::Fail("output buffer smaller than snappy::MaxCompressedLength");
    size_t n = 0;
    snappy::RawCompress(reinterpret_cast<const char*>(data_or_dummy(in)), in.size(),
                        reinterpret_cast<char*>(data_or_dummy(out)), &n);
    return CallResult::Ok(n);
  }
  CallResult decompress(ByteView in, MutableByteView out) noexcept override {
    const auto* src = reinterpret_cast<const char*>(data_or_dummy(in));
    size_t n = 0;
    if (!snappy::GetUncompressedLength(src, in.size(), &n)) return CallResult::Fail("snappy: corrupt length header");
    if (n != out.size()) return CallResult::Fail(detail::kSizeMismatch);
    if (!snappy::RawUncompress(src, in.size(), reinterpret_cast<char*>(data_or_dummy(out))))
      return CallResult::Fail("snappy: corrupt input (RawUncompress failed)");
    return CallResult::Ok(n);
  }
  ContextMemory context_memory() const override { return {}; }
};

// One data row, kept as written: the formatter would put one field per line.
// clang-format off
CodecInfo snappy_info() {
  return {.name = "snappy", .library = "libsnappy",
          .version = fmt::format("{}.{}.{}", SNAPPY_MAJOR, SNAPPY_MINOR, SNAPPY_PATCHLEVEL), .has_levels = false,
          .standard_levels = {0}, .fast_levels = {0}, .allocations_per_compress = 1,
          .notes = "no levels; compress allocates its hash table per call inside the library "
                   "(no API avoids it in 1.1.9); version from the header macros"};
}
// clang-format on

}  // namespace

void registerCodecSnappy(CodecRegistry& r) {
  r.add(std::make_unique<detail::StatelessCodec<SnappySession>>(snappy_info()));
}

}  // namespace kvz
