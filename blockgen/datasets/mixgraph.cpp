// `mixgraph`: the value-size model of db_bench's mixgraph benchmark (Cao et al., "Characterizing,
// Modeling, and Benchmarking RocksDB Key-Value Workloads at Facebook", FAST'20; db_bench flags
// -value_k=0.2615 -value_sigma=25.45 -value_theta=0 -value_size_max=1024 from the paper's
// example command). Sizes come from ParetoCdfInversion: ceil(theta + sigma*(u^-k - 1)/k),
// clamped to [10, 1024] as db_bench does; contents from RandomGenerator (ratio 0.5).
// Keys: 48 bytes from GenerateKeyFromInt (key_size 48), ids 0..n-1.
#include <algorithm>
#include <cmath>

#include "blockgen/datasets/generators.h"

namespace kvz::datasets {

namespace {
constexpr double kValueK = 0.2615, kValueSigma = 25.45, kValueTheta = 0;
constexpr int64_t kMinValue = 10, kMaxValue = 1024;

int64_t pareto_size(double u) {
  const double v = std::ceil(kValueTheta + kValueSigma * (std::pow(u, -kValueK) - 1) / kValueK);
  if (!(v >= kMinValue)) return kMinValue;
  return v > kMaxValue ? kMaxValue : static_cast<int64_t>(v);
}
}  // namespace

void gen_mixgraph(uint64_t seed, size_t target, const DatasetOptions& o, RecordSet& out) {
  Rng rng(seed);
  DbBenchValues values(seed + 1, o.compression_ratio);
  size_t bytes = 0;
  for (uint64_t i = 0; bytes < target; ++i) {
    const auto len = static_cast<size_t>(pareto_size(rng.unit()));
    Record r{dbbench_key(i, 48), std::string(values.next(len))};
    bytes += r.key.size() + r.value.size();
    out.records.push_back(std::move(r));
  }
  out.detail = "48-byte keys, generalized-Pareto value sizes (k=0.2615, sigma=25.45, theta=0) in [10, 1024]";
}

}  // namespace kvz::datasets
