#include "stores/shared/table_name.h"

#include <cctype>
#include <filesystem>
#include <vector>

namespace kvz {

namespace fs = std::filesystem;

namespace {

// The file's directory, absolute and normalised: the same table on two nodes with the same
// layout gets the same name, whatever directory the run was started from.
std::string directory_of(const std::string& path) {
  std::error_code ec;
  fs::path dir = fs::absolute(fs::path(path), ec).lexically_normal().parent_path();
  if (ec) dir = fs::path(path).parent_path();
  return dir.string();
}

// The path's components, outermost first.
std::vector<std::string> components(const std::string& path) {
  std::error_code ec;
  const fs::path abs = fs::absolute(fs::path(path), ec).lexically_normal();
  std::vector<std::string> parts;
  for (const auto& p : ec ? fs::path(path) : abs)
    if (!p.empty() && p != "/") parts.push_back(p.string());
  return parts;
}

bool is_hex_uuid(const std::string& s) {
  if (s.size() != 32) return false;
  for (const char c : s)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

std::string cassandra_table_name(const std::string& path) {
  const auto parts = components(path);
  if (parts.size() < 3) return directory_of(path);
  const std::string& dir = parts[parts.size() - 2];
  const std::string& keyspace = parts[parts.size() - 3];
  // Cassandra names a table's directory "<table>-<id without dashes>" (Directories.java).
  const size_t dash = dir.rfind('-');
  if (dash != std::string::npos && dash > 0 && is_hex_uuid(dir.substr(dash + 1)))
    return keyspace + "." + dir.substr(0, dash);
  return directory_of(path);
}

std::string rocksdb_table_name(const std::string& path, const std::string& column_family) {
  const std::string dir = directory_of(path);
  return column_family.empty() ? dir : dir + ":" + column_family;
}

std::string leveldb_table_name(const std::string& path) { return directory_of(path); }

std::string hbase_table_name(const std::string& path) {
  const auto parts = components(path);
  // .../data/<namespace>/<table>/<region>/<family>/<hfile>: "data" is the sixth from the end.
  if (parts.size() >= 6 && parts[parts.size() - 6] == "data") {
    const size_t n = parts.size();
    return parts[n - 5] + ":" + parts[n - 4] + "/" + parts[n - 2];
  }
  return directory_of(path);
}

std::string wiredtiger_table_name(const std::string& path) {
  const fs::path p(path);
  if (p.extension() == ".wt") return "table:" + p.stem().string();
  return "file:" + p.filename().string();
}

}  // namespace kvz
