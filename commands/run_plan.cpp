// Plan of `kvzbench run`: profile, sources, layouts, sizes, codec rows and engine options.
#include "commands/run_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "blockgen/corpus.h"
#include "blockgen/layouts.h"
#include "blockgen/store_files/store_source.h"
#include "blockgen/table.h"
#include "util/bytes.h"
#include "util/text.h"

namespace kvz {

namespace {

// The store that wrote every named file (a directory: its store files), "" when the sources
// are not all one store's files (or a dataset is among them).
std::string one_store_of(const SourceArgs& src) {
  if (src.files.empty() || !src.datasets.empty()) return "";
  std::set<std::string> stores;
  for (const auto& f : src.files) {
    std::error_code ec;
    const auto files = std::filesystem::is_directory(f, ec) ? store_files_in(f) : std::vector<std::string>{f};
    if (files.empty()) return "";
    for (const auto& file : files) stores.insert(store_of_file(file));
  }
  return stores.size() == 1 ? *stores.begin() : "";
}

}  // namespace

bool make_plan(const RunArgs& a, RunPlan& p, std::string& err) {
  const SourceArgs& src = a.sources;
  // A store's own files, named with no profile: that store's profile (its codecs, framing and
  // dictionary sizes), and their blocks as stored unless -l says otherwise.
  const std::string file_store = one_store_of(src);
  const bool store_files_only = !file_store.empty();
  p.sweep = find_sweep_profile(a.profile_given || !store_files_only ? a.profile : file_store);
  if (!p.sweep) {
    std::string store_err;
    p.store = find_store_profile(a.profile_given || !store_files_only ? a.profile : file_store, store_err);
    if (!p.store && a.profile.find(':') != std::string::npos) {
      err = fmt::format("profile '{}': {}", a.profile, store_err);
      return false;
    }
    if (!p.store) {
      std::string names = "quick, default, full";
      for (const auto& sp : store_profiles()) names += ", " + sp.name;
      err = fmt::format("unknown profile '{}': expected one of {}", a.profile, names);
      return false;
    }
    p.sweep = find_sweep_profile("default");
    p.store_from_files = !a.profile_given && store_files_only;
  }
  const SweepProfile& sw = *p.sweep;
  p.codecs = !a.codecs.empty() ? a.codecs : p.store ? p.store->codecs : sw.codecs;
  p.codecs_given = !a.codecs.empty();
  if (!src.block_sizes.empty()) {
    if (!parse_block_sizes(src.block_sizes, p.block_sizes, err)) return false;
  } else {
    p.block_sizes = p.store ? std::vector<size_t>{p.store->block_size} : sw.block_sizes;
  }
  if (p.store) {
    for (size_t b : p.block_sizes) {
      if (b < p.store->min_block_size || b > p.store->max_block_size) {
        err = fmt::format("block size {} out of range for profile {}: {}..{}", format_byte_size(b), p.store->name,
                          format_byte_size(p.store->min_block_size), format_byte_size(p.store->max_block_size));
        return false;
      }
    }
  }
  // Named sources are sliced as given (raw, as lzbench does) unless -l says otherwise; the
  // sweeps' own sources get the sweep's layouts.
  const bool sources_named = !src.files.empty() || !src.datasets.empty();
  // A store's own files: their blocks as stored, and re-blocked by the store's layout too when
  // -b asks for other sizes.
  const std::string reblock = p.store ? p.store->layout : "raw";
  p.layouts = src.layouts_given                             ? split_list(src.layouts)
              : store_files_only && src.block_sizes.empty() ? std::vector<std::string>{"as-stored"}
              : store_files_only                            ? std::vector<std::string>{"as-stored", reblock}
              : p.store                                     ? std::vector<std::string>{p.store->layout}
              : sources_named                               ? std::vector<std::string>{"raw"}
                                                            : sw.layouts;
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
  if (!a.dict.empty()) {
    if (!parse_dict_sizes(a.dict, p.dict_sizes, err)) return false;
  } else if (p.store) {
    p.dict_sizes = p.store->dict_sizes;
  } else if (a.codecs.empty()) {
    p.dict_sizes = sw.dict_sizes;
    p.dict_codecs = sw.dict_codecs;
    p.dict_max_level = sw.dict_max_level;
  }
  SourceRequest& r = p.sources;
  if (!make_source_request(src, r, err)) return false;
  if (r.datasets.empty() && r.files.empty()) {
    r.datasets = sw.datasets;
    const std::string dir = corpora_dir();
    if (!dir.empty()) r.files = sw.all_corpora ? manifest_names(dir) : sw.corpora;
  }
  // A sweep samples each source; named files get the full default sample.
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
  EngineOptions& e = p.engine;
  // A sweep trades precision for coverage; a run over chosen sources gets the full budget.
  const bool chosen_sources = sources_named;
  // A store profile over named sources is a measurement too, not a sweep.
  const bool full_budget = chosen_sources && (!a.profile_given || p.store);
  if (a.time && !(std::isfinite(*a.time) && *a.time > 0 && *a.time <= 3600)) {
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
  if (a.latency_seconds &&
      !(std::isfinite(*a.latency_seconds) && *a.latency_seconds > 0 && *a.latency_seconds <= 3600)) {
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
  if (a.cache != "stream" && a.cache != "hot" && a.cache != "cold") {
    err = fmt::format("invalid --cache '{}': expected stream, hot or cold", a.cache);
    return false;
  }
  e.cache = a.cache;
  if (a.dict_method != "file" && a.dict_method != "split") {
    err = fmt::format("invalid --dict-method '{}': expected file or split", a.dict_method);
    return false;
  }
  e.dict_method = a.dict_method;
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
  if (!parse_stall_thresholds(a.stall, e.stall_thresholds_ns, err)) return false;
  if (p.store && p.store->stall_threshold_ms > 0)
    e.stall_thresholds_ns.push_back(static_cast<uint64_t>(p.store->stall_threshold_ms * 1e6));
  std::sort(e.stall_thresholds_ns.begin(), e.stall_thresholds_ns.end());
  e.stall_thresholds_ns.erase(std::unique(e.stall_thresholds_ns.begin(), e.stall_thresholds_ns.end()),
                              e.stall_thresholds_ns.end());
  if (!a.shard.empty() && !parse_shard(a.shard, e.shard_index, e.shard_count, err)) return false;
  if (a.sort != "cspeed" && a.sort != "dspeed" && a.sort != "ratio" && a.sort != "none") {
    err = fmt::format("invalid --sort '{}': expected cspeed, dspeed, ratio or none", a.sort);
    return false;
  }
  e.seed = r.seed;
  e.random_interleaving = !a.no_interleave;
  return true;
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
    // the codec, or refused when the store cannot write it at all. The profile's own list is
    // already that (its rows without ":fresh" are the best possible call, on purpose).
    if (p.store && p.codecs_given) {
      const std::string& name = c.codec->info().name;
      if (std::string e = store_codec_options(*p.store, name, c.params.options); !e.empty()) {
        err = p.store_from_files ? implied_store_error(*p.store, e, name) : e;
        return false;
      }
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
    for (size_t d : p.dict_sizes) {
      CodecChoice v = c;
      v.params.dict_size = d;
      out.push_back(v);
    }
  }
  return true;
}

namespace {

// The profile's store, options aside; Cassandra and ScyllaDB frame chunks alike.
bool same_store(const StoreProfile& profile, const std::string& store) {
  const std::string& name = profile.base.empty() ? profile.name : profile.base;
  auto family = [](const std::string& s) { return s == "scylla" ? std::string("cassandra") : s; };
  return family(name) == family(store);
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
  }
  if (!origin.dictionary.empty()) c.params.dict_size = origin.dictionary.size();
  out.current = c;
  return true;
}

}  // namespace kvz
