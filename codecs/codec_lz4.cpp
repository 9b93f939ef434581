// lz4 (acceleration 1..65537) and lz4hc (levels 1..12) on states allocated once per session.
// lz4 ":stream": RocksDB 7.8's LZ4_Compress call, LZ4_compress_fast_continue on a freshly
// initialised stream (byU32 table); the one-shot extState call uses the byU16 table below
// 64 KiB, and LZ4_resetStream_fast keeps stale entries out where a zeroed table offers
// position 0 as a candidate: all three give different bytes.
// ":fresh" (lz4, implies ":stream"; lz4hc): RocksDB 7.8's whole call per block: the stream is
// created (malloc + init), the dictionary loaded into it, used once and freed, and decoding
// goes through a stream decoder created per block: the same bytes at the store's cost.
// Dictionaries: the bytes are loaded once (LZ4_loadDict / LZ4_loadDictHC) into a template
// stream; each call starts from a copy of it. (Debian's shared liblz4 1.9.4 does not export
// LZ4_attach_dictionary; copying a pre-loaded stream is the alternative lz4.h documents.)
#define LZ4_HC_STATIC_LINKING_ONLY
#include <lz4.h>
#include <lz4hc.h>

#include <fmt/format.h>
#include <climits>
#include <cstring>
#include <vector>

#include "codecs/codec_util.h"
#include "codecs/registry.h"

namespace kvz {
namespace {

using detail::data_or_dummy;

const char* kLz4Corrupt = "lz4: corrupt input or output size mismatch (LZ4_decompress_safe < 0)";
const char* kLz4TooLarge = "lz4: input larger than LZ4_MAX_INPUT_SIZE";

// lz4 takes int sizes: the capacity is clamped, the input is checked by the caller.
int clamp_capacity(size_t n) { return n > INT_MAX ? INT_MAX : static_cast<int>(n); }

// Raw dictionary bytes plus a stream with them loaded: LZ4_stream_t for lz4,
// LZ4_streamHC_t (for one level) for lz4hc. The streams point into `bytes`.
class Lz4Dict final : public PreparedDict {
 public:
  Lz4Dict(ByteView b, bool for_hc, int for_level) : bytes(b.begin(), b.end()), hc(for_hc), level(for_level) {
    if (hc) {
      hc_stream = std::make_unique<LZ4_streamHC_t>();
      LZ4_initStreamHC(hc_stream.get(), sizeof(LZ4_streamHC_t));
      LZ4_resetStreamHC_fast(hc_stream.get(), level);  // sets the level; loadDictHC keeps it
      LZ4_loadDictHC(hc_stream.get(), reinterpret_cast<const char*>(bytes.data()), static_cast<int>(bytes.size()));
    } else {
      stream = std::make_unique<LZ4_stream_t>();
      LZ4_initStream(stream.get(), sizeof(LZ4_stream_t));
      LZ4_loadDict(stream.get(), reinterpret_cast<const char*>(bytes.data()), static_cast<int>(bytes.size()));
    }
  }
  size_t size() const override { return bytes.size(); }
  size_t memory_bytes() const override { return bytes.size() + (hc ? sizeof(LZ4_streamHC_t) : sizeof(LZ4_stream_t)); }

  std::vector<uint8_t> bytes;
  bool hc;
  int level;
  std::unique_ptr<LZ4_stream_t> stream;
  std::unique_ptr<LZ4_streamHC_t> hc_stream;
};

// What lz4 and lz4hc sessions share: the bound, decoding, the dictionary and one state.
template <class State>
class Lz4SessionBase : public Session {
 public:
  explicit Lz4SessionBase(std::shared_ptr<const Lz4Dict> dict)
      : dict_(std::move(dict)), state_(std::make_unique<State>()) {}
  size_t bound(size_t n) const override {
    return n > LZ4_MAX_INPUT_SIZE ? 0 : static_cast<size_t>(LZ4_compressBound(static_cast<int>(n)));
  }
  CallResult decompress(ByteView in, MutableByteView out) noexcept override;
  ContextMemory context_memory() const override { return {sizeof(State), 0}; }  // decoding is stateless

