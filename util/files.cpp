#include "util/files.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>
#include <utility>

#include "util/output_target.h"

namespace kvz {
namespace fs = std::filesystem;

namespace {

std::atomic<unsigned> g_signals_seen{0};

// The signals after which the temporary files are removed before the process ends.
constexpr int kCleanedUpSignals[] = {SIGINT, SIGTERM, SIGHUP};

// The temporary files being written, for a signal handler to remove: plain buffers, each claimed
// (kFilling) before its path is copied and handed over (kHeld) after, so the handler reads only
// whole paths. A process writes one or two at a time.
constexpr int kTemporarySlots = 16;
constexpr size_t kTemporaryPathMax = 4096;
enum : int { kFree, kFilling, kHeld };
char g_temporary_paths[kTemporarySlots][kTemporaryPathMax];
std::atomic<int> g_temporary_state[kTemporarySlots];

// The slot holding `path` (removed on a signal until released), or -1 (none free, path too long).
int hold_temporary(const std::string& path) {
  if (path.size() >= kTemporaryPathMax) return -1;
  for (int i = 0; i < kTemporarySlots; ++i) {
    int free = kFree;
    if (!g_temporary_state[i].compare_exchange_strong(free, kFilling)) continue;
    std::memcpy(g_temporary_paths[i], path.c_str(), path.size() + 1);
    g_temporary_state[i].store(kHeld);
    return i;
  }
  return -1;
}

void release_temporary(int slot) {
  if (slot >= 0) g_temporary_state[slot].store(kFree);
}

// mkostemp's O_CREAT | O_EXCL never follows a link: a name planted at the temporary's path makes
// it fail, never write elsewhere. The name is held for the signal handlers until released; the
// signals they handle wait while the file exists but is not yet held, else one arriving then
// would leave it behind.
int create_temporary(std::string& tmp, int& slot) {
  sigset_t handled;
  sigset_t before;
  sigemptyset(&handled);
  for (int sig : kCleanedUpSignals) sigaddset(&handled, sig);
  ::pthread_sigmask(SIG_BLOCK, &handled, &before);
  const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  slot = fd >= 0 ? hold_temporary(tmp) : -1;
  ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  return fd;
}

extern "C" void remove_temporaries_and_die(int sig) {
  remove_temporaries_now();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// A write interrupted by a signal is retried, unless a signal arrived since `signals_before`
// (a pipe or FIFO whose reader stopped reading must not hold the process past a signal).
bool write_all(int fd, std::string_view data, unsigned signals_before) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR && g_signals_seen.load() == signals_before) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// Standard output goes through stdio, so the console table and a result written to "-" keep
// their order; other descriptors are written directly after stdio's buffers are flushed.
bool write_descriptor(const OutputTarget& t, std::string_view data, std::string& error) {
  bool ok = false;
  if (t.fd == STDOUT_FILENO) {
    ok = std::fwrite(data.data(), 1, data.size(), stdout) == data.size() && std::fflush(stdout) == 0;
  } else {
    std::fflush(nullptr);
    ok = write_all(t.fd, data, g_signals_seen.load());
  }
  if (!ok) error = t.shown + ": write failed: " + std::strerror(errno);
  return ok;
}

// A FIFO without a reader would block open(O_WRONLY) beyond any signal: open without
// blocking and retry until a reader comes or a signal arrives.
int open_stream(const std::string& path, std::string& error) {
  const unsigned signals_before = g_signals_seen.load();
  for (;;) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd >= 0) {
      ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
      return fd;
    }
    if (errno != ENXIO && errno != EINTR) break;
    if (g_signals_seen.load() != signals_before) {
      errno = EINTR;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  error = path + ": cannot open for writing: " + std::strerror(errno);
  return -1;
}

bool write_stream(const OutputTarget& t, std::string_view data, std::string& error) {
  const unsigned signals_before = g_signals_seen.load();
  const int fd = open_stream(t.path, error);
  if (fd < 0) return false;
  const bool written = write_all(fd, data, signals_before);
  const int write_errno = errno;
  const bool closed = ::close(fd) == 0;
  if (written && closed) return true;
  error = t.shown + ": write failed: " + std::strerror(written ? errno : write_errno);
  return false;
}

mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

// The temporary file takes the replaced file's mode and owner (a 0600 result stays 0600).
bool fill_temporary(int fd, const OutputTarget& t, std::string_view data) {
  if (t.exists) {
    if (::fchown(fd, t.st.st_uid, t.st.st_gid) != 0 && errno != EPERM) return false;
    if (::fchmod(fd, t.st.st_mode & 07777) != 0) return false;
  } else if (::fchmod(fd, new_file_mode()) != 0) {
    return false;
  }
  return write_all(fd, data, g_signals_seen.load()) && ::fsync(fd) == 0;
}

// Renames only over what classify_output saw: the same regular file, the same link that may not
// be followed (OutputTarget::link: replaced itself), or nothing (an entry that appeared
// meanwhile is never replaced).
bool rename_into_place(const std::string& tmp, const OutputTarget& t) {
  if (!t.exists && !t.link) return ::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, t.path.c_str(), RENAME_NOREPLACE) == 0;
  struct stat now {};
  if (::lstat(t.path.c_str(), &now) != 0 || (t.link ? !S_ISLNK(now.st_mode) : !S_ISREG(now.st_mode)) ||
      now.st_ino != t.st.st_ino || now.st_dev != t.st.st_dev) {
    errno = EEXIST;
    return false;
  }
  return ::rename(tmp.c_str(), t.path.c_str()) == 0;
}

void sync_directory(const std::string& path) {
  const int dir = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

bool replace_file(const OutputTarget& t, std::string_view data, std::string& error) {
  std::string tmp = t.path + ".tmp.XXXXXX";
  int slot = -1;
  const int fd = create_temporary(tmp, slot);
  struct Release {
    int slot;
    ~Release() { release_temporary(slot); }
  } release{slot};
  if (fd < 0) {
    error = t.shown + ": cannot create a temporary file beside it: " + std::strerror(errno);
    return false;
  }
  const bool written = fill_temporary(fd, t, data);
  const int write_errno = errno;
  const bool closed = ::close(fd) == 0;
  if (!written || !closed) {
    ::unlink(tmp.c_str());
    error =
        t.shown + ": write failed (" + std::strerror(written ? errno : write_errno) + "); the previous file is kept";
    return false;
  }
  if (!rename_into_place(tmp, t)) {
    error = t.shown + ": cannot replace: " + std::strerror(errno) + "; the previous file is kept";
    ::unlink(tmp.c_str());
    return false;
  }
  sync_directory(t.path);  // the rename is durable once the directory entry is
  return true;
}

}  // namespace

std::string directory_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

std::atomic<unsigned>& signals_seen_by_writes() { return g_signals_seen; }

void remove_temporaries_now() {
  for (int i = 0; i < kTemporarySlots; ++i)
    if (g_temporary_state[i].load() == kHeld) ::unlink(g_temporary_paths[i]);
}

void remove_temporaries_on_signals() {
  struct sigaction sa {};
  sa.sa_handler = remove_temporaries_and_die;
  sigemptyset(&sa.sa_mask);
  for (int sig : kCleanedUpSignals) sigaction(sig, &sa, nullptr);
}

StreamedFileWriter::StreamedFileWriter(const std::string& path)
    : target_(std::make_unique<OutputTarget>(classify_output(path, LinkRule::kReplaceLink))) {}

StreamedFileWriter::~StreamedFileWriter() {
  if (!committed_) {
    if (fd_ >= 0 && fd_ != target_->fd) ::close(fd_);
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
  }
  release_temporary(slot_);  // after the unlink: a signal until then still removes it
}

bool StreamedFileWriter::open(std::string& error) {
  const OutputTarget& t = *target_;
  if (t.kind == OutputKind::kRefused) {
    error = t.refusal;
    return false;
  }
  if (t.kind == OutputKind::kDescriptor) {
    std::fflush(nullptr);
    fd_ = t.fd;
    return true;
  }
  if (t.kind == OutputKind::kStream) return (fd_ = open_stream(t.path, error)) >= 0;
  tmp_ = t.path + ".tmp.XXXXXX";
  fd_ = create_temporary(tmp_, slot_);
  if (fd_ >= 0) return true;
  tmp_.clear();
  error = t.shown + ": cannot create a temporary file beside it: " + std::strerror(errno);
  return false;
}

bool StreamedFileWriter::write(std::string_view data, std::string& error) {
  if (write_all(fd_, data, g_signals_seen.load())) return true;
  error =
      target_->shown + ": write failed: " + std::strerror(errno) + (tmp_.empty() ? "" : "; the previous file is kept");
  return false;
}

bool StreamedFileWriter::commit(std::string& error) {
  const OutputTarget& t = *target_;
  if (t.kind == OutputKind::kDescriptor) return committed_ = true;
  if (t.kind == OutputKind::kStream) {
    const bool closed = ::close(fd_) == 0;
    fd_ = -1;
    if (!closed) error = t.shown + ": write failed: " + std::strerror(errno);
    return committed_ = closed;
  }
  const bool written = fill_temporary(fd_, t, {});  // mode, owner and fsync as write_file_atomically
  const bool closed = ::close(fd_) == 0;
  fd_ = -1;
  if (!written || !closed) {
    error = t.shown + ": write failed (" + std::strerror(errno) + "); the previous file is kept";
    return false;
  }
  if (!rename_into_place(tmp_, t)) {
    error = t.shown + ": cannot replace: " + std::strerror(errno) + "; the previous file is kept";
    return false;
  }
  release_temporary(std::exchange(slot_, -1));  // renamed: no longer the handler's to remove
  sync_directory(t.path);
  return committed_ = true;
}

bool write_file_atomically(const std::string& path, std::string_view data, std::string& error) {
  const OutputTarget t = classify_output(path, LinkRule::kReplaceLink);
  switch (t.kind) {
    case OutputKind::kDescriptor:
      return write_descriptor(t, data, error);
    case OutputKind::kStream:
      return write_stream(t, data, error);
    case OutputKind::kReplace:
      return replace_file(t, data, error);
    case OutputKind::kRefused:
      break;
  }
  error = t.refusal;
  return false;
}

std::string check_writable(const std::string& path) {
  const OutputTarget t = classify_output(path);
  switch (t.kind) {
    case OutputKind::kDescriptor:
      return ::fcntl(t.fd, F_GETFL) >= 0 ? "" : t.shown + ": descriptor " + std::to_string(t.fd) + " is not open";
    case OutputKind::kStream:
      return ::access(t.path.c_str(), W_OK) == 0 ? "" : t.shown + ": not writable";
    case OutputKind::kRefused:
      return t.refusal;
    case OutputKind::kReplace:
      break;
  }
  const std::string dir = directory_of(t.path);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return t.shown + ": directory " + dir + " does not exist";
  if (::access(dir.c_str(), W_OK) != 0) return t.shown + ": directory " + dir + " is not writable";
  if (t.exists && ::access(t.path.c_str(), W_OK) != 0) return t.shown + ": not writable";
  return "";
}

bool names_standard_output(const std::string& path) {
  const OutputTarget t = classify_output(path);
  return t.kind == OutputKind::kDescriptor && t.fd == STDOUT_FILENO;
}

}  // namespace kvz
