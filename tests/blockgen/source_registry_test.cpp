// The source registry (blockgen/source_registry.h) with readers made here: which reader takes a
// path, what store a file names, a directory's store files, and how variants name their base.
// The stores' own readers are tested in tests/stores/store_readers_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "block_parsers.h"
#include "blockgen/source_registry.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;

// Takes files whose first byte is `magic`, and by name those ending in `ext`.
class FakeReader : public StoreFileReader {
 public:
  FakeReader(std::string store, char magic, std::string ext, std::string base = "")
      : store_(std::move(store)), magic_(magic), ext_(std::move(ext)), base_(std::move(base)) {}
  std::string_view store() const override { return store_; }
  std::string_view base() const override { return base_; }
  Claim claim(const std::string& path) const override {
    std::ifstream in(path, std::ios::binary);
    char first = 0;
    if (in.get(first) && first == magic_) return Claim::file;
    return fs::path(path).extension() == ext_ ? Claim::name : Claim::none;
  }
  bool hides(const std::string& name) const override { return name.rfind(store_ + "_own", 0) == 0; }
  bool read(const std::string& path, size_t, RecordSet& set, std::string&) const override {
    set.record_mode = store_ + "-file";
    set.detail = store_ + " read " + fs::path(path).filename().string();
    return true;
  }
  bool made(const RecordSet& set) const override { return set.record_mode == store_ + "-file"; }

 private:
  std::string store_;
  char magic_;
  std::string ext_, base_;
};

std::string file(const std::string& dir, const std::string& name, const std::string& bytes) {
  const std::string path = (fs::path(dir) / name).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

SourceRegistry two_stores() {
  SourceRegistry r;
  r.add(std::make_unique<FakeReader>("alpha", 'A', ".a"));
  r.add(std::make_unique<FakeReader>("beta", 'B', ".b", "alpha"));
  return r;
}

TEST(SourceRegistry, TheFirstReaderThatClaimsAPathTakesIt) {
  const SourceRegistry r = two_stores();
  const std::string dir = fs::path(test::temp_path("registry_claims")).string();
  fs::create_directories(dir);
  const std::string a = file(dir, "x.b", "A...");  // alpha's bytes under beta's name: alpha, asked first
  const std::string b = file(dir, "y.a", "B...");  // beta's bytes under alpha's name: alpha's name claim first
  const std::string named = file(dir, "z.b", "");  // beta's name only
  const std::string other = file(dir, "w.txt", "text");
  ASSERT_NE(r.reader_for(a), nullptr);
  EXPECT_EQ(r.reader_for(a)->store(), "alpha");
  EXPECT_EQ(r.reader_for(b)->store(), "alpha");
  EXPECT_EQ(r.store_of(b), "");  // taken by its name: its bytes name no store the taker knows
  EXPECT_EQ(r.store_of(a), "alpha");
  EXPECT_EQ(r.reader_for(named)->store(), "beta");
  EXPECT_EQ(r.store_of(named), "");
  EXPECT_TRUE(r.is_store_file(named));
  EXPECT_FALSE(r.is_store_file(other));
  EXPECT_EQ(r.store_of(other), "");
}

TEST(SourceRegistry, ReadsWithTheReaderThatTakesThePath) {
  const SourceRegistry r = two_stores();
  const std::string dir = fs::path(test::temp_path("registry_reads")).string();
  fs::create_directories(dir);
  RecordSet set;
  std::string error;
  ASSERT_TRUE(r.read(file(dir, "f", "B"), 0, set, error)) << error;
  EXPECT_EQ(set.detail, "beta read f");
  EXPECT_TRUE(r.made(set));
  RecordSet corpus;
  corpus.record_mode = "lines";
  EXPECT_FALSE(r.made(corpus));
  const std::string other = file(dir, "g.txt", "text");
  EXPECT_FALSE(r.read(other, 0, set, error));
  EXPECT_EQ(error, other + ": not a store file");
}

TEST(SourceRegistry, ListsADirectorysStoreFilesSortedWithoutTheStoresOwn) {
  const SourceRegistry r = two_stores();
  const std::string dir = fs::path(test::temp_path("registry_dir")).string();
  fs::create_directories(dir);
  const std::string second = file(dir, "2.b", "B");
  const std::string first = file(dir, "1.a", "A");
  file(dir, "notes.txt", "text");
  file(dir, "alpha_own.a", "A");  // alpha's bookkeeping: left out
  fs::create_directories(fs::path(dir) / "sub.a");
  EXPECT_EQ(r.files_in(dir), (std::vector<std::string>{first, second}));
  EXPECT_TRUE(r.files_in((fs::path(dir) / "missing").string()).empty());
}

TEST(SourceRegistry, AVariantNamesItsBaseAndEveryStoreIsRegisteredOnce) {
  SourceRegistry r = two_stores();
  EXPECT_EQ(r.base_of("beta"), "alpha");
  EXPECT_EQ(r.base_of("alpha"), "alpha");
  EXPECT_EQ(r.base_of("gamma"), "gamma");  // no reader: itself
  EXPECT_THROW(r.add(std::make_unique<FakeReader>("beta", 'C', ".c")), std::logic_error);
  EXPECT_EQ(r.readers().size(), 2u);
  // blockgen alone registers no store: every file is a corpus until the stores add theirs.
  EXPECT_TRUE(SourceRegistry::global().readers().empty());
}

}  // namespace
}  // namespace kvz
