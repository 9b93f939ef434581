#pragma once
// Internals of the synthetic datasets: a portable seeded RNG (std distributions differ
// between standard libraries, so none are used) and one generator per file.
#include <cmath>
#include <cstdint>
#include <string>

#include "blockgen/block.h"
#include "blockgen/records.h"

namespace kvz::datasets {

// splitmix64: tiny, fast, identical output everywhere.
class Rng {
  __extension__ typedef unsigned __int128 U128;  // Lemire's multiply-shift range reduction

 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n).
  uint64_t below(uint64_t n) { return static_cast<uint64_t>((static_cast<U128>(next()) * n) >> 64); }
  // Uniform in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo + 1))); }
  // Uniform in (0, 1].
  double unit() { return (static_cast<double>(next() >> 11) + 1.0) * (1.0 / 9007199254740992.0); }
  double normal() {  // Box-Muller
    const double u1 = unit(), u2 = unit();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  bool chance(double p) { return unit() <= p; }

 private:
  uint64_t s_;
};

// One seed per dataset, so the same --seed gives unrelated streams across datasets.
uint64_t dataset_seed(const std::string& name, uint64_t seed);

void gen_dbbench(uint64_t seed, size_t target, const DatasetOptions& o, RecordSet& out);
void gen_mixgraph(uint64_t seed, size_t target, const DatasetOptions& o, RecordSet& out);
void gen_cache(uint64_t seed, size_t target, RecordSet& out);
void gen_json_docs(uint64_t seed, size_t target, RecordSet& out);
void gen_timeseries(uint64_t seed, size_t target, RecordSet& out);

// db_bench's RandomGenerator (tools/db_bench_tool.cc): a 1 MiB buffer of CompressibleString
// pieces, handed out in order, wrapping at the end. Shared by dbbench and mixgraph.
class DbBenchValues {
 public:
  DbBenchValues(uint64_t seed, double compression_ratio);
  std::string_view next(size_t len);

 private:
  std::string data_;
  size_t pos_ = 0;
};

// db_bench GenerateKeyFromInt: 8-byte big-endian id, padded with '0' to key_size.
std::string dbbench_key(uint64_t v, size_t key_size);

}  // namespace kvz::datasets