 protected:
  // RocksDB's decoding call: a stream decoder created, pointed at the dictionary, used, freed.
  CallResult decompress_fresh(ByteView in, MutableByteView out) noexcept;

  std::shared_ptr<const Lz4Dict> dict_;
  std::unique_ptr<State> state_;
};

template <class State>
CallResult Lz4SessionBase<State>::decompress(ByteView in, MutableByteView out) noexcept {
  const Lz4Dict* dict = dict_.get();
  if (in.size() > INT_MAX) return CallResult::Fail(kLz4TooLarge);
  const auto* src = reinterpret_cast<const char*>(data_or_dummy(in));
  auto* dst = reinterpret_cast<char*>(data_or_dummy(out));
  int cap = clamp_capacity(out.size());
  int n = dict ? LZ4_decompress_safe_usingDict(src, dst, static_cast<int>(in.size()), cap,
                                               reinterpret_cast<const char*>(dict->bytes.data()),
                                               static_cast<int>(dict->bytes.size()))
               : LZ4_decompress_safe(src, dst, static_cast<int>(in.size()), cap);
  if (n < 0) return CallResult::Fail(kLz4Corrupt);
  if (static_cast<size_t>(n) != out.size()) return CallResult::Fail(detail::kSizeMismatch);
  return CallResult::Ok(static_cast<size_t>(n));
}

template <class State>
CallResult Lz4SessionBase<State>::decompress_fresh(ByteView in, MutableByteView out) noexcept {
  if (in.size() > INT_MAX) return CallResult::Fail(kLz4TooLarge);
  LZ4_streamDecode_t* s = LZ4_createStreamDecode();
  if (!s) return CallResult::Fail("lz4: LZ4_createStreamDecode failed");
  if (dict_)
    LZ4_setStreamDecode(s, reinterpret_cast<const char*>(dict_->bytes.data()), static_cast<int>(dict_->bytes.size()));
  const int n = LZ4_decompress_safe_continue(s, reinterpret_cast<const char*>(data_or_dummy(in)),
                                             reinterpret_cast<char*>(data_or_dummy(out)), static_cast<int>(in.size()),
                                             clamp_capacity(out.size()));
  LZ4_freeStreamDecode(s);
  if (n < 0) return CallResult::Fail(kLz4Corrupt);
  if (static_cast<size_t>(n) != out.size()) return CallResult::Fail(detail::kSizeMismatch);
  return CallResult::Ok(static_cast<size_t>(n));
}

class Lz4Session final : public Lz4SessionBase<LZ4_stream_t> {
 public:
  Lz4Session(int acceleration, bool stream, bool fresh, std::shared_ptr<const Lz4Dict> dict)
      : Lz4SessionBase(std::move(dict)), acceleration_(acceleration), stream_(stream), fresh_(fresh) {
    LZ4_initStream(state_.get(), sizeof(LZ4_stream_t));
  }
  CallResult compress(ByteView in, MutableByteView out) noexcept override {
    if (in.size() > LZ4_MAX_INPUT_SIZE) return CallResult::Fail(kLz4TooLarge);
    const auto* src = reinterpret_cast<const char*>(data_or_dummy(in));
    auto* dst = reinterpret_cast<char*>(data_or_dummy(out));
    int n = 0;
    if (fresh_) {
      LZ4_stream_t* s = LZ4_createStream();
      if (!s) return CallResult::Fail("lz4: LZ4_createStream failed");
      if (dict_)
        LZ4_loadDict(s, reinterpret_cast<const char*>(dict_->bytes.data()), static_cast<int>(dict_->bytes.size()));
      n = LZ4_compress_fast_continue(s, src, dst, static_cast<int>(in.size()), clamp_capacity(out.size()),
                                     acceleration_);
      LZ4_freeStream(s);
    } else if (dict_) {
      std::memcpy(state_.get(), dict_->stream.get(), sizeof(LZ4_stream_t));
      n = LZ4_compress_fast_continue(state_.get(), src, dst, static_cast<int>(in.size()), clamp_capacity(out.size()),
                                     acceleration_);
    } else if (stream_) {
      // What LZ4_createStream hands RocksDB: a zeroed 16 KiB state (no allocation here).
      LZ4_initStream(state_.get(), sizeof(LZ4_stream_t));
      n = LZ4_compress_fast_continue(state_.get(), src, dst, static_cast<int>(in.size()), clamp_capacity(out.size()),
                                     acceleration_);
    } else {
      n = LZ4_compress_fast_extState(state_.get(), src, dst, static_cast<int>(in.size()), clamp_capacity(out.size()),
                                     acceleration_);
    }
    if (n <= 0) return CallResult::Fail(detail::kOutputTooSmall);
    return CallResult::Ok(static_cast<size_t>(n));
  }
  CallResult decompress(ByteView in, MutableByteView out) noexcept override {
    return fresh_ ? decompress_fresh(in, out) : Lz4SessionBase::decompress(in, out);
  }

