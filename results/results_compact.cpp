// CompactCells: a run's cells as `check` reads them, packed into chunked arenas, found by id in an
// IdIndex (a std::map of a million ids would cost ~100 bytes a cell more).
#include "results/results_compact.h"

#include <functional>

#include "results/results.h"

namespace kvz {

namespace {

enum Flag : uint8_t { kFailed = 1, kReference = 2, kPartialSet = 4 };

size_t hash_of(std::string_view id) { return std::hash<std::string_view>{}(id); }

}  // namespace

double CellFacts::ratio() const {
  return compressed_bytes > 0 ? static_cast<double>(input_bytes) / static_cast<double>(compressed_bytes) : 0.0;
}

CellFacts facts_of(const CellResult& c, const std::string& id) {
  CellFacts f;
  f.id = id;
  f.codec = c.key.codec;
  f.failure = c.failure;
  f.ok = c.status == CellStatus::Ok;
  f.reference = c.reference;
  f.partial_set = c.partial_set;
  f.input_bytes = c.input_bytes;
  f.compressed_bytes = c.compressed_bytes;
  f.stored_bytes = c.stored_bytes;
  f.compress_mbps = c.compress_mbps;
  f.decompress_mbps = c.decompress_mbps;
  f.compress_cpu_mbps = c.compress_cpu_mbps;
  f.decompress_cpu_mbps = c.decompress_cpu_mbps;
  return f;
}

uint32_t CompactCells::index_of(std::vector<std::string>& names, std::string_view name) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<uint32_t>(i);
  names.emplace_back(name);
  return static_cast<uint32_t>(names.size() - 1);
}

void CompactCells::add(const CellFacts& c) {
  Row row;
  row.codec = index_of(codecs_, c.codec);
  if (!c.failure.empty()) {  // each its own: failed cells are few, and their reasons differ
    row.failure = static_cast<uint32_t>(failures_.size());
    failures_.emplace_back(c.failure);
  }
  row.flags =
      static_cast<uint8_t>((c.ok ? 0 : kFailed) | (c.reference ? kReference : 0) | (c.partial_set ? kPartialSet : 0));
  row.input_bytes = c.input_bytes;
  row.compressed_bytes = c.compressed_bytes;
  row.stored_bytes = c.stored_bytes;
  std::vector<double> speeds;
  const std::span<const double> parts[] = {c.compress_mbps, c.decompress_mbps, c.compress_cpu_mbps,
                                           c.decompress_cpu_mbps};
  for (size_t i = 0; i < 4; ++i) {
    row.speed_counts[i] = static_cast<uint32_t>(parts[i].size());
    speeds.insert(speeds.end(), parts[i].begin(), parts[i].end());
  }
  row.speeds = speeds_.append(speeds);
  rows_.push_back(row);
  ids_.add(c.id);
}

CellFacts CompactCells::operator[](size_t i) const {
  const Row& row = rows_[i];
  CellFacts f;
  f.id = ids_[i];
  f.codec = codecs_[row.codec];
  f.failure = failures_[row.failure];
  f.ok = !(row.flags & kFailed);
  f.reference = row.flags & kReference;
  f.partial_set = row.flags & kPartialSet;
  f.input_bytes = row.input_bytes;
  f.compressed_bytes = row.compressed_bytes;
  f.stored_bytes = row.stored_bytes;
  const uint32_t* n = row.speed_counts;
  const std::span<const double> all = speeds_.get(row.speeds, size_t{n[0]} + n[1] + n[2] + n[3]);
  f.compress_mbps = all.subspan(0, n[0]);
  f.decompress_mbps = all.subspan(n[0], n[1]);
  f.compress_cpu_mbps = all.subspan(size_t{n[0]} + n[1], n[2]);
  f.decompress_cpu_mbps = all.subspan(size_t{n[0]} + n[1] + n[2], n[3]);
  return f;
}

size_t IdIndex::add(std::string_view id) {
  refs_.push_back({chars_.append(std::span<const char>(id.data(), id.size())), static_cast<uint32_t>(id.size())});
  index(refs_.size() - 1);
  return refs_.size() - 1;
}

std::string_view IdIndex::operator[](size_t i) const {
  const auto chars = chars_.get(refs_[i].at, refs_[i].size);
  return {chars.data(), chars.size()};
}

std::optional<size_t> IdIndex::find(std::string_view id) const {
  if (slots_.empty()) return std::nullopt;
  const size_t mask = slots_.size() - 1;
  for (size_t s = hash_of(id) & mask; slots_[s] != 0; s = (s + 1) & mask)
    if ((*this)[slots_[s] - 1] == id) return slots_[s] - 1;
  return std::nullopt;
}

// Linear probing at most half full; an id seen again takes over its slot.
void IdIndex::index(size_t i) {
  if (2 * (refs_.size() + 1) > slots_.size()) grow_index();
  const size_t mask = slots_.size() - 1;
  const std::string_view id = (*this)[i];
  size_t s = hash_of(id) & mask;
  while (slots_[s] != 0 && slots_[s] - 1 != i && (*this)[slots_[s] - 1] != id) s = (s + 1) & mask;
  slots_[s] = static_cast<uint32_t>(i + 1);
}

void IdIndex::grow_index() {
  std::vector<uint32_t> old = std::move(slots_);
  slots_.assign(old.empty() ? 1024 : old.size() * 2, 0);
  const size_t mask = slots_.size() - 1;
  for (const uint32_t slot : old) {
    if (slot == 0) continue;
    size_t s = hash_of((*this)[slot - 1]) & mask;
    while (slots_[s] != 0) s = (s + 1) & mask;
    slots_[s] = slot;
  }
}

CompactRun compact_run(const RunResults& r) {
  CompactRun out;
  out.schema_version = r.schema_version;
  out.meta = r.meta;
  for (const auto& c : r.cells) {
    const std::string id = c.key.id();
    out.cells.add(facts_of(c, id));
  }
  return out;
}

}  // namespace kvz
