#pragma once
// Reading a store's file: mapped whole (only the pages a reader touches cost memory), a
// companion file read whole within a size bound, or the bytes at a given distance from its end
// (magics, versions and trailers live there), and its fixed-width integers. Only regular files
// are opened: a FIFO would block open() and a device (/dev/zero) never ends, so the path is
// stat()ed first and the descriptor fstat()ed after a non-blocking open, closing the race.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace kvz {

// The unsigned integer in the `n` (<= 8) bytes at `at`: little-endian (RocksDB, LevelDB,
// WiredTiger) or big-endian (HBase, Cassandra). The caller has checked the bounds.
inline uint64_t read_le(std::span<const uint8_t> b, size_t at, size_t n) {
  uint64_t v = 0;
  for (size_t i = n; i-- > 0;) v = v << 8 | b[at + i];
  return v;
}
inline uint64_t read_be(std::span<const uint8_t> b, size_t at, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v = v << 8 | b[at + i];
  return v;
}

// What a path is when it is not a regular file, for the one-line error.
inline const char* file_kind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// A read-only descriptor of the regular file at `path`, at most `max_size` bytes long; -1 with
// "PATH: ..." in `error`. Never blocks: the type is checked before open() and again after it.
inline int open_regular(const std::string& path, uint64_t max_size, uint64_t& size, std::string& error) {
  struct stat before {};
  if (::stat(path.c_str(), &before) != 0) {
    error = path + ": cannot read (" + std::strerror(errno) + ")";
    return -1;
  }
  if (!S_ISREG(before.st_mode)) {
    error = path + ": " + file_kind(before.st_mode) + ", not a regular file: not read";
    return -1;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  struct stat after {};
  if (fd < 0 || ::fstat(fd, &after) != 0 || !S_ISREG(after.st_mode) || after.st_ino != before.st_ino ||
      after.st_dev != before.st_dev) {
    error = path + ": cannot read (" + (fd < 0 ? std::strerror(errno) : "it changed while being opened") + ")";
    if (fd >= 0) ::close(fd);
    return -1;
  }
  size = static_cast<uint64_t>(after.st_size);
  if (size > max_size) {
    error = path + ": " + std::to_string(size) + " bytes, above the " + std::to_string(max_size) +
            " this file can hold: not read";
    ::close(fd);
    return -1;
  }
  return fd;
}

// `out.size()` bytes at `at`; false on a read error or a file that ended early.
inline bool pread_all(int fd, uint64_t at, std::span<uint8_t> out) {
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(at + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// A companion file (CompressionInfo.db, ...): a regular file of at most `max_size` bytes, read
// whole; false with one line in `error`.
inline bool read_small_file(const std::string& path, uint64_t max_size, std::vector<uint8_t>& out, std::string& error) {
  uint64_t size = 0;
  const int fd = open_regular(path, max_size, size, error);
  if (fd < 0) return false;
  out.resize(static_cast<size_t>(size));
  const bool ok = pread_all(fd, 0, out);
  ::close(fd);
  if (!ok) error = path + ": cannot read (a read error, or the file shrank)";
  return ok;
}

// A whole regular file of any size (tests, tools); the readers map theirs (MappedFile).
inline bool read_whole_file(const std::string& path, std::vector<uint8_t>& out, std::string& error) {
  return read_small_file(path, uint64_t{1} << 40, out, error);
}

// A store file mapped read-only: pages are read when a reader touches them, so a reader that
// stops early (--max-bytes) never pays for the rest of the file.
class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile() {
    if (size_) ::munmap(data_, size_);
  }
  bool open(const std::string& path, std::string& error) {
    uint64_t size = 0;
    const int fd = open_regular(path, uint64_t{1} << 46, size, error);
    if (fd < 0) return false;
    void* p = size ? ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0) : nullptr;
    ::close(fd);
    if (p == MAP_FAILED) {
      error = path + ": cannot map (" + std::strerror(errno) + ")";
      return false;
    }
    data_ = p;
    size_ = static_cast<size_t>(size);
    return true;
  }
  std::span<const uint8_t> bytes() const { return {static_cast<const uint8_t*>(data_), size_}; }
  // Done with `part` (a span of bytes()): its whole pages leave memory (read again if touched).
  void drop(std::span<const uint8_t> part) const {
    const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const size_t head = (page - reinterpret_cast<uintptr_t>(part.data()) % page) % page;
    if (!size_ || part.size() <= head) return;
    const size_t whole = (part.size() - head) / page * page;
    if (whole) ::madvise(const_cast<uint8_t*>(part.data() + head), whole, MADV_DONTNEED);  // no write: a hint
  }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

// `n` bytes starting `from_end` bytes before the end of the file; empty when it is shorter or
// is not a regular file.
inline std::vector<uint8_t> read_from_end(const std::string& path, uint64_t file_size, uint64_t from_end, size_t n) {
  if (file_size < from_end || from_end < n) return {};
  std::string error;
  uint64_t size = 0;
  const int fd = open_regular(path, file_size, size, error);
  if (fd < 0) return {};
  std::vector<uint8_t> out(n);
  const bool ok = size == file_size && pread_all(fd, file_size - from_end, out);
  ::close(fd);
  return ok ? out : std::vector<uint8_t>{};
}

}  // namespace kvz
