#include "judgement/workload_rules.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

namespace kvz {

namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;
constexpr double kStorageUsd = 0.08;  // $/GB-month: block storage (EBS gp3's list price)
constexpr double kCpuUsd = 0.04;      // $/core-hour: one vCPU of a general-purpose instance

Workload terms(double write_mbps, double read_mbps, double held_gib) {
  Workload w;
  w.write_mbps = write_mbps;
  w.read_mbps = read_mbps;
  w.storage_usd_gb_month = kStorageUsd;
  w.cpu_usd_core_hour = kCpuUsd;
  w.lsm.data_bytes = held_gib * kGiB;
  return w;
}

// Plain decimals, no exponent: 10240 stays "10240", 3.58421 becomes "3.584".
std::string fmt_num(double v, int digits = 3) {
  if (v >= 1000 || v <= -1000) return fmt::format("{:.0f}", v);
  return fmt::format("{:.{}g}", v, digits);
}

std::string usd(double v) { return fmt::format("${:.2f}", v); }

std::string held_text(const Workload& w) {
  const double gib = held_bytes(w) / kGiB;
  return gib >= 1024 && std::fmod(gib, 1024) == 0 ? fmt::format("{:g} TiB", gib / 1024) : fmt::format("{:g} GiB", gib);
}

const char* speed_word(const NamedWorkload& w) {
  return w.speed == WorkloadSpeed::Compress ? "compress" : "decompress";
}

double rate_of(const NamedWorkload& w) {
  return w.speed == WorkloadSpeed::Compress ? w.terms.write_mbps : w.terms.read_mbps;
}

std::string floors_text(const NamedWorkload& w, const std::string& basis) {
  std::vector<std::string> f;
  if (w.min_stored_ratio > 0) f.push_back(fmt::format("stored ratio above {}", fmt_num(w.min_stored_ratio)));
  if (w.min_decompress_mbps > 0)
    f.push_back(fmt::format("decompress >= {} MB/s ({})", fmt_num(w.min_decompress_mbps), basis));
  if (w.max_block_us > 0)
    f.push_back(
        fmt::format("no stall block and every block's intrinsic cost (its fastest call) < {} us, both "
                    "directions",
                    fmt_num(w.max_block_us)));
  if (f.empty()) return "";
  std::string s = "; floor: " + f[0];
  for (size_t i = 1; i < f.size(); ++i) s += ", " + f[i];
  return s;
}

std::string rule_text(const NamedWorkload& w, const RecommendOptions& opt, const std::string& basis) {
  return fmt::format(
      "{}: the cheapest per month, storage of the {} held at ${}/GB-month + the cores that {} {} MB/s at "
      "${}/core-hour ({}){}; speeds by {}; costs that ±{} % of the speeds could swap tie, never speeds over {}x "
      "apart, and a tie goes to the better stored ratio",
      w.meaning, held_text(w.terms), fmt_num(w.terms.storage_usd_gb_month), speed_word(w), fmt_num(rate_of(w)),
      fmt_num(w.terms.cpu_usd_core_hour), workload_option_text(w), floors_text(w, basis), basis,
      fmt_num(opt.speed_tie_within * 100), fmt_num(opt.tie_max_speed_factor));
}

// One candidate as the rule sees it.
struct PricedCandidate {
  const Candidate* c = nullptr;
  CostRow row;
  double speed = 0;
  double unsure_usd = 0;  // how far the cost could move: its CPU cost x the speed's uncertainty
};

// What a second measurement showed (Candidate::*_known_within), else the tie window.
double known_within(const NamedWorkload& w, const Candidate& c, const RecommendOptions& opt) {
  const double measured = w.speed == WorkloadSpeed::Compress ? c.compress_known_within : c.decompress_known_within;
  return measured > 0 ? measured : opt.speed_tie_within;
}

PricedCandidate priced(const NamedWorkload& w, const Candidate& c, int threads, const RecommendOptions& opt) {
  PricedCandidate p{&c, workload_cost(w, c, threads), workload_speed(w, c), 0};
  p.unsure_usd = p.row.cpu_usd * known_within(w, c, opt);
  return p;
}

bool ties_with(const PricedCandidate& a, const PricedCandidate& b, const RecommendOptions& opt) {
  const double apart = std::max(a.speed, b.speed) / std::max(1e-12, std::min(a.speed, b.speed));
  return std::fabs(b.row.total_usd - a.row.total_usd) <= a.unsure_usd + b.unsure_usd &&
         apart <= opt.tie_max_speed_factor;
}

// At least as good on both, better on one.
bool dominates(const PricedCandidate& a, const PricedCandidate& b) {
  return a.c->stored_ratio >= b.c->stored_ratio && a.speed >= b.speed &&
         (a.c->stored_ratio > b.c->stored_ratio || a.speed > b.speed);
}

// The tie's pick: the better stored ratio (bytes are exact), then the faster, then by label.
bool better_in_tie(const PricedCandidate& a, const PricedCandidate& b) {
  if (a.c->stored_ratio != b.c->stored_ratio) return a.c->stored_ratio > b.c->stored_ratio;
  if (a.speed != b.speed) return a.speed > b.speed;
  return a.c->label < b.c->label;
}

bool cheaper(const PricedCandidate& a, const PricedCandidate& b) {
  if (a.row.total_usd != b.row.total_usd) return a.row.total_usd < b.row.total_usd;
  return a.c->label < b.c->label;
}

// The comparison the reason names: lz4 1 (the store's own call of it), else snappy, else none.
std::optional<PricedCandidate> reference(const GroupRecommendations& g, const NamedWorkload& w,
                                         const RecommendOptions& opt) {
  for (const char* codec : {"lz4", "snappy"})
    for (const auto& c : g.candidates)
      if (c.codec == codec && (c.level == 1 || std::string(codec) == "snappy") && !c.dict_size && c.own_call &&
          !c.dict_losses)
        return priced(w, c, g.threads, opt);
  return std::nullopt;
}

std::string cost_text(const NamedWorkload& w, const PricedCandidate& p) {
  return fmt::format("{}/month = storage {} ({} held at stored ratio {}) + CPU {} ({} cores to {} {} MB/s)",
                     usd(p.row.total_usd), usd(p.row.storage_usd), held_text(w.terms), fmt_num(p.c->stored_ratio, 4),
                     usd(p.row.cpu_usd), fmt_num(p.row.cores, 2), speed_word(w), fmt_num(rate_of(w)));
}

std::string speeds_text(const Candidate& c) {
  return fmt::format("compress {} MB/s, decompress {} MB/s by {} (wall medians {} and {}), worst block {} us",
                     fmt_num(c.compress_mbps, 4), fmt_num(c.decompress_mbps, 4), c.basis,
                     fmt_num(c.compress_wall_mbps, 4), fmt_num(c.decompress_wall_mbps, 4),
                     fmt_num(c.worst_block_us, 4));
}

// What the pick is held against: lz4 1 (the store's own call of it), and the cheapest candidate
// outside the tie.
struct Comparison {
  std::optional<PricedCandidate> ref;
  bool ref_eligible = false, ref_tied = false;
  const PricedCandidate* next = nullptr;
};

bool contains(const std::vector<PricedCandidate>& ps, const Candidate* c) {
  return std::any_of(ps.begin(), ps.end(), [&](const PricedCandidate& p) { return p.c == c; });
}

Comparison compare(std::optional<PricedCandidate> ref, const PricedCandidate& choice,
                   const std::vector<PricedCandidate>& tied, const std::vector<PricedCandidate>& eligible) {
  Comparison cmp;
  cmp.ref = std::move(ref);
  for (const auto& p : eligible)
    if (p.c != choice.c && !contains(tied, p.c) && (!cmp.next || cheaper(p, *cmp.next))) cmp.next = &p;
  if (cmp.ref) {
    cmp.ref_eligible = contains(eligible, cmp.ref->c);
    cmp.ref_tied = contains(tied, cmp.ref->c);
  }
  return cmp;
}

// "; saves $9.20/month against lz4 1 at this write rate" (or against the next cheapest when the
// pick is lz4 1 itself).
std::string saving_text(const NamedWorkload& w, const PricedCandidate& choice, const Comparison& cmp) {
  const std::string at = w.speed == WorkloadSpeed::Compress ? "at this write rate" : "at this read rate";
  if (cmp.ref && cmp.ref->c != choice.c) {
    const double saved = cmp.ref->row.total_usd - choice.row.total_usd;
    if (saved >= 0) return fmt::format("; saves {}/month against {} {}", usd(saved), cmp.ref->c->label, at);
    if (cmp.ref_tied) return fmt::format("; {}, in the tie, costs {}/month less", cmp.ref->c->label, usd(-saved));
    if (!cmp.ref_eligible)
      return fmt::format("; {} would cost {}/month less but misses a floor", cmp.ref->c->label, usd(-saved));
  }
  if (!cmp.next) return "";
  return fmt::format("; saves {}/month against the next cheapest, {}, {}",
                     usd(cmp.next->row.total_usd - choice.row.total_usd), cmp.next->c->label, at);
}

std::string why_text(const NamedWorkload& w, const PricedCandidate& choice, const std::vector<PricedCandidate>& tied,
                     const Comparison& cmp) {
  std::string s = choice.c->label + ": " + cost_text(w, choice) + saving_text(w, choice, cmp);
  if (cmp.next) s += fmt::format("; the next cheapest, {}, costs {}", cmp.next->c->label, usd(cmp.next->row.total_usd));
  if (tied.size() > 1) {
    std::string names;
    for (const auto& t : tied) names += (names.empty() ? "" : ", ") + t.c->label + " " + usd(t.row.total_usd);
    s += fmt::format("; not decided: {} cost the same within what is known of their speeds, and {} stores the least",
                     names, choice.c->label);
  }
  return s + "; " + speeds_text(*choice.c);
}

}  // namespace

