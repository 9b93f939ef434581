#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "results/results.h"
#include "results/results_checks.h"

namespace kvz {

namespace {

// Shards of one sweep (meta "shard": "I/N", written by `run --shard`) merge whole or not at
// all: a merge without one of them would be a result short of its cells that nothing
// downstream could tell from a whole one. "" when every N's shards 0..N-1 are there once.
bool parse_shard_mark(const std::string& text, int& index, int& count) {
  const char* end = text.data() + text.size();
  const auto [slash, e1] = std::from_chars(text.data(), end, index);
  if (e1 != std::errc() || slash == end || *slash != '/') return false;
  const auto [last, e2] = std::from_chars(slash + 1, end, count);
  return e2 == std::errc() && last == end && count > 0 && index >= 0 && index < count;
}

std::string shard_set_error(const std::vector<RunResults>& runs) {
  std::map<int, std::vector<int>> shards;  // N -> the inputs' I
  for (const auto& r : runs) {
    const auto it = r.meta.extra.find("shard");
    int index = 0, count = 0;
    if (it != r.meta.extra.end() && parse_shard_mark(it->second, index, count)) shards[count].push_back(index);
  }
  for (auto& [count, indices] : shards) {
    std::sort(indices.begin(), indices.end());
    std::vector<std::string> missing, twice;
    for (int i = 0; i < count; ++i) {
      const auto n = std::count(indices.begin(), indices.end(), i);
      if (n == 0) missing.push_back(std::to_string(i));
      if (n > 1) twice.push_back(std::to_string(i));
    }
    if (!twice.empty())
      return fmt::format("shard {} of {} is in more than one input: merge each shard once", fmt::join(twice, ", "),
                         count);
    if (!missing.empty())
      return fmt::format("shard {} of {} is missing ({} of {} given): merge every shard of the sweep",
                         fmt::join(missing, ", "), count, indices.size(), count);
  }
  return "";
}

}  // namespace

bool merge_results(std::vector<RunResults> runs, RunResults& out, std::string& error) {
  if (runs.empty()) {
    error = "nothing to merge";
    return false;
  }
  error = shard_set_error(runs);
  if (!error.empty()) return false;
  RunResults m;
  m.schema_version = runs.front().schema_version;
  m.meta = runs.front().meta;
  std::map<std::string, std::string> versions;  // codec -> "library version"
  std::map<std::string, size_t> cell_owner;
  std::set<std::string> cpus;
  for (size_t i = 0; i < runs.size(); ++i) {
    auto& r = runs[i];
    if (r.schema_version != m.schema_version) {
      error = "input " + std::to_string(i + 1) + " has schema_version " + std::to_string(r.schema_version) +
              ", input 1 has " + std::to_string(m.schema_version) + ": cannot merge mixed schemas";
      return false;
    }
    for (const auto& v : r.meta.codec_versions) {
      const std::string lib = v.library + " " + v.version;
      auto [it, inserted] = versions.emplace(v.codec, lib);
      if (!inserted && it->second != lib) {
        error = "codec " + v.codec + " is " + it->second + " in one input and " + lib + " in input " +
                std::to_string(i + 1) + ": sizes would not be comparable";
        return false;
      }
      if (inserted && i > 0) m.meta.codec_versions.push_back(v);
    }
    for (auto& c : r.cells) {
      auto [it, inserted] = cell_owner.emplace(c.key.id(), i);
      if (!inserted) {
        error = "cell " + c.key.id() + " is in input " + std::to_string(it->second + 1) + " and input " +
                std::to_string(i + 1) + ": merge joins disjoint results only";
        return false;
      }
      m.cells.push_back(std::move(c));  // moved: a 50,000-cell merge holds each cell once
    }
    cpus.insert(r.meta.cpu_model);
    if (i > 0) {
      m.meta.interrupted = m.meta.interrupted || r.meta.interrupted;
      m.meta.repetitions = std::min(m.meta.repetitions, r.meta.repetitions);
      for (const auto& c : r.meta.corpora) {
        bool known = false;
        for (const auto& k : m.meta.corpora) known = known || (k.name == c.name && k.sha256 == c.sha256);
        if (!known) m.meta.corpora.push_back(c);
      }
    }
  }
  if (cpus.size() > 1) {
    std::string s = "mixed:";
    for (const auto& c : cpus) s += (s.size() > 6 ? " | " : " ") + c;
    m.meta.cpu_model = s;
  }
  m.meta.extra["merged_inputs"] = std::to_string(runs.size());
  // Inputs valid alone can still disagree together (two current-codec rows of one block set).
  error = results_consistency_error(m);
  if (!error.empty()) return false;
  out = std::move(m);
  return true;
}

}  // namespace kvz
