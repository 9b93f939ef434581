// bzip2: libbz2's stream API, one whole .bz2 stream per call ("BZh" + the level digit, the
// blocks, the stream CRC), level = blockSize100k 1..9, workFactor 30 (libbz2's default, and the
// 30 RocksDB 7.8 passes). BZ2_bzBuffToBuffCompress/Decompress are exactly BZ2_bzCompressInit +
// one BZ2_bzCompress(BZ_FINISH) + BZ2_bzCompressEnd (and the decompress twins), but they
// allocate through malloc; these calls take the session's arena instead (bz_stream's
// bzalloc/bzfree), so warm calls skip the heap and the bytes are the same (a test compares
// them). libbz2 has no reset: every call sets its state up and ends it, as every caller does.
#include <bzlib.h>

#include <climits>
#include <cstring>
#include <string>

#include "codecs/codec_util.h"
#include "codecs/registry.h"
#include "codecs/session_memory.h"

namespace kvz {
namespace {

using detail::Arena;
using detail::data_or_dummy;

constexpr int kWorkFactor = 30;  // bzlib.h: 0 means 30; RocksDB's BZip2_Compress passes 30

constexpr detail::ErrorName kBzErrors[] = {{BZ_SEQUENCE_ERROR, "BZ_SEQUENCE_ERROR"},
                                           {BZ_PARAM_ERROR, "BZ_PARAM_ERROR"},
                                           {BZ_MEM_ERROR, "BZ_MEM_ERROR: cannot allocate memory"},
                                           {BZ_DATA_ERROR, "BZ_DATA_ERROR: compressed data is corrupt"},
                                           {BZ_DATA_ERROR_MAGIC, "BZ_DATA_ERROR_MAGIC: not a bzip2 stream"},
                                           {BZ_UNEXPECTED_EOF, "BZ_UNEXPECTED_EOF: truncated input"},
                                           {BZ_OUTBUFF_FULL, "BZ_OUTBUFF_FULL"},
                                           {BZ_CONFIG_ERROR, "BZ_CONFIG_ERROR: libbz2 was miscompiled"}};

const char* bz_error_name(int r) { return detail::error_name(kBzErrors, r, "libbz2: unknown error"); }

void* bz_alloc_cb(void* opaque, int items, int size) {
  if (items < 0 || size < 0) return nullptr;
  return Arena::alloc_cb(opaque, static_cast<size_t>(items) * static_cast<size_t>(size));
}
void bz_free_cb(void* opaque, void* p) { Arena::free_cb(opaque, p); }

// libbz2's documented worst case: 1 % more than the input, plus 600 bytes (bzlib.h manual,
// BZ2_bzBuffToBuffCompress).
size_t bz_bound(size_t n) { return n + n / 100 + 600; }

// A bz_stream over `in` and `out` whose memory comes from `arena`.
bz_stream stream_over(Arena& arena, ByteView in, MutableByteView out) {
  bz_stream s;
  std::memset(&s, 0, sizeof s);
  s.bzalloc = bz_alloc_cb;
  s.bzfree = bz_free_cb;
  s.opaque = &arena;
  s.next_in = const_cast<char*>(reinterpret_cast<const char*>(data_or_dummy(in)));  // libbz2 is not const-correct
  s.avail_in = static_cast<unsigned>(in.size());
  s.next_out = reinterpret_cast<char*>(data_or_dummy(out));
  s.avail_out = static_cast<unsigned>(out.size());
  return s;
}

class Bzip2Session final : public detail::ArenaSession {
 public:
  explicit Bzip2Session(int block_size_100k) : level_(block_size_100k) {}

  size_t bound(size_t n) const override { return bz_bound(n); }

  CallResult compress(ByteView in, MutableByteView out) noexcept override {
    if (in.size() > UINT_MAX || out.size() > UINT_MAX) return CallResult::Fail("bzip2: a call takes at most 4 GiB");
    enc_arena_.reset();
    bz_stream s = stream_over(enc_arena_, in, out);
    int r = BZ2_bzCompressInit(&s, level_, 0, kWorkFactor);
    if (r != BZ_OK) return CallResult::Fail(bz_error_name(r));
    r = BZ2_bzCompress(&s, BZ_FINISH);
    const size_t written = out.size() - s.avail_out;
    BZ2_bzCompressEnd(&s);
    if (r == BZ_FINISH_OK) return CallResult::Fail(detail::kOutputTooSmall);  // the output filled up first
    if (r != BZ_STREAM_END) return CallResult::Fail(bz_error_name(r));
    return CallResult::Ok(written);
  }

  CallResult decompress(ByteView in, MutableByteView out) noexcept override {
    if (in.size() > UINT_MAX || out.size() > UINT_MAX) return CallResult::Fail("bzip2: a call takes at most 4 GiB");
    dec_arena_.reset();
    bz_stream s = stream_over(dec_arena_, in, out);
    int r = BZ2_bzDecompressInit(&s, 0, 0);
    if (r != BZ_OK) return CallResult::Fail(bz_error_name(r));
    r = BZ2_bzDecompress(&s);
    const size_t produced = out.size() - s.avail_out;
    const unsigned left = s.avail_in;
    BZ2_bzDecompressEnd(&s);
    // As BZ2_bzBuffToBuffDecompress tells them apart: room left means the input ran out.
    if (r == BZ_OK && produced < out.size()) return CallResult::Fail("bzip2: truncated input (no end of stream)");
    if (r == BZ_OK) return CallResult::Fail("bzip2: no end of stream at the original size (longer, or truncated)");
    if (r != BZ_STREAM_END) return CallResult::Fail(bz_error_name(r));
    if (left != 0) return CallResult::Fail("bzip2: trailing bytes after the stream");
    if (produced != out.size()) return CallResult::Fail(detail::kSizeMismatch);
    return CallResult::Ok(produced);
  }

 private:
  int level_;
};

// BZ2_bzlibVersion() is "1.0.8, 13-Jul-2019": the version before the comma, as the other
// codecs record theirs.
std::string bz_version() {
  const std::string v = BZ2_bzlibVersion();
  return v.substr(0, v.find(','));
}

class Bzip2Codec final : public Codec {
 public:
  // One data row, kept as written: the formatter would put one field per line.
  // clang-format off
  Bzip2Codec()
      : Codec({.name = "bzip2", .library = "libbz2", .version = bz_version(),
               .min_level = 1, .max_level = 9, .default_level = 9,  // the bzip2 tool's -9, Hadoop's bzip2.compress.blocksize
               .standard_levels = CodecInfo::level_range(1, 9), .level_label = "blockSize100k",
               .notes = "one .bz2 stream per call (BZ2_bzCompressInit + BZ_FINISH, workFactor 30); level = "
                        "blockSize100k: up to 79,984 bytes every level writes the same bytes but the header's "
                        "digit; version: BZ2_bzlibVersion() up to its comma"}) {}
  // clang-format on
  Expected<std::unique_ptr<Session>> open_session(const CodecParams& params,
                                                  std::shared_ptr<const PreparedDict>) const override {
    return {std::make_unique<Bzip2Session>(params.level), {}};
  }
};

}  // namespace

void registerCodecBzip2(CodecRegistry& r) { r.add(std::make_unique<Bzip2Codec>()); }

}  // namespace kvz
