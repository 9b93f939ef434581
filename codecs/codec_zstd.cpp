// zstd: ZSTD_compress2 / ZSTD_decompressDCtx on contexts created once per session with a
// counting allocator (ZSTD_customMem); dictionaries as a prepared CDict + DDict. ":fresh":
// ZSTD_compress / ZSTD_decompress, a context made and freed in every call, as WiredTiger's zstd
// extension calls it (ext/compressors/zstd/zstd_compress.c).
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_customMem, ZSTD_create?Ctx_advanced (exported by libzstd)
#include <zstd.h>

#include <fmt/format.h>

#include <algorithm>

#include "codecs/codec_util.h"
#include "codecs/registry.h"
#include "codecs/session_memory.h"

namespace kvz {
namespace {

using detail::data_or_dummy;

// CDict (for one level) and DDict, digested once and shared by every session.
class ZstdDict final : public PreparedDict {
 public:
  ZstdDict(ZSTD_CDict* c, ZSTD_DDict* d, size_t size, int for_level)
      : cdict(c), ddict(d), bytes(size), level(for_level) {}
  ~ZstdDict() override {
    ZSTD_freeCDict(cdict);
    ZSTD_freeDDict(ddict);
  }
  size_t size() const override { return bytes; }
  size_t memory_bytes() const override { return ZSTD_sizeof_CDict(cdict) + ZSTD_sizeof_DDict(ddict); }

  ZSTD_CDict* cdict;
  ZSTD_DDict* ddict;
  size_t bytes;
  int level;
};

class ZstdSession final : public Session {
 public:
  explicit ZstdSession(std::shared_ptr<const ZstdDict> dict) : dict_(std::move(dict)) {
    ZSTD_customMem mem{detail::CountingHeap::alloc_cb, detail::CountingHeap::free_cb, &heap_};
    cctx_ = ZSTD_createCCtx_advanced(mem);
    dctx_ = ZSTD_createDCtx_advanced(mem);
  }
  ~ZstdSession() override {
    ZSTD_freeCCtx(cctx_);
    ZSTD_freeDCtx(dctx_);
  }

  // Parameters are set once here; ZSTD_compress2 keeps them across calls.
  std::string init(const CodecParams& p, int window_log) {
    if (!cctx_ || !dctx_) return "zstd: cannot create contexts";
    size_t r = ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, p.level);
    if (!ZSTD_isError(r) && window_log != 0) {
      r = ZSTD_CCtx_setParameter(cctx_, ZSTD_c_windowLog, window_log);
      // The decoder refuses windows above 2^27 unless told otherwise.
      if (!ZSTD_isError(r)) r = ZSTD_DCtx_setParameter(dctx_, ZSTD_d_windowLogMax, window_log);
    }
    if (ZSTD_isError(r)) return std::string("zstd: ") + ZSTD_getErrorName(r);
    return {};
  }

  size_t bound(size_t n) const override { return ZSTD_compressBound(n); }

  CallResult compress(ByteView in, MutableByteView out) noexcept override {
    size_t r = dict_ ? ZSTD_compress_usingCDict(cctx_, data_or_dummy(out), out.size(), data_or_dummy(in), in.size(),
                                                dict_->cdict)
                     : ZSTD_compress2(cctx_, data_or_dummy(out), out.size(), data_or_dummy(in), in.size());
    if (ZSTD_isError(r)) return CallResult::Fail(ZSTD_getErrorName(r));
    return CallResult::Ok(r);
  }

  CallResult decompress(ByteView in, MutableByteView out) noexcept override {
    size_t r = dict_ ? ZSTD_decompress_usingDDict(dctx_, data_or_dummy(out), out.size(), data_or_dummy(in), in.size(),
                                                  dict_->ddict)
                     : ZSTD_decompressDCtx(dctx_, data_or_dummy(out), out.size(), data_or_dummy(in), in.size());
    if (ZSTD_isError(r)) return CallResult::Fail(ZSTD_getErrorName(r));
    if (r != out.size()) return CallResult::Fail(detail::kSizeMismatch);
    return CallResult::Ok(r);
  }

  ContextMemory context_memory() const override { return {ZSTD_sizeof_CCtx(cctx_), ZSTD_sizeof_DCtx(dctx_)}; }
  uint64_t library_heap_allocations() const override { return heap_.allocations(); }

