// Plan of `kvzbench run`: profile, sources, layouts, sizes, codec rows and engine options.
#include "commands/run_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "blockgen/corpus.h"
#include "blockgen/layouts.h"
#include "blockgen/pipeline.h"
#include "blockgen/source_registry.h"
#include "blockgen/table.h"
#include "commands/shard_env.h"
#include "util/bytes.h"
#include "util/text.h"

namespace kvz {

namespace {

// The store that wrote every named file (a directory: its store files), "" when the sources
// are not all one store's files (or a dataset is among them, or `-r bytes` reads them as bytes).
std::string one_store_of(const SourceArgs& src) {
  if (src.files.empty() || !src.datasets.empty() || !reads_store_files(src.record_mode)) return "";
  const SourceRegistry& readers = SourceRegistry::global();
  std::set<std::string> stores;
  for (const auto& f : src.files) {
    std::error_code ec;
    const auto files = std::filesystem::is_directory(f, ec) ? readers.files_in(f) : std::vector<std::string>{f};
    if (files.empty()) return "";
    for (const auto& file : files) stores.insert(readers.store_of(file));
  }
  return stores.size() == 1 ? *stores.begin() : "";
}

}  // namespace

namespace {

// What the named sources are: several choices depend on it.
struct NamedSources {
  bool any = false;               // files or datasets were named (else the sweep's own)
  bool store_files_only = false;  // every named file is one store's file
  std::string store;              // that store ("" unless store_files_only)
};

NamedSources named_sources(const SourceArgs& src) {
  NamedSources n;
  n.any = !src.files.empty() || !src.datasets.empty();
  n.store = one_store_of(src);
  n.store_files_only = !n.store.empty();
  return n;
}

// The sweep, or a store profile over the default sweep. A store's own files, named with no
// profile: that store's profile (its codecs, framing and dictionary sizes).
bool resolve_profile(const RunArgs& a, const NamedSources& named, RunPlan& p, std::string& err) {
  const std::string& name = a.profile_given || !named.store_files_only ? a.profile : named.store;
  p.sweep = find_sweep_profile(name);
  if (p.sweep) return true;
  std::string store_err;
  p.store = find_store_profile(name, store_err);
  if (!p.store && a.profile.find(':') != std::string::npos) {
    err = fmt::format("profile '{}': {}", a.profile, store_err);
    return false;
  }
  if (!p.store) {
    std::vector<std::string> names = row_names(sweep_profiles());
    for (const auto& sp : store_profiles()) names.push_back(sp.name);
    err = unknown_name_error("profile", a.profile, names);
    return false;
  }
  p.sweep = find_sweep_profile("default");
  p.store_from_files = !a.profile_given && named.store_files_only;
  return true;
}

// -b, or the store's block size, or the sweep's; a store profile bounds them.
bool resolve_block_sizes(const SourceArgs& src, RunPlan& p, std::string& err) {
  if (!src.block_sizes.empty()) {
    if (!parse_block_sizes(src.block_sizes, p.block_sizes, err)) return false;
  } else {
    p.block_sizes = p.store ? std::vector<size_t>{p.store->block_size} : p.sweep->block_sizes;
  }
  if (!p.store) return true;
  for (size_t b : p.block_sizes) {
    if (b < p.store->min_block_size || b > p.store->max_block_size) {
      err = fmt::format("block size {} out of range for profile {}: {}..{}", format_byte_size(b), p.store->name,
                        format_byte_size(p.store->min_block_size), format_byte_size(p.store->max_block_size));
      return false;
    }
  }
  return true;
}

// Named sources are sliced as given (raw, as lzbench does) unless -l says otherwise; the
// sweeps' own sources get the sweep's layouts. A store's own files: their blocks as stored, and
// re-blocked by the store's layout too when -b asks for other sizes.
std::vector<std::string> default_layouts(const SourceArgs& src, const NamedSources& named, const RunPlan& p) {
  const std::string reblock = p.store ? p.store->layout : "raw";
  if (named.store_files_only && src.block_sizes.empty()) return {"as-stored"};
  if (named.store_files_only) return {"as-stored", reblock};
  if (p.store) return {p.store->layout};
  if (named.any) return {"raw"};
  return p.sweep->layouts;
}

// Every layout known; under a store profile only the store's own (and the files' as stored).
bool resolve_layouts(const SourceArgs& src, const NamedSources& named, RunPlan& p, std::string& err) {
  p.layouts = src.layouts_given ? split_list(src.layouts) : default_layouts(src, named, p);
  for (const auto& l : p.layouts) {
    if (!find_layout(l)) {
      err = unknown_name_error("layout", l, layout_names());
      return false;
    }
    // A store writes its own blocks: its framing over another layout's blocks is nobody's bytes.
    if (p.store && l != p.store->layout && l != "as-stored") {
      err =
          p.store_from_files
              ? fmt::format(
                    "the named files look like {0} files, so the {0} profile applies, which builds {1} "
                    "blocks; -l {2} contradicts it (use -l as-stored or -l {1})",
                    p.store->name, p.store->layout, l)
              : fmt::format("--profile {} builds {} blocks; -l {} contradicts it (drop -l, or drop the store profile)",
                            p.store->name, p.store->layout, l);
      return false;
    }
  }
  return true;
}

// --dict, or the store's dictionary sizes, or (no codecs named) the sweep's dictionary rows.
bool resolve_dictionaries(const RunArgs& a, RunPlan& p, std::string& err) {
  if (!a.dict.empty()) return parse_dict_sizes(a.dict, p.dict_sizes, err);
  if (p.store) {
    p.dict_sizes = p.store->dict_sizes;
  } else if (a.codecs.empty()) {
    p.dict_sizes = p.sweep->dict_sizes;
    p.dict_codecs = p.sweep->dict_codecs;
    p.dict_max_level = p.sweep->dict_max_level;
  }
  return true;
}

// What to read: the named sources, else the sweep's; a sweep samples each source, named files
// get the full default sample, --max-bytes and --dataset-bytes override.
bool resolve_sources(const SourceArgs& src, RunPlan& p, std::string& err) {
  const SweepProfile& sw = *p.sweep;
  SourceRequest& r = p.sources;
  if (!make_source_request(src, r, err)) return false;
  if (r.datasets.empty() && r.files.empty()) {
    r.datasets = sw.datasets;
    const std::string dir = corpora_dir();
    if (!dir.empty()) r.files = sw.all_corpora ? manifest_names(dir) : sw.corpora;
  }
  r.dataset_bytes = sw.sample_bytes;
  r.file_max_bytes = src.files.empty() ? sw.sample_bytes : kDefaultMaxBytes;
  if (!src.max_bytes.empty()) {
    size_t n = 0;
    if (!parse_byte_size(src.max_bytes, n)) {
      err = fmt::format("invalid --max-bytes '{}'", src.max_bytes);
      return false;
    }
    r.dataset_bytes = r.file_max_bytes = n;
  }
  if (!src.dataset_bytes.empty() && !parse_byte_size(src.dataset_bytes, r.dataset_bytes)) {
    err = fmt::format("invalid --dataset-bytes '{}'", src.dataset_bytes);
    return false;
  }
  r.hash_files = true;  // the result's metadata names each corpus by its SHA-256
  return true;
}

bool valid_seconds(double s) { return std::isfinite(s) && s > 0 && s <= 3600; }

// Time, latency and repetitions. A sweep trades precision for coverage; a run over chosen
// sources gets the full budget (a store profile over named sources is a measurement too).
bool resolve_budget(const RunArgs& a, const NamedSources& named, RunPlan& p, std::string& err) {
  const SweepProfile& sw = *p.sweep;
  EngineOptions& e = p.engine;
  const bool full_budget = named.any && (!a.profile_given || p.store);
  if (a.time && !valid_seconds(*a.time)) {
    err = "--time must be > 0 and at most 3600 seconds";
    return false;
  }
  e.seconds_per_cell = a.time ? *a.time : full_budget ? 0.5 : sw.seconds_per_cell;
  if (a.latency_calls) {
    const double n = *a.latency_calls;
    if (!(std::isfinite(n) && n >= 1 && n <= 1e7 && n == std::floor(n))) {
      err = "--latency-calls must be a whole number of calls from 1 to 10000000";
      return false;
    }
    e.latency_calls = static_cast<size_t>(n);
  }
  if (a.latency_seconds && !valid_seconds(*a.latency_seconds)) {
    err = "--latency-seconds must be > 0 and at most 3600 seconds";
    return false;
  }
  e.latency_seconds = a.latency_seconds ? *a.latency_seconds : full_budget ? 1.0 : sw.latency_seconds;
  e.repetitions = a.repetitions ? *a.repetitions : full_budget ? 5 : sw.repetitions;
  if (e.repetitions < 1 || e.repetitions > 1000) {
    err = "--repetitions must be between 1 and 1000";
    return false;
  }
  // A smaller --time/--repetitions shrinks the latency passes too, unless they were sized by hand.
  if (!a.latency_seconds && !a.latency_calls)
    scale_latency_budget(e, budget_scale(full_budget ? 0.5 : sw.seconds_per_cell, full_budget ? 5 : sw.repetitions,
                                         e.seconds_per_cell, e.repetitions));
  return true;
}

// --stall-threshold, plus the store's own stall line; sorted, each once.
bool resolve_stall_thresholds(const RunArgs& a, RunPlan& p, std::string& err) {
  std::vector<uint64_t>& t = p.engine.stall_thresholds_ns;
  if (!parse_stall_thresholds(a.stall, t, err)) return false;
  if (p.store && p.store->stall_threshold_ms > 0) t.push_back(static_cast<uint64_t>(p.store->stall_threshold_ms * 1e6));
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  return true;
}

// The engine's modes and limits: --cache, --dict-method, -T, --min-saving, stalls, --shard,
// --sort, the seed and interleaving.
// `--shard I/N`, or `auto`: from the scheduler's environment (commands/shard_env.h).
bool resolve_shard(const std::string& shard, RunPlan& p, std::string& err) {
  if (shard.empty()) return true;
  if (shard != "auto") return parse_shard(shard, p.engine.shard_index, p.engine.shard_count, err);
  ShardAssignment s;
  if (!shard_from_environment([](const char* name) { return std::getenv(name); }, s, err)) return false;
  p.engine.shard_index = s.index;
  p.engine.shard_count = s.count;
  p.shard_scheduler = s.scheduler;
  return true;
}

bool resolve_engine(const RunArgs& a, RunPlan& p, std::string& err) {
  EngineOptions& e = p.engine;
  if (!parse_option(kCacheOption, a.cache, p.cache, err)) return false;
  e.cache = option_name(kCacheOption, p.cache);
  if (!parse_option(kDictMethodOption, a.dict_method, p.dict_method, err)) return false;
  e.dict_method = option_name(kDictMethodOption, p.dict_method);
  if (a.threads < 1 || a.threads > 256) {
    err = "-T/--threads must be between 1 and 256";
    return false;
  }
  e.threads = a.threads;
  if (!(a.min_saving_pct >= 0 && a.min_saving_pct < 100)) {
    err = "--min-saving must be a percentage in [0, 100)";
    return false;
  }
  e.min_saving = a.min_saving_pct / 100.0;
  if (!resolve_stall_thresholds(a, p, err)) return false;
  if (!resolve_shard(a.shard, p, err)) return false;
  if (!parse_option(kSortOption, a.sort, p.sort, err)) return false;
  e.seed = p.sources.seed;
  e.random_interleaving = !a.no_interleave;
  return true;
}

}  // namespace

bool make_plan(const RunArgs& a, RunPlan& p, std::string& err) {
  const NamedSources named = named_sources(a.sources);
  if (!resolve_profile(a, named, p, err)) return false;
  p.codecs = !a.codecs.empty() ? a.codecs : p.store ? p.store->codecs : p.sweep->codecs;
  p.codecs_given = !a.codecs.empty();
  return resolve_block_sizes(a.sources, p, err) && resolve_layouts(a.sources, named, p, err) &&
         resolve_dictionaries(a, p, err) && resolve_sources(a.sources, p, err) && resolve_budget(a, named, p, err) &&
         resolve_engine(a, p, err);
}

namespace {

// A codec the store cannot write, when no --profile was given: the files chose the store (by
// their magic), so the fix is a sweep profile, not dropping one.
std::string implied_store_error(const StoreProfile& store, const std::string& e, const std::string& codec) {
  return fmt::format(
      "the named files look like {0} files, so the {0} profile applies: {1} (--profile default "
      "measures {2} without {0}'s framing)",
      store.name, e.substr(0, e.find("; drop --profile")), codec);
}

}  // namespace

// Expand the codec spec and add the dictionary variants.
bool make_choices(const RunPlan& p, const CodecRegistry& reg, std::vector<CodecChoice>& out, std::string& err) {
  const std::string spec = p.codecs_given ? p.codecs : without_unbuilt_codecs(p.codecs, reg);
  std::vector<CodecChoice> base = parse_codec_spec(spec, reg, err);
  if (base.empty()) {
    if (err.empty()) err = fmt::format("codec spec '{}' selects nothing", p.codecs);
    return false;
  }
  for (auto& c : base) {
    // Under a store profile a row the user names is what that store writes: its own call for
    // the codec (at the one level it writes, for a codec whose level it ignores: two rows may
    // become one), or refused when the store cannot write it at all. The profile's own list is
    // already that (its rows without ":fresh" are the best possible call, on purpose).
    if (p.store && p.codecs_given) {
      const std::string& name = c.codec->info().name;
      if (std::string e = store_codec_options(*p.store, name, c.params.options); !e.empty()) {
        err = p.store_from_files ? implied_store_error(*p.store, e, name) : e;
        return false;
      }
      c.params.level = store_codec_level(*p.store, name, c.params.level);
      if (std::any_of(out.begin(), out.end(),
                      [&](const CodecChoice& o) { return o.codec == c.codec && o.params == c.params; }))
        continue;
      if (std::string e = c.codec->check_params(c.params); !e.empty()) {
        err = fmt::format("{} {}: {}", p.store_from_files ? "the files' store profile" : "--profile", p.store->name, e);
        return false;
      }
    }
    out.push_back(c);
    if (c.params.dict_size || !c.codec->info().supports_dict) continue;
    const auto& name = c.codec->info().name;
    if (!p.dict_codecs.empty() && std::find(p.dict_codecs.begin(), p.dict_codecs.end(), name) == p.dict_codecs.end())
      continue;
    if (p.dict_max_level && c.params.level > *p.dict_max_level) continue;
    // Under a store that also uses raw samples as the dictionary (RocksDB without
    // zstd_max_train_bytes), each trained row's raw twin follows it.
    const bool raw_twin = p.store && std::find(p.store->raw_dict_codecs.begin(), p.store->raw_dict_codecs.end(),
                                               name) != p.store->raw_dict_codecs.end();
    for (size_t d : p.dict_sizes) {
      CodecChoice v = c;
      v.params.dict_size = d;
      out.push_back(v);
      if (!raw_twin) continue;
      v.params.raw_dict = true;
      out.push_back(v);
    }
  }
  return true;
}

namespace {

// The profile's store, options aside; a variant's files are its base's format (ScyllaDB's
// Data.db is Cassandra's: their profiles frame chunks alike).
bool same_store(const StoreProfile& profile, const std::string& store) {
  const std::string& name = profile.base.empty() ? profile.name : profile.base;
  const SourceRegistry& readers = SourceRegistry::global();
  return readers.base_of(name) == readers.base_of(store);
}

}  // namespace

bool make_group(const RunPlan& p, BlockSet blocks, const CodecRegistry& reg, BlockGroup& out,
                std::vector<std::string>& warnings, std::string& err) {
  out.store = p.store;
  const StoredOrigin origin = blocks.origin;
  out.blocks = std::move(blocks);
  if (origin.empty()) return true;
  if (p.store && !same_store(*p.store, origin.store)) {
    err = p.store_from_files ? fmt::format(
                                   "{} reads as a {} file, though its magic number is {}'s: name its store "
                                   "with --profile {}",
                                   out.blocks.source, origin.store, p.store->name, origin.store)
                             : fmt::format(
                                   "{} is a {} file: --profile {} cannot frame its own blocks (-l as-stored); "
                                   "drop --profile",
                                   out.blocks.source, origin.store, p.store->name);
    return false;
  }
  if (!p.store) out.store = find_store_profile(origin.store);
  if (origin.codec.empty()) {
    warnings.push_back(out.blocks.source + ": its blocks use several codecs: no current-codec row");
    return true;
  }
  std::string spec_err;
  const auto parsed = parse_codec_spec(origin.codec, reg, spec_err);
  if (parsed.size() != 1) {
    warnings.push_back(
        fmt::format("{}: its codec {} is not built here: no current-codec row", out.blocks.source, origin.codec));
    return true;
  }
  CodecChoice c = parsed.front();
  if (!c.codec->info().is_reference && out.store) {
    if (std::string e = store_codec_options(*out.store, c.codec->info().name, c.params.options); !e.empty()) {
      warnings.push_back(out.blocks.source + ": " + e);
      return true;
    }
    c.params.level = store_codec_level(*out.store, c.codec->info().name, c.params.level);
  }
  if (!origin.dictionary.empty()) c.params.dict_size = origin.dictionary.size();
  out.current = c;
  return true;
}

std::map<std::string, std::string> store_versions_of(const std::vector<BlockGroup>& groups) {
  std::map<std::string, std::string> versions;
  for (const BlockGroup& g : groups)
    if (g.store) versions[g.store->name] = g.store->version;
  return versions;
}

}  // namespace kvz
