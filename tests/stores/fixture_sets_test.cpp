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

#include "blockgen/source_registry.h"
#include "store_runs.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;

using store_runs::fixtures_dir;

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
  for (const auto& dir : dirs) {
    const auto files = SourceRegistry::global().files_in((fixtures_dir() / dir).string());
    ASSERT_FALSE(files.empty()) << dir;
    for (const auto& file : files) {
      std::string label;
      const CellResult cur = store_runs::current_row(file, label);
      EXPECT_EQ(cur.status, CellStatus::Ok) << file << ": " << cur.failure;
      ASSERT_TRUE(cur.on_disk_bytes.has_value()) << file;
      EXPECT_GT(cur.blocks, 0u) << file;
      EXPECT_LE(*cur.on_disk_bytes, fs::file_size(file)) << file;
      std::printf("%-62s %-22s %5llu blocks, file's %9llu B, measured %9llu B, file size %9llu B\n",
                  (dir + "/" + fs::path(file).filename().string()).substr(0, 62).c_str(), label.c_str(),
                  static_cast<unsigned long long>(cur.blocks), static_cast<unsigned long long>(*cur.on_disk_bytes),
                  static_cast<unsigned long long>(cur.stored_bytes),
                  static_cast<unsigned long long>(fs::file_size(file)));
    }
  }
}

}  // namespace
}  // namespace kvz