 private:
  detail::CountingHeap heap_;  // declared first: outlives the contexts
  std::shared_ptr<const ZstdDict> dict_;
  ZSTD_CCtx* cctx_ = nullptr;
  ZSTD_DCtx* dctx_ = nullptr;
};

// ":fresh": the one-shot calls, each with a context of its own for that call.
class ZstdFreshSession final : public Session {
 public:
  explicit ZstdFreshSession(int level) : level_(level) {}
  size_t bound(size_t n) const override { return ZSTD_compressBound(n); }
  CallResult compress(ByteView in, MutableByteView out) noexcept override {
    const size_t r = ZSTD_compress(data_or_dummy(out), out.size(), data_or_dummy(in), in.size(), level_);
    if (ZSTD_isError(r)) return CallResult::Fail(ZSTD_getErrorName(r));
    return CallResult::Ok(r);
  }
  CallResult decompress(ByteView in, MutableByteView out) noexcept override {
    const size_t r = ZSTD_decompress(data_or_dummy(out), out.size(), data_or_dummy(in), in.size());
    if (ZSTD_isError(r)) return CallResult::Fail(ZSTD_getErrorName(r));
    if (r != out.size()) return CallResult::Fail(detail::kSizeMismatch);
    return CallResult::Ok(r);
  }
  // Held only during a call: what one call's contexts take at this level.
  ContextMemory context_memory() const override { return {ZSTD_estimateCCtxSize(level_), ZSTD_estimateDCtxSize()}; }

 private:
  int level_;
};

ZSTD_bounds window_bounds() { return ZSTD_cParam_getBounds(ZSTD_c_windowLog); }

class ZstdCodec final : public Codec {
 public:
  // One data row, kept as written: the formatter would put one field per line.
  // clang-format off
  ZstdCodec()
      : Codec({.name = "zstd", .library = "libzstd", .version = ZSTD_versionString(),
               .min_level = ZSTD_minCLevel(), .max_level = ZSTD_maxCLevel(), .default_level = ZSTD_CLEVEL_DEFAULT,
               .standard_levels = CodecInfo::level_range(-7, ZSTD_maxCLevel(), /*skip_zero=*/true),
               .fast_levels = {-5, -1, 1}, .ratio_levels = {19, 22}, .supports_dict = true,
               .notes = "level 0 = zstd's default (3); negative levels = fast mode; dict: CDict+DDict",
               .options_help = fmt::format("wN (window log {}..{}; not with dict=), fresh (ZSTD_compress and "
                                           "ZSTD_decompress per call, as WiredTiger's extension calls them; alone)",
                                           window_bounds().lowerBound, window_bounds().upperBound)}),
        min_window_log_(window_bounds().lowerBound), max_window_log_(window_bounds().upperBound) {}
  // clang-format on
  // zstd's one option, the window log ":wN"; a dictionary brings its own window.
  std::string parse_options(const std::vector<std::string>& tokens, CodecParams& params) const override {
    if (std::find(tokens.begin(), tokens.end(), "fresh") != tokens.end()) {
      if (tokens.size() != 1 || params.dict_size) return "zstd: fresh takes no window and no dict=";
      params.options = ":fresh";
      return "";
    }
    auto err = detail::parse_window_options(info(), tokens, min_window_log_, max_window_log_, params);
    if (err.empty() && !params.options.empty() && params.dict_size)
      err = "zstd: the window option cannot be combined with dict=";
    return err;
  }

  Expected<std::unique_ptr<Session>> open_session(const CodecParams& params,
                                                  std::shared_ptr<const PreparedDict> dict) const override {
    if (params.options == ":fresh") {
      if (dict) return {nullptr, "zstd: fresh takes no dictionary"};
      return {std::make_unique<ZstdFreshSession>(params.level), {}};
    }
    std::string error;
    auto zdict = detail::dict_as<ZstdDict>(dict, info(), error);
    if (!error.empty()) return {nullptr, error};
    if (zdict && zdict->level != params.level)
      return {nullptr,
              fmt::format("zstd: dictionary prepared for level {}, session level {}", zdict->level, params.level)};
    auto s = std::make_unique<ZstdSession>(std::move(zdict));
    if (auto err = s->init(params, detail::window_log_of(params)); !err.empty()) return {nullptr, err};
    return {std::move(s), {}};
  }

  Expected<std::shared_ptr<const PreparedDict>> digest_dict(ByteView bytes, const CodecParams& params) const override {
    ZSTD_CDict* c = ZSTD_createCDict(bytes.data(), bytes.size(), params.level);
    ZSTD_DDict* d = ZSTD_createDDict(bytes.data(), bytes.size());
    if (!c || !d) {
      ZSTD_freeCDict(c);
      ZSTD_freeDDict(d);
      return {nullptr, "zstd: cannot digest the dictionary"};
    }
    return {std::make_shared<ZstdDict>(c, d, bytes.size(), params.level), {}};
  }

 private:
  int min_window_log_ = 0, max_window_log_ = 0;
};

}  // namespace

void registerCodecZstd(CodecRegistry& r) { r.add(std::make_unique<ZstdCodec>()); }

}  // namespace kvz
