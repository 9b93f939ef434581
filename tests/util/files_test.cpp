// util/files: atomic writes keep the old file on failure; output path checks.
#include "util/files.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "tests/util/temp_dir.h"
#include "util/output_paths.h"

namespace kvz {
namespace {
namespace fs = std::filesystem;

using testing::file_text;
using testing::TempDir;

TEST(AtomicFile, WritesReplacesAndLeavesNoTemporary) {
  TempDir d;
  const std::string p = (d.path / "r.json").string();
  std::string error;
  ASSERT_TRUE(write_file_atomically(p, "first", error)) << error;
  ASSERT_TRUE(write_file_atomically(p, "second", error)) << error;
  EXPECT_EQ(file_text(p), "second");
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
  EXPECT_EQ(file_text(p), "good");
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
  ::testing::internal::CaptureStdout();
  std::string error;
  const bool ok = write_file_atomically("-", "id,source\nx,y\n", error);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "id,source\nx,y\n");
  EXPECT_TRUE(ok) << error;
  EXPECT_FALSE(std::filesystem::exists("-"));
}

// A symbolic link in a directory that is the user's alone (the temporary directory here: this
// user's, mode 0700) is followed: its target gets the new content, the link itself stays.
TEST(AtomicFile, SymlinkKeepsTheLinkAndReplacesItsTarget) {
  TempDir d;
  fs::permissions(d.path, fs::perms::owner_all);
  fs::create_directories(d.path / "real");
  const fs::path target = d.path / "real" / "r.json";
  const fs::path link = d.path / "r.json";
  std::string error;
  ASSERT_TRUE(write_file_atomically(target.string(), "old", error)) << error;
  fs::create_symlink("real/r.json", link);
  ASSERT_TRUE(write_file_atomically(link.string(), "new", error)) << error;
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
  EXPECT_EQ(file_text(target), "new");
  // A dangling link names the file to create.
  fs::create_symlink("real/made.json", d.path / "dangling.json");
  ASSERT_TRUE(write_file_atomically((d.path / "dangling.json").string(), "made", error)) << error;
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(d.path / "dangling.json")));
  EXPECT_EQ(file_text(d.path / "real" / "made.json"), "made");
}

TEST(AtomicFile, ReplacedFileKeepsItsMode) {
  TempDir d;
  const fs::path p = d.path / "secret.json";
  std::string error;
  ASSERT_TRUE(write_file_atomically(p.string(), "a", error)) << error;
  ASSERT_EQ(::chmod(p.c_str(), 0600), 0);
  ASSERT_TRUE(write_file_atomically(p.string(), "b", error)) << error;
  struct stat st {};
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(file_text(p), "b");
}

// A FIFO is refused before anything is written (its reader may be gone when a run ends), and
// stays a FIFO; a pipe comes through standard output or /dev/fd/N instead.
TEST(AtomicFile, FifoIsRefusedAndKept) {
  TempDir d;
  const fs::path fifo = d.path / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(check_writable(fifo.string()).find("is a FIFO"), std::string::npos) << check_writable(fifo.string());
  std::string error;
  EXPECT_FALSE(write_file_atomically(fifo.string(), "x", error));
  EXPECT_NE(error.find("is a FIFO"), std::string::npos) << error;
  StreamedFileWriter w(fifo.string());
  EXPECT_FALSE(w.open(error));
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST(AtomicFile, SocketIsRefusedAndKept) {
  TempDir d;
  const fs::path sock = d.path / "s";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  std::string error;
  EXPECT_FALSE(write_file_atomically(sock.string(), "x", error));
  EXPECT_NE(error.find("socket"), std::string::npos) << error;
  EXPECT_NE(check_writable(sock.string()).find("socket"), std::string::npos);
  struct stat st {};
  ASSERT_EQ(::lstat(sock.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  ::close(fd);
}

// /dev/fd/N is the descriptor itself: written there, never replaced.
TEST(AtomicFile, DevFdWritesTheDescriptor) {
  TempDir d;
  const fs::path p = d.path / "out";
  const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, "head,", 5), 5);
  std::string error;
  EXPECT_EQ(check_writable("/dev/fd/" + std::to_string(fd)), "");
  EXPECT_TRUE(write_file_atomically("/dev/fd/" + std::to_string(fd), "tail", error)) << error;
  ::close(fd);
  EXPECT_EQ(file_text(p), "head,tail");  // appended through the descriptor, not a new file
  EXPECT_NE(check_writable("/dev/fd/987"), "");
}

// A signal that lands while a temporary file is being created still removes it: many writers
// are stopped at random moments while they do nothing but create and drop their temporaries.
TEST(AtomicFile, SignalAtAnyMomentLeavesNoTemporary) {
  TempDir d;
  const std::string target = (d.path / "out.json").string();
  std::minstd_rand pick(7);
  for (int trial = 0; trial < 200; ++trial) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      remove_temporaries_on_signals();
      for (;;) {
        StreamedFileWriter writer(target);
        std::string error;
        if (!writer.open(error)) ::_exit(3);
      }
    }
    ::usleep(100 + pick() % 1500);
    ::kill(child, SIGTERM);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "trial " << trial << ": status " << status;
    for (const auto& entry : fs::directory_iterator(d.path))
      FAIL() << "trial " << trial << " left " << entry.path().filename();
  }
}

}  // namespace
}  // namespace kvz
