#include "blockgen/source_registry.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace kvz {

void SourceRegistry::add(std::unique_ptr<StoreFileReader> reader) {
  for (const auto& r : readers_)
    if (r->store() == reader->store())
      throw std::logic_error("store reader '" + std::string(reader->store()) + "' registered twice");
  readers_.push_back(std::move(reader));
}

const StoreFileReader* SourceRegistry::reader_for(const std::string& path) const {
  for (const auto& r : readers_)
    if (r->claim(path) != Claim::none) return r.get();
  return nullptr;
}

std::string SourceRegistry::store_of(const std::string& path) const {
  for (const auto& r : readers_) {
    const Claim c = r->claim(path);
    if (c != Claim::none) return c == Claim::file ? std::string(r->store()) : std::string();
  }
  return "";
}

std::string SourceRegistry::base_of(const std::string& store) const {
  for (const auto& r : readers_)
    if (r->store() == store && !r->base().empty()) return std::string(r->base());
  return store;
}

std::vector<std::string> SourceRegistry::files_in(const std::string& dir) const {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (std::any_of(readers_.begin(), readers_.end(), [&](const auto& r) { return r->hides(name); })) continue;
    if (e.is_regular_file(ec) && is_store_file(e.path().string())) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

const StoreFileReader* SourceRegistry::parts_in(const std::string& dir, DirectoryParts& out) const {
  for (const auto& r : readers_)
    if (r->parts_in(dir, out)) return r.get();
  return nullptr;
}

bool SourceRegistry::read(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) const {
  const StoreFileReader* r = reader_for(path);
  if (!r) {
    error = path + ": not a store file";
    return false;
  }
  return r->read(path, max_bytes, set, error);
}

bool SourceRegistry::made(const RecordSet& set) const {
  return std::any_of(readers_.begin(), readers_.end(), [&](const auto& r) { return r->made(set); });
}

SourceRegistry& SourceRegistry::global() {
  static SourceRegistry registry;
  return registry;
}

}  // namespace kvz
