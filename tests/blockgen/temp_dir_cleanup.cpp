// Removes this process's scratch directory (test::temp_path) when the tests finish.
#include <gtest/gtest.h>

#include <filesystem>

#include "block_parsers.h"

namespace {

class TempDirCleanup : public testing::Environment {
 public:
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(std::filesystem::path(kvz::test::temp_path("x")).parent_path(), ec);
  }
};

[[maybe_unused]] testing::Environment* const kCleanup = testing::AddGlobalTestEnvironment(new TempDirCleanup);

}  // namespace