std::vector<NamedWorkload> named_workloads(const RecommendOptions& opt) {
  std::vector<NamedWorkload> out;
  out.push_back({"write-heavy", "writes dominate (10 MB/s ingested, rewritten ~10x by compaction)", terms(100, 0, 500),
                 WorkloadSpeed::Compress});
  out.push_back({"read-heavy", "reads dominate (block reads that miss the cache)", terms(0, 500, 200),
                 WorkloadSpeed::Decompress});
  out.back().min_stored_ratio = opt.read_min_stored_ratio;
  out.push_back({"space-sensitive", "the bytes at rest dominate", terms(0, 10, 2048), WorkloadSpeed::Decompress});
  out.back().min_decompress_mbps = opt.space_min_decompress;
  out.push_back({"latency-bound", "every read waits for its block", terms(0, 100, 500), WorkloadSpeed::Decompress});
  out.back().max_block_us = opt.latency_quota_us;
  // Cold data (the RocksDB column-family study's hot/cold split; hot data is read-heavy).
  out.push_back({"cold data", "kept, seldom read", terms(0, 1, 10240), WorkloadSpeed::Decompress});
  out.back().min_decompress_mbps = opt.cold_min_decompress;
  return out;
}

std::string workload_option_text(const NamedWorkload& w) {
  const double gib = held_bytes(w.terms) / kGiB;
  const std::string size =
      gib >= 1024 && std::fmod(gib, 1024) == 0 ? fmt::format("{:g}T", gib / 1024) : fmt::format("{:g}G", gib);
  return fmt::format("--workload write={},read={},storage={},cpu={},size={}", fmt_num(w.terms.write_mbps),
                     fmt_num(w.terms.read_mbps), fmt_num(w.terms.storage_usd_gb_month),
                     fmt_num(w.terms.cpu_usd_core_hour), size);
}

