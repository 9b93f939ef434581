// The results loader refuses values that are not measurements: one line naming the field,
// never a wrapped, clamped or undefined number (fuzz_results found 1e300 -> integer UB).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "results/results.h"
#include "tests/results/fixture.h"

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

// Issue 24: cells no run could have written passed `check`, `report` and `merge`.
TEST(ResultsValidation, AnUnknownCodecIsRefused) {
  json doc = valid_doc();
  doc["kvzbench"]["cells"][1]["key"]["codec"] = "zstdx";
  EXPECT_NE(load_error(doc).find("codec 'zstdx' is not one of the run's codecs (lz4, snappy, xz, zlib, zstd)"),
            std::string::npos)
      << load_error(doc);
  doc = valid_doc();
  doc["kvzbench"]["meta"]["codec_versions"] = json::array();
  EXPECT_NE(load_error(doc).find("meta.codec_versions is empty"), std::string::npos);
  doc = valid_doc();
  ASSERT_EQ(doc["kvzbench"]["cells"][0]["key"]["codec"], "memcpy");  // not listed: the reference counts
  EXPECT_EQ(load_error(doc), "");
}

TEST(ResultsValidation, BytesWithoutBlocksAreRefused) {
  for (const char* field : {"input_bytes", "compressed_bytes", "stored_bytes"}) {
    json doc = valid_doc();
    doc["kvzbench"]["cells"][2]["blocks"] = 0;
    for (const char* f : {"input_bytes", "compressed_bytes", "stored_bytes", "blocks_kept_raw"})
      doc["kvzbench"]["cells"][2][f] = 0;
    EXPECT_EQ(load_error(doc), "");  // an empty cell is consistent
    doc["kvzbench"]["cells"][2][field] = 4096;
    EXPECT_NE(load_error(doc).find(": 0 blocks but "), std::string::npos) << field;
  }
  json doc = valid_doc();
  doc["kvzbench"]["cells"][2]["blocks_kept_raw"] = 257;  // of 256
  EXPECT_NE(load_error(doc).find("257 blocks kept raw of 256 blocks"), std::string::npos);
}

TEST(ResultsValidation, OneCurrentCodecRowPerBlockSet) {
  json doc = valid_doc();
  doc["kvzbench"]["cells"][3]["current"] = true;
  EXPECT_EQ(load_error(doc), "");
  doc["kvzbench"]["cells"][10]["current"] = true;  // another block size: another block set
  EXPECT_EQ(load_error(doc), "");
  doc["kvzbench"]["cells"][4]["current"] = true;
  EXPECT_NE(load_error(doc).find("are both marked as the file's current codec"), std::string::npos);
  json all = valid_doc();  // the file: every cell current
  for (auto& c : all["kvzbench"]["cells"]) c["current"] = true;
  EXPECT_NE(load_error(all).find("current codec"), std::string::npos);
}

// merge checks the joined runs too: each input alone has one current row of the block set.
TEST(ResultsValidation, MergeRefusesTwoCurrentRowsOfOneBlockSet) {
  RunResults a = testing::make_run(1), b = testing::make_run(2);
  std::erase_if(a.cells, [](const CellResult& c) { return c.key.codec != "lz4"; });
  std::erase_if(b.cells, [](const CellResult& c) { return c.key.codec != "snappy"; });
  a.cells[0].current = b.cells[0].current = true;
  RunResults out;
  std::string err;
  EXPECT_FALSE(merge_results({a, b}, out, err));
  EXPECT_NE(err.find("current codec"), std::string::npos) << err;
  b.cells[0].current = false;
  EXPECT_TRUE(merge_results({a, b}, out, err)) << err;
}

TEST(ResultsValidation, StallKeysMustBeNanoseconds) {
  json doc = valid_doc();
  doc["kvzbench"]["cells"][1]["compress_latency"]["stalls"] = {{"1ms", 3}};
  EXPECT_NE(load_error(doc).find("stalls"), std::string::npos);
}

}  // namespace
}  // namespace kvz
