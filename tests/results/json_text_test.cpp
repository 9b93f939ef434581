// JsonObjectText (results/json_text.h): every kind of value it writes is nlohmann's own dump of
// the same object, byte for byte, so the file the merge writes without nlohmann's objects is the
// file it wrote with them.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/json_text.h"

namespace kvz {
namespace {

using nlohmann::json;

std::string dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

TEST(JsonText, EveryKindOfValueIsNlohmannsDump) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::map<std::string, uint64_t> parts = {{"data", 272024}, {"index", 4486}, {"\xc3\xa9t\xc3\xa9", 1}};
  const std::vector<double> speeds = {1.0, 0.1, 1e300, -2.5e-7, 123456789.125, nan};
  const std::string nested = JsonObjectText().set("b", 2).set("a", 1).text();
  JsonObjectText text;
  text.set("name", "caf\xc3\xa9 \"q\"\\\n")       // escapes and non-ASCII
      .set("broken", std::string("\xff\xfe ok"))  // invalid UTF-8, replaced as dump_json does
      .set("plain", "ns")
      .set("level", -5)
      .set("bytes", uint64_t{18446744073709551615u})
      .set("ratio", 3.0)
      .set("tiny", 5e-324)
      .set("inf", std::numeric_limits<double>::infinity())
      .set("yes", true)
      .set("no", false)
      .set("p99", std::optional<double>())
      .set("p50", std::optional<double>(150.078))
      .set("speeds", speeds)
      .set("none", std::vector<double>())
      .set("parts", parts)
      .set("no_parts", std::map<std::string, uint64_t>())
      .set_null("gain")
      .set_json("nested", nested)
      .set("1000000", uint64_t{3})
      .set("500000", uint64_t{4});
  json j = {{"name", "caf\xc3\xa9 \"q\"\\\n"},
            {"broken", "\xff\xfe ok"},
            {"plain", "ns"},
            {"level", -5},
            {"bytes", uint64_t{18446744073709551615u}},
            {"ratio", 3.0},
            {"tiny", 5e-324},
            {"inf", std::numeric_limits<double>::infinity()},
            {"yes", true},
            {"no", false},
            {"p99", nullptr},
            {"p50", 150.078},
            {"speeds", speeds},
            {"none", json::array()},
            {"parts", parts},
            {"no_parts", json::object()},
            {"gain", nullptr},
            {"nested", {{"b", 2}, {"a", 1}}},
            {"1000000", 3},
            {"500000", 4}};
  EXPECT_EQ(text.text(), dumped(j));
}

TEST(JsonText, AKeySetTwiceKeepsItsLastValue) {
  const std::string text = JsonObjectText().set("run_name", "a").set("x", 1).set("run_name", "b").text();
  EXPECT_EQ(text, R"({"run_name":"b","x":1})");
  EXPECT_EQ(JsonObjectText().text(), dumped(json::object()));
}

}  // namespace
}  // namespace kvz
