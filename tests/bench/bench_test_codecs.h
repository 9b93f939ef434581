#pragma once
// Test doubles for the engine tests: a byte run-length codec (compresses runs, expands
// noise, so keep-raw has something to decide), a broken variant, a memcpy row, and a
// registry holding them. They never touch codecs/: the engine must work with any registry.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <memory>
#include <vector>

#include "codecs/codec.h"
#include "codecs/registry.h"

namespace kvz::testing {

enum class Fault { None, CorruptDecode, FailCompress };

// Blocks tagged with their index in byte 0 let a session record which blocks it saw, and (one
// thread only) in which order it compressed them.
struct SeenBlocks {
  std::array<std::atomic<bool>, 256> seen{};
  bool record_order = false;
  std::vector<uint8_t> order;
  void clear() {
    for (auto& s : seen) s = false;
    order.clear();
  }
};

class RleSession : public Session {
 public:
  RleSession(Fault fault, SeenBlocks* seen) : fault_(fault), seen_(seen) {}
  size_t bound(size_t n) const override { return 2 * n + 2; }
  CallResult compress(ByteView in, MutableByteView out) noexcept override {
    if (fault_ == Fault::FailCompress) return CallResult::Fail("rle: injected compress failure");
    if (seen_ && !in.empty()) {
      seen_->seen[in[0]] = true;
      if (seen_->record_order) seen_->order.push_back(in[0]);
    }
    size_t o = 0;
    for (size_t i = 0; i < in.size();) {
      size_t run = 1;
      while (i + run < in.size() && in[i + run] == in[i] && run < 255) ++run;
      if (o + 2 > out.size()) return CallResult::Fail("rle: output too small");
      out[o++] = static_cast<uint8_t>(run);
      out[o++] = in[i];
      i += run;
    }
    return CallResult::Ok(o);
  }
  CallResult decompress(ByteView in, MutableByteView out) noexcept override {
    size_t o = 0;
    for (size_t i = 0; i + 1 < in.size(); i += 2) {
      if (o + in[i] > out.size()) return CallResult::Fail("rle: corrupt input");
      std::memset(out.data() + o, in[i + 1], in[i]);
      o += in[i];
    }
    if (fault_ == Fault::CorruptDecode && o > 100) out[100] ^= 0xFF;
    return CallResult::Ok(o);
  }
  ContextMemory context_memory() const override { return {64, 0}; }

 private:
  Fault fault_;
  SeenBlocks* seen_;
};

class RawDict : public PreparedDict {
 public:
  explicit RawDict(size_t n) : n_(n) {}
  size_t size() const override { return n_; }
  size_t memory_bytes() const override { return n_; }

 private:
  size_t n_;
};

class RleCodec : public Codec {
 public:
  RleCodec(std::string name, Fault fault, SeenBlocks* seen = nullptr)
      : Codec({.name = std::move(name), .library = "test", .version = "1", .has_levels = false, .supports_dict = true}),
        fault_(fault),
        seen_(seen) {}
  Expected<std::unique_ptr<Session>> open_session(const CodecParams&,
                                                  std::shared_ptr<const PreparedDict>) const override {
    return {std::make_unique<RleSession>(fault_, seen_), ""};
  }
  Expected<std::shared_ptr<const PreparedDict>> digest_dict(ByteView bytes, const CodecParams&) const override {
    return {std::make_shared<RawDict>(bytes.size()), ""};
  }

 private:
  Fault fault_;
  SeenBlocks* seen_;
};

class CopySession : public Session {
 public:
  size_t bound(size_t n) const override { return n; }
  CallResult compress(ByteView in, MutableByteView out) noexcept override {
    if (out.size() < in.size()) return CallResult::Fail("copy: output too small");
    std::copy(in.begin(), in.end(), out.begin());  // no memcpy: an empty span may hold a null pointer
    return CallResult::Ok(in.size());
  }
  CallResult decompress(ByteView in, MutableByteView out) noexcept override { return compress(in, out); }
  ContextMemory context_memory() const override { return {}; }
};

class CopyCodec : public Codec {
 public:
  CopyCodec() : Codec({.name = "memcpy", .library = "libc", .has_levels = false, .is_reference = true}) {}
  Expected<std::unique_ptr<Session>> open_session(const CodecParams&,
                                                  std::shared_ptr<const PreparedDict>) const override {
    return {std::make_unique<CopySession>(), ""};
  }
};

}  // namespace kvz::testing
