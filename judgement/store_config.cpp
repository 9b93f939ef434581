#include "judgement/store_config.h"

#include <string>

#include "results/results.h"
#include "stores/store_profile.h"

namespace kvz {

namespace {

ConfigLine config_line_for(const StoreProfile& store, const Candidate& pick, uint64_t block_size,
                           const std::string& table = "") {
  return store_config_line(store, {.codec = pick.codec,
                                   .level = pick.level,
                                   .params = pick.params,
                                   .dict_size = pick.dict_size,
                                   .block_size = block_size,
                                   .table = table});
}

// The table of a group's source (a store file's CorpusInfo::table, on the group's host in a fleet
// merge); pooled over sources, the
// one table every store file of the run belongs to. "" otherwise: the line keeps its placeholder.
std::string table_of_source(const RunResults& run, const std::string& source, const std::string& host) {
  std::string table;
  for (const auto& c : run.meta.corpora) {
    if (!source.empty() && c.name == source && (host.empty() || c.host == host)) return c.table;
    if (!source.empty() || c.table.empty()) continue;
    if (!table.empty() && table != c.table) return "";
    table = c.table;
  }
  return table;
}

// A recommend() filter: only codecs `store` can write at the group's block size.
CandidateFilter writable_by(const StoreProfile& store) {
  return [&store](const Candidate& c, uint64_t block_size) { return config_line_for(store, c, block_size).writable; };
}

const StoreProfile* store_profile_of(const RunResults& run) {
  for (const auto& c : run.cells)
    if (!c.key.profile.empty())
      if (const StoreProfile* p = find_store_profile(c.key.profile)) return p;
  return nullptr;
}

// A recommend() own-call filter: the row is the call `store` makes (stores/ store_own_call).
CandidateFilter own_call_of(const StoreProfile& store) {
  return [&store](const Candidate& c, uint64_t) { return store_own_call(store, c.codec, c.params); };
}

// Measured under `store`'s profile, only the store's own calls are picks (its best possible
// call rows are the code change it could make); a run without it measured kvz's calls, and the
// line says the figures are those.
std::vector<GroupRecommendations> recommend_in(const RunResults& run, const RecommendOptions& opt,
                                               const StoreProfile& store) {
  const bool measured_under = run_store(run) == store.base;
  auto groups = recommend(run, opt, writable_by(store), measured_under ? own_call_of(store) : CandidateFilter{});
  for (auto& g : groups) {
    for (auto& pick : g.picks) {
      if (!pick.choice) continue;
      const ConfigLine line =
          config_line_for(store, *pick.choice, g.block_size, table_of_source(run, g.source, g.host));
      pick.config = PickConfig{store.base, line.text, line.writable, measured_under};
    }
  }
  return groups;
}

}  // namespace

std::vector<std::string> store_names() {
  std::vector<std::string> names;
  for (const auto& p : store_profiles()) names.push_back(p.name);
  return names;
}

std::string run_store(const RunResults& run) {
  const StoreProfile* p = store_profile_of(run);
  return p ? p->base : "";
}

std::vector<GroupRecommendations> recommend_for_store(const RunResults& run, const RecommendOptions& opt,
                                                      const std::string& store) {
  const StoreProfile* p = find_store_profile(store);
  return p ? recommend_in(run, opt, *p) : recommend(run, opt);
}

std::vector<GroupRecommendations> recommend_for_run_store(const RunResults& run, const RecommendOptions& opt) {
  const StoreProfile* p = store_profile_of(run);
  return p ? recommend_in(run, opt, *p) : recommend(run, opt);
}

}  // namespace kvz
