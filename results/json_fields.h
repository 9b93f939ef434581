#pragma once
// Strict readers for the fields of a results file (internal to results/). A wrong type, a
// negative or fractional count, or a non-finite number is an error naming the field — never a
// wrapped, clamped or undefined value (nlohmann's own conversion of 1e300 to an integer is
// undefined behaviour). Missing optional fields take the given default.
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kvz::json_fields {

inline std::runtime_error bad(const char* key, const char* what) {
  return std::runtime_error(std::string("field '") + key + "': " + what);
}

// A non-negative whole number (4096 or 4096.0; not -5, 1.5 or 1e300).
inline uint64_t to_count(const nlohmann::json& v, const char* key) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d >= 0 && d < 18446744073709551616.0 && d == std::floor(d)) return static_cast<uint64_t>(d);
  }
  throw bad(key, "expected a non-negative whole number");
}

inline uint64_t count(const nlohmann::json& j, const char* key, uint64_t fallback = 0) {
  if (!j.contains(key) || j.at(key).is_null()) return fallback;
  return to_count(j.at(key), key);
}

inline uint64_t required_count(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) throw bad(key, "missing");
  return to_count(j.at(key), key);
}

// A whole number in lo..hi.
inline int integer(const nlohmann::json& j, const char* key, int fallback, int lo = std::numeric_limits<int>::min(),
                   int hi = std::numeric_limits<int>::max()) {
  if (!j.contains(key) || j.at(key).is_null()) return fallback;
  const auto& v = j.at(key);
  if (v.is_number_integer() || (v.is_number_float() && v.get<double>() == std::floor(v.get<double>()))) {
    const double d = v.get<double>();
    if (d >= lo && d <= hi) return static_cast<int>(d);
  }
  throw bad(key, ("expected a whole number in " + std::to_string(lo) + ".." + std::to_string(hi)).c_str());
}

// A finite number, at least `min`.
inline double number(const nlohmann::json& j, const char* key, double fallback, double min = 0) {
  if (!j.contains(key) || j.at(key).is_null()) return fallback;
  const auto& v = j.at(key);
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < min)
    throw bad(key, "expected a finite number >= 0");
  return v.get<double>();
}

// Per-repetition speeds: each finite and > 0 (a speed of 0 is no measurement).
inline std::vector<double> speeds(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return {};
  if (!j.at(key).is_array()) throw bad(key, "expected an array of speeds");
  std::vector<double> out;
  for (const auto& v : j.at(key)) {
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0)
      throw bad(key, "expected speeds that are finite and > 0");
    out.push_back(v.get<double>());
  }
  return out;
}

}  // namespace kvz::json_fields
