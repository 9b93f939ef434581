// merge_result_files (results/merge_stream.cpp), what `kvzbench merge` runs: the streamed merge
// writes the file the in-memory merge of the same inputs writes, byte for byte, and refuses what
// it refuses without touching the output.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "results/results.h"
#include "tests/results/fixture.h"

namespace kvz {

namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "kvz_merge_stream_XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Saves the runs, then merges the saved files both ways; returns the in-memory merge's text.
std::vector<std::string> save_all(const TempDir& dir, const std::vector<RunResults>& runs) {
  std::vector<std::string> paths;
  std::string err;
  for (size_t i = 0; i < runs.size(); ++i) {
    paths.push_back(dir / ("input" + std::to_string(i) + ".json"));
    EXPECT_TRUE(save_results(paths.back(), runs[i], err)) << err;
  }
  return paths;
}

std::string in_memory_merge(const std::vector<std::string>& paths) {
  std::vector<RunResults> loaded(paths.size());
  std::string err;
  for (size_t i = 0; i < paths.size(); ++i) EXPECT_TRUE(load_results(paths[i], loaded[i], err)) << err;
  RunResults merged;
  EXPECT_TRUE(merge_results(loaded, merged, err)) << err;
  return results_to_json(merged);
}

// Shards of a sweep with 9 repetitions, latency blocks and failed cells, cut by turns.
std::vector<RunResults> sweep_shards(int count) {
  RunResults all = testing::make_run(5);
  all.cells[3].status = CellStatus::Failed;  // no speeds, no GB rows
  all.cells[3].failure = "round trip mismatch at block 17, byte 4093";
  std::vector<RunResults> shards(count, all);
  for (int s = 0; s < count; ++s) {
    shards[s].cells.clear();
    shards[s].meta.extra["shard"] = std::to_string(s) + "/" + std::to_string(count);
    for (size_t i = s; i < all.cells.size(); i += count) shards[s].cells.push_back(all.cells[i]);
  }
  return shards;
}

// A fleet: two hosts of two CPU models, each with a store file of one name and its current row.
std::vector<RunResults> fleet_nodes() {
  std::vector<RunResults> nodes;
  for (const char* host : {"node1", "node2"}) {
    RunResults r = testing::make_run(host[4]);
    r.meta.hostname = host;
    r.meta.cpu_model = host[4] == '1' ? "EPYC 7B13" : "Xeon 8375C";
    r.meta.corpora = {{"nb-1-big-Data.db", "/data/ks/events/nb-1-big-Data.db", 1000, host, "Cassandra", "ks.events"}};
    for (auto& c : r.cells) c.key.source = "nb-1-big-Data.db";
    r.cells[1].current = r.cells[8].current = true;
    r.cells[1].on_disk_bytes = r.cells[8].on_disk_bytes = 123456;
    nodes.push_back(r);
  }
  return nodes;
}

// Shards of a sweep over `sources` sources: more cells than one batch of the merge's pipeline
// (merge_pipeline.cpp), so batches of several inputs are in flight at once.
std::vector<RunResults> large_shards(int count, int sources) {
  const RunResults one = testing::make_run(7, 5);
  std::vector<RunResults> shards(count, one);
  for (int s = 0; s < count; ++s) {
    shards[s].cells.clear();
    shards[s].meta.extra["shard"] = std::to_string(s) + "/" + std::to_string(count);
  }
  for (int source = 0; source < sources; ++source)
    for (auto c : one.cells) {
      c.key.source = "src" + std::to_string(source);
      shards[source % count].cells.push_back(c);
    }
  return shards;
}

}  // namespace

// Thousands of cells: the parallel batches are written in input order, their GB families
// numbered across batches, as one thread would.
TEST(MergeStream, ManyBatchesWriteTheInMemoryMergeByteForByte) {
  TempDir dir;
  const auto shards = large_shards(3, 150);
  const auto paths = save_all(dir, shards);
  size_t cells = 0;
  std::string err;
  ASSERT_TRUE(merge_result_files(paths, dir / "merged.json", cells, err)) << err;
  EXPECT_GT(shards[0].cells.size(), 2 * 256u);  // more than two batches an input
  EXPECT_EQ(cells, 3 * shards[0].cells.size());
  EXPECT_EQ(read_all(dir / "merged.json"), in_memory_merge(paths));
}

