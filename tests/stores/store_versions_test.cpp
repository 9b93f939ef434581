// Each store profile names the store version it models (stores/README.md's table says the same)
// and lists only what that version writes: every row of --profile leveldb is a compression type
// of the LevelDB 1.23 Debian ships (its own header and its TableBuilder say so, not a list
// written here); zstd, which only LevelDB's unreleased main branch writes, comes with
// `leveldb:version=main`, labelled as that version's.
#include <gtest/gtest.h>
#include <leveldb/env.h>
#include <leveldb/options.h>
#include <leveldb/table_builder.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "codecs/registry.h"
#include "codecs/spec.h"
#include "real_stores.h"
#include "stores/rocksdb/table_file.h"
#include "stores/store_profile.h"

namespace kvz {
namespace {

// A Markdown table row's cells, trimmed, without the outer pipes.
std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line.substr(1));
  for (std::string cell; std::getline(in, cell, '|');) {
    const size_t a = cell.find_first_not_of(' '), b = cell.find_last_not_of(' ');
    cells.push_back(a == std::string::npos ? "" : cell.substr(a, b - a + 1));
  }
  return cells;
}

std::string strip(std::string s) {
  std::erase(s, '`');
  return s;
}

// The version column of stores/README.md's profile table, by profile name.
std::map<std::string, std::string> readme_versions() {
  std::ifstream f(KVZ_SOURCE_DIR "/stores/README.md");
  std::map<std::string, std::string> out;
  int column = -1;
  for (std::string line; std::getline(f, line);) {
    if (line.rfind("| profile |", 0) == 0) {
      std::vector<std::string> cells = split_cells(line);
      for (size_t i = 0; i < cells.size(); ++i)
        if (cells[i] == "version modelled") column = static_cast<int>(i);
    } else if (column >= 0 && line.rfind("|", 0) != 0) {
      break;  // the table's end
    } else if (column >= 0 && line.rfind("| `", 0) == 0) {
      std::vector<std::string> cells = split_cells(line);
      if (static_cast<size_t>(column) < cells.size()) out[strip(cells[0])] = cells[static_cast<size_t>(column)];
    }
  }
  return out;
}

TEST(StoreVersions, EveryProfileNamesTheVersionTheReadmeTableGives) {
  const auto readme = readme_versions();
  ASSERT_EQ(readme.size(), store_profiles().size()) << "stores/README.md has no 'version modelled' column";
  for (const StoreProfile& p : store_profiles()) {
    EXPECT_FALSE(p.version.empty()) << p.name;
    EXPECT_EQ(readme.count(p.name) ? readme.at(p.name) : "", p.version) << p.name;
  }
  EXPECT_EQ(find_store_profile("leveldb")->version, "LevelDB 1.23");
  EXPECT_EQ(find_store_profile("rocksdb")->version, "RocksDB 7.8");
}

// LevelDB 1.23's CompressionType, as its installed header declares it: name -> value.
std::map<std::string, int> leveldb_compression_types() {
  std::ifstream f("/usr/include/leveldb/options.h");  // libleveldb-dev
  std::stringstream text;
  text << f.rdbuf();
  const std::string s = text.str();
  const size_t at = s.find("enum CompressionType {");
  EXPECT_NE(at, std::string::npos) << "no CompressionType in /usr/include/leveldb/options.h";
  const std::string body = s.substr(at, s.find("};", at) - at);
  std::map<std::string, int> out;
  const std::regex item(R"((k\w+Compression)\s*=\s*(0x[0-9a-fA-F]+|\d+))");
  for (std::sregex_iterator it(body.begin(), body.end(), item), end; it != end; ++it)
    out[(*it)[1]] = std::stoi((*it)[2], nullptr, 0);
  return out;
}

