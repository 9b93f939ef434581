// memcpy: the reference row (lzbench's first row): the ceiling any codec's speed is read against.
#include <cstring>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

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
  size_t context_memory() const override { return 0; }
};

class MemcpyCodec final : public Codec {
 public:
  MemcpyCodec() {
    info_.name = "memcpy";
#ifdef __GLIBC__
    info_.library = "glibc";
    info_.version = gnu_get_libc_version();
#else
    info_.library = "libc";
    info_.version = "unknown";
#endif
    info_.has_levels = false;
    info_.is_reference = true;
    info_.standard_levels = {0};
    info_.fast_levels = {0};
    info_.notes = "reference row: the speed ceiling of a copy, ratio 1";
  }
  const CodecInfo& info() const override { return info_; }
  Expected<std::unique_ptr<Session>> open(const CodecParams& params,
                                          std::shared_ptr<const PreparedDict>) const override {
    if (auto err = check_params(params); !err.empty()) return {nullptr, err};
    return {std::make_unique<MemcpySession>(), {}};
  }

 private:
  CodecInfo info_;
};

}  // namespace

void registerCodecMemcpy(CodecRegistry& r) { r.add(std::make_unique<MemcpyCodec>()); }

}  // namespace kvz
