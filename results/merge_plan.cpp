#include "results/merge_plan.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "results/results.h"
#include "results/shard_mark.h"

namespace kvz {

namespace {

std::string shard_gaps(int count, const std::vector<int>& indices) {
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
  return "";
}

}  // namespace

void MergePlan::add_input(int schema_version, const RunMeta& meta) {
  Input in{schema_version, meta, {}};
  for (const auto& c : meta.corpora)
    if (!c.detail.empty()) in.store_files.insert(c.name);
  inputs_.push_back(std::move(in));
}

// "" when every N's shards 0..N-1 are there once. Shards of one sweep merge whole or not at all:
// a merge without one of them would be a result short of its cells that nothing downstream could
// tell from a whole one. A merged input is whole (results/shard_mark.h), so merges merge again.
std::string MergePlan::shard_set_error() const {
  std::map<int, std::vector<int>> shards;  // N -> the inputs' I
  for (const auto& in : inputs_)
    if (const auto mark = shard_of(in.meta)) shards[mark->count].push_back(mark->index);
  for (const auto& [count, indices] : shards)
    if (std::string e = shard_gaps(count, indices); !e.empty()) return e;
  return "";
}

// Schema versions agree, and each codec is one library version across the inputs (the first
// input's list, then codecs the others add).
std::string MergePlan::versions_error() {
  std::map<std::string, std::string> versions;  // codec -> "library version"
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const Input& in = inputs_[i];
    if (in.schema_version != schema_version_)
      return fmt::format("input {} has schema_version {}, input 1 has {}: cannot merge mixed schemas", i + 1,
                         in.schema_version, schema_version_);
    for (const auto& v : in.meta.codec_versions) {
      const std::string lib = v.library + " " + v.version;
      auto [it, inserted] = versions.emplace(v.codec, lib);
      if (!inserted && it->second != lib)
        return fmt::format("codec {} is {} in one input and {} in input {}: sizes would not be comparable", v.codec,
                           it->second, lib, i + 1);
      if (inserted && i > 0) merged_.codec_versions.push_back(v);
    }
  }
  return "";
}

// Every input's corpora once; from several hosts a store file is one per host (the same file
// name on two nodes is two files), so its entry carries the host.
void MergePlan::merge_corpora() {
  merged_.corpora.clear();
  for (const auto& in : inputs_)
    for (CorpusInfo c : in.meta.corpora) {
      if (several_hosts_ && !c.detail.empty()) c.host = in.meta.hostname;
      const bool known = std::any_of(merged_.corpora.begin(), merged_.corpora.end(), [&](const CorpusInfo& k) {
        return k.name == c.name && k.sha256 == c.sha256 && k.host == c.host;
      });
      if (!known) merged_.corpora.push_back(std::move(c));
    }
}

std::string MergePlan::finish() {
  if (inputs_.empty()) return "nothing to merge";
  if (std::string e = shard_set_error(); !e.empty()) return e;
  schema_version_ = inputs_.front().schema_version;
  merged_ = inputs_.front().meta;
  if (std::string e = versions_error(); !e.empty()) return e;
  std::set<std::string> hosts, cpus;
  for (const auto& in : inputs_) {
    hosts.insert(in.meta.hostname);
    cpus.insert(in.meta.cpu_model);
    merged_.interrupted = merged_.interrupted || in.meta.interrupted;
    merged_.repetitions = std::min(merged_.repetitions, in.meta.repetitions);
  }
  several_hosts_ = hosts.size() > 1;
  several_cpus_ = cpus.size() > 1;
  merge_corpora();
  // `check` will not compare speeds against a file of mixed CPUs.
  if (several_cpus_) merged_.cpu_model = fmt::format("mixed: {}", fmt::join(cpus, " | "));
  merged_.extra["merged_inputs"] = std::to_string(inputs_.size());
  return "";
}

void MergePlan::qualify(size_t input, CellKey& key) const {
  const Input& in = inputs_.at(input);
  if (several_hosts_ && in.store_files.count(key.source)) key.host = in.meta.hostname;
  if (several_cpus_) key.cpu = in.meta.cpu_model;
}

}  // namespace kvz
