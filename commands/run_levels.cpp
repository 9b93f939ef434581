#include "commands/run_levels.h"

#include <chrono>
#include <functional>
#include <map>
#include <vector>

#include "blockgen/layouts.h"
#include "blockgen/lsm_sample.h"
#include "codecs/registry.h"
#include "judgement/level_cut.h"
#include "stores/store_profile.h"

namespace kvz {

namespace {

// The probe codec on `blocks`: its ratio (input / compressed; 1 when no probe codec is built in)
// and, when `timed`, its speeds on one thread, timed once (the universal replay's compaction
// times: only the whole set's are asked for; each cut needs its ratio alone).
struct Probe {
  double ratio = 1, compress_mbps = 0, decompress_mbps = 0;
};

double mbps(double bytes, std::chrono::steady_clock::duration d) {
  const double secs = std::chrono::duration<double>(d).count();
  return secs > 0 ? bytes / 1e6 / secs : 0;
}

Probe probe(const BlockSet& blocks, bool timed) {
  for (const char* name : kProbeCodecs) {
    const Codec* codec = CodecRegistry::instance().find(name);
    if (!codec) continue;
    CodecParams params;
    params.level = codec->info().default_level;
    auto session = codec->open(params, nullptr);
    if (!session.ok()) continue;
    // Each compressed block, kept for the decompress pass when timed; one buffer otherwise.
    std::vector<std::vector<uint8_t>> packed(timed ? blocks.count() : 1);
    double in = 0, compressed = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < blocks.count(); ++i) {
      const auto block = blocks.block(i);
      std::vector<uint8_t>& out = packed[timed ? i : 0];
      out.resize(session.value->bound(block.size()));
      const CallResult r = session.value->compress(block, out);
      if (!r.ok()) return {};
      out.resize(r.size);
      in += static_cast<double>(block.size());
      compressed += static_cast<double>(r.size);
    }
    const double ratio = compressed > 0 ? in / compressed : 1;
    if (!timed) return {ratio, 0, 0};
    const auto t1 = std::chrono::steady_clock::now();
    std::vector<uint8_t> out;
    for (size_t i = 0; i < blocks.count(); ++i) {
      out.resize(blocks.block(i).size());
      if (!session.value->decompress(packed[i], out).ok()) return {};
    }
    const auto t2 = std::chrono::steady_clock::now();
    return {ratio, mbps(in, t1 - t0), mbps(in, t2 - t1)};
  }
  return {};
}

struct Cut {
  LevelCut cut;
  BlockSet blocks;
};

bool build_cuts(const RecordSet& records, const std::vector<size_t>& order, const std::vector<LevelCut>& levels,
                const std::string& layout, size_t block_size, std::vector<Cut>& out, std::string& error) {
  out.clear();
  for (const LevelCut& c : levels) {
    const RecordSet level = level_records(records, order, c.slice);
    if (level.records.empty()) continue;
    BlockSet blocks = build_blocks(level, layout, block_size, error);
    if (!error.empty()) return false;
    blocks.layout = level_cut_layout(layout, c.first, c.last, c.numbers);
    out.push_back({c, std::move(blocks)});
  }
  return true;
}

// By level, the probe's ratio on the level's first cut.
std::map<int, double> cut_ratios(const std::vector<Cut>& cuts) {
  std::map<int, double> ratio;
  for (const Cut& c : cuts) {
    if (c.cut.numbers != CutNumbers::Own) continue;
    const double r = probe(c.blocks, false).ratio;
    for (int level = c.cut.first; level <= c.cut.last; ++level) ratio[level] = r;
  }
  return ratio;
}

double ratio_at(const std::map<int, double>& ratio, int level, double whole) {
  const auto it = ratio.find(level);
  return it == ratio.end() ? whole : it->second;
}

// The load's options with what the whole set's blocks say: their size (table files) and the bytes
// a record takes in them (what a memtable holds).
LsmOptions with_blocks(const LsmOptions& lsm, const BlockSet& whole, const RecordSet& records) {
  LsmOptions o = lsm;
  o.block_size = static_cast<double>(whole.block_size);
  o.record_bytes = static_cast<double>(whole.total_bytes()) / static_cast<double>(records.records.size());
  return o;
}

// Cuts twice: the levels `cuts_at` gives at the whole set's probe ratio, then at each first cut's.
using CutsAt = std::function<std::vector<LevelCut>(const std::function<double(int level)>& ratio)>;
bool cut_twice(const RecordSet& records, const std::vector<size_t>& order, double whole_ratio, const CutsAt& cuts_at,
               const std::string& layout, size_t block_size, std::vector<BlockSet>& out, std::string& error) {
  std::vector<Cut> cuts;
  if (!build_cuts(records, order, cuts_at([&](int) { return whole_ratio; }), layout, block_size, cuts, error))
    return false;
  const auto ratio = cut_ratios(cuts);
  if (!build_cuts(records, order, cuts_at([&](int level) { return ratio_at(ratio, level, whole_ratio); }), layout,
                  block_size, cuts, error))
    return false;
  for (Cut& c : cuts) out.push_back(std::move(c.blocks));
  return true;
}

}  // namespace

