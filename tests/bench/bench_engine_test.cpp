// The engine with injected test codecs: keep-raw accounting, FAILED cells, the dictionary
// train/test split, threads, Ctrl-C keeping finished cells and the intrinsic cost (the plan and
// job lists: bench_plan_test.cpp; the fixture: engine_fixture.h).
#include <gtest/gtest.h>
#include <signal.h>

#include <map>
#include <random>
#include <set>
#include <sstream>

#include "bench/cell.h"
#include "bench/cell_dict.h"
#include "bench/engine.h"
#include "bench/interrupt.h"
#include "bench/latency_pass.h"
#include "bench_test_codecs.h"
#include "codecs/registry.h"
#include "codecs/spec.h"
#include "engine_fixture.h"
#include "report/console.h"
#include "results/cell_view.h"

namespace kvz {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): the engine tests' fixture

TEST(Engine, MemcpyRowComesFirstAndEveryRowHasSpeedsAndLatency) {
  Fixture f;
  Matrix m = build_matrix({mixed_blocks(8, 4096)}, f.choose({f.rle}), f.reg);
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[0].codec->info().name, "memcpy");
  const EngineOutcome o = run_matrix(m, fast_options());
  ASSERT_EQ(o.cells.size(), 2u);
  EXPECT_EQ(o.failed, 0u);
  for (const auto& c : o.cells) {
    EXPECT_EQ(c.status, CellStatus::Ok) << c.failure;
    EXPECT_EQ(c.compress_mbps.size(), 2u);
    EXPECT_EQ(c.decompress_cpu_mbps.size(), 2u);
    for (double v : c.compress_mbps) EXPECT_GT(v, 0);
    EXPECT_GE(c.compress_latency.calls, 8u);
    ASSERT_TRUE(c.compress_latency.p99_ns);  // 200 calls: a p99, no p99.9
    EXPECT_LE(*c.compress_latency.p50_ns, *c.compress_latency.p99_ns);
    EXPECT_FALSE(c.compress_latency.p999_ns);
    EXPECT_LE(*c.compress_latency.p99_ns, c.compress_latency.max_ns);
    EXPECT_EQ(c.compress_latency.stalls.size(), 2u);
  }
}

TEST(Engine, KeepRawAccountingPerBlock) {
  Fixture f;
  BlockGroup g = mixed_blocks(8, 4096);
  uint64_t compressed = 0, stored = 0, raw_kept = 0;
  for (size_t i = 0; i < g.blocks.count(); ++i) {
    const size_t n = g.blocks.block(i).size();
    const size_t c = rle_size(g.blocks.block(i));
    compressed += c;
    const bool raw = !(c < n - n / 8);
    stored += raw ? n : c;
    raw_kept += raw;
  }
  ASSERT_EQ(raw_kept, 4u);  // the noise blocks
  const EngineOutcome o = run_matrix(build_matrix({std::move(g)}, f.choose({f.rle}), f.reg), fast_options());
  const CellResult* r = find(o, "rle");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->input_bytes, 8u * 4096);
  EXPECT_EQ(r->compressed_bytes, compressed);
  EXPECT_EQ(r->stored_bytes, stored);
  EXPECT_EQ(r->blocks_kept_raw, raw_kept);
  EXPECT_EQ(r->records, 8u);  // one a block
  EXPECT_DOUBLE_EQ(r->min_saving, 0.125);
  const CellResult* mc = find(o, "memcpy");
  ASSERT_NE(mc, nullptr);
  EXPECT_EQ(mc->blocks_kept_raw, 8u);  // never saves anything
  EXPECT_EQ(mc->stored_bytes, mc->input_bytes);
}

