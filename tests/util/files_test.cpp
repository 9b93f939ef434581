// util/files: atomic writes keep the old file on failure; output path checks.
#include "util/files.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace kvz {
namespace {
namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("kvz_files_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, ec);
    fs::remove_all(path, ec);
  }
};

TEST(AtomicFile, WritesReplacesAndLeavesNoTemporary) {
  TempDir d;
  const std::string p = (d.path / "r.json").string();
  std::string error;
  ASSERT_TRUE(write_file_atomically(p, "first", error)) << error;
  ASSERT_TRUE(write_file_atomically(p, "second", error)) << error;
  EXPECT_EQ(read(p), "second");
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(d.path)) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);  // no r.json.tmp.* left behind
  struct stat st {};
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
}

// A full disk, simulated with RLIMIT_FSIZE (writes past it fail with EFBIG, as root too):
// the previous file stays whole and no temporary file is left.
TEST(AtomicFile, FullDiskKeepsThePreviousFile) {
  TempDir d;
  const std::string p = (d.path / "r.json").string();
  std::string error;
  ASSERT_TRUE(write_file_atomically(p, "good", error));
  struct rlimit old {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto previous = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old;
  small.rlim_cur = 1000;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const bool wrote = write_file_atomically(p, std::string(100000, 'x'), error);
  ::setrlimit(RLIMIT_FSIZE, &old);
  ::signal(SIGXFSZ, previous);
  EXPECT_FALSE(wrote);
  EXPECT_NE(error.find("the previous file is kept"), std::string::npos) << error;
  EXPECT_EQ(read(p), "good");
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(d.path)) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);
}

// The target cannot be replaced (it is a directory): it stays, the temporary file goes.
TEST(AtomicFile, FailedRenameKeepsTheTarget) {
  TempDir d;
  fs::create_directories(d.path / "out.json");
  std::string error;
  EXPECT_FALSE(write_file_atomically((d.path / "out.json").string(), "x", error));
  EXPECT_NE(error.find("out.json"), std::string::npos);
  EXPECT_TRUE(fs::is_directory(d.path / "out.json"));
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(d.path)) ++entries;
  EXPECT_EQ(entries, 1u);
}

TEST(AtomicFile, BadPathsAreOneLineErrors) {
  std::string error;
  EXPECT_FALSE(write_file_atomically("/nonexistent-dir/r.json", "x", error));
  EXPECT_NE(error.find("/nonexistent-dir/r.json"), std::string::npos);
  EXPECT_EQ(error.find('\n'), std::string::npos);
  EXPECT_FALSE(write_file_atomically("", "x", error));
}

TEST(OutputChecks, WritableAndSameFile) {
  TempDir d;
  EXPECT_EQ(check_writable((d.path / "x.csv").string()), "");
  EXPECT_NE(check_writable(d.path.string()).find("is a directory"), std::string::npos);
  EXPECT_NE(check_writable((d.path / "no" / "x.csv").string()).find("does not exist"), std::string::npos);
  EXPECT_TRUE(same_file((d.path / "a.json").string(), (d.path / "." / "a.json").string()));
  EXPECT_TRUE(same_file((d.path / "a.json").string(), (d.path / "sub" / ".." / "a.json").string()));
  EXPECT_FALSE(same_file((d.path / "a.json").string(), (d.path / "b.json").string()));
}

// "-" is standard output: written whole there, never a file named "-".
TEST(OutputChecks, DashIsStandardOutput) {
  EXPECT_EQ(check_writable("-"), "");
  EXPECT_TRUE(same_file("-", "-"));
  EXPECT_FALSE(same_file("-", "results.json"));
  testing::internal::CaptureStdout();
  std::string error;
  const bool ok = write_file_atomically("-", "id,source\nx,y\n", error);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "id,source\nx,y\n");
  EXPECT_TRUE(ok) << error;
  EXPECT_FALSE(std::filesystem::exists("-"));
}

}  // namespace
}  // namespace kvz
