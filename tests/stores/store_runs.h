#pragma once
// Shared by the store-file tests: where shared/fixtures/stores is, and a store file run as
// `kvzbench run FILE` plans it (its blocks as stored, its own store framing them, its codec the
// current row), on a small budget: the sizes are what these tests check, not the speeds.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bench/engine.h"
#include "blockgen/layouts.h"
#include "blockgen/source_registry.h"
#include "commands/run_plan.h"

namespace kvz::store_runs {

// KVZ_FIXTURES, else fixtures/stores beside KVZ_CORPORA (../shared/corpora by default).
inline std::filesystem::path fixtures_dir() {
  if (const char* dir = std::getenv("KVZ_FIXTURES")) return dir;
  const char* corpora = std::getenv("KVZ_CORPORA");
  return std::filesystem::path(corpora ? corpora : KVZ_SOURCE_DIR "/../shared/corpora") / ".." / "fixtures" / "stores";
}

inline EngineOptions quick_engine() {
  EngineOptions o;
  o.seconds_per_cell = 0.002;
  o.repetitions = 1;
  o.latency_calls = 10;
  o.latency_seconds = 0.01;
  return o;
}

// The current row of `path` as stored ({} and a test failure when there is none); `label` gets
// its codec and params ("lz4 1:stream:fresh").
inline CellResult current_row(const std::string& path, std::string& label) {
  RecordSet rs;
  std::string error;
  EXPECT_TRUE(SourceRegistry::global().read(path, 0, rs, error)) << error;
  rs.source = std::filesystem::path(path).filename().string();
  BlockSet blocks = build_blocks(rs, "as-stored", 4096, error);
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_EQ(blocks.count() + 1, rs.stored_offsets.size()) << path;
  BlockGroup group;
  std::vector<std::string> warnings;
  EXPECT_TRUE(make_group(RunPlan{}, std::move(blocks), CodecRegistry::instance(), group, warnings, error)) << error;
  EXPECT_TRUE(warnings.empty()) << path << ": " << (warnings.empty() ? "" : warnings.front());
  EXPECT_TRUE(group.current.has_value()) << path;
  if (!group.current) return {};
  label = group.current->codec->info().name + " " + group.current->params.label();
  for (const auto& c :
       run_matrix(build_matrix({std::move(group)}, {}, CodecRegistry::instance()), quick_engine()).cells)
    if (c.current) return c;
  ADD_FAILURE() << path << ": no current row";
  return {};
}

}  // namespace kvz::store_runs
