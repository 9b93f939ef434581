#pragma once
// How a codec's ratio on a shuffled load's sorted run follows how much of the load the run holds.
//
// A run written mid-load holds a sparse sample of the keys (a shuffled load spreads every slice of
// it over the whole key space), so its blocks' neighbours share less than a denser run's do; and a
// record that kept its sequence number costs more than one a bottommost merge zeroed. RocksDB
// 7.8's own files of a 100 MB shuffled auth.log load (table_file_creation: raw key and value bytes
// over file bytes, 2026-12-07): runs that kept their numbers, lz4, 2.38:1 at 1.4 % of the load to
// 2.88:1 at 10 %; zeroed runs, snappy, 2.68:1 at 2.9 %, 3.12:1 at 12 %, 3.92:1 at 69 %. In each
// state ln(ratio) is close to linear in ln(share): 0.095 a unit kept, 0.12 zeroed; kvzbench's own
// cuts of that load gave 0.095 kept. The cuts measure each codec at such points: each level's run
// at the end (kept above the bottom, zeroed at the bottom), the last flush kept and again zeroed,
// and the whole set (zeroed). So a run is priced at its own level's measured ratio, moved along
// those lines to its own share and state; where a state has one share only, its line is flat.
#include <vector>

namespace kvz {

// A measured ratio: the run's share of the load's data (0, 1] and the share of its data whose
// sequence numbers were zeroed [0, 1] (a sample counts as zeroed from one half up).
struct RatioSample {
  double share = 1;
  double zeroed = 1;
  double ratio = 1;
};

class RunDensity {
 public:
  RunDensity() = default;
  explicit RunDensity(const std::vector<RatioSample>& samples);
  // The ratio `from` moved to a run of `share` with `zeroed` of it zeroed (its records' stored
  // bytes added up: zeroed / zeroed ratio + kept / kept ratio).
  double ratio(const RatioSample& from, double share, double zeroed) const;
  // The lines' ratio at `share` and `zeroed` (ratio() scales `from` by it over its own); 0 when
  // the samples gave none.
  double modelled(double share, double zeroed) const;
  double kept_slope() const { return kept_.slope; }
  double zeroed_slope() const { return zeroed_.slope; }

 private:
  struct Line {  // ln(ratio) = offset + slope x ln(share)
    bool known = false;
    double offset = 0, slope = 0;
    double at(double ln_share) const;
  };
  static Line fit(const std::vector<RatioSample>& samples, bool zeroed);
  Line kept_, zeroed_;
};

}  // namespace kvz
