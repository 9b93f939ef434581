// Every pick meets its stated rule, on real runs (issue 36): `run` under every store profile and
// with `-c all` on a corpus (a small sample, little time: the rules, not the speeds, are under
// test), each results file's `recommendations` checked against the run's own candidates: the
// floors hold, no candidate that meets them is at least as good on (stored ratio, the workload's
// speed) and better on one, and under cassandra, scylla, rocksdb and wiredtiger every pick is the
// store's own call (the profile's first row for its codec), its figures that call's.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "commands/run.h"
#include "judgement/store_config.h"
#include "judgement/workload_rules.h"
#include "results/results.h"
#include "stores/store_profile.h"
#include "util/text.h"

namespace kvz {
namespace {

std::string corpus(const char* name) { return std::string(std::getenv("KVZ_CORPORA")) + "/" + name; }

RunResults run_and_load(std::vector<std::string> args, const std::string& json) {
  args.insert(args.begin(), "run");
  for (const char* a : {"-q", "--time", "0.002", "--repetitions", "1", "--latency-calls", "12"}) args.push_back(a);
  args.push_back("--json");
  args.push_back(json);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  EXPECT_EQ(run_main(static_cast<int>(argv.size()), argv.data()), 0);
  RunResults r;
  std::string err;
  EXPECT_TRUE(load_results(json, r, err)) << err;
  return r;
}

// The profile's first row per codec, its call options after the level ("lz4:1:stream:fresh" ->
// ":stream:fresh"): read from the spec itself, not through store_own_call.
std::map<std::string, std::string> first_rows(const StoreProfile& p) {
  std::map<std::string, std::string> calls;
  for (const auto& item : split_list(p.codecs, '/')) {
    const auto parts = split_list(item, ':');
    std::string options;
    for (size_t i = 2; i < parts.size(); ++i) options += ":" + parts[i];
    calls.emplace(parts[0], options);
  }
  return calls;
}

// "9:fresh:dict=16K" -> ":fresh"
std::string call_of(const std::string& params) {
  std::string options;
  const auto parts = split_list(params, ':');
  for (size_t i = 1; i < parts.size(); ++i)
    if (parts[i].rfind("dict=", 0) != 0 && parts[i].rfind("rawdict=", 0) != 0) options += ":" + parts[i];
  return options;
}

const Candidate* find(const GroupRecommendations& g, const std::string& label) {
  for (const auto& c : g.candidates)
    if (c.label == label) return &c;
  return nullptr;
}

void check_rules(const RunResults& r, const std::string& profile) {
  const auto groups = recommend_for_run_store(r, {});
  ASSERT_FALSE(r.recommendations.empty()) << profile;
  const StoreProfile* store = profile.empty() ? nullptr : find_store_profile(profile);
  const bool own_calls = store && (store->base == "cassandra" || store->base == "scylla" || store->base == "rocksdb" ||
                                   store->base == "wiredtiger");
  const auto calls = store ? first_rows(*store) : std::map<std::string, std::string>{};
  size_t checked = 0;
  for (const auto& rec : r.recommendations) {
    const GroupRecommendations* g = nullptr;
    for (const auto& gg : groups)
      if (gg.group == rec.group) g = &gg;
    ASSERT_TRUE(g) << rec.group;
    if (rec.pick.empty()) continue;
    const NamedWorkload* w = nullptr;
    const auto workloads = named_workloads({});
    for (const auto& ww : workloads)
      if (ww.name == rec.workload) w = &ww;
    ASSERT_TRUE(w) << rec.workload;
    const Candidate* pick = find(*g, rec.pick);
    ASSERT_TRUE(pick) << rec.pick;
    // The floors, on the figures the record carries.
    if (w->min_decompress_mbps > 0) {
      EXPECT_GE(rec.decompress_mbps, w->min_decompress_mbps) << rec.workload;
    }
    if (w->min_stored_ratio > 0) {
      EXPECT_GT(rec.stored_ratio, w->min_stored_ratio) << rec.workload;
    }
    if (w->max_block_us > 0) {
      EXPECT_LT(rec.worst_block_us, w->max_block_us) << rec.workload;
    }
    EXPECT_DOUBLE_EQ(rec.stored_ratio, pick->stored_ratio);
    EXPECT_DOUBLE_EQ(rec.compress_mbps, pick->compress_mbps);
    EXPECT_DOUBLE_EQ(rec.decompress_mbps, pick->decompress_mbps);
    const double speed = workload_speed(*w, *pick);
    for (const auto& c : g->candidates) {
      if (&c == pick || c.dict_losses || !meets_floors(*w, c) || !c.own_call) continue;
      if (store && !store_config_line(*store, {.codec = c.codec,
                                               .level = c.level,
                                               .params = c.params,
                                               .dict_size = c.dict_size,
                                               .block_size = g->block_size})
                        .writable)
        continue;
      const double s = workload_speed(*w, c);
      EXPECT_FALSE(c.stored_ratio >= pick->stored_ratio && s >= speed &&
                   (c.stored_ratio > pick->stored_ratio || s > speed))
          << profile << " " << rec.group << " " << rec.workload << ": " << c.label << " (" << c.stored_ratio << ", "
          << s << ") dominates the pick " << rec.pick << " (" << pick->stored_ratio << ", " << speed << ")";
    }
    if (own_calls) {
      ASSERT_TRUE(calls.count(pick->codec) || pick->codec == "memcpy") << rec.pick;
      EXPECT_EQ(call_of(pick->params), calls.at(pick->codec)) << profile << ": " << rec.pick << " is not its call";
      ASSERT_EQ(rec.config.size(), 1u) << rec.pick;
      EXPECT_TRUE(rec.config[0].store_call);
    }
    ++checked;
  }
  EXPECT_GT(checked, 0u) << profile;
}

TEST(AnswerRules, EveryStoreProfile) {
  for (const auto& p : store_profiles()) {
    SCOPED_TRACE(p.name);
    const std::string json = ::testing::TempDir() + "/kvz_rules_" + p.name + ".json";
    check_rules(run_and_load({"--profile", p.name, corpus("logs/apache_access_logs.log"), "--max-bytes", "32K"}, json),
                p.name);
  }
}

TEST(AnswerRules, EveryCodec) {
  const std::string json = ::testing::TempDir() + "/kvz_rules_all.json";
  check_rules(run_and_load({"-c", "all", "-b", "4K", corpus("json/twitter.json"), "--max-bytes", "8K"}, json), "");
}

}  // namespace
}  // namespace kvz
