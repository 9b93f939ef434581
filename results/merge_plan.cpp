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

// The meta.extra keys `run` records its plan under (commands/run_plan_hash.h): the options that
// shape the cells, and the sources with their contents.
constexpr const char* kPlanKey = "plan";
constexpr const char* kSourcesKey = "plan_sources";

std::string extra_of(const RunMeta& meta, const char* key) {
  const auto it = meta.extra.find(key);
  return it == meta.extra.end() ? "" : it->second;
}

}  // namespace

void MergePlan::add_input(int schema_version, const RunMeta& meta, std::string name) {
  if (name.empty()) name = "input " + std::to_string(inputs_.size() + 1);
  Input in{schema_version, meta, std::move(name), {}};
  for (const auto& c : meta.corpora)
    if (!c.detail.empty()) in.store_files.insert(c.name);
  inputs_.push_back(std::move(in));
}

// An interrupted run holds the cells it finished: merged, it would pass for a whole sweep.
std::string MergePlan::interrupted_error() const {
  std::vector<std::string> cut;
  for (const auto& in : inputs_)
    if (in.meta.interrupted) cut.push_back(in.name);
  if (cut.empty()) return "";
  return fmt::format("{} {} interrupted (meta.interrupted): merge only complete runs; run {} again",
                     fmt::join(cut, ", "), cut.size() == 1 ? "was" : "were", cut.size() == 1 ? "it" : "them");
}

std::string MergePlan::partial_set_error(size_t input, const CellKey& key, bool partial_set) const {
  if (!partial_set || !one_sweep_) return "";
  return fmt::format("{}: cell {} is of a block set a stop cut short (partial_set): merge only complete runs",
                     inputs_.at(input).name, key.id());
}

// One sweep: every input ran the same options (meta.extra.plan), and the shards of a set read the
// same sources too (plan_sources). Hosts of a fleet survey each read their own store files, so
// inputs without shard marks may differ in their sources. Files written before plans were
// recorded (none of the inputs has one) merge as before.
std::string MergePlan::plan_error() const {
  const Input* first = nullptr;
  for (const auto& in : inputs_)
    if (!extra_of(in.meta, kPlanKey).empty()) first = first ? first : &in;
  if (!first) return "";
  const auto differ = [&](const Input& in, const char* what) {
    return fmt::format("{} and {} are not one sweep: their {} differ ('{}' and '{}')", first->name, in.name, what,
                       first->meta.command_line, in.meta.command_line);
  };
  for (const auto& in : inputs_) {
    if (extra_of(in.meta, kPlanKey).empty())
      return fmt::format("{} records no plan (an older kvzbench wrote it) and {} does: cannot tell they are one sweep",
                         in.name, first->name);
    if (extra_of(in.meta, kPlanKey) != extra_of(first->meta, kPlanKey)) return differ(in, "options");
    const bool shards = !extra_of(in.meta, "shard").empty() && !extra_of(first->meta, "shard").empty();
    if (shards && extra_of(in.meta, kSourcesKey) != extra_of(first->meta, kSourcesKey)) return differ(in, "sources");
  }
  return "";
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
  if (std::string e = one_sweep_ ? interrupted_error() : ""; !e.empty()) return e;
  if (std::string e = one_sweep_ ? plan_error() : ""; !e.empty()) return e;
  if (std::string e = shard_set_error(); !e.empty()) return e;
  schema_version_ = inputs_.front().schema_version;
  merged_ = inputs_.front().meta;
  if (std::string e = versions_error(); !e.empty()) return e;
  std::set<std::string> hosts, cpus;
  std::set<std::string> sources;
  for (const auto& in : inputs_) {
    hosts.insert(in.meta.hostname);
    cpus.insert(in.meta.cpu_model);
    sources.insert(extra_of(in.meta, kSourcesKey));
    merged_.interrupted = merged_.interrupted || in.meta.interrupted;  // joined, not one sweep
    merged_.repetitions = std::min(merged_.repetitions, in.meta.repetitions);
  }
  several_hosts_ = hosts.size() > 1;
  several_cpus_ = cpus.size() > 1;
  merge_corpora();
  // `check` will not compare speeds against a file of mixed CPUs.
  if (several_cpus_) merged_.cpu_model = fmt::format("mixed: {}", fmt::join(cpus, " | "));
  merged_.extra["merged_inputs"] = std::to_string(inputs_.size());
  // A merged file is the whole sweep, no shard of it: `check` takes a file with a shard mark for
  // a part and skips the baseline cells it lacks, which in a merged file are missing.
  merged_.extra.erase("shard");
  merged_.extra.erase("shard_scheduler");
  if (sources.size() > 1) merged_.extra.erase(kSourcesKey);  // each host's own files
  return "";
}

void MergePlan::qualify(size_t input, CellKey& key) const {
  const Input& in = inputs_.at(input);
  if (several_hosts_ && in.store_files.count(key.source)) key.host = in.meta.hostname;
  if (several_cpus_) key.cpu = in.meta.cpu_model;
}

}  // namespace kvz
