#include "util/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace kvz {
namespace fs = std::filesystem;

namespace {

std::string directory_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

}  // namespace

bool write_file_atomically(const std::string& path, std::string_view data, std::string& error) {
  if (path.empty()) {
    error = "empty output path";
    return false;
  }
  if (path == kStdout) {
    // SIGPIPE is ignored: a closed pipe is an error here, not a kill.
    if (std::fwrite(data.data(), 1, data.size(), stdout) != data.size() || std::fflush(stdout) != 0) {
      error = std::string("standard output: ") + std::strerror(errno);
      return false;
    }
    return true;
  }
  std::string tmp = path + ".tmp.XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) {
    error = path + ": cannot create a temporary file beside it: " + std::strerror(errno);
    return false;
  }
  ::fchmod(fd, 0644);  // mkstemp makes 0600; a result file is for sharing
  const bool written = write_all(fd, data) && ::fsync(fd) == 0;
  const int write_errno = errno;
  const bool closed = ::close(fd) == 0;
  if (!written || !closed) {
    ::unlink(tmp.c_str());
    error = path + ": write failed (" + std::strerror(written ? errno : write_errno) + "); the previous file is kept";
    return false;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    error = path + ": cannot replace: " + std::strerror(errno) + "; the previous file is kept";
    ::unlink(tmp.c_str());
    return false;
  }
  // The rename is durable once the directory entry is.
  const int dir = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return true;
}

std::string check_writable(const std::string& path) {
  if (path.empty()) return "empty output path";
  if (path == kStdout) return "";
  std::error_code ec;
  if (fs::is_directory(path, ec)) return path + ": is a directory";
  const std::string dir = directory_of(path);
  if (!fs::is_directory(dir, ec)) return path + ": directory " + dir + " does not exist";
  if (::access(dir.c_str(), W_OK) != 0) return path + ": directory " + dir + " is not writable";
  if (fs::exists(path, ec) && ::access(path.c_str(), W_OK) != 0) return path + ": not writable";
  return "";
}

bool same_file(const std::string& a, const std::string& b) {
  if (a == kStdout || b == kStdout) return a == b;  // "-" is no file in the working directory
  std::error_code ea, eb;
  const fs::path pa = fs::weakly_canonical(fs::absolute(a, ea), ea);
  const fs::path pb = fs::weakly_canonical(fs::absolute(b, eb), eb);
  if (ea || eb) return a == b;
  return pa == pb;
}

}  // namespace kvz
