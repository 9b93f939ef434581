// Every set of shared/fixtures/stores (its MANIFEST.tsv) read as `kvzbench run DIR` reads it:
// the store files found in the directory, every block or chunk decoded without an error, the
// file's own codec as the current row. Prints, per set, the blocks read and the current row's
// stored bytes against the file's real bytes (the figures the issue notes quote).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/matrix.h"
#include "blockgen/layouts.h"
#include "blockgen/store_files/store_source.h"
#include "commands/run_plan.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;

fs::path fixtures_dir() {
  if (const char* dir = std::getenv("KVZ_FIXTURES")) return dir;
  const char* corpora = std::getenv("KVZ_CORPORA");
  return fs::path(corpora ? corpora : KVZ_SOURCE_DIR "/../shared/corpora") / ".." / "fixtures" / "stores";
}

std::vector<std::string> manifest_dirs() {
  std::ifstream in(fixtures_dir() / "MANIFEST.tsv");
  std::vector<std::string> dirs;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line))
    if (!line.empty()) dirs.push_back(line.substr(0, line.find('\t')));
  return dirs;
}

TEST(FixtureSets, EverySetReadsWithItsOwnCodecAsTheCurrentRow) {
  const auto dirs = manifest_dirs();
  ASSERT_EQ(dirs.size(), 23u) << fixtures_dir();
  EngineOptions quick;
  quick.seconds_per_cell = 0.002;
  quick.repetitions = 1;
  quick.latency_calls = 10;
  quick.latency_seconds = 0.01;
  for (const auto& dir : dirs) {
    const auto files = store_files_in((fixtures_dir() / dir).string());
    ASSERT_FALSE(files.empty()) << dir;
    for (const auto& file : files) {
      RecordSet rs;
      std::string error;
      ASSERT_TRUE(read_store_file(file, 0, rs, error)) << dir << ": " << error;
      rs.source = fs::path(file).filename().string();
      ASSERT_FALSE(rs.origin.empty()) << file;
      BlockSet blocks = build_blocks(rs, "as-stored", 4096, error);
      ASSERT_TRUE(error.empty()) << error;
      ASSERT_GT(blocks.count(), 0u) << file;
      EXPECT_LE(rs.origin.on_disk, fs::file_size(file)) << file;
      BlockGroup group;
      std::vector<std::string> warnings;
      ASSERT_TRUE(make_group(RunPlan{}, std::move(blocks), CodecRegistry::instance(), group, warnings, error)) << error;
      ASSERT_TRUE(group.current.has_value()) << file << (warnings.empty() ? "" : ": " + warnings.front());
      const std::string label = group.current->codec->info().name + " " + group.current->params.label();
      const EngineOutcome out = run_matrix(build_matrix({std::move(group)}, {}, CodecRegistry::instance()), quick);
      const CellResult* cur = nullptr;
      for (const auto& c : out.cells)
        if (c.current) cur = &c;
      ASSERT_NE(cur, nullptr) << file;
      EXPECT_EQ(cur->status, CellStatus::Ok) << file << ": " << cur->failure;
      std::printf("%-62s %-22s %5llu blocks, file's %9llu B, measured %9llu B, file size %9llu B\n",
                  (dir + "/" + fs::path(file).filename().string()).substr(0, 62).c_str(), label.c_str(),
                  static_cast<unsigned long long>(cur->blocks), static_cast<unsigned long long>(rs.origin.on_disk),
                  static_cast<unsigned long long>(cur->stored_bytes),
                  static_cast<unsigned long long>(fs::file_size(file)));
    }
  }
}

}  // namespace
}  // namespace kvz
