// memcpy: the reference row (lzbench's first row): the ceiling any codec's speed is read against.
#include <cstring>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "codecs/codec_util.h"
#include "codecs/registry.h"

namespace kvz {
namespace {

class MemcpySession final : public Session {
 public:
  size_t bound(size_t n) const override { return n; }
  CallResult compress(ByteView in, MutableByteView out) noexcept override {
    if (out.size() < in.size()) return CallResult::Fail("output buffer too small");
    if (!in.empty()) std::memcpy(out.data(), in.data(), in.size());
    return CallResult::Ok(in.size());
  }
  CallResult decompress(ByteView in, MutableByteView out) noexcept override {
    if (in.size() != out.size()) return CallResult::Fail("size differs from the original size");
    if (!in.empty()) std::memcpy(out.data(), in.data(), in.size());
    return CallResult::Ok(in.size());
  }
  ContextMemory context_memory() const override { return {}; }
};

#ifdef __GLIBC__
constexpr const char* kLibc = "glibc";
std::string libc_version() { return gnu_get_libc_version(); }
#else
constexpr const char* kLibc = "libc";
std::string libc_version() { return "unknown"; }
#endif

// One data row, kept as written: the formatter would put one field per line.
// clang-format off
CodecInfo memcpy_info() {
  return {.name = "memcpy", .library = kLibc, .version = libc_version(), .has_levels = false,
          .standard_levels = {0}, .fast_levels = {0}, .is_reference = true,
          .notes = "reference row: the speed ceiling of a copy, ratio 1"};
}
// clang-format on

}  // namespace

void registerCodecMemcpy(CodecRegistry& r) {
  r.add(std::make_unique<detail::StatelessCodec<MemcpySession>>(memcpy_info()));
}

}  // namespace kvz
