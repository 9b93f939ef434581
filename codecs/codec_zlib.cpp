// zlib: raw deflate (windowBits -14, memLevel 8, as RocksDB) or, with ":zlib", the zlib
// wrapper with windowBits 15 (compress2's, and what Cassandra, Scylla, HBase GZ and
// WiredTiger deflate with). The z_streams are initialised once per session (zalloc/zfree counted) and
// reset per call, so deflate/inflate never allocate after open().
#include <zlib.h>

#include <climits>
#include <utility>
#include <vector>

#include "codecs/codec_util.h"
#include "codecs/registry.h"
#include "codecs/session_memory.h"

namespace kvz {
namespace {

using detail::data_or_dummy;

constexpr int kRawWindowBits = -14;       // RocksDB's raw deflate (16 KiB window)
constexpr int kContainerWindowBits = 15;  // zlib wrapper: compress2 / deflateInit default
constexpr int kMemLevel = 8;

// zlib's own options: ":zlib" = the zlib container with windowBits 15 (compress2's bytes,
// Cassandra's Deflater); ":raw" or nothing = raw deflate with windowBits -14 (RocksDB).
// ":fresh" = the stream set up and torn down for every block (deflateInit2 ... deflateEnd,
// inflateInit2 ... inflateEnd), as RocksDB 7.8's Zlib_Compress/Zlib_Uncompress do: the same
// bytes, the store's cost per call. Without it a session's streams are reset between blocks.
struct ZlibOptions {
  bool container = false;
  bool fresh = false;

  std::string parse(const CodecInfo& info, const std::vector<std::string>& tokens) {
    bool raw = false;
    for (const auto& t : tokens) {
      if (t == "zlib")
        container = true;
      else if (t == "raw")
        raw = true;
      else if (t == "fresh")
        fresh = true;
      else
        return detail::unknown_option(info, t);
    }
    if (container && raw) return "zlib: ':zlib' and ':raw' contradict each other";
    return {};
  }
  std::string canonical() const { return std::string(container ? ":zlib" : "") + (fresh ? ":fresh" : ""); }
};

class ZlibDict final : public PreparedDict {
 public:
  explicit ZlibDict(ByteView b) : bytes(b.begin(), b.end()) {}
  size_t size() const override { return bytes.size(); }
  size_t memory_bytes() const override { return bytes.size(); }
  std::vector<uint8_t> bytes;
};

const char* zlib_error(const z_stream& s, int code) { return s.msg ? s.msg : zError(code); }

void* zalloc_cb(void* opaque, uInt items, uInt size) {
  return detail::CountingHeap::alloc_cb(opaque, static_cast<size_t>(items) * size);
}
void zfree_cb(void* opaque, void* p) { detail::CountingHeap::free_cb(opaque, p); }

class ZlibSession final : public Session {
 public:
  ZlibSession(const CodecParams& p, const ZlibOptions& o, std::shared_ptr<const ZlibDict> dict)
      : container_(o.container), fresh_(o.fresh), level_(p.level), dict_(std::move(dict)) {
    for (auto [s, heap] : {std::pair{&def_, &def_heap_}, std::pair{&inf_, &inf_heap_}}) {
      s->zalloc = zalloc_cb;
      s->zfree = zfree_cb;
      s->opaque = heap;
    }
    def_ok_ = init_deflate() == Z_OK;
    inf_ok_ = init_inflate() == Z_OK;
  }
  ~ZlibSession() override {
    if (def_ok_) deflateEnd(&def_);
    if (inf_ok_) inflateEnd(&inf_);
  }
  bool ok() const { return def_ok_ && inf_ok_; }

  size_t bound(size_t n) const override {
    return n > UINT_MAX ? 0 : deflateBound(const_cast<z_stream*>(&def_), static_cast<uLong>(n));
  }

  CallResult compress(ByteView in, MutableByteView out) noexcept override {
    if (in.size() > UINT_MAX) return CallResult::Fail("zlib: input larger than 4 GiB");
    int r = Z_OK;
    if (fresh_) {  // the previous block's stream ends here, this block's begins
      deflateEnd(&def_);
      r = init_deflate();
      def_ok_ = r == Z_OK;
    } else {
      r = deflateReset(&def_);
    }
    if (r == Z_OK && dict_)
      r = deflateSetDictionary(&def_, dict_->bytes.data(), static_cast<uInt>(dict_->bytes.size()));
    if (r != Z_OK) return CallResult::Fail(zlib_error(def_, r));
    def_.next_in = const_cast<Bytef*>(data_or_dummy(in));
    def_.avail_in = static_cast<uInt>(in.size());
    def_.next_out = data_or_dummy(out);
    def_.avail_out = out.size() > UINT_MAX ? UINT_MAX : static_cast<uInt>(out.size());
    r = deflate(&def_, Z_FINISH);
    if (r == Z_OK || r == Z_BUF_ERROR) return CallResult::Fail(detail::kOutputTooSmall);
    if (r != Z_STREAM_END) return CallResult::Fail(zlib_error(def_, r));
    return CallResult::Ok(def_.total_out);
  }

