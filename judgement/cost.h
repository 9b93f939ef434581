#pragma once
// The cost model (`--workload`): each candidate of a workload group turned into dollars per
// month at the user's write and read rates and prices, ranked cheapest first.
//
// For 30 days (2,592,000 s; 720 hours) at `write` MB/s in and `read` MB/s out (both
// uncompressed, decimal MB):
//   stored GB    = the data held (size=, or the families' sizes) / 1e9 / stored ratio, as the
//                  per-level plans price the data at rest; without size=, one month of writes:
//                  write x 2,592,000 / 1000 / stored ratio
//   storage $    = stored GB x storage $/GB-month
//   CPU cores    = T x (write / compress MB/s + read / decompress MB/s)  (the speeds the
//                  recommendations decide on, judgement/analysis.h Candidate; T = the group's
//                  threads: its MB/s is the total of T workers, one core each)
//   CPU $        = cores x cpu $/core-hour x 720
//   total $      = storage $ + CPU $
// With `device=NAME` (an I/O-model device), the device's read load is shown beside it: the
// stored bytes read per second over its bandwidth (read / stored ratio / device MB/s); a
// candidate that needs more than the device gives is ranked after those that fit.
#include <string>
#include <vector>

#include "judgement/analysis.h"
#include "judgement/level_model.h"
#include "judgement/universal_model.h"

namespace kvz {

// The month every $/core-hour is priced over (30 days), in the cost model and the plans alike.
inline constexpr double kHoursPerMonth = 30.0 * 24;  // 720

// One column family's load (family=NAME:write=MB/s:read=MB/s:size=BYTES).
struct FamilyLoad {
  std::string name;
  double write_mbps = 0;
  double read_mbps = 0;
  double data_bytes = 0;
};

struct Workload {
  double write_mbps = 0;  // uncompressed MB/s written (compressed once)
  double read_mbps = 0;   // uncompressed MB/s read (decompressed)
  double storage_usd_gb_month = 0;
  double cpu_usd_core_hour = 0;
  std::string device;  // "" = no device load
  // size= and the LSM's options (num_levels=, multiplier=, dynamic=1, level_base=, write_buffer=,
  // l0_trigger=, target_file=): the per-level plan (judgement/level_plan.h); lsm.data_bytes 0 = no plan.
  LsmOptions lsm;
  // style=universal: the plan is for universal compaction (judgement/universal_plan.h), with
  // size_ratio=, min_merge_width=, max_merge_width=, size_amp= (max_size_amplification_percent).
  bool universal = false;
  UniversalOptions universal_options;
  // family=NAME:write=W:read=R:size=S, repeated: a plan per column family, each the cheaper of
  // leveled and universal (judgement/family_plan.h); the LSM's knobs hold for every family.
  std::vector<FamilyLoad> families;
};
// "write=50,read=200,storage=0.08,cpu=0.04[,device=NVMe]": write, read, storage and cpu are
// required, finite and >= 0 (write and read not both 0); device names one of `devices`.
// size=500G (K/M/G/T/P/E: powers of 1024) asks for the per-level plan, with RocksDB 7.8's leveled
// options where not given: num_levels=7 (2..64), multiplier=10 (> 1), dynamic=0|1,
// level_base=256M, write_buffer=64M, l0_trigger=4 (>= 1), target_file=64M; order=shuffled|ascending
// (how the load wrote its keys: which records each level holds, judgement/level_cut.h).
// style=leveled|universal; universal's knobs size_ratio=1, min_merge_width=2 (>= 2),
// max_merge_width (>= min_merge_width), size_amp=200 need style=universal or a family; the
// leveled-only ones (multiplier, dynamic, level_base, target_file) are refused with it.
// family=NAME:write=W:read=R:size=S (NAME letters, digits, _ or -; each once) replaces size=;
// write= and read= then default to the families' sums. Every size (size=, level_base=,
// write_buffer=, target_file=, a family's size=) is kWorkloadBytesMin..kWorkloadBytesMax. Each key
// is given once.
inline constexpr double kWorkloadBytesMin = 1;                      // 1 byte
inline constexpr double kWorkloadBytesMax = 1152921504606846976.0;  // 1 EiB (2^60)
bool parse_workload(const std::string& text, const std::vector<Device>& devices, Workload& out, std::string& error);

struct CostRow {
  std::string label;  // cell label, or "uncompressed"
  double stored_ratio = 1;
  double stored_gb = 0;
  double storage_usd = 0;
  double cores = 0;
  double cpu_usd = 0;
  double total_usd = 0;
  double device_load = -1;  // fraction of the device's bandwidth; -1 without a device
};
struct GroupCosts {
  std::string group;
  std::vector<CostRow> rows;  // cheapest first ("uncompressed" included)
};
std::vector<GroupCosts> cost_model(const RunResults& r, const Workload& w, const std::vector<Device>& devices);
// One row of it: a candidate's (or "uncompressed": ratio 1, speeds 0) cost under `w`; `device`
// may be null (no device load).
CostRow cost_row(const std::string& label, double stored_ratio, double compress_mbps, double decompress_mbps,
                 int threads, const Workload& w, const Device* device = nullptr);
// The bytes the terms hold at rest: size=, or the families' sizes added up; 0 when neither is
// given (storage is then one month of writes).
double held_bytes(const Workload& w);
// "30 days at 50 MB/s written, 200 MB/s read; $0.08/GB-month, $0.04/core-hour; device NVMe",
// then "; 500 GiB held" when the terms hold data at rest.
std::string workload_text(const Workload& w);

}  // namespace kvz
