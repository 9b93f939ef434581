#include "report/console.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "report/analysis.h"
#include "util/bytes.h"
#include "util/stats.h"

namespace kvz {

namespace {

using GroupKey = std::tuple<std::string, std::string, std::string, uint64_t, std::string, int, std::string>;

GroupKey group_of(const CellKey& k) {
  return {k.source, k.record_mode, k.layout, k.block_size, k.cache, k.threads, k.profile};
}

std::string us(double ns) {
  const double u = ns / 1000.0;
  if (u >= 1000) return fmt::format("{:.0f}", u);
  if (u >= 10) return fmt::format("{:.1f}", u);
  return fmt::format("{:.2f}", u);
}

std::string latency_text(const LatencyStats& l) {
  if (l.calls == 0) return "-";
  return fmt::format("{}/{}/{}/{}", us(l.p50_ns), us(l.p99_ns), us(l.p999_ns), us(l.max_ns));
}

std::string stall_text(const CellResult& c) {
  std::string s;
  for (const auto& [thr, n] : c.compress_latency.stalls) {
    const auto it = c.decompress_latency.stalls.find(thr);
    s += fmt::format("{}{}/{}", s.empty() ? "" : " ", n, it == c.decompress_latency.stalls.end() ? 0 : it->second);
  }
  return s.empty() ? "-" : s;
}

std::string row_name(const CellKey& k, const std::set<std::string>& levelless) {
  std::string params = k.params;
  // A level-less codec's label starts with the meaningless level ("0", "0:dict=16K").
  if (levelless.count(k.codec) && params.rfind("0", 0) == 0) params = params.size() > 1 ? params.substr(2) : "";
  return params.empty() ? k.codec : k.codec + " " + params;
}

}  // namespace

void print_console_table(std::ostream& out, const RunResults& results, const std::string& sort) {
  const std::vector<CellResult>& cells = results.cells;
  const int repetitions = results.meta.repetitions;
  std::set<std::string> levelless;
  for (const auto& v : results.meta.codec_versions)
    if (!v.has_levels) levelless.insert(v.codec);
  std::map<GroupKey, std::vector<const CellResult*>> groups;
  std::vector<GroupKey> order;
  for (const auto& c : cells) {
    auto& g = groups[group_of(c.key)];
    if (g.empty()) order.push_back(group_of(c.key));
    g.push_back(&c);
  }
  std::string thresholds;
  if (!cells.empty()) {
    for (const auto& [thr, n] : cells.front().compress_latency.stalls) {
      (void)n;
      thresholds += fmt::format("{}>={}ms", thresholds.empty() ? "" : " ", static_cast<double>(thr) / 1e6);
    }
  }
  out << fmt::format(
      "MB/s = 10^6 bytes/s of uncompressed data, median of {} repetitions; ± = (max-min)/median; x = relative "
      "to memcpy of the same blocks.\nLatency per call in µs: p50/p99/p99.9/max. Stalls: calls at or above "
      "each threshold, compress/decompress{}.\n",
      repetitions, thresholds.empty() ? "" : " (" + thresholds + ")");
  for (const auto& gk : order) {
    auto rows = groups[gk];
    const CellResult& first = *rows.front();
    const auto* mc = [&]() -> const CellResult* {
      for (const auto* r : rows)
        if (r->reference && r->status == CellStatus::Ok) return r;
      return nullptr;
    }();
    auto rank = [&](const CellResult* r) {
      if (r->status != CellStatus::Ok) return -1.0;
      if (sort == "dspeed") return r->decompress_median();
      if (sort == "ratio") return r->ratio();
      return r->compress_median();
    };
    if (sort != "none") {
      std::stable_sort(rows.begin(), rows.end(), [&](const CellResult* a, const CellResult* b) {
        const bool am = a->reference, bm = b->reference;
        if (am != bm) return am;
        return rank(a) > rank(b);
      });
    }
    out << fmt::format("\n== {} ({}) · layout {} · block size {} · {} blocks, {} bytes · cache {} · {} thread{}{} ==\n",
                       first.key.source, first.key.record_mode, first.key.layout,
                       format_byte_size(first.key.block_size), first.blocks, first.input_bytes, first.key.cache,
                       first.key.threads, first.key.threads == 1 ? "" : "s",
                       first.key.profile.empty() ? "" : " · profile " + first.key.profile);
    out << fmt::format("{:<22} {:>9} {:>5} {:>6} {:>9} {:>5} {:>6} {:>7} {:>6} {:>7} {:>5} {:>26} {:>26} {}\n",
                       "codec", "comp MB/s", "±%", "x", "dec MB/s", "±%", "x", "ratio", "save%", "stored",
                       "raw%", "comp latency µs", "dec latency µs", "stalls c/d");
    for (const CellResult* r : rows) {
      const std::string name = row_name(r->key, levelless);
      if (r->status != CellStatus::Ok) {
        out << fmt::format("{:<22} FAILED: {}\n", name, r->failure);
        continue;
      }
      const double cm = r->compress_median(), dm = r->decompress_median();
      const auto rel = [&](double v, double base) { return base > 0 ? fmt::format("{:.3f}", v / base) : "-"; };
      const double raw_pct = r->blocks ? 100.0 * static_cast<double>(r->blocks_kept_raw) / static_cast<double>(r->blocks) : 0;
      std::string ratio = fmt::format("{:.3f}", r->ratio());
      out << fmt::format("{:<22} {:>9.1f} {:>5.1f} {:>6} {:>9.1f} {:>5.1f} {:>6} {:>7} {:>6.1f} {:>7.3f} {:>5.1f} {:>26} {:>26} {}\n",
                         name, cm, 100 * relative_spread(r->compress_mbps), rel(cm, mc ? mc->compress_median() : 0), dm,
                         100 * relative_spread(r->decompress_mbps), rel(dm, mc ? mc->decompress_median() : 0), ratio,
                         r->saving_pct(), r->stored_ratio(), raw_pct, latency_text(r->compress_latency),
                         latency_text(r->decompress_latency), stall_text(*r));
      const uint64_t preempted = r->compress_latency.preemptions + r->decompress_latency.preemptions;
      if (preempted > 0 && (total_stalls(r->compress_latency) + total_stalls(r->decompress_latency)) > 0) {
        out << fmt::format("{:<22} the latency passes were preempted {} times (busy machine): stalls may be the "
                           "scheduler's, not the codec's\n",
                           "", preempted);
      }
      if (r->dict_bytes > 0) {
        out << fmt::format("{:<22} dict {} bytes, trained in {:.3f} s on a disjoint split{}\n", "", r->dict_bytes,
                           r->dict_train_seconds,
                           r->dict_gain ? fmt::format(", ratio gain x{:.3f} over no dictionary", *r->dict_gain) : "");
      }
    }
  }
}

// With a store profile: what that store would write, per codec (report's store table).
void print_store_table(std::ostream& out, const RunResults& results) {
  const auto rows = store_table(results);
  if (rows.empty()) return;
  out << fmt::format("\nstore table (bytes the store writes: framing, trailers and its keep-raw rule included):\n"
                           "{:<12} {:<22} {:>12} {:>12} {:>8} {:>10} {:>10} {:>11}\n",
                           "profile", "codec", "input B", "stored B", "ratio", "comp MB/s", "dec MB/s", "worst µs");
  for (const auto& r : rows)
    out << fmt::format("{:<12} {:<22} {:>12} {:>12} {:>8.3f} {:>10.1f} {:>10.1f} {:>11.1f}\n", r.profile, r.label,
                             r.input_bytes, r.stored_bytes, r.stored_ratio, r.compress_mbps, r.decompress_mbps,
                             r.worst_us);
}

// The summary under the table: report's recommendations per workload group, one line each.
void print_recommendations(std::ostream& out, const RunResults& results) {
  for (const auto& g : recommend(results, RecommendOptions{})) {
    out << fmt::format("\nrecommendations, {} (stored ratio, compress/decompress MB/s, worst call):\n", g.group);
    for (const auto& pick : g.picks) {
      if (!pick.choice) {
        out << fmt::format("  {:<16} none: {}\n", pick.workload, pick.rule);
        continue;
      }
      const Candidate& c = *pick.choice;
      out << fmt::format("  {:<16} {:<18} {:7.3f}  {:8.1f} / {:8.1f}  {:9.1f} us\n", pick.workload, c.label,
                               c.stored_ratio, c.compress_mbps, c.decompress_mbps, c.worst_us);
    }
  }
}

}  // namespace kvz
