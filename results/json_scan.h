#pragma once
// Reads one JSON file front to back in fixed-size chunks (internal to results/), for results
// files too large to hold (merge_stream.cpp): the caller walks the structure it cares about,
// captures the few values it wants as text (for nlohmann to parse, one cell at a time) and skips
// the rest, which is checked for balanced brackets and closed strings but never kept.
// Malformed input throws std::runtime_error naming the byte offset.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kvz {

// What the scanner throws: the file is not JSON (cut short, unbalanced, stray text).
struct JsonScanError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class JsonFileScanner {
 public:
  JsonFileScanner() = default;
  JsonFileScanner(const JsonFileScanner&) = delete;
  JsonFileScanner& operator=(const JsonFileScanner&) = delete;
  ~JsonFileScanner();

  bool open(const std::string& path);  // false: cannot open (errno says why)
  // At an object: calls on_member(key) with the scanner at the member's value, which on_member
  // must consume (skip_value, capture_value, members or elements).
  void members(const std::function<void(const std::string& key)>& on_member);
  // At an array: calls on_element() with the scanner at each element, which it must consume.
  void elements(const std::function<void()>& on_element);
  void skip_value() { scan_value(nullptr); }
  void capture_value(std::string& text) {
    text.clear();
    scan_value(&text);
  }
  void expect_end();  // only whitespace is left
  // Where the next value starts, as a byte offset of the file, and a way back to it: a second
  // pass goes straight to a part the first found, past what it would only skip again.
  uint64_t offset();
  bool seek(uint64_t offset);  // false: the file cannot seek there

 private:
  bool fill();  // false at end of file
  int peek();   // next byte after whitespace, -1 at end
  char take(char expected);
  struct ScanState {
    int depth = 0;
    bool in_string = false, escaped = false, scalar = false, done = false;
  };
  void scan_value(std::string* capture);
  size_t scan_chunk(ScanState& st) const;
  size_t scan_string_bytes(size_t i, ScanState& st) const;
  [[noreturn]] void fail(const std::string& what) const;

  std::FILE* file_ = nullptr;
  std::vector<char> buffer_ = std::vector<char>(1 << 20);
  size_t pos_ = 0, end_ = 0;
  uint64_t consumed_ = 0;  // bytes before buffer_[0]
};

}  // namespace kvz
