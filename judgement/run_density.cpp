#include "judgement/run_density.h"

#include <algorithm>
#include <cmath>

namespace kvz {

namespace {

bool is_zeroed(const RatioSample& s) { return s.zeroed >= 0.5; }

}  // namespace

double RunDensity::Line::at(double ln_share) const { return std::exp(offset + slope * ln_share); }

// Least squares over the state's samples; flat through their mean when they hold one share, or
// when the slope comes out negative (a denser sample is taken to compress at least as well).
RunDensity::Line RunDensity::fit(const std::vector<RatioSample>& samples, bool zeroed) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& s : samples) {
    if (is_zeroed(s) != zeroed || s.share <= 0 || s.ratio <= 0) continue;
    const double x = std::log(s.share), y = std::log(s.ratio);
    n += 1;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  Line line;
  if (n == 0) return line;
  line.known = true;
  const double spread = n * sxx - sx * sx;
  line.slope = spread > 1e-9 * n * n ? std::max(0.0, (n * sxy - sx * sy) / spread) : 0;
  line.offset = (sy - line.slope * sx) / n;
  return line;
}

RunDensity::RunDensity(const std::vector<RatioSample>& samples)
    : kept_(fit(samples, false)), zeroed_(fit(samples, true)) {
  if (!kept_.known) kept_ = zeroed_;
  if (!zeroed_.known) zeroed_ = kept_;
}

double RunDensity::modelled(double share, double zeroed) const {
  if (!kept_.known || share <= 0) return 0;
  const double ln_share = std::log(share);
  return 1 / (zeroed / zeroed_.at(ln_share) + (1 - zeroed) / kept_.at(ln_share));
}

double RunDensity::ratio(const RatioSample& from, double share, double zeroed) const {
  const double to = modelled(share, zeroed), at = modelled(from.share, from.zeroed);
  return to > 0 && at > 0 ? from.ratio * to / at : from.ratio;
}

}  // namespace kvz
