// The results loader refuses values that are not measurements: one line naming the field,
// never a wrapped, clamped or undefined number (fuzz_results found 1e300 -> integer UB).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixture.h"
#include "report/results.h"

namespace kvz {
namespace {

using nlohmann::json;

// A valid one-run file as JSON, to be doctored field by field.
json valid_doc() { return json::parse(results_to_json(testing::make_run(3, 3))); }

std::string load_error(const json& doc) {
  RunResults out;
  std::string err;
  if (results_from_json(doc.dump(), out, err)) return "";
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  return err;
}

TEST(ResultsValidation, TheValidFileLoads) { EXPECT_EQ(load_error(valid_doc()), ""); }

TEST(ResultsValidation, CountsMustBeNonNegativeWholeNumbers) {
  for (const json& bad : {json(-5), json(1.5), json(1e300), json("12"), json(true)}) {
    for (const char* field : {"input_bytes", "compressed_bytes", "stored_bytes", "blocks"}) {
      json doc = valid_doc();
      doc["kvzbench"]["cells"][0][field] = bad;
      EXPECT_NE(load_error(doc).find(field), std::string::npos) << field << " = " << bad.dump();
    }
    json doc = valid_doc();
    doc["kvzbench"]["cells"][0]["key"]["block_size"] = bad;
    EXPECT_NE(load_error(doc).find("block_size"), std::string::npos) << bad.dump();
  }
  json doc = valid_doc();
  doc["kvzbench"]["cells"][0]["input_bytes"] = 4096.0;  // a whole number written as a float is fine
  EXPECT_EQ(load_error(doc), "");
}

TEST(ResultsValidation, SpeedsMustBeFiniteAndPositive) {
  for (const json& bad : {json(0), json(-3.5), json("fast"), json(nullptr)}) {
    json doc = valid_doc();
    doc["kvzbench"]["cells"][1]["compress_mbps"][0] = bad;
    EXPECT_NE(load_error(doc).find("compress_mbps"), std::string::npos) << bad.dump();
  }
}

TEST(ResultsValidation, SchemaVersionMustBeTheWholeNumber) {
  for (const json& bad : {json(1.5), json(true), json(-2147483648.0), json(1e300), json("1")}) {
    json doc = valid_doc();
    doc["kvzbench"]["schema_version"] = bad;
    EXPECT_NE(load_error(doc).find("schema_version"), std::string::npos) << bad.dump();
  }
  json doc = valid_doc();
  doc["kvzbench"].erase("schema_version");
  EXPECT_NE(load_error(doc).find("schema_version"), std::string::npos);
}

TEST(ResultsValidation, ACellIdTwiceIsRefused) {
  json doc = valid_doc();
  doc["kvzbench"]["cells"].push_back(doc["kvzbench"]["cells"][0]);
  EXPECT_NE(load_error(doc).find("appears twice"), std::string::npos);
}

TEST(ResultsValidation, StallKeysMustBeNanoseconds) {
  json doc = valid_doc();
  doc["kvzbench"]["cells"][1]["compress_latency"]["stalls"] = {{"1ms", 3}};
  EXPECT_NE(load_error(doc).find("stalls"), std::string::npos);
}

}  // namespace
}  // namespace kvz
