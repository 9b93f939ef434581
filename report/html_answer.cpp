// The parts of the HTML report that answer questions: per source and block size, the pick per
// workload among the codecs each store can write, with that store's configuration line; and,
// for two runs, the per-cell comparison with `check`'s verdicts.
#include "report/html_answer.h"

#include <map>
#include <optional>

#include <fmt/format.h>

#include "judgement/file_baseline.h"
#include "judgement/store_config.h"
#include "results/cell_view.h"
#include "results/results.h"
#include "util/bytes.h"

namespace kvz {

using nlohmann::json;

namespace {

// The run's store when it had a profile, else RocksDB: the store most readers configure.
std::string default_store(const RunResults& run) {
  const std::string store = run_store(run);
  return store.empty() ? "rocksdb" : store;
}

// A store file's own blocks: the file's codec and bytes (the group's current row), or none.
std::optional<FileBaseline> baseline_of(const RunResults& run, const GroupRecommendations& g) {
  for (const auto& c : run.cells)
    if (c.current && c.key.source == g.source && c.key.layout == g.layout && c.key.block_size == g.block_size &&
        c.key.profile == g.profile)
      return file_baseline(run, c);
  return std::nullopt;
}

// Each pick, with its configuration line when the groups are in a store's terms.
json picks_json(const GroupRecommendations& g, const std::optional<FileBaseline>& file) {
  json picks = json::array();
  for (const auto& p : g.picks) {
    json pick = {{"workload", p.workload}, {"choice", p.choice_text()}, {"rule", p.rule}, {"why", p.why}};
    // Against the file's own codec: what switching to the pick saves and costs.
    if (file && p.choice) {
      if (p.choice->label == file->label) pick["switch"] = "the file's own codec: keep it";
      for (const auto& sw : file->switches)
        if (sw.label == p.choice->label) pick["switch"] = "vs the file's " + file->label + ": " + switch_text(sw);
    }
    if (p.config) {
      pick["config"] = p.config->line;
      pick["writable"] = p.config->writable;
    }
    picks.push_back(std::move(pick));
  }
  return picks;
}

}  // namespace

json answer_json(const std::vector<RunResults>& runs, const RecommendOptions& opt) {
  const std::vector<std::string> store_list = store_names();
  json stores = json::array({"any"});
  for (const auto& name : store_list) stores.push_back(name);
  json groups = json::array();
  for (size_t i = 0; i < runs.size(); ++i) {
    RecommendOptions any = opt;
    any.per_source = true;
    const auto base = recommend(runs[i], any);
    std::vector<json> by_store(base.size(), json::object());
    std::vector<std::optional<FileBaseline>> files;
    for (const auto& g : base) files.push_back(baseline_of(runs[i], g));
    for (size_t g = 0; g < base.size(); ++g) by_store[g]["any"] = picks_json(base[g], files[g]);
    for (const auto& name : store_list) {
      const auto groups_for_store = recommend_for_store(runs[i], any, name);  // the same groups, in the same order
      for (size_t g = 0; g < base.size() && g < groups_for_store.size(); ++g)
        by_store[g][name] = picks_json(groups_for_store[g], files[g]);
    }
    for (size_t g = 0; g < base.size(); ++g) {
      groups.push_back({{"run", i + 1},
                        {"source", base[g].source},
                        {"layout", base[g].layout},
                        {"block", base[g].block_size},
                        {"profile", base[g].profile},
                        {"group", base[g].group},
                        {"by_store", std::move(by_store[g])}});
      if (files[g]) groups.back()["file"] = "the file today: " + baseline_text(*files[g]);
    }
  }
  return {
      {"stores", stores}, {"default_store", runs.empty() ? "rocksdb" : default_store(runs.back())}, {"groups", groups}};
}

json compare_json(const RunResults& baseline, const RunResults& current, const CheckOptions& opt) {
  const CheckReport report = check_cells(baseline, current, opt);
  std::map<std::string, const CellResult*> base, cur;
  for (const auto& c : baseline.cells) base[c.key.id()] = &c;
  for (const auto& c : current.cells) cur[c.key.id()] = &c;
  auto worst_block = [](const CellResult* c) {
    return c ? std::max(c->compress_latency.intrinsic.worst_block_ns, c->decompress_latency.intrinsic.worst_block_ns) /
                   1e3
             : 0.0;
  };
  json rows = json::array();
  for (const auto& cell : report.cells) {
    const CellResult* b = base.count(cell.id) ? base[cell.id] : nullptr;
    const CellResult* c = cur.count(cell.id) ? cur[cell.id] : nullptr;
    json row = {{"id", cell.id},
                {"status", to_string(cell.status)},
                {"size", cell.size_note},
                {"compress", cell.compress.compared ? json(-cell.compress.slowdown * 100) : json(nullptr)},
                {"decompress", cell.decompress.compared ? json(-cell.decompress.slowdown * 100) : json(nullptr)},
                {"note", cell.note}};
    const bool both_ok = b && c && b->status == CellStatus::Ok && c->status == CellStatus::Ok;
    row["ratio_base"] = both_ok ? json(b->ratio()) : json(nullptr);
    row["ratio_new"] = both_ok ? json(c->ratio()) : json(nullptr);
    row["worst_block_base"] = both_ok ? json(worst_block(b)) : json(nullptr);
    row["worst_block_new"] = both_ok ? json(worst_block(c)) : json(nullptr);
    rows.push_back(std::move(row));
  }
  std::map<std::string, size_t> counts;
  for (const auto& cell : report.cells) ++counts[to_string(cell.status)];
  std::string summary = fmt::format("{} cells compared", report.compared);
  for (const auto& [status, n] : counts) summary += fmt::format(", {} {}", n, status);
  if (!report.refusal.empty()) summary += "; " + report.refusal;
  summary += report.exit_code == 0 ? ": check passes" : ": check fails";
  return {{"rows", rows}, {"summary", summary}, {"exit_code", report.exit_code}};
}

}  // namespace kvz
