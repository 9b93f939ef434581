// Every test binary needs the real corpora (KVZ_CORPORA, set by ctest). Without them, stop
// with one clear line before any test runs, instead of a cascade of failures on empty data.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace {

class RequireCorpora : public ::testing::Environment {
 public:
  void SetUp() override {
    const char* dir = std::getenv("KVZ_CORPORA");
    if (dir && std::filesystem::exists(std::filesystem::path(dir) / "MANIFEST.tsv")) return;
    std::fprintf(stderr,
                 "error: the tests need the corpora: KVZ_CORPORA=%s has no MANIFEST.tsv "
                 "(run them with ctest, with shared/corpora beside the project, or set KVZ_CORPORA)\n",
                 dir ? dir : "(unset)");
    std::exit(1);
  }
};

const auto* const kRequireCorpora = ::testing::AddGlobalTestEnvironment(new RequireCorpora);

}  // namespace