  CallResult decompress(ByteView in, MutableByteView out) noexcept override {
    if (in.size() > UINT_MAX || out.size() > UINT_MAX) return CallResult::Fail("zlib: block larger than 4 GiB");
    int r = Z_OK;
    if (fresh_) {
      inflateEnd(&inf_);
      r = init_inflate();
      inf_ok_ = r == Z_OK;
    } else {
      r = inflateReset(&inf_);
    }
    // Raw deflate carries no dictionary id: the dictionary is set up front. The zlib
    // wrapper asks for it (Z_NEED_DICT) after reading its header.
    if (r == Z_OK && dict_ && !container_)
      r = inflateSetDictionary(&inf_, dict_->bytes.data(), static_cast<uInt>(dict_->bytes.size()));
    if (r != Z_OK) return CallResult::Fail(zlib_error(inf_, r));
    inf_.next_in = const_cast<Bytef*>(data_or_dummy(in));
    inf_.avail_in = static_cast<uInt>(in.size());
    inf_.next_out = data_or_dummy(out);
    inf_.avail_out = static_cast<uInt>(out.size());
    r = inflate(&inf_, Z_FINISH);
    if (r == Z_NEED_DICT) {
      if (!dict_) return CallResult::Fail("zlib: stream needs a dictionary");
      r = inflateSetDictionary(&inf_, dict_->bytes.data(), static_cast<uInt>(dict_->bytes.size()));
      if (r == Z_OK) r = inflate(&inf_, Z_FINISH);
    }
    if (r == Z_BUF_ERROR) {
      return CallResult::Fail(inf_.avail_out == 0 ? "zlib: output larger than the original size"
                                                  : "zlib: truncated input");
    }
    if (r != Z_STREAM_END) return CallResult::Fail(zlib_error(inf_, r));
    if (inf_.avail_in != 0) return CallResult::Fail("zlib: trailing bytes after the stream");
    if (inf_.total_out != out.size()) return CallResult::Fail(detail::kSizeMismatch);
    return CallResult::Ok(inf_.total_out);
  }

  ContextMemory context_memory() const override { return {def_heap_.live_bytes(), inf_heap_.live_bytes()}; }
  uint64_t library_heap_allocations() const override { return def_heap_.allocations() + inf_heap_.allocations(); }

 private:
  int window_bits() const { return container_ ? kContainerWindowBits : kRawWindowBits; }
  int init_deflate() { return deflateInit2(&def_, level_, Z_DEFLATED, window_bits(), kMemLevel, Z_DEFAULT_STRATEGY); }
  int init_inflate() { return inflateInit2(&inf_, window_bits()); }

  detail::CountingHeap def_heap_;  // first: outlive the streams
  detail::CountingHeap inf_heap_;
  bool container_;
  bool fresh_;
  int level_;
  std::shared_ptr<const ZlibDict> dict_;
  z_stream def_{};
  z_stream inf_{};
  bool def_ok_ = false;
  bool inf_ok_ = false;
};

class ZlibCodec final : public Codec {
 public:
  // One data row, kept as written: the formatter would put one field per line.
  // clang-format off
  ZlibCodec()
      : Codec({.name = "zlib", .library = "zlib", .version = zlibVersion(),
               .min_level = 1, .max_level = 9, .default_level = 6,  // Z_DEFAULT_COMPRESSION
               .standard_levels = CodecInfo::level_range(1, 9), .ratio_levels = {9}, .supports_dict = true,
               .notes = "raw deflate, windowBits -14, memLevel 8 (RocksDB); ':zlib' = zlib wrapper, windowBits 15 "
                        "(compress2); ':fresh' = streams set up per block (RocksDB 7.8's call); dict: "
                        "deflateSetDictionary per call",
               .options_help = "zlib (zlib container, windowBits 15), raw (raw deflate, the default), fresh "
                               "(deflateInit2/deflateEnd per block, as RocksDB 7.8 calls it)"}) {}
  // clang-format on
  std::string parse_options(const std::vector<std::string>& tokens, CodecParams& params) const override {
    ZlibOptions o;
    if (auto err = o.parse(info(), tokens); !err.empty()) return err;
    params.options = o.canonical();
    return {};
  }

  Expected<std::unique_ptr<Session>> open_session(const CodecParams& params,
                                                  std::shared_ptr<const PreparedDict> dict) const override {
    std::string error;
    auto d = detail::dict_as<ZlibDict>(dict, info(), error);
    if (!error.empty()) return {nullptr, error};
    ZlibOptions options;
    options.parse(info(), params.option_tokens());  // valid: check_params parsed them
    auto s = std::make_unique<ZlibSession>(params, options, std::move(d));
    if (!s->ok()) return {nullptr, "zlib: deflateInit2/inflateInit2 failed"};
    return {std::move(s), {}};
  }

  Expected<std::shared_ptr<const PreparedDict>> digest_dict(ByteView bytes, const CodecParams&) const override {
    if (bytes.size() > UINT_MAX) return {nullptr, "zlib: bad dictionary size"};
    return {std::make_shared<ZlibDict>(bytes), {}};
  }
};

}  // namespace

void registerCodecZlib(CodecRegistry& r) { r.add(std::make_unique<ZlibCodec>()); }

}  // namespace kvz
