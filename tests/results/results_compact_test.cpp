// load_compact_results (results/results_compact.h), what `check` reads: the same cells as
// load_results, field for field, and the same one-line refusals for the same files (and the
// streaming loader, results_stream.h, the same refusals too).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/results.h"
#include "results/results_compact.h"
#include "results/results_json.h"
#include "results/results_stream.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

using nlohmann::json;

using testing::TempFile;

// A run with a failed cell and a partial block set, and a current-codec row.
RunResults varied_run() {
  RunResults r = testing::make_run(7, 5);
  r.cells[3].status = CellStatus::Failed;
  r.cells[3].failure = "round trip mismatch at block 17, byte 4093";
  r.cells[3].compress_mbps.clear();
  r.cells[3].decompress_mbps.clear();
  r.cells[3].compress_cpu_mbps.clear();
  r.cells[3].decompress_cpu_mbps.clear();
  r.cells[5].partial_set = true;
  r.cells[6].current = true;
  r.cells[8].compress_cpu_mbps.clear();  // a cell without CPU-time speeds
  return r;
}

void expect_same_cell(const CellFacts& a, const CellFacts& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.codec, b.codec);
  EXPECT_EQ(a.failure, b.failure);
  EXPECT_EQ(a.ok, b.ok);
  EXPECT_EQ(a.reference, b.reference);
  EXPECT_EQ(a.partial_set, b.partial_set);
  EXPECT_EQ(a.input_bytes, b.input_bytes);
  EXPECT_EQ(a.compressed_bytes, b.compressed_bytes);
  EXPECT_EQ(a.stored_bytes, b.stored_bytes);
  for (const auto& [x, y] : {std::pair{a.compress_mbps, b.compress_mbps},
                             {a.decompress_mbps, b.decompress_mbps},
                             {a.compress_cpu_mbps, b.compress_cpu_mbps},
                             {a.decompress_cpu_mbps, b.decompress_cpu_mbps}})
    EXPECT_EQ(std::vector<double>(x.begin(), x.end()), std::vector<double>(y.begin(), y.end())) << a.id;
}

// Both loaders' one-line error for the file's text ("" when it loads).
std::pair<std::string, std::string> both_errors(const std::string& text) {
  const TempFile file(text);
  RunResults whole;
  CompactRun compact;
  std::string whole_error, compact_error;
  load_results(file.path, whole, whole_error);
  load_compact_results(file.path, compact, compact_error);
  // The streaming loader (results_stream.h, what `report` reads with) refuses alike.
  std::string stream_error;
  const ResultsStream stream{[](const RunResults&) {}, [](CellResult&, const std::string&, CellPlace) {}};
  stream_results(file.path, stream, stream_error);
  EXPECT_EQ(stream_error, whole_error);
  return {whole_error.empty() ? "" : whole_error.substr(file.path.size()),
          compact_error.empty() ? "" : compact_error.substr(file.path.size())};
}

json valid_run_doc() { return json::parse(results_to_json(testing::make_run(3, 3))); }

// The document as kvzbench writes it: schema_version, meta, then cells (json::dump sorts keys,
// which would put the cells first).
std::string in_file_order(const json& doc) {
  if (!doc.contains("kvzbench") || !doc["kvzbench"].is_object()) return doc.dump();
  std::string text = "{\"kvzbench\":{";
  const char* sep = "";
  for (const char* key : {"schema_version", "meta", "cells"}) {
    if (!doc["kvzbench"].contains(key)) continue;
    text += sep + json(key).dump() + ":" + doc["kvzbench"][key].dump();
    sep = ",";
  }
  return text + "}}";
}

}  // namespace

TEST(ResultsCompact, LoadsWhatLoadResultsLoadsCellForCell) {
  const TempFile file(results_to_json(varied_run()));
  RunResults whole;
  CompactRun compact;
  std::string error;
  ASSERT_TRUE(load_results(file.path, whole, error)) << error;
  ASSERT_TRUE(load_compact_results(file.path, compact, error)) << error;
  EXPECT_EQ(compact.schema_version, whole.schema_version);
  EXPECT_EQ(meta_to_json(compact.meta).dump(), meta_to_json(whole.meta).dump());
  const CompactRun expected = compact_run(whole);
  ASSERT_EQ(compact.cells.size(), whole.cells.size());
  for (size_t i = 0; i < whole.cells.size(); ++i) {
    expect_same_cell(compact.cells[i], expected.cells[i]);
    EXPECT_EQ(compact.cells.find(whole.cells[i].key.id()), i);
  }
  EXPECT_FALSE(compact.cells.find("no/such/cell"));
}

