#pragma once
// One table of codecs (lzbench-style) drives `list`, the CLI grammar and the reports.
// memcpy is always the first row. Each codec family registers itself explicitly
// (ClickHouse-style registerCodecX), called from registerAllCodecs in a fixed order.
#include <memory>
#include <string>
#include <vector>

#include "codecs/codec.h"

namespace kvz {

class CodecRegistry {
 public:
  // Throws std::logic_error when a codec of that name is already registered.
  void add(std::unique_ptr<Codec> codec);
  const Codec* find(const std::string& name) const;  // null if unknown
  const std::vector<std::unique_ptr<Codec>>& codecs() const { return codecs_; }
  std::vector<std::string> names() const;

  // The process-wide registry with every built-in codec registered.
  static const CodecRegistry& instance();

 private:
  std::vector<std::unique_ptr<Codec>> codecs_;
};

// One function per codec family, each defined in its codec_<family>.cpp; the others are
// declared and called from the list codecs/CMakeLists.txt generates (registry.cpp).
void registerCodecMemcpy(CodecRegistry& r);

void registerAllCodecs(CodecRegistry& r);

}  // namespace kvz
