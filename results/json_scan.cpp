#include "results/json_scan.h"

#include <array>
#include <cstdint>
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

uint64_t JsonFileScanner::offset() {
  peek();
  return consumed_ + pos_;
}

bool JsonFileScanner::seek(uint64_t offset) {
  if (std::fseek(file_, static_cast<long>(offset), SEEK_SET) != 0) return false;
  consumed_ = offset;
  pos_ = end_ = 0;
  return true;
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

namespace {

// What a byte means to the scan outside strings; a table, since the scan passes every byte of
// a file's Google Benchmark rows (most of a results file) and a branch per class costs ~3x.
enum ByteClass : uint8_t { kOther, kQuote, kOpen, kClose, kSpace };
struct ByteClasses {
  std::array<uint8_t, 256> outside{};   // ByteClass of each byte
  std::array<bool, 256> structural{};   // a quote or bracket: all that matters inside a value
  std::array<bool, 256> string_stop{};  // a quote or backslash: the bytes a string scan stops at
  std::array<bool, 256> scalar_part{};  // can continue a number, true, false or null
  ByteClasses() {
    outside['"'] = kQuote;
    outside['{'] = outside['['] = kOpen;
    outside['}'] = outside[']'] = kClose;
    outside[' '] = outside['\n'] = outside['\r'] = outside['\t'] = kSpace;
    string_stop['"'] = string_stop['\\'] = true;
    for (const char c : {'"', '{', '[', '}', ']'}) structural[static_cast<unsigned char>(c)] = true;
    for (int c = 0; c < 256; ++c)
      scalar_part[c] = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
                       c == '+' || c == '.';
  }
};
const ByteClasses kBytes;

}  // namespace

// Within a string: to the next quote or backslash (or the buffer's end), then past it.
size_t JsonFileScanner::scan_string_bytes(size_t i, ScanState& st) const {
  if (st.escaped) {
    st.escaped = false;
    return i + 1;
  }
  const char* b = buffer_.data();
  while (i < end_ && !kBytes.string_stop[static_cast<unsigned char>(b[i])]) ++i;
  if (i == end_) return i;
  if (b[i] == '\\') {
    st.escaped = true;
  } else {
    st.in_string = false;
    st.done = st.depth == 0;
  }
  return i + 1;
}

// Scans buffer_[pos_, end_) in state `st`; returns where it stopped (st.done: the value ended).
size_t JsonFileScanner::scan_chunk(ScanState& st) const {
  const char* b = buffer_.data();
  size_t i = pos_;
  while (i < end_ && !st.done) {
    const auto c = static_cast<unsigned char>(b[i]);
    if (st.in_string) {
      i = scan_string_bytes(i, st);
    } else if (st.scalar) {
      if (!kBytes.scalar_part[c]) {
        st.done = true;  // not part of the scalar: left for the caller
        break;
      }
      ++i;
    } else if (st.depth > 0 && !kBytes.structural[c]) {
      // Inside a value, to the next quote or bracket: numbers, commas and colons say nothing.
      while (++i < end_ && !kBytes.structural[static_cast<unsigned char>(b[i])]) {
      }
    } else {
      switch (kBytes.outside[c]) {
        case kQuote:
          st.in_string = true;
          break;
        case kOpen:
          ++st.depth;
          break;
        case kClose:
          if (--st.depth < 0) fail("unbalanced brackets");
          st.done = st.depth == 0;
          break;
        case kSpace:
          break;
        default:
          st.scalar = st.depth == 0;
      }
      ++i;
    }
  }
  return i;
}

// One value, whatever its type: brackets counted outside strings, a string ends at an
// unescaped quote, a scalar at the first byte that cannot continue it.
void JsonFileScanner::scan_value(std::string* capture) {
  if (peek() == -1) fail("expected a value");
  ScanState st;
  for (;;) {
    if (!fill()) {
      if (st.scalar && st.depth == 0) return;
      fail("the file ends inside a value");
    }
    const size_t stop = scan_chunk(st);
    if (capture) capture->append(buffer_.data() + pos_, stop - pos_);
    pos_ = stop;
    if (st.done) return;
  }
}

}  // namespace kvz
