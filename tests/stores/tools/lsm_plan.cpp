// kvz_lsm_plan: the per-level codec plans kvzbench prints for a results file and a workload
// (judgement/level_plan.h level_plans, or judgement/universal_plan.h universal_plans with
// style=universal), as TSV for bench/scripts/lsm_real.sh to compare with a real RocksDB's levels.
//
//   kvz_lsm_plan RESULTS.json 'write=1,read=4,storage=..,cpu=..,size=BYTES[,...]'
//
// Per plan (one per workload group measured under a RocksDB profile), in this order:
//   plan    GROUP
//   line    OPTIONS LINE                (the RocksDB options string the plan prints)
//   level   L<k>  ROCKSDB_TYPE  PREDICTED_STORED_BYTES  PREDICTED_DATA_BYTES
//           (leveled: L0, then base level .. deepest; universal: each output level the plan writes)
//   run     L<k>  PREDICTED_STORED_BYTES  PREDICTED_DATA_BYTES   (universal only: the sorted runs
//           the load leaves, newest first; L0 for an L0 file)
//   peak    PREDICTED_PEAK_STORED_BYTES  (universal only: all runs plus a compaction's output)
//   total   PREDICTED_STORED_BYTES
//   busy    COMPACTION_THREAD_LOAD       (leveled only: judgement/level_plan.h compaction_thread_load)
// Bytes are whole numbers. Bad input (unreadable results, a bad workload, no plan): one line on
// stderr, exit 2.
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "judgement/analysis.h"
#include "judgement/cost.h"
#include "judgement/level_plan.h"
#include "judgement/universal_plan.h"
#include "results/results.h"
#include "util/text.h"

namespace {

int bad(const std::string& why) {
  std::cerr << "kvz_lsm_plan: " << kvz::one_line(why) << " (usage: kvz_lsm_plan RESULTS.json 'WORKLOAD')\n";
  return 2;
}

void print_level(const kvz::LevelChoice& lc) {
  std::cout << fmt::format("level\tL{}\t{}\t{:.0f}\t{:.0f}\n", lc.share.level, lc.rocksdb_type, lc.share.stored_bytes,
                           lc.share.data_bytes);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return bad(fmt::format("{} argument(s), 2 expected", argc - 1));
  kvz::RunResults run;
  std::string error;
  if (!kvz::load_results(argv[1], run, error)) return bad(error);
  kvz::Workload w;
  if (!kvz::parse_workload(argv[2], kvz::default_devices(), w, error)) return bad(error);
  if (w.lsm.data_bytes <= 0) return bad("the workload has no size=: no per-level plan");
  if (w.universal) {
    const std::vector<kvz::UniversalPlan> plans = kvz::universal_plans(run, w);
    if (plans.empty()) return bad(std::string(argv[1]) + ": no universal plan (no cells under a RocksDB profile?)");
    for (const auto& p : plans) {
      std::cout << "plan\t" << p.group << "\nline\t" << p.line << "\n";
      for (const auto& lc : p.levels) print_level(lc);
      for (const auto& r : p.shape.runs)
        std::cout << fmt::format("run\tL{}\t{:.0f}\t{:.0f}\n", r.level, r.stored_bytes, r.data_bytes);
      std::cout << fmt::format("peak\t{:.0f}\ntotal\t{:.0f}\n", p.shape.peak_stored_bytes, p.totals.stored_bytes);
    }
    return 0;
  }
  const std::vector<kvz::LevelPlan> plans = kvz::level_plans(run, w);
  if (plans.empty()) return bad(std::string(argv[1]) + ": no level plan (no cells under a RocksDB profile?)");
  for (const auto& p : plans) {
    std::cout << "plan\t" << p.group << "\nline\t" << p.line << "\n";
    for (const auto& lc : p.levels) print_level(lc);
    std::cout << fmt::format("total\t{:.0f}\nbusy\t{:.3f}\n", p.totals.stored_bytes, p.compaction_load);
  }
  return 0;
}