double workload_speed(const NamedWorkload& w, const Candidate& c) {
  return w.speed == WorkloadSpeed::Compress ? c.compress_mbps : c.decompress_mbps;
}

CostRow workload_cost(const NamedWorkload& w, const Candidate& c, int threads) {
  return cost_row(c.label, c.stored_ratio, c.compress_mbps, c.decompress_mbps, threads, w.terms);
}

bool meets_floors(const NamedWorkload& w, const Candidate& c) {
  if (w.min_stored_ratio > 0 && !(c.stored_ratio > w.min_stored_ratio)) return false;
  if (w.min_decompress_mbps > 0 && c.decompress_mbps < w.min_decompress_mbps) return false;
  if (w.max_block_us > 0 && (c.stall_blocks > 0 || c.worst_block_us >= w.max_block_us)) return false;
  return true;
}

namespace {

// The cheapest of `ps` that the others do not dominate, and those tied with it.
void choose(std::vector<PricedCandidate>& ps, const RecommendOptions& opt, PricedCandidate& choice,
            std::vector<PricedCandidate>& tied) {
  const PricedCandidate cheapest = *std::min_element(ps.begin(), ps.end(), cheaper);
  tied.clear();
  for (const auto& p : ps)
    if (ties_with(cheapest, p, opt)) tied.push_back(p);
  choice = *std::min_element(tied.begin(), tied.end(), better_in_tie);
  // A candidate that beats the choice on both stored ratio and speed is never dearer; with the
  // tie's uncertainty it could be outside the tie: it is the pick then, tied with what it ties.
  bool moved = false;
  for (bool again = true; again;) {
    again = false;
    for (const auto& p : ps)
      if (dominates(p, choice)) {
        choice = p;
        again = moved = true;
      }
  }
  if (!moved) return;
  tied.clear();
  for (const auto& p : ps)
    if (ties_with(choice, p, opt)) tied.push_back(p);
}

// In a store's terms: the best possible call (not the store's own) that would cost less than the
// pick by more than the two costs' uncertainty, labelled as a code change the store would need.
std::string code_change_text(const PricedCandidate& choice, const std::vector<PricedCandidate>& others) {
  const PricedCandidate* best = nullptr;
  for (const auto& p : others)
    if (!best || cheaper(p, *best)) best = &p;
  if (!best || best->row.total_usd >= choice.row.total_usd - choice.unsure_usd - best->unsure_usd) return "";
  return fmt::format(
      "{} (the same bytes through a call the store does not make: a code change in the store) would cost {}/month, "
      "{} less; it is not the pick beside the store's line",
      best->c->label, usd(best->row.total_usd), usd(choice.row.total_usd - best->row.total_usd));
}

}  // namespace

