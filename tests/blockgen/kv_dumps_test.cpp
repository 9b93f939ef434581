// Key/value dumps as record sources: key<TAB>value lines, the hex dumps of RocksDB's own tools
// (run here on a real DB: ldb and sst_dump from rocksdb-tools, a test dependency), and
// --value-field for JSON lines.
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "blockgen/records.h"

namespace kvz {
namespace {

RecordSet cut_dump(const std::string& data, const std::string& mode, const RecordOptions& opt = {}) {
  std::string error;
  RecordSet s = records_from_bytes(data, "test", mode, opt, error);
  EXPECT_EQ(error, "");
  return s;
}

std::map<std::string, std::string> as_map(const RecordSet& s) {
  std::map<std::string, std::string> m;
  for (const auto& r : s.records) m[r.key] = r.value;
  return m;
}

TEST(KvDumps, TabSeparatedKeyValueLines) {
  const RecordSet s = cut_dump("user:2\t{\"name\": \"b\"}\nuser:1\tvalue\twith a tab\r\nno tab here\n", "kv");
  EXPECT_EQ(s.record_mode, "kv");
  EXPECT_EQ(as_map(s),
            (std::map<std::string, std::string>{{"user:1", "value\twith a tab"}, {"user:2", "{\"name\": \"b\"}"}}));
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0], "kv: 1 of 3 lines have no tab (first at line 3): skipped");
  EXPECT_EQ(cut_dump("plain\ntext\nlines\n", "kv").record_mode, "lines");  // mostly no tab: read as lines
}

// The two hex forms as rocksdb-tools 7.8 print them, header lines and a deletion included.
TEST(KvDumps, HexDumpsOfLdbAndSstDumpAreDetectedAndDecoded) {
  const std::string ldb = "0x6B31 : 0x76616C7565206F6E65\n0x6B32FF : 0x00010203\n0x6B33 : 0x\n";
  const RecordSet a = cut_dump(ldb, "auto");
  EXPECT_EQ(a.record_mode, "kv-hex");
  EXPECT_EQ(as_map(a), (std::map<std::string, std::string>{
                           {"k1", "value one"}, {std::string("k2\xff"), std::string("\0\1\2\3", 4)}, {"k3", ""}}));
  const std::string sst_dump =
      "options.env is 0x55d0c0\nProcess /tmp/db/000018.sst\nSst file format: block-based\nfrom [] to []\n"
      "'6B31' seq:0, type:1 => 76616C7565206F6E65\n'6B32FF' seq:7, type:1 => 00010203\n'6B34' seq:9, type:0 => \n";
  const RecordSet b = cut_dump(sst_dump, "auto");
  EXPECT_EQ(b.record_mode, "kv-hex");
  EXPECT_EQ(b.records.size(), 2u);
  EXPECT_EQ(as_map(b)["k1"], "value one");
  EXPECT_TRUE(std::any_of(b.warnings.begin(), b.warnings.end(), [](const std::string& w) {
    return w == "kv-hex: 1 entries are not values (deletions, merges, ...): skipped";
  }));
  const RecordSet c = cut_dump("0x6B31 : 0x7\n0xZZ : 0x00\n0x6B32 : 0x00\n", "kv-hex");  // odd digits, not hex
  EXPECT_EQ(c.record_mode, "lines");  // more bad lines than good: not a hex dump
}

bool has(const RecordSet& s, const std::string& warning) {
  return std::find(s.warnings.begin(), s.warnings.end(), warning) != s.warnings.end();
}

// Issue 24: a dump whose every other line is `ldb scan` without --hex dropped those lines
// without a word. Every line not read is counted; only the tools' own header lines are not.
TEST(KvDumps, HexLinesNotReadAreCountedAndSaid) {
  std::string mixed = "options.env is 0x55d0c0\nProcess /tmp/db/000018.sst\n";
  for (int i = 0; i < 5; ++i)
    mixed += "0x6B3" + std::to_string(i) + " : 0x76\nk" + std::to_string(i) + " : plain value\n";
  const RecordSet s = cut_dump(mixed, "kv-hex");
  EXPECT_EQ(s.record_mode, "kv-hex");
  EXPECT_EQ(s.records.size(), 5u);
  EXPECT_TRUE(has(s, "kv-hex: 5 of 12 lines are not hex key/value pairs (first at line 4): skipped"))
      << ::testing::PrintToString(s.warnings);
  EXPECT_EQ(cut_dump(mixed, "auto").record_mode, "lines");  // half unread is no hex dump to auto
  const RecordSet blank = cut_dump("0x6B31 : 0x76\n\n0x6B32 : 0x77\n  \r\n", "kv-hex");
  EXPECT_EQ(blank.records.size(), 2u);
  EXPECT_EQ(blank.warnings, std::vector<std::string>{"kv-hex: 2 blank lines: skipped"});
}

