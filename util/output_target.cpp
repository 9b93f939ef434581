#include "util/output_target.h"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "util/files.h"

namespace kvz {
namespace fs = std::filesystem;

namespace {

constexpr int kMaxLinks = 40;  // as the kernel's own ELOOP limit

// The descriptor a name stands for: "-", /dev/stdout, /dev/stderr, /dev/fd/N and
// /proc/self/fd/N. Replacing what they link to would be wrong (a pipe has no path; a file
// opened with >> would lose its appends), so they are written through the descriptor.
int descriptor_named(std::string_view path) {
  if (path == kStdout || path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (!path.starts_with(prefix)) continue;
    const std::string_view digits = path.substr(prefix.size());
    int fd = -1;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), fd);
    if (ec == std::errc() && end == digits.data() + digits.size() && !digits.empty()) return fd;
  }
  return -1;
}

OutputTarget refused(const std::string& shown, const std::string& why) {
  OutputTarget t;
  t.shown = shown;
  t.refusal = shown.empty() ? why : shown + ": " + why;
  return t;
}

// Follows the last component's symbolic links (a dangling link names the file to create).
bool follow_links(OutputTarget& t, std::string& why) {
  std::string p = t.shown;
  for (int hops = 0; hops <= kMaxLinks; ++hops) {
    if (const int fd = descriptor_named(p); fd >= 0) {
      t.kind = OutputKind::kDescriptor;
      t.fd = fd;
      t.path = p;
      return true;
    }
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
      t.path = p;
      return true;
    }
    std::error_code ec;
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) {
      why = "cannot read the symbolic link: " + ec.message();
      return false;
    }
    p = target.is_absolute() ? target.string() : (fs::path(p).parent_path() / target).string();
  }
  why = "too many levels of symbolic links";
  return false;
}

void classify_by_type(OutputTarget& t) {
  struct stat st {};
  if (::stat(t.path.c_str(), &st) != 0) {
    if (errno == ENOENT) {
      t.kind = OutputKind::kReplace;
    } else {
      t = refused(t.shown, std::strerror(errno));
    }
    return;
  }
  if (S_ISREG(st.st_mode)) {
    t.kind = OutputKind::kReplace;
    t.exists = true;
    t.st = st;
  } else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
    t.kind = OutputKind::kStream;
  } else if (S_ISDIR(st.st_mode)) {
    t = refused(t.shown, "is a directory");
  } else if (S_ISBLK(st.st_mode)) {
    t = refused(t.shown, "is a block device; results are written only to files, character devices and pipes");
  } else {
    t = refused(t.shown,
                "is a socket or other special file; results are written only to files, character "
                "devices and pipes");
  }
}

}  // namespace

OutputTarget classify_output(const std::string& path) {
  if (path.empty()) return refused("", "empty output path");
  OutputTarget t;
  t.shown = path;
  std::string why;
  if (!follow_links(t, why)) return refused(path, why);
  if (t.kind != OutputKind::kDescriptor) classify_by_type(t);
  return t;
}

}  // namespace kvz
