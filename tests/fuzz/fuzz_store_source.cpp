// libFuzzer target: a store file as a `run` source (kvz::SourceRegistry::global().read, every
// store's reader registered), files on disk: how the file is told apart (magic, name), which
// reader takes it, opened, read with --max-bytes, and turned into records,
// a raw stream and its blocks as stored. Byte 0 picks the file's name (a.sst, a.wt, a.hfile,
// nb-1-big-Data.db with its CompressionInfo.db, or a name without a hint), byte 1 --max-bytes
// (0, or 2^(8 + byte % 16)), bytes 2-3 the CompressionInfo.db length for a Data.db; the rest is
// the file (CompressionInfo.db first).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "blockgen/block.h"
#include "blockgen/source_registry.h"

namespace {

// One directory per fuzzing process, removed when it exits (its path in a plain array: static
// strings are gone by the time atexit handlers run).
char g_dir[4096];

const char* temp_dir() {
  if (!g_dir[0]) {
    const char* tmp = std::getenv("TMPDIR");
    std::snprintf(g_dir, sizeof g_dir, "%s/kvz_fuzz_store.XXXXXX", tmp ? tmp : "/tmp");
    if (!::mkdtemp(g_dir)) std::abort();
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(g_dir, ec);
    });
  }
  return g_dir;
}

void write(const std::string& path, const uint8_t* data, size_t size) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4 || size > 1024 * 1024) return 0;
  static const char* const kNames[] = {"a.sst", "a.wt", "a.hfile", "nb-1-big-Data.db", "table"};
  const std::string dir = temp_dir();
  const std::string name = kNames[data[0] % 5];
  const size_t max_bytes = data[1] & 0x80 ? size_t{1} << (8 + data[1] % 16) : 0;
  const uint8_t* file = data + 4;
  size_t file_size = size - 4;
  if (name == "nb-1-big-Data.db") {
    const size_t info = std::min<size_t>(file_size, static_cast<size_t>(data[2]) << 8 | data[3]);
    write(dir + "/nb-1-big-CompressionInfo.db", file, info);
    file += info;
    file_size -= info;
  }
  const std::string path = dir + "/" + name;
  write(path, file, file_size);
  if (kvz::SourceRegistry::global().is_store_file(path)) {
    kvz::RecordSet set;
    std::string error;
    (void)kvz::SourceRegistry::global().read(path, max_bytes, set, error);
  }
  ::unlink(path.c_str());
  return 0;
}
