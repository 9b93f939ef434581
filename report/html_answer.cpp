// The parts of the HTML report that answer questions: pooled over each block set's sources (the
// console's and the Markdown's answer, report/answer.h) and per source and block size, the pick
// per workload among the codecs each store can write, with that store's configuration line; and,
// for two runs, the per-cell comparison with `check`'s verdicts.
#include "report/html_answer.h"

#include <map>
#include <optional>

#include <fmt/format.h>

#include "judgement/file_baseline.h"
#include "judgement/store_config.h"
#include "report/answer.h"
#include "results/cell_view.h"
#include "results/results.h"
#include "util/bytes.h"

namespace kvz {

using nlohmann::json;

namespace {

// The run's store when it had a profile, else "any": the console's and the Markdown's answer,
// among every codec, without a line.
std::string default_store(const RunResults& run) {
  const std::string store = answer_store(run);
  return store.empty() ? "any" : store;
}

// A store file's own blocks: the file's codec and bytes (the group's current row), or none.
std::optional<FileBaseline> baseline_of(const RunResults& run, const GroupRecommendations& g) {
  for (const auto& c : run.cells)
    if (c.current && c.key.source == g.source && c.key.host == g.host && c.key.layout == g.layout &&
        c.key.block_size == g.block_size && c.key.profile == g.profile)
      return file_baseline(run, c);
  return std::nullopt;
}

// Each pick, with its configuration line when the groups are in a store's terms.
json picks_json(const GroupRecommendations& g, const std::optional<FileBaseline>& file) {
  json picks = json::array();
  for (const auto& p : g.picks) {
    json pick = {{"workload", p.workload}, {"choice", p.choice_text()}, {"rule", p.rule}, {"why", p.why}};
    // The pick and its ties apart, so the page can show a long tie chain collapsed.
    if (p.choice) pick["pick"] = p.choice->label;
    pick["ties"] = json::array();
    for (const auto& t : p.ties) pick["ties"].push_back(t.label);
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

namespace {

// The groups of one run, pooled (`per_source` false: the answer report/answer.h gives) or per
// source, each with its picks for every store ("any": among every codec).
void add_groups(json& groups, const RunResults& run, size_t run_index, RecommendOptions opt, bool per_source) {
  opt.per_source = per_source;
  const auto base = per_source ? recommend(run, opt) : run_answer(run, opt);
  const std::string own = answer_store(run);
  std::vector<json> by_store(base.size(), json::object());
  std::vector<std::optional<FileBaseline>> files;
  for (const auto& g : base) files.push_back(baseline_of(run, g));
  const auto any_groups = recommend(run, opt);  // among every codec
  for (size_t g = 0; g < base.size() && g < any_groups.size(); ++g)
    by_store[g]["any"] = picks_json(any_groups[g], files[g]);
  for (const auto& name : store_names()) {
    // Pooled, the run's own store's picks are the answer's itself; the same groups, in order.
    const auto groups_for_store = !per_source && name == own ? base : recommend_for_store(run, opt, name);
    for (size_t g = 0; g < base.size() && g < groups_for_store.size(); ++g)
      by_store[g][name] = picks_json(groups_for_store[g], files[g]);
  }
  for (size_t g = 0; g < base.size(); ++g) {
    const std::string source = base[g].host.empty() ? base[g].source : base[g].source + "@" + base[g].host;
    groups.push_back({{"run", run_index + 1},
                      {"source", per_source ? json(source) : json(nullptr)},
                      {"layout", base[g].layout},
                      {"block", base[g].block_size},
                      {"profile", base[g].profile},
                      {"group", base[g].group},
                      {"by_store", std::move(by_store[g])}});
    if (files[g]) groups.back()["file"] = "the file today: " + baseline_text(*files[g]);
  }
}

}  // namespace

json answer_json(const std::vector<RunResults>& runs, const RecommendOptions& opt) {
  json stores = json::array({"any"});
  for (const auto& name : store_names()) stores.push_back(name);
  json groups = json::array();
  for (size_t i = 0; i < runs.size(); ++i) {
    add_groups(groups, runs[i], i, opt, false);
    add_groups(groups, runs[i], i, opt, true);
  }
  return {{"stores", stores}, {"default_store", runs.empty() ? "any" : default_store(runs.back())}, {"groups", groups}};
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