 private:
  int acceleration_;
  bool stream_;  // no dictionary: fresh-stream continue call instead of one-shot
  bool fresh_;
};

class Lz4HcSession final : public Lz4SessionBase<LZ4_streamHC_t> {
 public:
  Lz4HcSession(int level, bool fresh, std::shared_ptr<const Lz4Dict> dict)
      : Lz4SessionBase(std::move(dict)), level_(level), fresh_(fresh) {
    LZ4_initStreamHC(state_.get(), sizeof(LZ4_streamHC_t));
  }
  CallResult compress(ByteView in, MutableByteView out) noexcept override {
    if (in.size() > LZ4_MAX_INPUT_SIZE) return CallResult::Fail(kLz4TooLarge);
    if (fresh_) return compress_fresh(in, out);
    if (dict_) {
      std::memcpy(state_.get(), dict_->hc_stream.get(), sizeof(LZ4_streamHC_t));
    } else {
      // What LZ4_compress_HC_extStateHC_fastReset does (not exported by the shared
      // library): no 256 KiB table wipe per call, same output as LZ4_compress_HC.
      LZ4_resetStreamHC_fast(state_.get(), level_);
    }
    int n = LZ4_compress_HC_continue(state_.get(), reinterpret_cast<const char*>(data_or_dummy(in)),
                                     reinterpret_cast<char*>(data_or_dummy(out)), static_cast<int>(in.size()),
                                     clamp_capacity(out.size()));
    if (n <= 0) return CallResult::Fail(detail::kOutputTooSmall);
    return CallResult::Ok(static_cast<size_t>(n));
  }
  CallResult decompress(ByteView in, MutableByteView out) noexcept override {
    return fresh_ ? decompress_fresh(in, out) : Lz4SessionBase::decompress(in, out);
  }

 private:
  // LZ4_createStreamHC (malloc + init of the 256 KiB tables), the level, the dictionary, one
  // call, LZ4_freeStreamHC.
  CallResult compress_fresh(ByteView in, MutableByteView out) noexcept {
    LZ4_streamHC_t* s = LZ4_createStreamHC();
    if (!s) return CallResult::Fail("lz4hc: LZ4_createStreamHC failed");
    LZ4_resetStreamHC(s, level_);  // RocksDB 7.8 calls exactly this
    if (dict_)
      LZ4_loadDictHC(s, reinterpret_cast<const char*>(dict_->bytes.data()), static_cast<int>(dict_->bytes.size()));
    const int n = LZ4_compress_HC_continue(s, reinterpret_cast<const char*>(data_or_dummy(in)),
                                           reinterpret_cast<char*>(data_or_dummy(out)), static_cast<int>(in.size()),
                                           clamp_capacity(out.size()));
    LZ4_freeStreamHC(s);
    if (n <= 0) return CallResult::Fail(detail::kOutputTooSmall);
    return CallResult::Ok(static_cast<size_t>(n));
  }

