#include "util/output_target.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <string_view>
#include <vector>

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

std::mutex g_no_follow_mutex;
std::vector<std::string> g_no_follow;  // canonical directories: never_follow_links_in

std::string canonical_or_given(const std::string& dir) {
  std::error_code ec;
  const fs::path c = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  return ec ? dir : c.string();
}

// Why the link `p` is not followed, after `what` names it.
std::string planted_link(const std::string& what, const std::string& p, const std::string& why_not) {
  return fmt::format(
      "{} in {}, which {}: a link there is never followed (it may be planted); remove it or name "
      "its target",
      what, directory_of(p), why_not);
}

// The link `p` (lstat `st`) in a directory where it may not be followed: named as the file to
// replace, or refused.
bool unfollowed_link(OutputTarget& t, const std::string& p, const struct stat& st, const std::string& why_not,
                     LinkRule rule, std::string& why) {
  if (rule == LinkRule::kReplaceLink) {
    t.path = p;
    t.link = true;
    t.st = st;
    return true;
  }
  why = planted_link(p == t.shown ? "is a symbolic link" : "leads to " + p + ", a symbolic link,", p, why_not);
  return false;
}

// Follows the last component's symbolic links (a dangling link names the file to create), each
// only where it may be followed.
bool follow_links(OutputTarget& t, LinkRule rule, std::string& why) {
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
    if (const std::string why_not = why_links_are_not_followed_in(directory_of(p)); !why_not.empty())
      return unfollowed_link(t, p, st, why_not, rule, why);
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
  } else if (S_ISCHR(st.st_mode)) {
    t.kind = OutputKind::kStream;
  } else if (S_ISFIFO(st.st_mode)) {
    // Its reader is another process: gone or never there by the end of a run, the results would
    // wait on it or be lost. A pipe comes through standard output ('-', /dev/stdout) or /dev/fd/N.
    t = refused(t.shown, "is a FIFO; write results to a file, or to a pipe through '-' or /dev/stdout");
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

OutputTarget classify_output(const std::string& path, LinkRule rule) {
  if (path.empty()) return refused("", "empty output path");
  OutputTarget t;
  t.shown = path;
  std::string why;
  if (!follow_links(t, rule, why)) return refused(path, why);
  if (t.link) {
    t.kind = OutputKind::kReplace;
  } else if (t.kind != OutputKind::kDescriptor) {
    classify_by_type(t);
  }
  return t;
}

void never_follow_links_in(const std::string& dir) {
  const std::lock_guard lock(g_no_follow_mutex);
  g_no_follow.push_back(canonical_or_given(dir));
}

std::string check_directory_link(const std::string& dir) {
  std::string p = dir;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  struct stat st {};
  if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return "";
  const std::string why_not = why_links_are_not_followed_in(directory_of(p));
  return why_not.empty() ? "" : dir + ": " + planted_link("is a symbolic link", p, why_not);
}

std::string why_links_are_not_followed_in(const std::string& dir) {
  {
    const std::lock_guard lock(g_no_follow_mutex);
    if (std::find(g_no_follow.begin(), g_no_follow.end(), canonical_or_given(dir)) != g_no_follow.end())
      return "is an output directory jobs share";
  }
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return "cannot be read";
  if (st.st_uid != ::geteuid())
    return fmt::format("belongs to uid {}, not to this user (uid {})", st.st_uid, ::geteuid());
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) return fmt::format("others can write (mode {:o})", st.st_mode & 07777);
  return "";
}

}  // namespace kvz