bool cut_lsm_levels(const RecordSet& records, const std::string& layout, size_t block_size, const LsmOptions& lsm,
                    std::vector<BlockSet>& out, std::string& error) {
  if (layout != "rocksdb" || records.records.empty() || lsm.data_bytes <= 0) return true;
  const BlockSet whole = build_blocks(records, layout, block_size, error);
  if (!error.empty()) return false;
  const LsmOptions o = with_blocks(lsm, whole, records);
  return cut_twice(
      records, load_order(records.records.size(), o.order), probe(whole, false).ratio,
      [&](const std::function<double(int)>& ratio) { return level_cuts(lsm_shape(o, ratio), o); }, layout, block_size,
      out, error);
}

bool cut_universal_levels(const RecordSet& records, const std::string& layout, size_t block_size, const LsmOptions& lsm,
                          const UniversalOptions& u, double ingest_mbps, std::vector<BlockSet>& out,
                          std::string& error) {
  if (layout != "rocksdb" || records.records.empty() || lsm.data_bytes <= 0) return true;
  const BlockSet whole = build_blocks(records, layout, block_size, error);
  if (!error.empty()) return false;
  const Probe p = probe(whole, true);
  const LsmOptions o = with_blocks(lsm, whole, records);
  return cut_twice(
      records, load_order(records.records.size(), o.order), p.ratio,
      [&](const std::function<double(int)>& ratio) {
        const auto codecs = [&](int, int level, const RunSample&) {
          return RunCodec{ratio(level), p.compress_mbps, p.decompress_mbps};
        };
        return universal_level_cuts(universal_shape(o, u, codecs, ingest_mbps), o.order == LoadOrder::Shuffled);
      },
      layout, block_size, out, error);
}

bool cut_run_levels(const RunPlan& plan, const std::optional<Workload>& workload, const std::vector<Source>& sources,
                    std::vector<BlockSet>& sets, std::string& error) {
  const Workload* w = workload ? &*workload : nullptr;
  if (!w || w->lsm.data_bytes <= 0 || !w->families.empty() || !plan.store || plan.store->base != "rocksdb") return true;
  const auto cut = [&](const RecordSet& records, const std::string& layout, size_t size) {
    return w->universal
               ? cut_universal_levels(records, layout, size, w->lsm, w->universal_options, w->write_mbps, sets, error)
               : cut_lsm_levels(records, layout, size, w->lsm, sets, error);
  };
  for (const auto& s : sources)
    for (const auto& layout : plan.layouts)
      for (size_t size : plan.block_sizes)
        if (!cut(s.records, layout, size)) {
          error = s.name + ": " + error;
          return false;
        }
  return true;
}

}  // namespace kvz
