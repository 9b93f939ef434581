#include "results/shard_mark.h"

#include <charconv>

namespace kvz {

std::string ShardMark::text() const { return std::to_string(index) + "/" + std::to_string(count); }

std::optional<ShardMark> parse_shard_mark(const std::string& text) {
  ShardMark m;
  const char* end = text.data() + text.size();
  const auto [slash, e1] = std::from_chars(text.data(), end, m.index);
  if (e1 != std::errc() || slash == end || *slash != '/') return std::nullopt;
  const auto [last, e2] = std::from_chars(slash + 1, end, m.count);
  if (e2 != std::errc() || last != end || m.count <= 0 || m.index < 0 || m.index >= m.count) return std::nullopt;
  return m;
}

std::optional<ShardMark> shard_of(const RunMeta& meta) {
  if (meta.extra.count("merged_inputs")) return std::nullopt;
  const auto it = meta.extra.find("shard");
  return it == meta.extra.end() ? std::nullopt : parse_shard_mark(it->second);
}

}  // namespace kvz