void add_picks(GroupRecommendations& g, const RecommendOptions& opt, const CandidateFilter& allowed,
               const CandidateFilter& own_call, bool too_busy) {
  for (auto& c : g.candidates) c.own_call = !own_call || own_call(c, g.block_size);
  auto may = [&](const Candidate& c) { return c.dict_losses == 0 && (!allowed || allowed(c, g.block_size)); };
  const std::string basis = g.candidates.empty() ? to_string(opt.basis) : g.candidates.front().basis;
  for (const auto& w : named_workloads(opt)) {
    Recommendation rec;
    rec.workload = w.name;
    rec.rule = rule_text(w, opt, basis);
    std::vector<PricedCandidate> eligible, better_calls;
    for (const auto& c : g.candidates) {
      if (!may(c) || !meets_floors(w, c)) continue;
      (c.own_call ? eligible : better_calls).push_back(priced(w, c, g.threads, opt));
    }
    if (eligible.empty()) {
      rec.why = "no codec meets the rule";
      g.picks.push_back(std::move(rec));
      continue;
    }
    PricedCandidate choice;
    std::vector<PricedCandidate> tied;
    choose(eligible, opt, choice, tied);
    rec.choice = *choice.c;
    for (const auto& t : tied)
      if (t.c != choice.c) rec.ties.push_back(*t.c);
    rec.decided = rec.ties.empty() && !too_busy;
    rec.cost_usd = choice.row.total_usd;
    const Comparison cmp = compare(reference(g, w, opt), choice, tied, eligible);
    rec.why = why_text(w, choice, tied, cmp);
    rec.summary = usd(choice.row.total_usd) + "/month" + saving_text(w, choice, cmp);
    if (!rec.ties.empty()) rec.summary += "; not decided: tied within what is known of the speeds";
    if (too_busy) {
      rec.why = "not decided: the machine was too busy to decide; " + rec.why;
      rec.summary += "; not decided: the machine was too busy";
    }
    rec.code_change = code_change_text(choice, better_calls);
    g.picks.push_back(std::move(rec));
  }
}

}  // namespace kvz
