#pragma once
// Files kvzbench writes: whole or not at all, and never at the cost of what the path names.
// A regular file (or a path that does not exist yet) is written to a temporary file in the
// same directory, fsync'ed and renamed over the target (as RocksDB and SQLite do), so a full
// disk, a crash or a signal leaves the previous file intact, never a half-written one; the
// replaced file keeps its mode and owner. A symbolic link in a directory that is the user's
// alone is followed: its target is replaced and the link stays; one in a directory others can
// write is replaced itself. A character device (/dev/null) is written in place, streamed, and a
// failed write there (/dev/full) is an error. Nothing that is not a regular
// file is ever renamed over: a block device, socket or directory is refused, and so is a FIFO
// (its reader, another process, may be gone by the time the results are written). A link is
// followed only in a directory that is the user's alone (util/output_target.h).
#include <atomic>
#include <memory>
#include <string>
#include <string_view>

namespace kvz {

struct OutputTarget;

// The output name that means standard output, as lzbench, tar and curl read it.
inline constexpr std::string_view kStdout = "-";

// Writes `data` to `path` as above. On failure the old file (if any) is untouched, no
// temporary file is left, and `error` is one line naming the path and the cause.
// kStdout ("-"), /dev/stdout, /dev/stderr and /dev/fd/N write to that descriptor, whole.
bool write_file_atomically(const std::string& path, std::string_view data, std::string& error);

// write_file_atomically for a file too large to hold as one string (a million-cell merge):
// pieces are written as they come, to a temporary file beside a regular target that commit()
// renames over it; a descriptor, character device or FIFO is written in place. A writer
// destroyed before commit() leaves the previous file as it was and no temporary file.
class StreamedFileWriter {
 public:
  explicit StreamedFileWriter(const std::string& path);
  StreamedFileWriter(const StreamedFileWriter&) = delete;
  StreamedFileWriter& operator=(const StreamedFileWriter&) = delete;
  ~StreamedFileWriter();
  bool open(std::string& error);
  bool write(std::string_view data, std::string& error);
  bool commit(std::string& error);

 private:
  std::unique_ptr<OutputTarget> target_;
  std::string tmp_;  // the temporary file of a regular target
  int slot_ = -1;    // where tmp_ is held for remove_temporaries_now
  int fd_ = -1;
  bool committed_ = false;
};

// The directory that holds `path`: its parent, "." for a bare name.
std::string directory_of(const std::string& path);

// Whether `path` can be written as write_file_atomically would: "" when it can, else one
// line saying why (a missing or read-only directory, a directory, a block device, a socket, a
// FIFO, a symbolic link where links are not followed). Checked before a long run starts.
std::string check_writable(const std::string& path);

// True for every name of standard output: "-", /dev/stdout, /dev/fd/1, /proc/self/fd/1 and
// links to them (the console table then goes to stderr, so the two never mix).
bool names_standard_output(const std::string& path);

// Counted by the signal handler: a write that waits for a FIFO's reader gives up when this
// changes, so no open() holds off a signal.
std::atomic<unsigned>& signals_seen_by_writes();

// Removes every temporary file a write holds now (async-signal-safe: a signal handler's call).
void remove_temporaries_now();
// SIGINT, SIGTERM and SIGHUP remove the temporary files being written, then end the process as
// the signal would (`merge`, `report`, `check`, `blocks`: nothing of theirs is worth finishing).
void remove_temporaries_on_signals();

}  // namespace kvz
