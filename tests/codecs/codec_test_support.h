#pragma once
// Shared fixtures for the codec tests: the sample inputs and a round-trip helper.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "codecs/registry.h"
#include "codecs/spec.h"

namespace kvz {
// Readable test names in gtest output ("zstd 3 dict=16K" rather than raw bytes).
inline void PrintTo(const CodecChoice& c, std::ostream* os) { *os << c.label(); }
}  // namespace kvz

namespace kvz::test {

using Bytes = std::vector<uint8_t>;

// A parameterised test's name from its codec choice: its label, each character gtest refuses as '_'.
inline std::string choice_name(const ::testing::TestParamInfo<CodecChoice>& info) {
  std::string s = info.param.label();
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

inline std::string corpora_dir() {
  const char* env = std::getenv("KVZ_CORPORA");
  return env ? env : KVZ_SOURCE_DIR "/../shared/corpora";
}

// The first `limit` bytes of a real corpus file; fails the test if it is missing.
inline Bytes corpus_prefix(const std::string& relative, size_t limit) {
  std::string path = corpora_dir() + "/" + relative;
  std::ifstream f(path, std::ios::binary);
  EXPECT_TRUE(f.good()) << "missing corpus file " << path << " (set KVZ_CORPORA)";
  Bytes b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (b.size() > limit) b.resize(limit);
  return b;
}

inline Bytes alice(size_t limit = 64 * 1024) { return corpus_prefix("snappy/alice29.txt", limit); }

inline Bytes random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes b(n);
  for (auto& x : b) x = static_cast<uint8_t>(rng());
  return b;
}

inline std::unique_ptr<Session> open_or_fail(const Codec& c, const CodecParams& p,
                                             std::shared_ptr<const PreparedDict> dict = nullptr) {
  auto s = c.open(p, std::move(dict));
  EXPECT_TRUE(s.ok()) << c.info().name << " " << p.label() << ": " << s.error;
  return std::move(s.value);
}

// Compress into a bound()-sized buffer; the result is trimmed to the compressed size.
inline Bytes compress_all(Session& s, const Bytes& in) {
  Bytes out(s.bound(in.size()));
  CallResult r = s.compress(in, out);
  EXPECT_TRUE(r.ok()) << r.error;
  out.resize(r.size);
  return out;
}

// Every spec row the tests sweep: every standard level, extreme levels and options.
inline std::vector<CodecChoice> all_choices(const std::string& spec) {
  std::string err;
  auto choices = parse_codec_spec(spec, CodecRegistry::instance(), err);
  EXPECT_EQ(err, "");
  return choices;
}

}  // namespace kvz::test
