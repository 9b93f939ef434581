#pragma once
// A result's shard mark (meta.extra "shard": "I/N", written by `run --shard I/N`), read in one
// place by merge (a shard set merges whole or not at all), check (a shard lacks the other shards'
// cells, which are elsewhere, not missing) and report. A merged file is no shard, whatever mark
// its metadata holds (older merges kept their first input's): meta.extra "merged_inputs" says the
// file is a merge, and merge refuses a shard set short of a shard, so its cells come from every
// shard and it reads as whole, a merge of merges too.
#include <optional>
#include <string>

#include "results/run_meta.h"

namespace kvz {

struct ShardMark {
  int index = 0;             // I of "I/N", 0 <= I < N
  int count = 0;             // N
  std::string text() const;  // "I/N"
};

// "I/N" as `run --shard` writes it; none when the text is not that.
std::optional<ShardMark> parse_shard_mark(const std::string& text);
// The shard of a sweep the run holds; none for a whole run, a merged file or an unreadable mark.
std::optional<ShardMark> shard_of(const RunMeta& meta);

}  // namespace kvz