TEST(ResultsCompact, RefusesWhatLoadResultsRefusesWithTheSameLine) {
  std::vector<json> bad;
  for (const char* field : {"input_bytes", "blocks", "compress_mbps", "status", "key"}) {
    bad.push_back(valid_run_doc());
    bad.back()["kvzbench"]["cells"][1][field] = -5;
  }
  bad.push_back(valid_run_doc());
  bad.back()["kvzbench"]["cells"].push_back(bad.back()["kvzbench"]["cells"][0]);  // an id twice
  bad.push_back(valid_run_doc());
  bad.back()["kvzbench"]["cells"][1]["key"]["codec"] = "zstdx";
  bad.push_back(valid_run_doc());
  bad.back()["kvzbench"]["cells"][2]["blocks_kept_raw"] = 257;
  bad.push_back(valid_run_doc());
  bad.back()["kvzbench"]["cells"][3]["current"] = bad.back()["kvzbench"]["cells"][4]["current"] = true;
  bad.push_back(valid_run_doc());
  bad.back()["kvzbench"]["schema_version"] = 2;
  bad.push_back(valid_run_doc());
  bad.back()["kvzbench"].erase("meta");
  bad.push_back(json{{"context", json::object()}});
  for (const json& doc : bad) {
    const auto [whole, compact] = both_errors(in_file_order(doc));
    EXPECT_FALSE(whole.empty()) << in_file_order(doc).substr(0, 200);
    EXPECT_EQ(compact, whole);
  }
  for (const std::string text : {"{\"kvzbench\": {\"cells\": [{\"key\": 1.2.3}]", "{\"kvzbench\": [}", ""}) {
    const auto [whole, compact] = both_errors(text);
    EXPECT_FALSE(whole.empty()) << text;
    EXPECT_EQ(compact, whole);
  }
  RunResults r;
  CompactRun c;
  std::string whole_error, compact_error;
  EXPECT_FALSE(load_results("/nonexistent/r.json", r, whole_error));
  EXPECT_FALSE(load_compact_results("/nonexistent/r.json", c, compact_error));
  EXPECT_EQ(compact_error, whole_error);
  std::string stream_error;
  EXPECT_FALSE(stream_results("/nonexistent/r.json", {}, stream_error));
  EXPECT_EQ(stream_error, whole_error);
}

// A member check drops is passed over as the file scanner passes over every part no loader reads
// (json_scan.h: closed strings, balanced brackets): a bad token there loads; in a kept member, or
// in a cell that is not a plain object, it is refused as load_results refuses it.
TEST(ResultsCompact, DroppedMembersAreCheckedAsSkippedPartsAre) {
  const std::string text = results_to_json(testing::make_run(3, 3));
  const auto with = [&](const std::string& after, const std::string& insert) {
    std::string t = text;
    const size_t at = t.find(after);
    EXPECT_NE(at, std::string::npos) << after;
    return t.insert(at + after.size(), insert);
  };
  for (const auto& skipped :
       {with("\"compress_latency\":{", "\"x\":1.2.3,"), with("\"compress_latency\":{\"calls\":", "1 2"),
        with("\"dict_bytes\":", "\"\\u00zz\",\"q\":")}) {
    const auto [whole, compact] = both_errors(skipped);
    EXPECT_EQ(whole, ": not valid JSON");
    EXPECT_EQ(compact, "");
  }
  for (const auto& bad : {with("\"compress_mbps\":[", "1.2.3,"), with("\"compress_latency\":", "}{"),
                          with("\"compress_latency\":", "1 2,\"q\":"), with("\"key\":{", "\"\\u00zz\":1,")}) {
    const auto [whole, compact] = both_errors(bad);
    EXPECT_FALSE(whole.empty());
    EXPECT_EQ(compact, whole);
  }
}

// What `check` never reads is not validated: a malformed latency figure refuses the whole load,
// not the compact one.
TEST(ResultsCompact, FieldsCheckNeverReadsAreNotValidated) {
  json doc = valid_run_doc();
  doc["kvzbench"]["cells"][1]["compress_latency"]["stalls"] = {{"1ms", 3}};
  const auto [whole, compact] = both_errors(in_file_order(doc));
  EXPECT_NE(whole.find("stalls"), std::string::npos);
  EXPECT_EQ(compact, "");
}

// kvzbench writes meta before cells; a file written the other way round loads all the same.
TEST(ResultsCompact, CellsBeforeMetaLoadAllTheSame) {
  const json doc = valid_run_doc();
  const std::string text = "{\"kvzbench\":{\"cells\":" + doc["kvzbench"]["cells"].dump() +
                           ",\"schema_version\":1,\"meta\":" + doc["kvzbench"]["meta"].dump() + "}}";
  const TempFile file(text);
  CompactRun compact;
  std::string error;
  ASSERT_TRUE(load_compact_results(file.path, compact, error)) << error;
  EXPECT_EQ(compact.cells.size(), doc["kvzbench"]["cells"].size());
  json unknown = doc;
  unknown["kvzbench"]["cells"][1]["key"]["codec"] = "zstdx";
  const auto [whole, compact_error] =
      both_errors("{\"kvzbench\":{\"cells\":" + unknown["kvzbench"]["cells"].dump() +
                  ",\"schema_version\":1,\"meta\":" + unknown["kvzbench"]["meta"].dump() + "}}");
  EXPECT_NE(whole.find("zstdx"), std::string::npos);
  EXPECT_EQ(compact_error, whole);
}

// The index by id: past its first growth, and a repeated id found at its last cell (as check's
// whole-run map by id keeps the last).
TEST(ResultsCompact, FindsEveryIdAndTheLastOfARepeatedOne) {
  CompactCells cells;
  std::vector<std::string> ids;
  for (int i = 0; i < 3000; ++i) ids.push_back("src" + std::to_string(i) + "/rocksdb/4K/lz4/1/stream/T1");
  auto add = [&](const std::string& id, const char* codec) {
    CellFacts f;
    f.id = id;
    f.codec = codec;
    cells.add(f);
  };
  for (const auto& id : ids) add(id, "lz4");
  add(ids[17], "zstd");
  for (size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(cells.find(ids[i]), i == 17 ? 3000 : i);
  EXPECT_EQ(cells[*cells.find(ids[17])].codec, "zstd");
}

}  // namespace kvz
