#pragma once
// What an output path names, decided before anything is written: a descriptor (standard
// output and its /dev names), a stream written in place (a character device or FIFO), a
// regular file replaced atomically (or created), or something kvzbench refuses to write over.
#include <sys/stat.h>

#include <string>

namespace kvz {

enum class OutputKind { kDescriptor, kStream, kReplace, kRefused };

struct OutputTarget {
  OutputKind kind = OutputKind::kRefused;
  std::string shown;    // the path as the user gave it, for messages
  std::string path;     // after following symbolic links: what is written or replaced
  int fd = -1;          // kDescriptor
  bool exists = false;  // kReplace: a regular file is there (st holds it)
  struct stat st {};
  std::string refusal;  // kRefused: one line naming the path and why
};

OutputTarget classify_output(const std::string& path);

}  // namespace kvz
