// Bad buffers and bad input: always an error (or a detected wrong output), never a crash,
// never a read or write past a buffer (guard pages catch it even inside the libraries).
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <random>

#include "codec_test_support.h"

namespace kvz::test {
namespace {

// Bytes that end exactly where an inaccessible page begins: any read or write past the
// end faults at once, even inside the (uninstrumented) system libraries ASan cannot see.
class Guarded {
 public:
  explicit Guarded(size_t n) : size_(n) {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    pages_ = (n + page - 1) / page * page + page;
    base_ = static_cast<uint8_t*>(mmap(nullptr, pages_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    EXPECT_NE(base_, MAP_FAILED);
    EXPECT_EQ(mprotect(base_ + pages_ - page, page, PROT_NONE), 0);
    data_ = base_ + pages_ - page - n;
  }
  explicit Guarded(ByteView content) : Guarded(content.size()) {
    if (!content.empty()) std::memcpy(data_, content.data(), content.size());
  }
  ~Guarded() { munmap(base_, pages_); }
  Guarded(const Guarded&) = delete;
  Guarded& operator=(const Guarded&) = delete;
  MutableByteView span() { return {data_, size_}; }
  ByteView view() const { return {data_, size_}; }

 private:
  size_t size_;
  size_t pages_ = 0;
  uint8_t* base_ = nullptr;
  uint8_t* data_ = nullptr;
};

// Each codec at its default level, plus the variants that change the format.
std::vector<CodecChoice> default_choices() {
  std::vector<CodecChoice> out;
  for (const auto& c : CodecRegistry::instance().codecs())
    out.push_back({c.get(), CodecParams{.level = c->info().default_level}});
  auto extra = all_choices("zlib:6:zlib/lzo:999/lz4hc:12/xz:0/zstd:-5/brotli:0");
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

class BadInput : public ::testing::TestWithParam<CodecChoice> {};

TEST_P(BadInput, TooSmallOutputBufferIsAnErrorAndNothingIsWrittenPastIt) {
  const auto& c = GetParam();
  auto s = open_or_fail(*c.codec, c.params);
  Bytes text = alice(16 * 1024);
  size_t packed_size = compress_all(*s, text).size();
  for (size_t cap : {size_t{0}, size_t{1}, size_t{8}, packed_size / 2, packed_size - 1}) {
    Guarded out(cap);  // a write past `cap` faults
    CallResult r = s->compress(text, out.span());
    EXPECT_FALSE(r.ok()) << "capacity " << cap;
    EXPECT_NE(r.error, nullptr);
  }
}

TEST_P(BadInput, WrongOriginalSizeIsAnError) {
  const auto& c = GetParam();
  auto s = open_or_fail(*c.codec, c.params);
  Bytes text = alice(4096);
  Bytes packed = compress_all(*s, text);
  for (size_t n : {text.size() - 1, text.size() + 1, size_t{0}}) {
    Guarded out(n);
    CallResult r = s->decompress(packed, out.span());
    EXPECT_FALSE(r.ok()) << "original size " << text.size() << ", told " << n;
  }
}

TEST_P(BadInput, TruncatedInputIsAnError) {
  const auto& c = GetParam();
  auto s = open_or_fail(*c.codec, c.params);
  Bytes text = alice(8192);
  Bytes packed = compress_all(*s, text);
  for (size_t keep : {size_t{0}, size_t{1}, packed.size() / 3, packed.size() / 2, packed.size() - 1}) {
    Guarded cut(ByteView(packed.data(), keep));
    Guarded out(text.size());
    CallResult r = s->decompress(cut.view(), out.span());
    EXPECT_FALSE(r.ok()) << "kept " << keep << " of " << packed.size();
  }
}

TEST_P(BadInput, CorruptedInputIsAnErrorOrDetectedNeverACrash) {
  const auto& c = GetParam();
  auto s = open_or_fail(*c.codec, c.params);
  Bytes text = alice(8192);
  Bytes packed = compress_all(*s, text);
  // Checksummed formats must never hand back wrong bytes as a success.
  const std::string& name = c.codec->info().name;
  const bool checksummed = name == "xz" || name == "bzip2" || (name == "zlib" && c.params.options == ":zlib");
  std::mt19937 rng(7);
  int errors = 0, wrong = 0;
  for (int trial = 0; trial < 64; ++trial) {
    Guarded bad(packed);
    bad.span()[rng() % packed.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
    Guarded guarded_out(text.size());
    CallResult r = s->decompress(bad.view(), guarded_out.span());
    ByteView out = guarded_out.view();
    if (!r.ok()) {
      ++errors;
      continue;
    }
    EXPECT_EQ(r.size, text.size());
    if (!std::equal(text.begin(), text.end(), out.begin())) {
      ++wrong;
      EXPECT_FALSE(checksummed) << "checksummed format returned wrong bytes as success";
    }
  }
  // The session still works after all that.
  Bytes out(text.size());
  ASSERT_TRUE(s->decompress(packed, out).ok());
  EXPECT_EQ(out, text);
  RecordProperty("errors", errors);
  RecordProperty("undetected_wrong_output", wrong);
  if (!c.codec->info().is_reference) {  // a copy has nothing to detect
    EXPECT_GT(errors, 0) << "no corruption was ever detected";
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, BadInput, ::testing::ValuesIn(default_choices()), choice_name);

}  // namespace
}  // namespace kvz::test