TEST(Engine, BrokenDecoderFailsItsCellWithBlockAndOffset) {
  Fixture f;
  Matrix m = build_matrix({mixed_blocks(6, 4096)}, f.choose({f.rle, f.broken, f.failing}), f.reg);
  const EngineOutcome o = run_matrix(m, fast_options());
  EXPECT_EQ(o.failed, 2u);
  const CellResult* b = find(o, "rle-broken");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->status, CellStatus::Failed);
  EXPECT_EQ(b->failure, "round trip mismatch at block 0 (offset 100)");
  EXPECT_TRUE(b->compress_mbps.empty());  // never counted as a result
  const CellResult* e = find(o, "rle-failing");
  ASSERT_NE(e, nullptr);
  EXPECT_NE(e->failure.find("rle: injected compress failure"), std::string::npos) << e->failure;
  EXPECT_EQ(find(o, "rle")->status, CellStatus::Ok);

  std::ostringstream table;
  RunResults run;
  run.cells = o.cells;
  run.meta.repetitions = 2;
  for (const char* name : {"memcpy", "rle", "rle-broken", "rle-failing"})
    run.meta.codec_versions.push_back({name, "", "", false});
  print_console_table(table, run, "cspeed");
  EXPECT_NE(table.str().find("rle-broken             FAILED: round trip mismatch"), std::string::npos) << table.str();
}

TEST(Engine, DictionaryCellsMeasureOnlyBlocksTheyWereNotTrainedOn) {
  Fixture f;
  CodecChoice dict{f.spying, CodecParams{}};
  dict.params.dict_size = 4096;
  BlockGroup g = mixed_blocks(40, 4096);
  EngineOptions opt = fast_options();
  opt.dict_method = "split";
  BlockSplit split;
  ASSERT_TRUE(split_train_test(40, opt.dict_train_fraction, opt.seed, split));
  f.seen.clear();
  const EngineOutcome o = run_matrix(build_matrix({std::move(g)}, {dict}, f.reg), opt);
  const CellResult* r = find(o, "rle-spy");
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->status, CellStatus::Ok) << r->failure;
  EXPECT_EQ(r->blocks, split.test.size());
  EXPECT_EQ(r->input_bytes, split.test.size() * 4096);
  EXPECT_GT(r->dict_bytes, 0u);
  ASSERT_TRUE(r->dict_gain.has_value());
  EXPECT_DOUBLE_EQ(*r->dict_gain, 1.0);  // RLE ignores the dictionary; the split study does not count it
  EXPECT_EQ(r->dict_method, "split");
  EXPECT_EQ(r->key.params, "0:dict=4K:split");  // not the id of a per-file dictionary row
  EXPECT_EQ(r->dict_block_bytes, 0u);
  for (size_t t : split.train) EXPECT_FALSE(f.seen.seen[t].load()) << "trained block " << t << " was measured";
  for (size_t t : split.test) EXPECT_TRUE(f.seen.seen[t].load()) << "test block " << t << " never measured";
}

// The default "file" method: as RocksDB keeps one dictionary per SST, it is sampled from every
// block, every block is measured, and the dictionary's block is part of the stored bytes, so
// a dictionary the codec cannot use is a net loss (and the report never recommends it).
TEST(Engine, FileDictionariesMeasureEveryBlockAndCountTheDictionary) {
  Fixture f;
  CodecChoice dict{f.spying, CodecParams{}};
  dict.params.dict_size = 4096;
  for (const StoreProfile* store : {static_cast<const StoreProfile*>(nullptr), find_store_profile("rocksdb")}) {
    SCOPED_TRACE(store ? store->name : "no profile");
    BlockGroup g = mixed_blocks(40, 4096);
    g.store = store;
    f.seen.clear();
    const EngineOutcome o = run_matrix(build_matrix({std::move(g)}, {dict}, f.reg), fast_options());
    const CellResult* r = find(o, "rle-spy");
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->status, CellStatus::Ok) << r->failure;
    EXPECT_EQ(r->dict_method, "file");
    EXPECT_EQ(r->key.params, "0:dict=4K");
    EXPECT_EQ(r->blocks, 40u);
    for (size_t t = 0; t < 40; ++t) EXPECT_TRUE(f.seen.seen[t].load()) << "block " << t << " never measured";
    ASSERT_GT(r->dict_bytes, 0u);
    // RocksDB writes its dictionary as a raw meta block with the 5-byte block trailer.
    EXPECT_EQ(r->dict_block_bytes, r->dict_bytes + (store ? 5u : 0u));
    ASSERT_TRUE(r->dict_gain.has_value());
    const uint64_t without = r->stored_bytes - r->dict_block_bytes;  // RLE ignores the dictionary
    EXPECT_DOUBLE_EQ(*r->dict_gain, static_cast<double>(without) / static_cast<double>(r->stored_bytes));
    EXPECT_TRUE(r->dict_loses());
    EXPECT_NE(dictionary_text(*r).find("a LOSS"), std::string::npos) << dictionary_text(*r);
  }
}