  int level_;
  bool fresh_;
};

// needs_original_size: the block format does not record it (RocksDB prefixes it).
// Data rows, kept as written: the formatter would put one field per line.
// clang-format off
CodecInfo hc_info() {
  return {.name = "lz4hc", .library = "liblz4", .version = LZ4_versionString(),
          .min_level = 1, .max_level = LZ4HC_CLEVEL_MAX, .default_level = LZ4HC_CLEVEL_DEFAULT,
          .standard_levels = CodecInfo::level_range(1, LZ4HC_CLEVEL_MAX), .ratio_levels = {LZ4HC_CLEVEL_MAX},
          .supports_dict = true, .needs_original_size = true,
          .notes = "same format as lz4; levels 10..12 = optimal parser; ':fresh' = RocksDB 7.8's call (stream "
                   "created, dictionary loaded and freed per block); dict: last 64 KiB used",
          .options_help = "fresh (LZ4_createStreamHC/LZ4_freeStreamHC per block, as RocksDB 7.8 calls it)"};
}

CodecInfo fast_info() {
  return {.name = "lz4", .library = "liblz4", .version = LZ4_versionString(),
          .min_level = 1, .max_level = 65537, .default_level = 1,  // LZ4_ACCELERATION_MAX
          .standard_levels = {1, 2, 4, 8, 16, 32}, .fast_levels = {1}, .supports_dict = true,
          .needs_original_size = true, .level_label = "acceleration",
          .notes = "level = acceleration (higher = faster, weaker); ':stream' = RocksDB 7.8's "
                   "LZ4_compress_fast_continue on a fresh stream; dict: last 64 KiB used",
          .options_help = "stream (RocksDB 7.8's LZ4_compress_fast_continue on a fresh stream), fresh (also "
                          "LZ4_createStream/LZ4_freeStream and the dictionary loaded per block: RocksDB 7.8's whole "
                          "call)"};
}
// clang-format on

class Lz4Codec final : public Codec {
 public:
  explicit Lz4Codec(bool hc) : Codec(hc ? hc_info() : fast_info()), hc_(hc) {}

  // lz4: ":stream", ":fresh" (which implies ":stream"); lz4hc: ":fresh".
  std::string parse_options(const std::vector<std::string>& tokens, CodecParams& params) const override {
    bool stream = false, fresh = false;
    for (const auto& t : tokens) {
      if (t == "fresh") {
        fresh = true;
      } else if (!hc_ && t == "stream") {
        stream = true;
      } else {
        return detail::unknown_option(info(), t);
      }
    }
    params.options = std::string(!hc_ && (stream || fresh) ? ":stream" : "") + (fresh ? ":fresh" : "");
    return {};
  }

  Expected<std::unique_ptr<Session>> open_session(const CodecParams& params,
                                                  std::shared_ptr<const PreparedDict> dict) const override {
    std::string error;
    auto d = detail::dict_as<Lz4Dict>(dict, info(), error);
    if (d && d->hc != hc_) error = info().name + ": dictionary was prepared for another codec";
    if (!error.empty()) return {nullptr, error};
    if (hc_ && d && d->level != params.level)
      return {nullptr,
              fmt::format("lz4hc: dictionary prepared for level {}, session level {}", d->level, params.level)};
    const bool fresh = params.options.find(":fresh") != std::string::npos;
    if (hc_) return {std::make_unique<Lz4HcSession>(params.level, fresh, std::move(d)), {}};
    const bool stream = params.options.find(":stream") != std::string::npos;
    return {std::make_unique<Lz4Session>(params.level, stream, fresh, std::move(d)), {}};
  }

  Expected<std::shared_ptr<const PreparedDict>> digest_dict(ByteView bytes, const CodecParams& params) const override {
    if (bytes.size() > INT_MAX) return {nullptr, info().name + ": bad dictionary size"};
    return {std::make_shared<Lz4Dict>(bytes, hc_, params.level), {}};
  }

 private:
  bool hc_;
};

}  // namespace

void registerCodecLz4(CodecRegistry& r) {
  r.add(std::make_unique<Lz4Codec>(false));
  r.add(std::make_unique<Lz4Codec>(true));
}

}  // namespace kvz
