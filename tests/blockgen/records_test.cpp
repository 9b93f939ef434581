// Record modes, detection and their fallbacks on small crafted inputs.
#include <gtest/gtest.h>

#include <algorithm>

#include "block_parsers.h"
#include "blockgen/layouts.h"
#include "blockgen/records.h"

namespace kvz {
namespace {

RecordSet cut(const std::string& data, const std::string& mode, RecordOptions opt = {}) {
  std::string error;
  RecordSet s = records_from_bytes(data, "test", mode, opt, error);
  EXPECT_EQ(error, "");
  return s;
}

bool has_warning(const RecordSet& s, const std::string& needle) {
  return std::any_of(s.warnings.begin(), s.warnings.end(),
                     [&](const std::string& w) { return w.find(needle) != std::string::npos; });
}

void expect_sorted_unique(const RecordSet& s) {
  for (size_t i = 1; i < s.records.size(); ++i) EXPECT_LT(s.records[i - 1].key, s.records[i].key);
}

TEST(Records, DetectsEachMode) {
  EXPECT_EQ(cut("{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n", "auto").record_mode, "jsonl");
  EXPECT_EQ(cut("[{\"a\":1},{\"a\":2}]", "auto").record_mode, "json");
  EXPECT_EQ(cut("id,name,score\n1,x,3.5\n2,y,4\n", "auto").record_mode, "csv");
  EXPECT_EQ(cut("1\tx\t3\n2\ty\t4\n3\tz\t5\n", "auto").record_mode, "tsv");
  EXPECT_EQ(cut("hello world\nsecond line here\n", "auto").record_mode, "lines");
  EXPECT_EQ(cut(std::string("\x01\x00\x02\x03 binary", 10), "auto").record_mode, "bytes");
  const RecordSet s = cut("{\"a\":1}\n{\"a\":2}\n", "auto");
  EXPECT_TRUE(has_warning(s, "record mode auto: chose jsonl"));
}

TEST(Records, DetectionToleratesAPreambleAndRejectsKeylessTables) {
  std::string data = "PUT index\n{\n  \"mappings\": {}\n}\n";
  for (int i = 0; i < 300; ++i) data += "{\"n\":" + std::to_string(i) + "}\n";
  EXPECT_EQ(cut(data, "auto").record_mode, "jsonl");
  // A play: speaker<TAB>text. Speakers repeat, so there is no key column: lines.
  std::string play;
  for (int i = 0; i < 50; ++i) play += std::string(i % 2 ? "ROSALIND" : "CELIA") + "\tline " + std::to_string(i) + "\n";
  EXPECT_EQ(cut(play, "auto").record_mode, "lines");
  // Country code + zip: the first column repeats, the first two are unique.
  std::string zips;
  for (int i = 0; i < 50; ++i) zips += "US\t" + std::to_string(10000 + i) + "\tTown\n";
  const RecordSet z = cut(zips, "auto");
  EXPECT_EQ(z.record_mode, "tsv");
  EXPECT_EQ(z.records[0].key, "US\t10000");
  EXPECT_EQ(z.records[0].value, "Town");
}

TEST(Records, JsonObjectMembersBecomeRecordsKeyedByName) {
  const RecordSet s = cut("{\"v\":1,\"plugins\":{\"b\":{\"x\":1},\"a\":{\"x\":2},\"c\":3}}", "json");
  ASSERT_EQ(s.records.size(), 3u);
  EXPECT_EQ(s.records[0].key, "a");
  EXPECT_EQ(s.records[0].value, "{\"x\":2}");
  EXPECT_NE(s.detail.find("\"plugins\""), std::string::npos);
}

TEST(Records, LinesKeyedByLineNumberOrField) {
  const RecordSet s = cut("b second\na first\n\nc third", "lines");
  ASSERT_EQ(s.records.size(), 4u);
  EXPECT_EQ(s.records[0].key, "000000000001");
  EXPECT_EQ(s.records[0].value, "b second");
  EXPECT_EQ(s.records[2].value, "");
  EXPECT_EQ(s.records[3].value, "c third");
  RecordOptions by_field;
  by_field.key_field = "1";
  const RecordSet f = cut("b second\na first\nc third\n", "lines", by_field);
  EXPECT_EQ(f.records[0].key, "a");
  EXPECT_EQ(f.records[0].value, "a first");
}

TEST(Records, JsonArrayInsideAnObjectAndKeyField) {
  RecordOptions opt;
  opt.key_field = "id";
  const RecordSet s =
      cut("{\"meta\":{}, \"items\":[{\"id\":\"z\",\"v\":1},{\"id\":\"a\",\"v\":2},{\"v\":3}]}", "json", opt);
  ASSERT_EQ(s.records.size(), 3u);
  EXPECT_NE(s.detail.find("\"items\""), std::string::npos);
  EXPECT_EQ(s.records[1].key, "a");
  EXPECT_EQ(s.records[1].value, "{\"id\":\"a\",\"v\":2}");
  EXPECT_TRUE(has_warning(s, "lack field \"id\""));
  expect_sorted_unique(s);
}

TEST(Records, BinaryBytesInJsonlAreKeptAsOpaqueValuesWithAWarning) {
  const std::string data = std::string("{\"a\":1}\n{\"a\":2}\n\x01\x02\xff\xfe\n{\"a\":3}\n");
  const RecordSet s = cut(data, "jsonl");
  EXPECT_EQ(s.record_mode, "jsonl");
  EXPECT_EQ(s.records.size(), 4u);
  EXPECT_TRUE(has_warning(s, "1 of 4 lines are not valid JSON"));
}

TEST(Records, MostlyInvalidJsonlFallsBackToLines) {
  const RecordSet s = cut("not json\nnor this\n{\"a\":1}\n", "jsonl");
  EXPECT_EQ(s.record_mode, "lines");
  EXPECT_EQ(s.records.size(), 3u);
  EXPECT_TRUE(has_warning(s, "read as lines instead"));
}

TEST(Records, InvalidJsonDocumentFallsBack) {
  const RecordSet s = cut("[{\"a\":1},", "json");
  EXPECT_TRUE(has_warning(s, "json: not one valid JSON document"));
  EXPECT_EQ(s.record_mode, "lines");
  EXPECT_EQ(s.records.size(), 1u);
}

TEST(Records, CsvHeaderQuotesAndRaggedRows) {
  const RecordSet s =
      cut("name,country,pop\n\"Paris, FR\",France,2100000\nBerlin,Germany,3600000\nRome,Italy\n", "csv");
  EXPECT_EQ(s.record_mode, "csv");
  ASSERT_EQ(s.records.size(), 3u);
  EXPECT_EQ(s.columns, (std::vector<std::string>{"country", "pop"}));
  EXPECT_EQ(s.records[1].key, "Paris, FR");
  EXPECT_EQ(s.records[1].value, "France,2100000");
  EXPECT_TRUE(has_warning(s, "1 of 3 rows have a field count other than 3"));
  const RecordSet ragged = cut("a,b,c\n1\n2\n3,4\n5\n", "csv");
  EXPECT_EQ(ragged.record_mode, "lines");
  EXPECT_TRUE(has_warning(ragged, "most rows are ragged"));
}

TEST(Records, DuplicateKeysAreMadeUnique) {
  const RecordSet s = cut("k,1\nk,2\nj,3\nk,4\n", "csv");
  ASSERT_EQ(s.records.size(), 4u);
  expect_sorted_unique(s);
  EXPECT_TRUE(has_warning(s, "2 duplicate keys"));
}

TEST(Records, FixedSizeRecordsAndShortTail) {
  const RecordSet s = cut("abcdefghij", "fixed:4");
  ASSERT_EQ(s.records.size(), 3u);
  EXPECT_EQ(s.records[2].value, "ij");
  EXPECT_TRUE(has_warning(s, "last record is 2 bytes"));
}

TEST(Records, BadModeIsAnError) {
  std::string error;
  records_from_bytes("x", "t", "xml", {}, error);
  EXPECT_NE(error.find("unknown record mode 'xml'"), std::string::npos);
  EXPECT_FALSE(is_valid_record_mode("xml"));
  EXPECT_TRUE(is_valid_record_mode("fixed:4096"));
}

// fixed:N with a bad N names the size, not an "unknown" mode; what the message suggests works.
TEST(Records, FixedSizeOutOfRangeSaysSo) {
  for (const char* mode : {"fixed:0", "fixed:1048577", "fixed:99999999999999999999"}) {
    std::string error;
    records_from_bytes("x", "t", mode, {}, error);
    EXPECT_EQ(error, std::string("record mode '") + mode + "': the record size " + (mode + 6) +
                         " is out of range (1..1048576 bytes)");
  }
  EXPECT_EQ(record_mode_error("fixed:abc"),
            "record mode 'fixed:abc': N of fixed:N is a whole number of bytes, 1..1048576 (e.g. fixed:100)");
  EXPECT_EQ(record_mode_error("fixed:-1"),
            "record mode 'fixed:-1': N of fixed:N is a whole number of bytes, 1..1048576 (e.g. fixed:100)");
  EXPECT_EQ(record_mode_error("fixed:100"), "");
  EXPECT_EQ(record_mode_error("fixed:1048576"), "");
}

// --key-field as a field number is 1..65536 wherever the lines mode may read it; options a
// mode does not use are refused when the mode is given, and noted when auto chose it.
TEST(Records, KeyFieldMustBeAFieldNumberOrAModeThatUsesIt) {
  for (const char* bad : {"0", "-1", "99999999999", "65537"}) {
    RecordOptions o;
    o.key_field = bad;
    EXPECT_NE(record_options_error("lines", o).find("a field number is 1..65536"), std::string::npos) << bad;
    EXPECT_NE(record_options_error("auto", o).find("-r jsonl or -r json"), std::string::npos) << bad;
    EXPECT_EQ(record_options_error("jsonl", o), "") << bad;  // a JSON field may be named "0"
  }
  RecordOptions o;
  o.key_field = "2";
  EXPECT_EQ(record_options_error("lines", o), "");
  EXPECT_EQ(record_options_error("csv", o), "--key-field is not used by -r csv (its key: --key-columns N)");
  o.key_field = "id";
  EXPECT_EQ(record_options_error("lines", o), "--key-field 'id': -r lines takes a field number, 1..65536");
  EXPECT_EQ(record_options_error("auto", o), "");
  o = {};
  o.value_field = "body";
  EXPECT_EQ(record_options_error("kv", o), "--value-field is not used by -r kv (jsonl and json only)");
  o = {};
  o.key_columns = 2;
  EXPECT_EQ(record_options_error("fixed:8", o), "--key-columns is not used by -r fixed:8 (csv and tsv only)");
  o = {};
  o.key_field = "id";
  const RecordSet s = cut("a b\nc d\n", "auto", o);
  EXPECT_EQ(s.record_mode, "lines");
  EXPECT_TRUE(has_warning(s, "lines: --key-field 'id' is not a field number (1..65536): keyed by line number"));
  const RecordSet t = cut("k,v\n1,2\n2,3\n3,4\n", "auto", o);
  EXPECT_EQ(t.record_mode, "csv");
  EXPECT_TRUE(has_warning(t, "--key-field 'id' is not used by record mode csv: ignored"));
}

TEST(Records, EmptyCorpusGivesNoRecordsAndNoBlocks) {
  const std::string path = test::temp_path("empty.txt");
  { std::ofstream(path, std::ios::binary); }
  std::string error;
  const RecordSet s = read_corpus(path, "auto", 1 << 20, error);
  EXPECT_EQ(error, "");
  EXPECT_TRUE(s.records.empty());
  EXPECT_TRUE(has_warning(s, "empty input"));
  for (const auto& layout : layout_table()) {
    if (layout.needs_store_file) continue;  // refuses a corpus file (tests/stores/as_stored_test.cpp)
    const BlockSet b = build_blocks(s, layout.name, 4096, error);
    EXPECT_EQ(error, "") << layout.name;
    EXPECT_EQ(b.count(), 0u) << layout.name;
  }
}

TEST(Records, OneLineCorpus) {
  const std::string path = test::temp_path("one.txt");
  std::ofstream(path, std::ios::binary) << "just one line";
  std::string error;
  const RecordSet s = read_corpus(path, "auto", 1 << 20, error);
  ASSERT_EQ(s.records.size(), 1u);
  EXPECT_EQ(s.records[0].value, "just one line");
  for (const char* layout : {"leveldb", "rocksdb", "hbase", "values", "values:single", "raw"}) {
    const BlockSet b = build_blocks(s, layout, 1024, error);
    EXPECT_EQ(b.count(), 1u) << layout;
  }
}

TEST(Records, RecordLargerThanTheBlockMakesOneOversizedBlock) {
  RecordSet s;
  s.records = {{"a", "small"}, {"b", std::string(10000, 'q')}, {"c", "small"}};
  std::string error;
  for (const char* layout : {"leveldb", "rocksdb", "hbase", "values"}) {
    const BlockSet b = build_blocks(s, layout, 1024, error);
    ASSERT_EQ(error, "");
    size_t big = 0;
    for (size_t i = 0; i < b.count(); ++i) big += b.block(i).size() >= 10000;
    EXPECT_EQ(big, 1u) << layout;
  }
}

TEST(Records, MissingFileAndBadLayoutAreErrors) {
  std::string error;
  read_corpus("/nonexistent/kvz", "auto", 1 << 20, error);
  EXPECT_NE(error.find("no such file"), std::string::npos);
  RecordSet s;
  error.clear();
  build_blocks(s, "lsm", 4096, error);
  EXPECT_NE(error.find("unknown layout"), std::string::npos);
  error.clear();
  build_blocks(s, "rocksdb", 512, error);
  EXPECT_NE(error.find("out of range"), std::string::npos);
  s.raw = {1, 2, 3};
  error.clear();
  build_blocks(s, "rocksdb", 4096, error);
  EXPECT_NE(error.find("needs records"), std::string::npos);
}

TEST(Records, LargeCorpusIsSampledInWholeLines) {
  std::string error;
  const std::string path = test::corpus_path("canterbury/bible.txt");
  const RecordSet s = read_corpus(path, "lines", 256 << 10, error);
  EXPECT_EQ(error, "");
  EXPECT_EQ(s.source_bytes, 4047392u);
  EXPECT_LE(s.sampled_bytes, 256u << 10);
  EXPECT_GT(s.sampled_bytes, 200u << 10);
  EXPECT_TRUE(has_warning(s, "16 evenly spaced windows"));
  // Every sampled record is a whole line of the file.
  const std::string whole = "\n" + test::read_file(path);
  for (size_t i = 0; i < s.records.size(); i += 97) {
    EXPECT_NE(whole.find("\n" + s.records[i].value + "\n"), std::string::npos) << s.records[i].value;
  }
}

}  // namespace
}  // namespace kvz

namespace kvz {
namespace {

// 100,000 nested arrays used to overflow the stack (the reader re-serialises records); now the
// document is read by the fallback mode with a warning saying why.
TEST(Records, DeeplyNestedJsonFallsBackInsteadOfCrashing) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  std::string error;
  RecordSet s = records_from_bytes(deep, "deep", "json", RecordOptions{}, error);
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_EQ(s.record_mode, "jsonl");
  bool said = false;
  for (const auto& w : s.warnings) said |= w.find("nested deeper than 1000 levels") != std::string::npos;
  EXPECT_TRUE(said);
  RecordOptions keyed;
  keyed.key_field = "id";
  const std::string line = "{\"id\":" + deep + "}\n";
  s = records_from_bytes(line + line, "deep", "jsonl", keyed, error);
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_FALSE(s.records.empty());
}

}  // namespace
}  // namespace kvz
