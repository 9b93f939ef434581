#include "results/json_scan.h"

#include <cstring>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace kvz {

JsonFileScanner::~JsonFileScanner() {
  if (file_) std::fclose(file_);
}

bool JsonFileScanner::open(const std::string& path) {
  file_ = std::fopen(path.c_str(), "rb");
  return file_ != nullptr;
}

bool JsonFileScanner::fill() {
  if (pos_ < end_) return true;
  consumed_ += end_;
  pos_ = 0;
  end_ = std::fread(buffer_.data(), 1, buffer_.size(), file_);
  return end_ > 0;
}

void JsonFileScanner::fail(const std::string& what) const {
  throw JsonScanError("not valid JSON at byte " + std::to_string(consumed_ + pos_) + ": " + what);
}

int JsonFileScanner::peek() {
  while (fill()) {
    const char c = buffer_[pos_];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return static_cast<unsigned char>(c);
    ++pos_;
  }
  return -1;
}

char JsonFileScanner::take(char expected) {
  const int c = peek();
  if (c != expected) fail(std::string("expected '") + expected + "'");
  ++pos_;
  return expected;
}

void JsonFileScanner::expect_end() {
  if (peek() != -1) fail("text after the document");
}

void JsonFileScanner::members(const std::function<void(const std::string& key)>& on_member) {
  take('{');
  if (peek() == '}') {
    ++pos_;
    return;
  }
  std::string key_text;
  for (;;) {
    if (peek() != '"') fail("expected a member name");
    capture_value(key_text);
    take(':');
    on_member(nlohmann::json::parse(key_text).get<std::string>());
    if (peek() == ',') {
      ++pos_;
      continue;
    }
    take('}');
    return;
  }
}

void JsonFileScanner::elements(const std::function<void()>& on_element) {
  take('[');
  if (peek() == ']') {
    ++pos_;
    return;
  }
  for (;;) {
    on_element();
    if (peek() == ',') {
      ++pos_;
      continue;
    }
    take(']');
    return;
  }
}

// The first quote or backslash at or after `from` in the buffer (end_ if none): the bytes of a
// string in between mean nothing to the scan, and memchr passes them ~10x faster than the loop.
size_t JsonFileScanner::skip_plain_string(size_t from) const {
  const char* p = buffer_.data() + from;
  const size_t n = end_ - from;
  const void* quote = std::memchr(p, '"', n);
  const size_t stop = quote ? static_cast<size_t>(static_cast<const char*>(quote) - p) : n;
  const void* slash = std::memchr(p, '\\', stop);
  return from + (slash ? static_cast<size_t>(static_cast<const char*>(slash) - p) : stop);
}

// One value, whatever its type: brackets counted outside strings, a string ends at an
// unescaped quote, a scalar at the first byte that cannot continue it.
void JsonFileScanner::scan_value(std::string* capture) {
  if (peek() == -1) fail("expected a value");
  int depth = 0;
  bool in_string = false, escaped = false, scalar = false;
  for (;;) {
    if (!fill()) {
      if (scalar && depth == 0) return;
      fail("the file ends inside a value");
    }
    size_t i = pos_;
    bool done = false;
    for (; i < end_ && !done; ++i) {
      const char c = buffer_[i];
      if (in_string && !escaped && c != '"' && c != '\\') {
        i = skip_plain_string(i) - 1;  // to the next quote or backslash
        continue;
      }
      if (in_string) {
        if (escaped) {
          escaped = false;
        } else if (c == '\\') {
          escaped = true;
        } else if (c == '"') {
          in_string = false;
          done = depth == 0;
        }
        continue;
      }
      if (scalar) {
        const bool part = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-' || c == '+' || c == '.' ||
                          (c >= 'A' && c <= 'Z');
        if (!part) {
          done = true;
          --i;  // not part of the scalar: left for the caller
        }
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth < 0) fail("unbalanced brackets");
        done = depth == 0;
      } else if (depth == 0 && c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        scalar = true;
      }
    }
    if (capture) capture->append(buffer_.data() + pos_, i - pos_);
    pos_ = i;
    if (done) return;
  }
}

}  // namespace kvz
