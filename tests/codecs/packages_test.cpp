// codecs/packages.txt names each codec library's Debian package once: cmake/Dependencies.cmake
// finds the libraries from it and kvz.sh installs its packages. Here: the README's library table
// lists exactly those packages, and every registered codec's library has a row.
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "codec_test_support.h"

namespace kvz::test {
namespace {

struct PackageRow {
  std::string library, build_switch, finder, name, debian;
};

std::vector<PackageRow> package_rows() {
  std::ifstream f(KVZ_SOURCE_DIR "/codecs/packages.txt");
  EXPECT_TRUE(f.good()) << "no codecs/packages.txt";
  std::vector<PackageRow> rows;
  for (std::string line; std::getline(f, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    PackageRow r;
    in >> r.library >> r.build_switch >> r.finder >> r.name >> r.debian;
    EXPECT_FALSE(r.debian.empty()) << "a row without its five fields: " << line;
    rows.push_back(r);
  }
  return rows;
}

// The packages in the second cell of README.md's "| codecs | ... |" row.
std::set<std::string> readme_codec_packages() {
  std::ifstream f(KVZ_SOURCE_DIR "/README.md");
  const std::string row = "| codecs |";
  for (std::string line; std::getline(f, line);) {
    if (line.rfind(row, 0) != 0) continue;
    std::istringstream cell(line.substr(row.size(), line.find('|', row.size()) - row.size()));
    std::set<std::string> out;
    for (std::string item; std::getline(cell, item, ',');) {
      std::string package;
      if (std::istringstream(item) >> package) out.insert(package);
    }
    return out;
  }
  ADD_FAILURE() << "README.md has no '" << row << "' row";
  return {};
}

// The KVZ_WITH_<SWITCH> names codecs/CMakeLists.txt makes, one per kvz_codec(...) line.
std::set<std::string> codec_switches() {
  std::ifstream f(KVZ_SOURCE_DIR "/codecs/CMakeLists.txt");
  const std::regex line_re(R"(^kvz_codec\((\w+) )");
  std::set<std::string> out;
  std::smatch m;
  for (std::string line; std::getline(f, line);)
    if (std::regex_search(line, m, line_re)) out.insert(m[1]);
  return out;
}

TEST(Packages, TheReadmeListsExactlyThePackageList) {
  std::set<std::string> listed;
  for (const PackageRow& r : package_rows()) listed.insert(r.debian);
  EXPECT_FALSE(listed.empty());
  EXPECT_EQ(readme_codec_packages(), listed) << "README.md's codecs row vs codecs/packages.txt";
}

TEST(Packages, EveryRegisteredCodecsLibraryHasARow) {
  std::set<std::string> libraries;
  for (const PackageRow& r : package_rows()) libraries.insert(r.library);
  for (const auto& c : CodecRegistry::instance().codecs()) {
    if (c->info().is_reference) continue;  // memcpy: the C library
    EXPECT_TRUE(libraries.count(c->info().library)) << c->info().name << ": no row for " << c->info().library;
  }
}

TEST(Packages, RowsNameAKnownSwitchAndFinder) {
  const std::set<std::string> switches = codec_switches();
  EXPECT_TRUE(switches.count("ZSTD") && switches.count("SNAPPY")) << "codecs/CMakeLists.txt not read";
  const std::set<std::string> finders = {"pkg-config", "cmake-config", "cmake-module"};
  for (const PackageRow& r : package_rows()) {
    // A misspelt switch would keep the package required with its codec built out.
    EXPECT_TRUE(r.build_switch == "-" || switches.count(r.build_switch)) << r.name << ": " << r.build_switch;
    EXPECT_TRUE(finders.count(r.finder)) << r.name << ": " << r.finder;
  }
}

}  // namespace
}  // namespace kvz::test
