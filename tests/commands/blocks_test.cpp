// `kvzbench blocks` in-process: exit codes, --out files and index.tsv, --stats figures.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "blockgen/layouts.h"
#include "blockgen/records.h"
#include "commands/blocks.h"
#include "tests/blockgen/block_parsers.h"

namespace kvz {
namespace {

int run(std::vector<std::string> args) {
  args.insert(args.begin(), "blocks");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return blocks_main(static_cast<int>(argv.size()), argv.data());
}

TEST(BlocksCli, ExportWritesEveryBlockAndAnIndex) {
  const std::string dir = test::temp_path("export");
  ASSERT_EQ(run({"-l", "rocksdb", "-b", "4K", "-d", "dbbench", "--dataset-bytes", "200K", "--out", dir}), 0);
  std::string error;
  const RecordSet set = generate_dataset("dbbench", 1, 200 << 10, error);
  const BlockSet b = build_blocks(set, "rocksdb", 4096, error);
  ASSERT_GT(b.count(), 10u);
  for (size_t i = 0; i < b.count(); ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "/%06zu.blk", i);
    ASSERT_EQ(test::read_file(dir + name), test::as_string(b.block(i))) << name;
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/" + std::to_string(b.count()) + ".blk"));
  const std::string index = test::read_file(dir + "/index.tsv");
  EXPECT_EQ(index.rfind("block\tfile\toffset\tbytes\trecords\n", 0), 0u);
  EXPECT_EQ(static_cast<size_t>(std::count(index.begin(), index.end(), '\n')), b.count() + 1);
  // A second, smaller export leaves no stale blocks behind.
  ASSERT_EQ(run({"-l", "raw", "-b", "64K", "-d", "dbbench", "--dataset-bytes", "100K", "--out", dir}), 0);
  EXPECT_TRUE(std::filesystem::exists(dir + "/000001.blk"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/000002.blk"));
}

TEST(BlocksCli, StatsOnARealCorpus) {
  ::testing::internal::CaptureStdout();
  const int rc = run({"--stats", "-l", "rocksdb", "-b", "4K", test::corpus_path("json/twitter.json")});
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(rc, 0);
  EXPECT_NE(out.find("record mode json"), std::string::npos) << out;
  EXPECT_NE(out.find("layout rocksdb, block size 4K"), std::string::npos) << out;
  EXPECT_NE(out.find("keys "), std::string::npos) << out;
}

TEST(BlocksCli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(run({"--stats", "-l", "btree", "-d", "dbbench"}), 2);
  EXPECT_EQ(run({"--stats", "-b", "512", "-d", "dbbench"}), 2);
  EXPECT_EQ(run({"--stats", "-b", "4Q", "-d", "dbbench"}), 2);
  EXPECT_EQ(run({"--stats", "-d", "nosuch"}), 2);
  EXPECT_EQ(run({"--stats", "/nonexistent/file"}), 2);
  EXPECT_EQ(run({"-d", "dbbench"}), 2);  // neither --stats nor --out
  EXPECT_EQ(run({"--stats"}), 2);        // no input
  EXPECT_EQ(run({"--stats", "-m", "xml", "-d", "dbbench"}), 2);
  EXPECT_EQ(run({"--out", "/tmp/x", "-b", "1K,4K", "-d", "dbbench"}), 2);
  EXPECT_EQ(run({"--bogus"}), 2);
  EXPECT_EQ(run({"--stats", "--seed", "-1", "-d", "dbbench"}), 2);
  EXPECT_EQ(run({"--stats", "--key-columns", "0", "-d", "dbbench"}), 2);
  EXPECT_EQ(run({"--stats", "--dataset-bytes", "2G", "-d", "dbbench"}), 2);
  EXPECT_EQ(run({"--stats", "--compression-ratio", "0", "-d", "dbbench"}), 2);
  EXPECT_EQ(run({"--stats", std::string(std::getenv("KVZ_CORPORA") ? std::getenv("KVZ_CORPORA") : "/")}), 2);
  EXPECT_EQ(run({"--stats", "-l", "leveldb", test::corpus_path("brotli/random_org_10k.bin")}), 2);  // bytes, no records
}

TEST(BlocksCli, TakesRunsSourceFlags) {
  // One set of source flags for run and blocks: -r and -m are the same option.
  const std::string dir = test::temp_path("flags");
  const std::string file = dir + ".txt";
  {
    std::ofstream f(file);
    for (int i = 0; i < 500; ++i) f << "key" << i << " value " << i * 7 << "\n";
  }
  for (const char* mode_flag : {"-r", "-m"}) {
    ::testing::internal::CaptureStdout();
    const int code = run({"-l", "leveldb", "-b", "1K", mode_flag, "fixed:32", "--seed", "5", "--stats", file});
    const std::string out = ::testing::internal::GetCapturedStdout();
    EXPECT_EQ(code, 0) << mode_flag;
    EXPECT_NE(out.find("record mode fixed:32"), std::string::npos) << out;
  }
  EXPECT_EQ(run({"-l", "leveldb", "-b", "1K", "-r", "xml", "--stats", file}), 2);
  EXPECT_EQ(run({"-l", "leveldb", "-b", "1K", "--seed", "-3", "--stats", file}), 2);
}

}  // namespace
}  // namespace kvz
