// Corpus names resolve through KVZ_CORPORA and its manifest; sha256 matches the manifest.
#include <gtest/gtest.h>

#include <sstream>

#include "block_parsers.h"
#include "blockgen/corpus.h"
#include "blockgen/pipeline.h"
#include "blockgen/records.h"

namespace kvz {
namespace {

TEST(Corpus, ResolvesPathsRelativeNamesAndBareNames) {
  const std::string twitter = test::corpus_path("json/twitter.json");
  std::string error;
  EXPECT_EQ(resolve_corpus(twitter, error), twitter);
  EXPECT_EQ(resolve_corpus("json/twitter.json", error), twitter);
  EXPECT_EQ(resolve_corpus("twitter.json", error), twitter);
  EXPECT_EQ(resolve_corpus("bible.txt", error), test::corpus_path("canterbury/bible.txt"));
  EXPECT_EQ(error, "");
  EXPECT_EQ(resolve_corpus("no-such-corpus.bin", error), "");
  EXPECT_NE(error.find("no such file"), std::string::npos);
  EXPECT_EQ(error.find("did you mean"), std::string::npos) << error;  // nothing close
}

// Issue 36: the README's `canterbury/alice29.txt` (the file is snappy/alice29.txt) and typos
// name the manifest's closest entries.
TEST(Corpus, AMissingNameNamesTheManifestsClosest) {
  std::string error;
  EXPECT_EQ(resolve_corpus("canterbury/alice29.txt", error), "");
  EXPECT_NE(error.find(": no such file, nor a corpus name in "), std::string::npos) << error;
  EXPECT_NE(error.find(": did you mean 'snappy/alice29.txt'?"), std::string::npos) << error;
  EXPECT_NE(resolve_corpus("json/twiter.json", error).empty() ? error.find("did you mean 'json/twitter.json'?")
                                                              : std::string::npos,
            std::string::npos)
      << error;
  EXPECT_EQ(resolve_corpus("twiter.json", error), "");
  EXPECT_NE(error.find("did you mean 'json/twitter.json'?"), std::string::npos) << error;
}

// The metadata hash is of the bytes measured: a file that fits --max-bytes hashes to the
// manifest's SHA-256 of the whole file; a sampled one to the hash of its sample, so hashing
// never reads more than the sample (a 20 GB file used to be read whole).
TEST(Corpus, Sha256IsOfTheSampleAndOfTheFileWhenItFits) {
  const char* dir = std::getenv("KVZ_CORPORA");
  ASSERT_TRUE(dir);
  std::istringstream manifest(test::read_file(std::string(dir) + "/MANIFEST.tsv"));
  std::string line;
  int checked = 0;
  while (std::getline(manifest, line) && checked < 3) {
    std::istringstream cols(line);
    std::string file, bytes, sha;
    std::getline(cols, file, '\t');
    std::getline(cols, bytes, '\t');
    std::getline(cols, sha, '\t');
    if (file == "file" || std::stoull(bytes) > (1u << 20)) continue;
    std::string error;
    const RecordSet whole = read_corpus(std::string(dir) + "/" + file, "bytes", 1u << 20, error);
    EXPECT_EQ(whole.sample_sha256, sha) << file;
    if (std::stoull(bytes) > 64 * 1024) {
      const RecordSet sampled = read_corpus(std::string(dir) + "/" + file, "bytes", 16 * 1024, error);
      EXPECT_EQ(sampled.sample_sha256, sha256_hex(std::string(sampled.raw.begin(), sampled.raw.end()))) << file;
      EXPECT_NE(sampled.sample_sha256, sha) << file;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 3);
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// The project manifest lists every shared corpus under the same name with the same sha256.
TEST(Corpus, ProjectManifestCoversTheSharedCorpora) {
  const char* dir = std::getenv("KVZ_CORPORA");
  ASSERT_TRUE(dir);
  const std::string ours = test::read_file(std::string(KVZ_SOURCE_DIR) + "/corpora/MANIFEST.tsv");
  ASSERT_FALSE(ours.empty());
  std::istringstream shared(test::read_file(std::string(dir) + "/MANIFEST.tsv"));
  std::string line;
  int n = 0;
  while (std::getline(shared, line)) {
    const auto t1 = line.find('\t'), t2 = line.find('\t', t1 + 1), t3 = line.find('\t', t2 + 1);
    const std::string prefix = line.substr(0, t3);  // file, bytes, sha256
    if (line.rfind("file\t", 0) == 0) continue;
    EXPECT_NE(ours.find("\n" + prefix + "\t"), std::string::npos) << line.substr(0, t1);
    ++n;
  }
  EXPECT_GT(n, 50);
  for (const char* name : {"silesia/dickens", "silesia/webster", "silesia/xml"})
    EXPECT_NE(ours.find(std::string("\n") + name + "\t"), std::string::npos) << name;
}

// Cell ids carry a file's name, not where it lives: the same file read from two directories
// gets the same id, so `check` and compare.py match runs made on different machines.
TEST(Corpus, SourceNamesAreFileNamesMadeUniqueByTheirDirectories) {
  EXPECT_EQ(source_names({"/work/shared/corpora/json/twitter.json", "/tmp/x/logs.log"}, {}),
            (std::vector<std::string>{"twitter.json", "logs.log"}));
  EXPECT_EQ(source_names({"/data/a/data.csv", "/data/b/data.csv", "/c/data.csv"}, {}),
            (std::vector<std::string>{"a/data.csv", "b/data.csv", "c/data.csv"}));
  EXPECT_EQ(source_names({"dbbench"}, {"dbbench"}), (std::vector<std::string>{"dbbench"}));       // a whole path stays
  EXPECT_EQ(source_names({"/x/dbbench"}, {"dbbench"}), (std::vector<std::string>{"x/dbbench"}));  // not a dataset's
  EXPECT_EQ(source_names({"rel/dir/f.txt"}, {}), (std::vector<std::string>{"f.txt"}));
  // The same file twice keeps one name.
  EXPECT_EQ(source_names({"/a/f", "/a/f"}, {}), (std::vector<std::string>{"f", "f"}));
}

}  // namespace
}  // namespace kvz