TEST(Engine, ThreadsGetTheirOwnSessions) {
  Fixture f;
  EngineOptions opt = fast_options();
  opt.threads = 2;
  const EngineOutcome o = run_matrix(build_matrix({mixed_blocks(8, 4096)}, f.choose({f.rle}), f.reg), opt);
  const CellResult* r = find(o, "rle");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->status, CellStatus::Ok) << r->failure;
  EXPECT_EQ(r->key.threads, 2);
  EXPECT_EQ(r->compress_mbps.size(), 2u);
}

TEST(Engine, SigintKeepsFinishedCellsAndStops) {
  Fixture f;
  interrupt_flag() = false;
  install_interrupt_handlers();
  set_run_phase(RunPhase::Measuring);  // in the setup phase a signal ends the process
  EngineHooks hooks;
  hooks.stop = &interrupt_flag();
  int done = 0;
  hooks.cell_done = [&](const CellResult&) {
    if (++done == 1) raise(SIGINT);  // Ctrl-C while the first block set finishes
  };
  Matrix m = build_matrix({mixed_blocks(6, 4096, "first"), mixed_blocks(6, 4096, "second")}, f.choose({f.rle}), f.reg);
  const EngineOutcome o = run_matrix(m, fast_options(), hooks);
  EXPECT_TRUE(interrupt_flag().load());
  interrupt_flag() = false;
  EXPECT_TRUE(o.interrupted);
  ASSERT_EQ(o.cells.size(), 2u);  // memcpy + rle of the first block set, both complete
  for (const auto& c : o.cells) {
    EXPECT_EQ(c.key.source, "first");
    EXPECT_EQ(c.compress_mbps.size(), 2u);
    EXPECT_FALSE(c.partial_set);  // the first set finished whole; the second never started
  }
}

TEST(Engine, CellsThatCannotBeMeasuredAreSkippedWithAWarningNotFailed) {
  Fixture f;
  CodecChoice dict{f.rle, CodecParams{}};
  dict.params.dict_size = 4096;
  EngineOptions opt = fast_options();
  opt.threads = 2;
  // One block: no dictionary split, and not enough blocks for two threads. ZDICT cannot train
  // on one sample: under the rocksdb profile RocksDB then writes no dictionary (the row is
  // skipped); without a profile the sample's raw bytes are the dictionary, with a note.
  struct Case {
    const char* method;
    const StoreProfile* store;
    const char* expected;
  };
  const Case cases[] = {{"split", nullptr, "dictionary needs at least 2 blocks"},
                        {"file", find_store_profile("rocksdb"), "RocksDB's per-file method writes no dictionary"},
                        {"file", nullptr, "raw dictionary of the last 4096 sample bytes"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expected);
    opt.dict_method = c.method;
    BlockGroup g = mixed_blocks(1, 4096);
    g.store = c.store;
    const EngineOutcome o = run_matrix(build_matrix({std::move(g)}, {dict}, f.reg), opt);
    EXPECT_EQ(o.failed, 0u);
    EXPECT_TRUE(o.cells.empty());
    ASSERT_GE(o.warnings.size(), 2u);
    EXPECT_NE(o.warnings[0].find("cannot be shared by 2 threads"), std::string::npos) << o.warnings[0];
    bool named = false;
    for (const auto& w : o.warnings) named |= w.find(c.expected) != std::string::npos;
    EXPECT_TRUE(named) << o.warnings.back();
  }
}

}  // namespace
}  // namespace kvz

