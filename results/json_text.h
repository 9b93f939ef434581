#pragma once
// A JSON object as text, exactly as nlohmann's dump(-1) writes the same object (members in the
// byte order of their keys, as its std::map keeps them; numbers as its serializer prints them;
// invalid UTF-8 replaced, as dump_json does), written without building the object (internal to
// results/). A million-cell merge writes a million cells and 17 million Google Benchmark rows,
// and building and dumping nlohmann objects cost more than everything else it does.
// tests/results/json_text_test.cpp pins every kind of value to nlohmann's own dump.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kvz {

class JsonObjectText {
 public:
  JsonObjectText();
  JsonObjectText& set(std::string_view key, std::string_view v);  // a string
  JsonObjectText& set(std::string_view key, const std::string& v) { return set(key, std::string_view(v)); }
  JsonObjectText& set(std::string_view key, const char* v) { return set(key, std::string_view(v)); }
  JsonObjectText& set(std::string_view key, double v);  // null when not finite
  JsonObjectText& set(std::string_view key, uint64_t v);
  JsonObjectText& set(std::string_view key, int v);
  JsonObjectText& set(std::string_view key, bool v);
  JsonObjectText& set(std::string_view key, const std::optional<double>& v);  // null when absent
  JsonObjectText& set(std::string_view key, const std::vector<double>& v);
  JsonObjectText& set(std::string_view key, const std::map<std::string, uint64_t>& v);
  JsonObjectText& set_null(std::string_view key);
  JsonObjectText& set_json(std::string_view key, std::string_view json_text);  // a value already as text
  // The object. A key set twice keeps its last value.
  std::string text();

 private:
  // Keys and values live in one string: a row of ~17 members costs one allocation, not 34.
  struct Member {
    size_t key, key_size, value, value_size;
    bool plain_key;  // needs no escaping (every key kvzbench writes): quoted as it is
  };
  std::string_view key_of(const Member& m) const { return std::string_view(arena_).substr(m.key, m.key_size); }
  JsonObjectText& begin(std::string_view key);
  JsonObjectText& end();
  std::vector<Member> members_;
  std::string arena_;
};

// Appends v as JSON text: a string quoted and escaped as nlohmann escapes it, a number as it
// prints it.
void append_json_string(std::string& out, std::string_view v);
void append_json_number(std::string& out, double v);

}  // namespace kvz