// Every row of --profile leveldb (and its uncompressed blocks): the configuration line names a
// compression type of LevelDB 1.23's header, and a table LevelDB 1.23 writes with that type
// reads back with the row's codec.
TEST(StoreVersions, LevelDbRowsAreWhatLevelDb123Writes) {
  const StoreProfile& leveldb = *find_store_profile("leveldb");
  const auto types = leveldb_compression_types();
  ASSERT_GE(types.size(), 2u);
  std::string error;
  auto rows = parse_codec_spec("memcpy/" + leveldb.codecs, CodecRegistry::instance(), error);
  ASSERT_GE(rows.size(), 2u) << error;
  const RecordSet rs = real_stores::load_records("logs/apache_access_logs.log", "lines", 256 << 10);
  for (const CodecChoice& row : rows) {
    const std::string name = row.codec->info().name;
    const ConfigLine line = store_config_line(leveldb, {name, row.params.level, row.params.label(), 0, 4096});
    ASSERT_TRUE(line.writable) << name << ": " << line.text;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(line.text, m, std::regex(R"(leveldb::(k\w+Compression))"))) << line.text;
    ASSERT_TRUE(types.count(m[1])) << name << ": " << m[1] << " is not a LevelDB 1.23 compression type";
    real_stores::TempFile file("versions_" + name + ".ldb");
    leveldb::Options options;
    options.compression = static_cast<leveldb::CompressionType>(types.at(m[1]));
    leveldb::WritableFile* out = nullptr;
    ASSERT_TRUE(leveldb::Env::Default()->NewWritableFile(file.path, &out).ok());
    std::unique_ptr<leveldb::WritableFile> owner(out);
    leveldb::TableBuilder builder(options, out);
    for (const auto& r : rs.records) builder.Add(r.key, r.value);
    ASSERT_TRUE(builder.Finish().ok());
    ASSERT_TRUE(out->Close().ok());
    TableFile t;
    ASSERT_TRUE(read_table_file(file.path, t, error)) << error;
    EXPECT_EQ(t.compression, row.codec->info().is_reference ? "none" : name);
  }
  // No other codec of the registry is offered or given a line.
  std::set<std::string> offered;
  for (const CodecChoice& row : rows) offered.insert(row.codec->info().name);
  for (const auto& c : CodecRegistry::instance().codecs()) {
    const std::string& name = c->info().name;
    if (offered.count(name)) continue;
    EXPECT_FALSE(store_supports_codec(leveldb, name)) << name;
    EXPECT_FALSE(store_config_line(leveldb, {name, c->info().default_level, "", 0, 4096}).writable) << name;
  }
}

// leveldb:version=main: 1.23's rows and what main added, each labelled with that version in its
// caveat and configuration line; under plain leveldb the same codec is refused with the way to
// ask for it.
TEST(StoreVersions, ALaterVersionsCodecComesOnlyWhenAskedForLabelled) {
  const StoreProfile& base = *find_store_profile("leveldb");
  std::string error;
  const StoreProfile* main = find_store_profile("leveldb:version=main", error);
  ASSERT_NE(main, nullptr) << error;
  EXPECT_EQ(main->version, "LevelDB main (unreleased)");
  EXPECT_EQ(main->codecs.rfind(base.codecs + "/", 0), 0u) << main->codecs;  // 1.23's rows first
  const auto added = parse_codec_spec(main->codecs.substr(base.codecs.size() + 1), CodecRegistry::instance(), error);
  ASSERT_FALSE(added.empty()) << error;
  for (const CodecChoice& c : added) {
    const std::string name = c.codec->info().name;
    EXPECT_TRUE(store_supports_codec(*main, name)) << name;
    EXPECT_FALSE(store_supports_codec(base, name)) << name;
    EXPECT_EQ(store_codec_caveat(*main, name).rfind("LevelDB main (unreleased) only, not LevelDB 1.23", 0), 0u);
    const ConfigChoice choice{name, c.params.level, c.params.label(), 0, 4096};
    const ConfigLine line = store_config_line(*main, choice);
    EXPECT_TRUE(line.writable) << line.text;
    EXPECT_NE(line.text.find("  (LevelDB main (unreleased) only)"), std::string::npos) << line.text;
    EXPECT_EQ(store_config_line(base, choice).text, "leveldb cannot write " + name);
    std::string options;
    EXPECT_EQ(store_codec_options(base, name, options),
              "leveldb writes snappy (and uncompressed blocks): not " + name +
                  ", which LevelDB main (unreleased) writes (--profile leveldb:version=main); drop --profile to "
                  "measure " +
                  name + " on its own");
  }
  EXPECT_EQ(added.front().label(), "zstd 1");
  EXPECT_EQ(find_store_profile("leveldb:version=1.23")->codecs, base.codecs);
  EXPECT_EQ(find_store_profile("leveldb:version=2.0", error), nullptr);
  EXPECT_EQ(error, "leveldb: version must be 1.23 or main, got '2.0'");
  EXPECT_EQ(store_profile_options(base).back(),
            "version=V  the store version modelled: 1.23 (LevelDB 1.23, the default), main (LevelDB main "
            "(unreleased): adds zstd:1)");
  EXPECT_EQ(find_store_profile("rocksdb:version=8", error), nullptr);  // one version modelled: no option
  EXPECT_EQ(error, "rocksdb: unknown option 'version' (known: chunk, max_compressed_bytes_per_kb)");
}

}  // namespace
}  // namespace kvz