// The error a single thread meets first wins: a cell repeated at the end of input 2 comes before
// input 3's unreadable first cell, though input 3's batches may be parsed first.
TEST(MergeStream, ManyBatchesReportTheFirstErrorInInputOrder) {
  TempDir dir;
  auto shards = large_shards(3, 150);
  const CellResult repeated = shards[1].cells[600];
  shards[1].cells.push_back(repeated);
  const auto paths = save_all(dir, shards);
  std::string text = read_all(paths[2]);
  const size_t blocks = text.find("\"blocks\":", text.find("\"cells\": ["));
  ASSERT_NE(blocks, std::string::npos);
  text.insert(blocks + 9, "\"many\",\"was\":");  // a string where a count belongs
  std::ofstream(paths[2], std::ios::trunc) << text;
  size_t cells = 0;
  std::string err;
  RunResults unreadable;
  EXPECT_FALSE(load_results(paths[2], unreadable, err));
  EXPECT_EQ(err.rfind(paths[2] + ": malformed kvzbench result: ", 0), 0u) << err;
  EXPECT_FALSE(merge_result_files(paths, dir / "merged.json", cells, err));
  EXPECT_EQ(err, paths[1] + ": malformed kvzbench result: cell " + repeated.key.id() + " appears twice");
  EXPECT_FALSE(fs::exists(dir / "merged.json"));
}

TEST(MergeStream, WritesTheInMemoryMergeByteForByte) {
  for (const auto& runs : {sweep_shards(3), fleet_nodes()}) {
    TempDir dir;
    const auto paths = save_all(dir, runs);
    size_t cells = 0;
    std::string err;
    ASSERT_TRUE(merge_result_files(paths, dir / "merged.json", cells, err)) << err;
    EXPECT_EQ(read_all(dir / "merged.json"), in_memory_merge(paths));
    size_t expected = 0;
    for (const auto& r : runs) expected += r.cells.size();
    EXPECT_EQ(cells, expected);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 4 - (runs.size() == 2));
  }
}

// Refused with the in-memory merge's line, and the previous output is kept as it was.
TEST(MergeStream, RefusesWhatMergeRefusesAndKeepsTheOutput) {
  TempDir dir;
  auto shards = sweep_shards(3);
  const auto paths = save_all(dir, shards);
  const std::string out = dir / "merged.json";
  std::ofstream(out) << "previous";
  size_t cells = 0;
  std::string err;
  EXPECT_FALSE(merge_result_files({paths[0], paths[2]}, out, cells, err));
  EXPECT_EQ(err, "shard 1 of 3 is missing (2 of 3 given): merge every shard of the sweep");
  RunResults copy = shards[1];
  copy.meta.extra.erase("shard");
  std::string copy_err;
  ASSERT_TRUE(save_results(dir / "copy.json", copy, copy_err)) << copy_err;
  EXPECT_FALSE(merge_result_files({paths[0], paths[1], paths[2], dir / "copy.json"}, out, cells, err));
  EXPECT_EQ(err,
            "cell " + shards[1].cells[0].key.id() + " is in input 2 and input 4: merge joins disjoint results only");
  EXPECT_FALSE(merge_result_files({paths[0], dir / "missing.json"}, out, cells, err));
  EXPECT_EQ(err, (dir / "missing.json") + ": cannot open (missing or unreadable)");
  std::ofstream(dir / "other.json") << R"({"benchmarks": []})";
  EXPECT_FALSE(merge_result_files({dir / "other.json"}, out, cells, err));
  EXPECT_EQ(err, (dir / "other.json") + ": not a kvzbench result (no 'kvzbench' key)");
  std::ofstream(dir / "cut.json") << read_all(paths[0]).substr(0, 5000);
  EXPECT_FALSE(merge_result_files({dir / "cut.json"}, out, cells, err));
  EXPECT_EQ(err.rfind((dir / "cut.json") + ": malformed kvzbench result: not valid JSON at byte", 0), 0u) << err;
  EXPECT_EQ(read_all(out), "previous");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 7);  // no temporary file
}

}  // namespace kvz