namespace kvz {
namespace {

// A zero-byte block (an empty value under values:single) is measured, not a null pointer
// handed to memcmp (UBSan found it).
TEST(Engine, ZeroByteBlocksRoundTrip) {
  Fixture f;
  BlockGroup g = mixed_blocks(4, 4096);
  g.blocks.add_block(std::span<const uint8_t>(), 1);
  BlockGroup only_empty;
  only_empty.blocks.source = "empty";
  only_empty.blocks.layout = "values:single";
  only_empty.blocks.add_block(std::span<const uint8_t>(), 1);
  Matrix m = build_matrix({std::move(g), std::move(only_empty)}, f.choose({f.rle}), f.reg);
  const EngineOutcome o = run_matrix(m, fast_options());
  EXPECT_EQ(o.failed, 0u);
  for (const auto& c : o.cells) EXPECT_EQ(c.status, CellStatus::Ok) << c.key.id() << ": " << c.failure;
}

}  // namespace
}  // namespace kvz

namespace kvz {
namespace {

// Context memory is read after the cell's calls, per direction: libraries size their contexts
// on first use, so a fresh session showed zstd's 101,216 B at every level and 0 for brotli and xz.
TEST(Engine, ContextMemoryIsReadAfterTheCallsPerDirection) {
  const CodecRegistry& reg = CodecRegistry::instance();
  std::string err;
  const auto choices = parse_codec_spec("memcpy/zstd:1,19/brotli:1,11/xz:1,6", reg, err);
  ASSERT_TRUE(err.empty()) << err;
  Matrix m = build_matrix({mixed_blocks(4, 16384)}, choices, reg);
  const EngineOutcome o = run_matrix(m, fast_options());
  std::map<std::string, const CellResult*> by;
  for (const auto& c : o.cells) by[c.key.codec + ":" + std::to_string(c.key.level)] = &c;
  EXPECT_GT(by["zstd:19"]->compress_context_bytes, by["zstd:1"]->compress_context_bytes);
  EXPECT_GT(by["brotli:11"]->compress_context_bytes, by["brotli:1"]->compress_context_bytes);
  EXPECT_GT(by["xz:6"]->compress_context_bytes, by["xz:1"]->compress_context_bytes);
  for (const char* name : {"zstd:1", "brotli:1", "xz:1"}) {
    EXPECT_GT(by[name]->compress_context_bytes, 0u) << name;
    EXPECT_GT(by[name]->decompress_context_bytes, 0u) << name;
  }
  EXPECT_EQ(by["memcpy:0"]->compress_context_bytes + by["memcpy:0"]->decompress_context_bytes, 0u);
}

}  // namespace
}  // namespace kvz

namespace kvz {
namespace {

// Every block is timed at least three times per direction; the block whose fastest call is
// the slowest is named by its index in the block set, with its sizes.
TEST(Engine, EveryBlockIsTimedThreeTimesAndTheWorstBlockIsNamed) {
  Fixture f;
  BlockGroup g;
  g.blocks.source = "sizes";
  g.blocks.record_mode = "test";
  g.blocks.layout = "raw";
  g.blocks.block_size = 1024;
  size_t big_packed = 0;
  for (size_t i = 0; i < 12; ++i) {
    std::vector<uint8_t> b(i == 5 ? 256 * 1024 : 1024, static_cast<uint8_t>(i));
    if (i == 5) big_packed = rle_size(ByteView(b.data(), b.size()));
    g.blocks.add_block(b, 1);
  }
  EngineOptions o = fast_options();
  o.latency_calls = 20;  // fewer than three rounds: three rounds it is
  const EngineOutcome out = run_matrix(build_matrix({std::move(g)}, f.choose({f.rle}), f.reg), o);
  const CellResult* r = find(out, "rle");
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->status, CellStatus::Ok) << r->failure;
  for (const LatencyStats* l : {&r->compress_latency, &r->decompress_latency}) {
    EXPECT_EQ(l->intrinsic.blocks, 12u);
    EXPECT_GE(l->intrinsic.calls_per_block, 3u);
    EXPECT_EQ(l->calls % 12, 0u);  // whole rounds
    EXPECT_EQ(l->intrinsic.worst_block, 5u);
    EXPECT_EQ(l->intrinsic.worst_block_bytes, 256u * 1024);
    EXPECT_EQ(l->intrinsic.worst_block_compressed, big_packed);
    EXPECT_GE(l->intrinsic.worst_block_ns, l->intrinsic.median_block_ns);
    EXPECT_LE(l->intrinsic.worst_block_ns, l->max_ns);
  }
}

}  // namespace
}  // namespace kvz
