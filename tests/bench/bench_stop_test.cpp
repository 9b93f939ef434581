// Issue 24, items 3 and 4: a stop at any moment keeps what finished (block sets in batches, a
// set cut short marked partial_set; before measuring a signal ends the process at once, even
// blocked in open() of a FIFO), and a small --time/--repetitions budget shrinks the latency
// passes and the late check instead of spending minutes on them.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fcntl.h>
#include <cerrno>
#include <cstdio>
#include <random>
#include <string>
#include <thread>

#include "bench/cell.h"
#include "bench/engine.h"
#include "bench/interrupt.h"
#include "bench/late_check.h"
#include "bench/latency_pass.h"
#include "bench_test_codecs.h"
#include "codecs/registry.h"

namespace kvz {
namespace {

BlockGroup noisy_blocks(size_t count, const std::string& source) {
  BlockGroup g;
  g.blocks.source = source;
  g.blocks.record_mode = "test";
  g.blocks.layout = "raw";
  g.blocks.block_size = 4096;
  std::mt19937 rng(3);
  for (size_t i = 0; i < count; ++i) {
    std::vector<uint8_t> b(4096);
    for (size_t j = 0; j < b.size(); ++j) b[j] = j % 3 ? static_cast<uint8_t>(j / 256) : static_cast<uint8_t>(rng());
    g.blocks.add_block(b, 1);
  }
  return g;
}

struct StopFixture {
  CodecRegistry reg;
  std::vector<CodecChoice> rows;
  StopFixture() {
    reg.add(std::make_unique<testing::CopyCodec>());
    for (const char* name : {"rle-a", "rle-b", "rle-c", "rle-d"})
      reg.add(std::make_unique<testing::RleCodec>(name, testing::Fault::None));
    for (size_t i = 1; i < reg.codecs().size(); ++i) rows.push_back({reg.codecs()[i].get(), CodecParams{}});
  }
  static EngineOptions options() {
    EngineOptions o;
    o.seconds_per_cell = 0.004;
    o.repetitions = 2;
    o.latency_calls = 200;
    o.batch_seconds = 1e-9;  // every cell its own batch
    return o;
  }
};

// Batches of one cell: a stop after the second cell keeps both, whole, and marks them as rows
// of a block set cut short; the other rows and the second set are not there.
TEST(Batches, AStopKeepsTheFinishedBatchesAndMarksTheSetPartial) {
  StopFixture f;
  std::atomic<bool> stop{false};
  EngineHooks hooks;
  hooks.stop = &stop;
  int done = 0;
  hooks.cell_done = [&](const CellResult&) {
    if (++done == 2) stop = true;
  };
  const Matrix m = build_matrix({noisy_blocks(6, "first"), noisy_blocks(6, "second")}, f.rows, f.reg);
  const EngineOutcome o = run_matrix(m, StopFixture::options(), hooks);
  EXPECT_TRUE(o.interrupted);
  ASSERT_EQ(o.cells.size(), 2u);  // memcpy and rle-a, each timed in its own batch
  for (const CellResult& c : o.cells) {
    EXPECT_EQ(c.key.source, "first");
    EXPECT_EQ(c.compress_mbps.size(), 2u);
    EXPECT_EQ(c.decompress_mbps.size(), 2u);
    EXPECT_TRUE(c.partial_set) << c.key.id();
  }
  bool named = false;
  for (const auto& w : o.warnings) named |= w.find("2 of 5 rows kept, marked partial_set") != std::string::npos;
  EXPECT_TRUE(named);
}

// Without a stop, batches change nothing a result holds: every row, every repetition, no mark.
TEST(Batches, AWholeRunInBatchesIsComplete) {
  StopFixture f;
  const Matrix m = build_matrix({noisy_blocks(6, "first"), noisy_blocks(6, "second")}, f.rows, f.reg);
  const EngineOutcome o = run_matrix(m, StopFixture::options());
  EXPECT_FALSE(o.interrupted);
  ASSERT_EQ(o.cells.size(), 10u);
  for (const CellResult& c : o.cells) {
    EXPECT_EQ(c.status, CellStatus::Ok) << c.failure;
    EXPECT_EQ(c.compress_mbps.size(), 2u);
    EXPECT_FALSE(c.partial_set);
  }
}

// Stopped while a batch was being verified: its passes never ran, so its cells are no result,
// and the set is partial.
TEST(Batches, AStopWhileVerifyingDropsOnlyThatBatch) {
  StopFixture f;
  std::atomic<bool> stop{false};
  EngineHooks hooks;
  hooks.stop = &stop;
  hooks.progress = [&](double, double, const std::string& what) {
    if (what.find("verifying") != std::string::npos && what.find("rle-c") != std::string::npos) stop = true;
  };
  const Matrix m = build_matrix({noisy_blocks(6, "first")}, f.rows, f.reg);
  const EngineOutcome o = run_matrix(m, StopFixture::options(), hooks);
  EXPECT_TRUE(o.interrupted);
  ASSERT_EQ(o.cells.size(), 3u);  // memcpy, rle-a, rle-b
  for (const CellResult& c : o.cells) EXPECT_TRUE(c.partial_set);
}

// The default budgets are left alone; a smaller one shrinks the cap, the calls that still get
// their 1,000 and the late check's rounds by the same share.
TEST(Budget, ScaleShrinksTheLatencyPassAndTheLateCheck) {
  EngineOptions o;
  o.latency_seconds = 1.0;
  scale_latency_budget(o, 1.0);
  EXPECT_EQ(o.latency_seconds, 1.0);
  EXPECT_EQ(o.fast_call_seconds, kFastCallSeconds);
  EXPECT_EQ(o.late_rounds_seconds, kLateRoundsSeconds);
  scale_latency_budget(o, 0.1);  // still at or above the sweeps' 0.02 s: the floor stays
  EXPECT_DOUBLE_EQ(o.latency_seconds, 0.1);
  EXPECT_EQ(o.fast_call_seconds, kFastCallSeconds);
  EngineOptions quick;
  quick.latency_seconds = 1.0;
  scale_latency_budget(quick, 0.004);  // --time 0.01 --repetitions 1 against 0.5 s x 5
  EXPECT_DOUBLE_EQ(quick.latency_seconds, 0.004);
  EXPECT_NEAR(quick.fast_call_seconds, 20e-6, 1e-12);
  EXPECT_NEAR(quick.late_rounds_seconds, 0.04 * 0.004, 1e-12);
  // A 50 us call: 1,000 calls under the default budget, what 0.004 s affords under the small one.
  o = EngineOptions{};
  o.latency_seconds = 1.0;
  EXPECT_EQ(latency_calls(4, 50e-6, 2, o), 10'000u);
  EXPECT_EQ(latency_calls(4, 50e-6, 2, quick), 80u);    // 0.004 / 51.5 us = 77, in whole rounds
  EXPECT_EQ(latency_calls(4, 10e-6, 2, quick), 1000u);  // fast enough for its p99.9
  EXPECT_EQ(latency_calls(4, 5e-3, 3, quick), 12u);     // three calls a block, whatever the cap
  // The late check: a small set of slow blocks gets one round, not eight.
  EXPECT_EQ(late_rounds(4, 4 * 500e-6), 8u);
  EXPECT_EQ(late_rounds(4, 4 * 500e-6, quick.late_rounds_seconds), 1u);
}

// Before measuring nothing is saved: a signal ends the process at once with 128 + N, even
// blocked in open() of a FIFO no writer opens (which never returns on its own).
TEST(Phases, SetupSignalEndsAnOpenBlockedOnAFifo) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string fifo = ::testing::TempDir() + "kvz-stop-fifo-" + std::to_string(getpid());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EXIT(
      {
        install_interrupt_handlers();
        std::thread([] {
          usleep(200'000);
          kill(getpid(), SIGTERM);
        }).detach();
        const int fd = open(fifo.c_str(), O_RDONLY);  // blocks: no writer
        std::fprintf(stderr, "open returned %d\n", fd);
        _exit(1);
      },
      ::testing::ExitedWithCode(128 + SIGTERM), "");
  unlink(fifo.c_str());
}

// While writing, a signal is recorded, never kills the process, and an open() blocked on a FIFO
// nobody reads returns EINTR instead of holding the run forever.
TEST(Phases, WritingSignalInterruptsABlockedOpenAndIsRecorded) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string fifo = ::testing::TempDir() + "kvz-stop-wfifo-" + std::to_string(getpid());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EXIT(
      {
        install_interrupt_handlers();
        set_run_phase(RunPhase::Writing);
        std::thread([] {
          usleep(200'000);
          kill(getpid(), SIGINT);
        }).detach();
        const int fd = open(fifo.c_str(), O_WRONLY);  // blocks: no reader
        _exit(fd < 0 && errno == EINTR && interrupt_signal() == SIGINT && interrupt_flag().load() ? 7 : 1);
      },
      ::testing::ExitedWithCode(7), "");
  unlink(fifo.c_str());
}

}  // namespace
}  // namespace kvz
