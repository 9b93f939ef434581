// `timeseries`: smart-home sensor rows in the shape of the HBase sensor study (one row per
// house and reading, one cell per channel): house id, timestamp, three power channels (W),
// temperature (deg C, one decimal), cumulative gas meter (m3, three decimals) and ten
// appliance channels (W, mostly 0). Readings every 8 s (the REFIT smart-home data rate).
// Signals (our choice): power = base load + noise + appliance loads; temperature = daily
// sine + noise; appliances switch on with a small per-reading probability and run for a
// random duration at their own rated power.
// Key: "h<NN>|<10-digit unix time>" (house-major, as an HBase row key for per-house scans);
// value: the 15 channels, comma-separated.
#include <cmath>
#include <cstdio>

#include "blockgen/datasets/generators.h"

namespace kvz::datasets {

namespace {
constexpr int kHouses = 20;
constexpr int kAppliances = 10;
constexpr int64_t kStart = 1388534400;  // 2014-01-01T00:00:00Z
constexpr int kIntervalS = 8;
constexpr double kRatedW[kAppliances] = {120, 2000, 800, 1500, 60, 2200, 90, 350, 1000, 30};
}  // namespace

void gen_timeseries(uint64_t seed, size_t target, RecordSet& out) {
  Rng rng(seed);
  out.field_separator = ',';
  out.columns = {"power1", "power2", "power3", "temperature", "gas"};
  for (int i = 1; i <= kAppliances; ++i) out.columns.push_back("appliance" + std::to_string(i));
  // A row is ~67 bytes (14 B key + ~53 B value): spread the target evenly over the houses.
  const size_t rows_per_house = std::max<size_t>(1, target / 67 / kHouses);
  size_t bytes = 0;
  char buf[64];
  for (int h = 1; h <= kHouses && bytes < target; ++h) {
    double gas = static_cast<double>(rng.range(100, 9000));
    const double base = 80 + static_cast<double>(rng.below(200));
    int on_left[kAppliances] = {};
    for (size_t i = 0; i < rows_per_house || (h == kHouses && bytes < target); ++i) {
      const int64_t t = kStart + static_cast<int64_t>(i) * kIntervalS;
      std::snprintf(buf, sizeof buf, "h%02d|%010lld", h, static_cast<long long>(t));
      Record r{buf, {}};
      double load = 0;
      std::string apps;
      for (int a = 0; a < kAppliances; ++a) {
        if (on_left[a] == 0 && rng.chance(0.002)) on_left[a] = static_cast<int>(rng.range(10, 400));
        const int w = on_left[a] > 0 ? static_cast<int>(kRatedW[a] * (0.9 + 0.2 * rng.unit())) : 0;
        if (on_left[a] > 0) --on_left[a];
        load += w;
        apps.push_back(',');
        apps += std::to_string(w);
      }
      const double day = std::fmod(static_cast<double>(t), 86400.0) / 86400.0;
      const double temp = 19 + 3 * std::sin(6.283185307179586 * day) + 0.2 * rng.normal();
      if (rng.chance(0.05)) gas += 0.001 * static_cast<double>(rng.range(1, 30));
      const double total = base + load + 5 * rng.normal();
      // Draws in statements of their own: call arguments are evaluated in an unspecified order.
      const double noise_b = 3 * rng.normal();
      const double noise_c = 3 * rng.normal();
      std::snprintf(buf, sizeof buf, "%d,%d,%d,%.1f,%.3f", static_cast<int>(total),
                    static_cast<int>(total * 0.45 + noise_b), static_cast<int>(total * 0.3 + noise_c), temp, gas);
      r.value = buf + apps;
      bytes += r.key.size() + r.value.size();
      out.records.push_back(std::move(r));
    }
  }
  out.detail = "20 houses x readings every 8 s: 3 power channels, temperature, gas, 10 appliances";
}

}  // namespace kvz::datasets
