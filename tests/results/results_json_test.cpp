#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "results/results.h"
#include "tests/results/fixture.h"

namespace kvz {

TEST(Results, CellIdNamesEveryKeyField) {
  CellKey k;
  k.source = "twitter.json";
  k.record_mode = "lines";
  k.layout = "rocksdb";
  k.block_size = 4096;
  k.codec = "zstd";
  k.level = 3;
  k.params = "3:dict=16K";
  k.dict_size = 16384;
  EXPECT_EQ(k.id(), "twitter.json:lines/rocksdb/4K/zstd/3:dict=16K/stream/T1");
  k.profile = "rocksdb";
  k.threads = 2;
  k.block_size = 1000;
  EXPECT_EQ(k.id(), "twitter.json:lines/rocksdb/1000/zstd/3:dict=16K/stream/T2/rocksdb");
  CellKey dataset = k;
  dataset.source = dataset.record_mode = "dbbench";  // a dataset names itself as record mode
  EXPECT_EQ(dataset.id(), "dbbench/rocksdb/1000/zstd/3:dict=16K/stream/T2/rocksdb");
  CellKey other = k;
  other.cache = "hot";
  EXPECT_NE(other.id(), k.id());
  CellKey fleet = k;  // only a merge sets these: one host's ids stay as they were
  fleet.host = "node3";
  fleet.cpu = "EPYC 7B13";
  EXPECT_EQ(fleet.id(), "twitter.json@node3:lines/rocksdb/1000/zstd/3:dict=16K/stream/T2/rocksdb/cpu=EPYC 7B13");
}

TEST(Results, Helpers) {
  CellResult c;
  c.input_bytes = 1000;
  c.compressed_bytes = 250;
  c.stored_bytes = 400;
  c.compress_mbps = {3, 1, 2};
  EXPECT_DOUBLE_EQ(c.ratio(), 4);
  EXPECT_DOUBLE_EQ(c.stored_ratio(), 2.5);
  EXPECT_DOUBLE_EQ(c.saving_pct(), 75);
  EXPECT_DOUBLE_EQ(c.compress_median(), 2);
  EXPECT_DOUBLE_EQ(c.decompress_median(), 0);
  EXPECT_STREQ(to_string(CellStatus::Failed), "FAILED");
}

TEST(Results, JsonRoundTripKeepsEverything) {
  RunResults r = testing::make_run(1);
  r.cells[2].dict_gain = 1.25;
  r.cells[2].records = 12345;
  r.cells[1].store_file_bytes = 277458;
  r.cells[1].store_file_parts = {{"data", 272024}, {"index", 4486}, {"properties", 856}};
  r.meta.corpora = {{"twitter.json", "/x/twitter.json", 123, "ab12"},
                    {"nb-1-big-Data.db", "/d/ks/events-1/nb-1-big-Data.db", 9, "cd", "nb Data.db", "ks.events", "n2"}};
  r.cells[3].key.host = "n2";
  r.cells[3].key.cpu = "EPYC 7B13";
  r.meta.extra["k"] = "v";
  r.meta.store_versions = {{"leveldb", "LevelDB 1.23"}, {"leveldb:version=main", "LevelDB main (unreleased)"}};
  RunResults back;
  std::string err;
  ASSERT_TRUE(results_from_json(results_to_json(r), back, err)) << err;
  ASSERT_EQ(back.cells.size(), r.cells.size());
  for (size_t i = 0; i < r.cells.size(); ++i) {
    EXPECT_EQ(back.cells[i].key, r.cells[i].key);
    EXPECT_EQ(back.cells[i].compress_mbps, r.cells[i].compress_mbps);
    EXPECT_EQ(back.cells[i].decompress_latency.stalls, r.cells[i].decompress_latency.stalls);
    const LatencyStats& a = back.cells[i].compress_latency;
    const LatencyStats& b = r.cells[i].compress_latency;
    EXPECT_EQ(a.preempted_calls, b.preempted_calls);
    EXPECT_EQ(a.preempted_stalls, b.preempted_stalls);
    EXPECT_EQ(a.p999_ns, b.p999_ns);
    EXPECT_EQ(a.intrinsic.worst_block, b.intrinsic.worst_block);
    EXPECT_EQ(a.intrinsic.worst_block_bytes, b.intrinsic.worst_block_bytes);
    EXPECT_EQ(a.intrinsic.worst_block_compressed, b.intrinsic.worst_block_compressed);
    EXPECT_DOUBLE_EQ(a.intrinsic.worst_block_ns, b.intrinsic.worst_block_ns);
    EXPECT_EQ(a.intrinsic.stall_blocks, b.intrinsic.stall_blocks);
    EXPECT_EQ(back.cells[i].compress_context_bytes, r.cells[i].compress_context_bytes);
    EXPECT_EQ(back.cells[i].decompress_context_bytes, r.cells[i].decompress_context_bytes);
    EXPECT_EQ(back.cells[i].compressed_bytes, r.cells[i].compressed_bytes);
  }
  EXPECT_EQ(back.cells[2].dict_gain, 1.25);
  EXPECT_EQ(back.cells[2].records, 12345u);
  EXPECT_EQ(back.cells[0].records, 0u);
  EXPECT_EQ(back.cells[1].store_file_bytes, 277458u);
  EXPECT_EQ(back.cells[1].store_file_parts, r.cells[1].store_file_parts);
  EXPECT_FALSE(back.cells[0].store_file_bytes.has_value());
  EXPECT_FALSE(back.cells[3].dict_gain.has_value());
  EXPECT_EQ(back.meta.cpu_model, r.meta.cpu_model);
  EXPECT_EQ(back.meta.corpora[0].sha256, "ab12");
  EXPECT_EQ(back.meta.corpora[1].table, "ks.events");
  EXPECT_EQ(back.meta.corpora[1].host, "n2");
  EXPECT_EQ(back.cells[3].key.host, "n2");
  EXPECT_EQ(back.meta.codec_versions.size(), r.meta.codec_versions.size());
  EXPECT_EQ(back.meta.extra.at("k"), "v");
  EXPECT_EQ(back.meta.store_versions, r.meta.store_versions);
}

// A percentile needs 1 / (1 - q) calls: below that it is absent, in memory and on disk, and a
// file that carries one anyway (written before the rule) loses it on load.
TEST(Results, PercentilesTheCallsCannotSupportAreAbsent) {
  RunResults r = testing::make_run(1);
  LatencyStats& l = r.cells[1].compress_latency;
  l.calls = 999;
  l.p999_ns.reset();
  const auto doc = nlohmann::json::parse(results_to_json(r));
  const auto& written = doc.at("kvzbench").at("cells").at(1).at("compress_latency");
  EXPECT_TRUE(written.at("p999_ns").is_null());
  EXPECT_TRUE(written.at("p99_ns").is_number());

  auto old = doc;
  auto& lat = old["kvzbench"]["cells"][1]["compress_latency"];
  lat["p999_ns"] = 123456.0;  // 999 calls cannot support a p99.9
  lat["calls"] = 99;          // nor a p99
  RunResults back;
  std::string err;
  ASSERT_TRUE(results_from_json(old.dump(), back, err)) << err;
  EXPECT_FALSE(back.cells[1].compress_latency.p999_ns.has_value());
  EXPECT_FALSE(back.cells[1].compress_latency.p99_ns.has_value());
  EXPECT_TRUE(back.cells[1].compress_latency.p90_ns.has_value());
}

TEST(Results, FileIsGoogleBenchmarkJson) {
  RunResults r = testing::make_run(2, 3);
  r.cells[1].status = CellStatus::Failed;
  r.cells[1].failure = "round trip mismatch at block 17 (offset 4093)";
  r.cells[0].compress_cpu_mbps = {r.cells[0].compress_mbps[0] * 1.2, r.cells[0].compress_mbps[1],
                                  r.cells[0].compress_mbps[2] * 0.7};
  const auto doc = nlohmann::json::parse(results_to_json(r));
  ASSERT_TRUE(doc.contains("context"));
  EXPECT_EQ(doc["context"]["num_cpus"], 2);
  const auto& rows = doc["benchmarks"];
  // Per OK cell and direction: 3 iterations + median, mean, stddev; and one size row.
  const size_t ok = r.cells.size() - 1;
  EXPECT_EQ(rows.size(), ok * (2 * (3 + 3) + 1));
  const std::string failed_id = r.cells[1].key.id();
  for (const auto& row : rows) {
    EXPECT_EQ(row["name"].get<std::string>().find(failed_id), std::string::npos);
    EXPECT_EQ(row["time_unit"], "ns");
  }
  // First row: the first cell's compress repetition 0; ns per block from MB/s.
  const auto& c = r.cells[0];
  EXPECT_EQ(rows[0]["name"], c.key.id() + "/compress");
  EXPECT_EQ(rows[0]["run_type"], "iteration");
  EXPECT_EQ(rows[0]["repetition_index"], 0);
  const double expect_ns =
      static_cast<double>(c.input_bytes) / (c.compress_mbps[0] * 1e6) * 1e9 / static_cast<double>(c.blocks);
  EXPECT_NEAR(rows[0]["real_time"].get<double>(), expect_ns, expect_ns * 1e-9);
  EXPECT_NEAR(rows[0]["bytes_per_second"].get<double>(), c.compress_mbps[0] * 1e6, 1e-3);
  // Sizes as counters, and as the size row compare.py can see (real_time = stored bytes).
  EXPECT_EQ(rows[0]["stored_bytes"], c.stored_bytes);
  EXPECT_DOUBLE_EQ(rows[0]["stored_ratio"].get<double>(), c.stored_ratio());
  const auto& size_row = rows[12];
  EXPECT_EQ(size_row["name"], c.key.id() + "/stored_bytes");
  EXPECT_EQ(size_row["real_time"].get<double>(), static_cast<double>(c.stored_bytes));
  EXPECT_EQ(rows[3]["run_type"], "aggregate");
  EXPECT_EQ(rows[3]["aggregate_name"], "median");
  // The stddev row: spread of the per-repetition times, wall from wall and CPU from CPU.
  ASSERT_EQ(rows[5]["aggregate_name"], "stddev");
  std::vector<double> wall, cpu;
  for (size_t i = 0; i < 3; ++i) {
    wall.push_back(rows[i]["real_time"].get<double>());
    cpu.push_back(rows[i]["cpu_time"].get<double>());
  }
  auto sd = [](const std::vector<double>& v) {
    const double m = (v[0] + v[1] + v[2]) / 3;
    return std::sqrt(((v[0] - m) * (v[0] - m) + (v[1] - m) * (v[1] - m) + (v[2] - m) * (v[2] - m)) / 2);
  };
  ASSERT_NE(sd(wall), sd(cpu));  // the fixture's CPU speeds are not its wall speeds
  EXPECT_NEAR(rows[5]["real_time"].get<double>(), sd(wall), sd(wall) * 1e-9);
  EXPECT_NEAR(rows[5]["cpu_time"].get<double>(), sd(cpu), sd(cpu) * 1e-9);
  // A failed cell keeps no speeds in the kvzbench part either.
  const auto& jc = doc["kvzbench"]["cells"][1];
  EXPECT_EQ(jc["status"], "FAILED");
  EXPECT_FALSE(jc.contains("compress_mbps"));
  RunResults back;
  std::string err;
  ASSERT_TRUE(results_from_json(doc.dump(), back, err)) << err;
  EXPECT_TRUE(back.cells[1].compress_mbps.empty());
  EXPECT_EQ(back.cells[1].failure, r.cells[1].failure);
}

TEST(Results, BadInputIsOneLineError) {
  RunResults out;
  std::string err;
  EXPECT_FALSE(results_from_json("{not json", out, err));
  EXPECT_EQ(err, "not valid JSON");
  EXPECT_FALSE(results_from_json(R"({"benchmarks": []})", out, err));
  EXPECT_EQ(err, "not a kvzbench result (no 'kvzbench' key)");
  EXPECT_FALSE(results_from_json(R"({"kvzbench": {"schema_version": 99, "meta": {}, "cells": []}})", out, err));
  EXPECT_NE(err.find("schema_version 99"), std::string::npos);
  EXPECT_FALSE(
      results_from_json(R"({"kvzbench": {"schema_version": 1, "meta": {}, "cells": [{"key": {}}]}})", out, err));
  EXPECT_NE(err.find("malformed"), std::string::npos);
  EXPECT_EQ(err.find('\n'), std::string::npos);
  EXPECT_FALSE(load_results("/nonexistent/base.json", out, err));
  EXPECT_EQ(err, "/nonexistent/base.json: cannot open (missing or unreadable)");
}

TEST(Results, MergeJoinsShardsAndRefusesConflicts) {
  RunResults all = testing::make_run(3);
  RunResults a = all, b = all;
  a.cells.clear();
  b.cells.clear();
  for (size_t i = 0; i < all.cells.size(); ++i) (i % 2 ? b : a).cells.push_back(all.cells[i]);
  RunResults m;
  std::string err;
  ASSERT_TRUE(merge_results({a, b}, m, err)) << err;
  EXPECT_EQ(m.cells.size(), all.cells.size());
  EXPECT_EQ(m.meta.cpu_model, all.meta.cpu_model);
  // Same cell twice.
  EXPECT_FALSE(merge_results({a, a}, m, err));
  EXPECT_NE(err.find("is in input 1 and input 2"), std::string::npos);
  // Mixed schemas.
  RunResults c = b;
  c.schema_version = 2;
  EXPECT_FALSE(merge_results({a, c}, m, err));
  EXPECT_NE(err.find("mixed schemas"), std::string::npos);
  // Same codec at another library version.
  c = b;
  c.meta.codec_versions[2].version = "1.5.5";
  EXPECT_FALSE(merge_results({a, c}, m, err));
  EXPECT_NE(err.find("codec zstd"), std::string::npos);
  // Another machine: merged, and the CPU is marked mixed.
  c = b;
  c.meta.cpu_model = "Other CPU";
  ASSERT_TRUE(merge_results({a, c}, m, err)) << err;
  EXPECT_EQ(m.meta.cpu_model.rfind("mixed:", 0), 0u);
}

// Shards of one sweep (run --shard I/N marks its result) merge whole: one missing, or one given
// twice, is refused with the shard named.
TEST(Results, MergeTakesEveryShardOfASweepOnce) {
  RunResults all = testing::make_run(3);
  std::vector<RunResults> shards(3, all);
  for (size_t s = 0; s < shards.size(); ++s) {
    shards[s].cells.clear();
    shards[s].meta.extra["shard"] = fmt::format("{}/3", s);
    for (size_t i = s; i < all.cells.size(); i += 3) shards[s].cells.push_back(all.cells[i]);
  }
  RunResults m;
  std::string err;
  ASSERT_TRUE(merge_results(shards, m, err)) << err;
  EXPECT_EQ(m.cells.size(), all.cells.size());
  EXPECT_FALSE(merge_results({shards[0], shards[2]}, m, err));
  EXPECT_EQ(err, "shard 1 of 3 is missing (2 of 3 given): merge every shard of the sweep");
  EXPECT_FALSE(merge_results({shards[0], shards[1], shards[2], shards[1]}, m, err));
  EXPECT_EQ(err, "shard 1 of 3 is in more than one input: merge each shard once");
}

// The Google Benchmark rows are written as text, not as nlohmann objects (results/gb_rows.cpp):
// each row is exactly nlohmann's own dump of it, so the file is the one a DOM would write.
TEST(Results, GbRowsAreNlohmannsOwnDump) {
  RunResults r = testing::make_run(4, 5);
  r.cells[2].key.source = "caf\xc3\xa9 \"q\".csv";  // escaped and non-ASCII names
  r.cells[3].compress_cpu_mbps.clear();             // wall time stands in for CPU time
  const std::string text = results_to_json(r);
  const auto begin = text.find("\"benchmarks\": [\n") + 16, end = text.find("\n],\n\"kvzbench\"");
  size_t rows = 0;
  for (size_t at = begin; at < end; ++rows) {
    const size_t stop = std::min(text.find(",\n", at), end);
    const std::string row = text.substr(at, stop - at);
    EXPECT_EQ(nlohmann::json::parse(row).dump(), row);
    at = stop + 2;
  }
  EXPECT_EQ(rows, r.cells.size() * (2 * (5 + 3) + 1));
}

// A cell's line is written as text (results/json_text.h), never built as an object: every shape
// of cell gives nlohmann's own dump of its line.
TEST(Results, CellLinesAreNlohmannsOwnDump) {
  RunResults r = testing::make_run(4, 5);
  r.cells[1].store_file_bytes = 277458;
  r.cells[1].store_file_parts = {{"data", 272024}, {"index", 4486}};
  r.cells[1].current = r.cells[2].partial_set = true;
  r.cells[1].on_disk_bytes = 280000;
  r.cells[2].dict_gain = 1.25;
  r.cells[2].key.source = "caf\xc3\xa9 \"q\".csv";
  r.cells[3].status = CellStatus::Failed;
  r.cells[3].failure = "round trip mismatch \xff";
  r.cells[4].key.host = "n2";
  r.cells[4].key.cpu = "EPYC 7B13";
  r.cells[4].key.level = -5;
  r.cells[5].compress_latency.p99_ns.reset();
  r.cells[5].decompress_mbps[0] = std::nan("");
  const std::string text = results_to_json(r);
  const auto begin = text.find("\"cells\": [\n") + 11, end = text.find("\n]}}");
  size_t lines = 0;
  for (size_t at = begin; at < end; ++lines) {
    const size_t stop = std::min(text.find(",\n", at), end);
    const std::string line = text.substr(at, stop - at);
    EXPECT_EQ(nlohmann::json::parse(line).dump(), line);
    at = stop + 2;
  }
  EXPECT_EQ(lines, r.cells.size());
}

}  // namespace kvz
