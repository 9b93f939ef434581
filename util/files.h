#pragma once
// Files kvzbench writes: whole or not at all. A result file is written to a temporary file in
// the same directory, fsync'ed and renamed over the target (as RocksDB and SQLite do), so a
// full disk, a crash or a signal leaves the previous file intact, never a half-written one.
#include <string>
#include <string_view>

namespace kvz {

// The output name that means standard output, as lzbench, tar and curl read it.
inline constexpr std::string_view kStdout = "-";

// Writes `data` to `path` atomically. On failure the old file (if any) is untouched, the
// temporary file is removed, and `error` is one line naming the path and the cause.
// kStdout ("-") writes to standard output instead, whole, and flushes it.
bool write_file_atomically(const std::string& path, std::string_view data, std::string& error);

// Whether `path` can be written: its directory exists and is writable, and the path is not a
// directory (kStdout always can). "" when it can, else one line saying why. Checked before a
// long run starts.
std::string check_writable(const std::string& path);

// True when both paths name the same file (after resolving links and `..`), whether or not
// it exists yet.
bool same_file(const std::string& a, const std::string& b);

}  // namespace kvz