TEST(KvDumps, BlankLinesSkippedAreCounted) {
  EXPECT_TRUE(has(cut_dump("a\t1\n\nb\t2\n\r\n", "kv"), "kv: 2 blank lines: skipped"));
  EXPECT_TRUE(has(cut_dump("{\"a\":1}\n\n{\"a\":2}\n", "jsonl"), "jsonl: 1 blank lines: skipped"));
  EXPECT_TRUE(has(cut_dump("id,v\n1,a\n\n2,b\n", "csv"), "csv: 1 blank lines: skipped"));
  EXPECT_TRUE(cut_dump("a\t1\nb\t2\n", "kv").warnings.empty());  // the final newline is no blank line
}

TEST(KvDumps, ValueFieldTakesOneFieldOfEachDocument) {
  RecordOptions opt;
  opt.key_field = "id";
  opt.value_field = "body";
  const RecordSet s =
      cut_dump("{\"id\":\"a\",\"body\":\"text a\"}\n{\"id\":\"b\",\"body\":{\"x\":1}}\n{\"id\":\"c\"}\n", "jsonl", opt);
  EXPECT_EQ(as_map(s),
            (std::map<std::string, std::string>{{"a", "text a"}, {"b", "{\"x\":1}"}, {"c", "{\"id\":\"c\"}"}}));
  EXPECT_TRUE(std::any_of(s.warnings.begin(), s.warnings.end(), [](const std::string& w) {
    return w == "jsonl: 1 documents lack field \"body\": the whole line is the value";
  }));
  const RecordSet j = cut_dump("[{\"id\":\"a\",\"body\":\"text a\"},{\"id\":\"b\",\"body\":2}]", "json", opt);
  EXPECT_EQ(as_map(j), (std::map<std::string, std::string>{{"a", "text a"}, {"b", "2"}}));
}

std::string run(const std::string& command) {
  std::string out;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  EXPECT_NE(pipe, nullptr) << command;
  if (!pipe) return out;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe.get())) > 0) out.append(buf.data(), n);
  return out;
}

// A real DB with binary keys and values: what ldb and sst_dump print reads back as exactly the
// records written.
TEST(KvDumps, RealLdbAndSstDumpOutputReadsBackTheRecordsWritten) {
  ASSERT_EQ(std::system("command -v ldb >/dev/null && command -v sst_dump >/dev/null"), 0)
      << "ldb and sst_dump are needed: apt-get install rocksdb-tools";
  const auto dir = std::filesystem::temp_directory_path() / ("kvz_kvdump_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::map<std::string, std::string> written;
  {
    rocksdb::Options options;
    options.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(options, dir.string(), &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    for (int i = 0; i < 300; ++i) {
      std::string key = "key" + std::to_string(1000 + i);
      key.push_back(static_cast<char>(i % 256));  // binary bytes in keys and values
      const std::string value = std::string(static_cast<size_t>(i % 7), static_cast<char>(i)) + "v" + std::to_string(i);
      ASSERT_TRUE(db->Put({}, key, value).ok());
      written[key] = value;
    }
    ASSERT_TRUE(db->Flush({}).ok());
  }
  const RecordSet from_ldb = cut_dump(run("ldb --db=" + dir.string() + " scan --hex 2>/dev/null"), "auto");
  EXPECT_EQ(from_ldb.record_mode, "kv-hex");
  EXPECT_EQ(as_map(from_ldb), written);
  const RecordSet from_sst =
      cut_dump(run("sst_dump --file=" + dir.string() + " --command=scan --output_hex 2>/dev/null"), "auto");
  EXPECT_EQ(from_sst.record_mode, "kv-hex");
  EXPECT_EQ(as_map(from_sst), written);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kvz
