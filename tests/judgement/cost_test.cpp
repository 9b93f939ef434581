// The cost model's arithmetic on a run whose figures are exact, its ranking, and its parser.
#include <gtest/gtest.h>

#include <random>

#include "judgement/cost.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

// One codec cell: stored ratio exactly 2, compress 100 MB/s, decompress 400 MB/s.
RunResults exact_run() {
  std::mt19937_64 rng(1);
  RunResults r = testing::make_run(3, 3);
  r.cells.clear();
  CellResult c = testing::make_cell({"zstd", 1, 2.0, 100, 400}, 4096, rng, 3, 0.01);
  c.stored_bytes = c.input_bytes / 2;
  c.compress_mbps = c.compress_cpu_mbps = {100, 100, 100};
  c.decompress_mbps = c.decompress_cpu_mbps = {400, 400, 400};
  r.cells.push_back(c);
  return r;
}

TEST(Cost, MonthlyStorageAndCpuFromTheMeasuredFigures) {
  Workload w;
  std::string error;
  ASSERT_TRUE(parse_workload("write=10,read=40,storage=0.1,cpu=0.05,device=NVMe", default_devices(), w, error))
      << error;
  const auto groups = cost_model(exact_run(), w, default_devices());
  ASSERT_EQ(groups.size(), 1u);
  ASSERT_EQ(groups[0].rows.size(), 2u);
  const CostRow& zstd = groups[0].rows[0];  // cheaper than keeping the data uncompressed
  EXPECT_EQ(zstd.label, "zstd 1");
  EXPECT_NEAR(zstd.stored_gb, 12960.0, 1e-6);  // 10 MB/s x 2,592,000 s / 1000 / 2
  EXPECT_NEAR(zstd.storage_usd, 1296.0, 1e-6);
  EXPECT_NEAR(zstd.cores, 0.2, 1e-9);    // 10/100 + 40/400
  EXPECT_NEAR(zstd.cpu_usd, 7.2, 1e-9);  // 0.2 x $0.05 x 720 h
  EXPECT_NEAR(zstd.total_usd, 1303.2, 1e-6);
  EXPECT_NEAR(zstd.device_load, 40.0 / 2 / 3000, 1e-12);
  const CostRow& raw = groups[0].rows[1];
  EXPECT_EQ(raw.label, "uncompressed");
  EXPECT_NEAR(raw.total_usd, 2592.0, 1e-6);
  EXPECT_EQ(raw.cores, 0.0);
  // The speeds are each block's fastest call, one worker's: 4 workers do 4 times that, so 4
  // threads take the same cores. Judged by wall time instead (a file without fastest-call sums or
  // CPU times), the same MB/s from 4 threads took 4 cores: four times the CPU.
  RunResults threaded = exact_run();
  threaded.cells[0].key.threads = 4;
  EXPECT_NEAR(cost_model(threaded, w, default_devices())[0].rows[0].cores, 0.2, 1e-9);
  for (auto* l : {&threaded.cells[0].compress_latency, &threaded.cells[0].decompress_latency})
    l->intrinsic.fastest_sum_ns = 0;
  threaded.cells[0].compress_cpu_mbps.clear();
  EXPECT_NEAR(cost_model(threaded, w, default_devices())[0].rows[0].cores, 0.8, 1e-9);
  // With CPU ten thousand times dearer, keeping the data uncompressed is cheaper.
  w.cpu_usd_core_hour = 500;
  EXPECT_EQ(cost_model(exact_run(), w, default_devices())[0].rows[0].label, "uncompressed");
}

TEST(Cost, BadWorkloadsAreOneLineErrors) {
  Workload w;
  std::string error;
  for (const char* bad :
       {"write=1,read=1,storage=1", "write=-1,read=1,storage=1,cpu=1", "write=1,read=inf,storage=1,cpu=1",
        "write=1,read=1,storage=1,cpu=1,cpu=2", "write=0,read=0,storage=1,cpu=1",
        "write=1,read=1,storage=1,cpu=1,device=tape", "speed=1", ""}) {
    EXPECT_FALSE(parse_workload(bad, default_devices(), w, error)) << bad;
    EXPECT_EQ(error.find('\n'), std::string::npos);
    EXPECT_NE(error.find("--workload"), std::string::npos) << error;
  }
  EXPECT_TRUE(parse_workload("write=0,read=5,storage=0,cpu=0.04", default_devices(), w, error)) << error;
}

}  // namespace
}  // namespace kvz
