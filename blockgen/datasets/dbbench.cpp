// `dbbench`: what RocksDB's db_bench fillseq writes with its defaults (tools/db_bench_tool.cc):
// 16-byte keys from GenerateKeyFromInt (8-byte big-endian id + "00000000"), 100-byte values
// from RandomGenerator at --compression_ratio 0.5.
#include <fmt/format.h>

#include <algorithm>

#include "blockgen/datasets/generators.h"
#include "blockgen/encoding.h"

namespace kvz::datasets {

namespace {
// LevelDB/RocksDB util/random.h: Park-Miller minimal standard generator, as db_bench uses.
class ParkMiller {
 public:
  explicit ParkMiller(uint32_t s) : seed_(s & 0x7fffffffu) {
    if (seed_ == 0 || seed_ == 2147483647u) seed_ = 1;
  }
  uint32_t next() {
    const uint64_t product = seed_ * uint64_t{16807};
    seed_ = static_cast<uint32_t>((product >> 31) + (product & 2147483647u));
    if (seed_ > 2147483647u) seed_ -= 2147483647u;
    return seed_;
  }
  uint32_t uniform(uint32_t n) { return next() % n; }

 private:
  uint32_t seed_;
};
}  // namespace

DbBenchValues::DbBenchValues(uint64_t seed, double compression_ratio) {
  ParkMiller rnd(static_cast<uint32_t>(seed ^ (seed >> 32)));
  // CompressibleString(rnd, ratio, 100): int(100*ratio) random printable bytes (at least 1),
  // repeated until 100 bytes.
  const size_t raw_len = std::max<size_t>(1, static_cast<size_t>(100 * compression_ratio));
  std::string raw, piece;
  while (data_.size() < (1u << 20)) {
    raw.clear();
    for (size_t i = 0; i < raw_len; ++i) raw.push_back(static_cast<char>(' ' + rnd.uniform(95)));
    piece.clear();
    while (piece.size() < 100) piece += raw;
    piece.resize(100);
    data_ += piece;
  }
}

std::string_view DbBenchValues::next(size_t len) {
  if (len > data_.size()) len = data_.size();
  if (pos_ + len > data_.size()) pos_ = 0;
  pos_ += len;
  return std::string_view(data_).substr(pos_ - len, len);
}

std::string dbbench_key(uint64_t v, size_t key_size) {
  std::string k;
  enc::put_be(k, v, 8);
  k.resize(std::max<size_t>(key_size, 8), '0');
  k.resize(key_size);
  return k;
}

void gen_dbbench(uint64_t seed, size_t target, const DatasetOptions& o, RecordSet& out) {
  DbBenchValues values(seed, o.compression_ratio);
  size_t bytes = 0;
  for (uint64_t i = 0; bytes < target; ++i) {
    Record r{dbbench_key(i, 16), std::string(values.next(100))};
    bytes += r.key.size() + r.value.size();
    out.records.push_back(std::move(r));
  }
  out.detail = fmt::format("fillseq keys 0..n-1 (16 B), 100-byte values, compression ratio {}", o.compression_ratio);
}

}  // namespace kvz::datasets
