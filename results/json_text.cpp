#include "results/json_text.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include <nlohmann/json.hpp>

namespace kvz {

namespace {

bool plain_ascii(std::string_view v) {
  return std::all_of(v.begin(), v.end(), [](char ch) { return ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\'; });
}

}  // namespace

void append_json_string(std::string& out, std::string_view v) {
  if (!plain_ascii(v)) {  // escapes and invalid UTF-8: nlohmann's own serializer
    out += nlohmann::json(std::string(v)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
  out += '"';
  out += v;
  out += '"';
}

void append_json_number(std::string& out, double v) {
  std::array<char, 64> buf{};
  char* end = std::isfinite(v) ? nlohmann::detail::to_chars(buf.data(), buf.data() + buf.size(), v) : nullptr;
  if (!end) {
    out += "null";
    return;
  }
  out.append(buf.data(), static_cast<size_t>(end - buf.data()));
}

JsonObjectText::JsonObjectText() {
  members_.reserve(24);
  arena_.reserve(768);
}

JsonObjectText& JsonObjectText::begin(std::string_view key) {
  members_.push_back({arena_.size(), key.size(), 0, 0, plain_ascii(key)});
  arena_ += key;
  members_.back().value = arena_.size();
  return *this;
}

JsonObjectText& JsonObjectText::end() {
  members_.back().value_size = arena_.size() - members_.back().value;
  return *this;
}

JsonObjectText& JsonObjectText::set(std::string_view key, std::string_view v) {
  append_json_string(begin(key).arena_, v);
  return end();
}

JsonObjectText& JsonObjectText::set(std::string_view key, double v) {
  append_json_number(begin(key).arena_, v);
  return end();
}

JsonObjectText& JsonObjectText::set(std::string_view key, uint64_t v) {
  begin(key).arena_ += std::to_string(v);
  return end();
}

JsonObjectText& JsonObjectText::set(std::string_view key, int v) {
  begin(key).arena_ += std::to_string(v);
  return end();
}

JsonObjectText& JsonObjectText::set(std::string_view key, bool v) {
  begin(key).arena_ += v ? "true" : "false";
  return end();
}

JsonObjectText& JsonObjectText::set(std::string_view key, const std::optional<double>& v) {
  return v ? set(key, *v) : set_null(key);
}

JsonObjectText& JsonObjectText::set(std::string_view key, const std::vector<double>& v) {
  begin(key).arena_ += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) arena_ += ',';
    append_json_number(arena_, v[i]);
  }
  arena_ += ']';
  return end();
}

JsonObjectText& JsonObjectText::set(std::string_view key, const std::map<std::string, uint64_t>& v) {
  begin(key).arena_ += '{';
  for (const auto& [name, count] : v) {  // a std::map's order is nlohmann's
    if (arena_.back() != '{') arena_ += ',';
    append_json_string(arena_, name);
    arena_ += ':';
    arena_ += std::to_string(count);
  }
  arena_ += '}';
  return end();
}

JsonObjectText& JsonObjectText::set_null(std::string_view key) {
  begin(key).arena_ += "null";
  return end();
}

JsonObjectText& JsonObjectText::set_json(std::string_view key, std::string_view json_text) {
  begin(key).arena_ += json_text;
  return end();
}

std::string JsonObjectText::text() {
  // Insertion sort: stable (the last of a key's values is the one kept), and members mostly come
  // in order, so it costs about one comparison a member.
  for (size_t i = 1; i < members_.size(); ++i)
    for (size_t j = i; j > 0 && key_of(members_[j - 1]) > key_of(members_[j]); --j)
      std::swap(members_[j - 1], members_[j]);
  std::string out = "{";
  out.reserve(arena_.size() + 4 * members_.size() + 2);  // the keys and values, quotes, commas
  for (size_t i = 0; i < members_.size(); ++i) {
    if (i + 1 < members_.size() && key_of(members_[i]) == key_of(members_[i + 1])) continue;
    if (out.size() > 1) out += ',';
    if (members_[i].plain_key) {
      out += '"';
      out += key_of(members_[i]);
      out += "\":";
    } else {
      append_json_string(out, key_of(members_[i]));
      out += ':';
    }
    out.append(arena_, members_[i].value, members_[i].value_size);
  }
  out += '}';
  return out;
}

}  // namespace kvz
