// merge's fleet rules (results/merge_plan.cpp): inputs from several hosts key a store file's
// cells by host, inputs on several CPU models key every cell by CPU model; nothing else changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "results/results.h"
#include "tests/results/fixture.h"

namespace kvz {

namespace {

// One node's survey: its cells are those of a store file "nb-1-big-Data.db" (a corpora entry with
// a detail) plus a corpus file "plain.csv".
RunResults node_run(const std::string& host, const std::string& cpu) {
  RunResults r = testing::make_run(3);
  r.meta.hostname = host;
  r.meta.cpu_model = cpu;
  r.meta.corpora = {{"nb-1-big-Data.db", "/var/lib/cassandra/data/ks/events/nb-1-big-Data.db", 1000, "aa",
                     "Cassandra Data.db (LZ4)", "ks.events"},
                    {"plain.csv", "/data/plain.csv", 500, "bb"}};
  const size_t half = r.cells.size() / 2;
  for (size_t i = 0; i < r.cells.size(); ++i) r.cells[i].key.source = i < half ? "nb-1-big-Data.db" : "plain.csv";
  return r;
}

size_t count_if_host(const RunResults& r, const std::string& host) {
  return std::count_if(r.cells.begin(), r.cells.end(), [&](const CellResult& c) { return c.key.host == host; });
}

}  // namespace

// The same store file name on two nodes is two files: each node's cells of it carry the node.
TEST(MergeFleet, SeveralHostsKeyStoreFileCellsByHost) {
  RunResults a = node_run("node1", "EPYC 7B13"), b = node_run("node2", "EPYC 7B13");
  b.cells.erase(b.cells.begin() + static_cast<long>(b.cells.size() / 2), b.cells.end());  // its store file only
  RunResults m;
  std::string err;
  ASSERT_TRUE(merge_results({a, b}, m, err)) << err;
  EXPECT_EQ(m.cells.size(), a.cells.size() + b.cells.size());
  EXPECT_EQ(count_if_host(m, "node1"), a.cells.size() / 2);
  EXPECT_EQ(count_if_host(m, "node2"), b.cells.size());
  for (const auto& c : m.cells) {
    EXPECT_EQ(c.key.host.empty(), c.key.source == "plain.csv") << c.key.id();  // a corpus file is not a host's
    EXPECT_TRUE(c.key.cpu.empty()) << c.key.id();                              // one CPU model: speeds pool
  }
  EXPECT_EQ(m.cells.front().key.id().rfind("nb-1-big-Data.db@node1/", 0), 0u) << m.cells.front().key.id();
  ASSERT_EQ(m.meta.corpora.size(), 3u);  // the store file per host, the corpus file once
  EXPECT_EQ(m.meta.corpora[0].host, "node1");
  EXPECT_EQ(m.meta.corpora[1].host, "");
  EXPECT_EQ(m.meta.corpora[2].name, "nb-1-big-Data.db");
  EXPECT_EQ(m.meta.corpora[2].host, "node2");
  EXPECT_EQ(m.meta.corpora[2].table, "ks.events");
}

// Shards of one host's sweep keep the ids they were run with.
TEST(MergeFleet, OneHostKeepsKeysUnqualified) {
  RunResults all = node_run("node1", "EPYC 7B13"), a = all, b = all;
  a.cells.assign(all.cells.begin(), all.cells.begin() + 3);
  b.cells.assign(all.cells.begin() + 3, all.cells.end());
  RunResults m;
  std::string err;
  ASSERT_TRUE(merge_results({a, b}, m, err)) << err;
  for (size_t i = 0; i < m.cells.size(); ++i) EXPECT_EQ(m.cells[i].key.id(), all.cells[i].key.id());
  for (const auto& c : m.meta.corpora) EXPECT_EQ(c.host, "");
}

// Speeds are never pooled across CPU models: every cell carries its input's model, so the same
// cell measured on two models is two cells.
TEST(MergeFleet, SeveralCpuModelsKeyEveryCellByModel) {
  RunResults a = node_run("node1", "EPYC 7B13"), b = node_run("node1", "Xeon 8375C");
  RunResults m;
  std::string err;
  ASSERT_TRUE(merge_results({a, b}, m, err)) << err;
  ASSERT_EQ(m.cells.size(), a.cells.size() + b.cells.size());
  for (size_t i = 0; i < m.cells.size(); ++i) {
    const bool first = i < a.cells.size();
    EXPECT_EQ(m.cells[i].key.cpu, first ? "EPYC 7B13" : "Xeon 8375C");
    EXPECT_TRUE(m.cells[i].key.host.empty());  // one host
  }
  EXPECT_EQ(m.cells.back().key.id(), b.cells.back().key.id() + "/cpu=Xeon 8375C");
  EXPECT_EQ(m.meta.cpu_model, "mixed: EPYC 7B13 | Xeon 8375C");
}

// Two hosts of one model pool their corpus cells as before: the same corpus cell twice is refused.
TEST(MergeFleet, SameCellTwiceIsStillRefused) {
  RunResults a = node_run("node1", "EPYC 7B13"), b = node_run("node2", "EPYC 7B13");
  RunResults m;
  std::string err;
  EXPECT_FALSE(merge_results({a, b}, m, err));
  EXPECT_EQ(err, "cell " + a.cells[a.cells.size() / 2].key.id() +
                     " is in input 1 and input 2: merge joins disjoint results only");
}

}  // namespace kvz
