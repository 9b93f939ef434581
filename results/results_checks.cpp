#include "results/results_checks.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "results/cell_view.h"
#include "results/results.h"

namespace kvz {

namespace {

// A codec name every reporter would show as measured: one the run lists, or the reference.
std::string codec_error(const std::set<std::string>& known, const CellResult& c) {
  if (c.key.codec == "memcpy" || known.count(c.key.codec)) return "";
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  return fmt::format("cell {}: codec '{}' is not one of the run's codecs ({})", c.key.id(), c.key.codec,
                     list.empty() ? "meta.codec_versions is empty" : list);
}

// Byte counts with no block behind them are not a measurement.
std::string count_error(const CellResult& c) {
  if (c.blocks == 0 && (c.input_bytes || c.compressed_bytes || c.stored_bytes))
    return fmt::format("cell {}: 0 blocks but {} input, {} compressed and {} stored bytes", c.key.id(), c.input_bytes,
                       c.compressed_bytes, c.stored_bytes);
  if (c.blocks_kept_raw > c.blocks)
    return fmt::format("cell {}: {} blocks kept raw of {} blocks", c.key.id(), c.blocks_kept_raw, c.blocks);
  return "";
}

}  // namespace

std::string cell_consistency_error(const std::set<std::string>& known, const CellResult& c) {
  if (std::string e = codec_error(known, c); !e.empty()) return e;
  return count_error(c);
}

std::string CurrentRows::add(const CellResult& c) {
  if (!c.current) return "";
  const auto [it, first] = ids_.emplace(block_set_of(c.key), c.key.id());
  if (first) return "";
  return fmt::format("cells {} and {} are both marked as the file's current codec: a block set has one", it->second,
                     c.key.id());
}

std::string results_consistency_error(const RunResults& run) {
  std::set<std::string> known;
  for (const auto& v : run.meta.codec_versions) known.insert(v.codec);
  CurrentRows current;
  for (const auto& c : run.cells) {
    if (std::string e = cell_consistency_error(known, c); !e.empty()) return e;
    if (std::string e = current.add(c); !e.empty()) return e;
  }
  return "";
}

}  // namespace kvz
