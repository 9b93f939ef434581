// `kvzbench run`: options -> block sets -> matrix -> engine -> table and result files.
#include "commands/run.h"

#include <sched.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <set>

#include "bench/cell.h"
#include "bench/interrupt.h"
#include "bench/matrix.h"
#include "commands/run_options.h"
#include "bench/stats.h"
#include "stores/store_profile.h"
#include "bench/sysinfo.h"
#include "bench/timer.h"
#include "blockgen/corpus.h"
#include "blockgen/layouts.h"
#include "blockgen/records.h"
#include "codecs/registry.h"
#include "codecs/spec.h"
#include "kvz_build_info.h"
#include "report/analysis.h"
#include "report/console.h"
#include "report/writers.h"
#include "util/text.h"

namespace kvz {

namespace {

namespace fs = std::filesystem;

int usage_error(const std::string& msg) {
  std::cerr << "kvzbench run: error: " << msg << "\n";
  return 2;
}

std::string eta_text(double s) {
  const int t = static_cast<int>(s + 0.5);
  return t >= 60 ? fmt::format("{}m{:02}s", t / 60, t % 60) : fmt::format("{}s", t);
}

struct RunArgs {
  std::string codecs, block_sizes, layouts = "raw", datasets, dict, cache = "stream", profile = "default";
  std::string record_mode = "auto", stall = "0.5,1", pin, shard, sort = "cspeed";
  std::string csv, json, md, html, check;
  std::vector<std::string> files;
  double time = -1, min_saving_pct = 12.5;
  int repetitions = -1, threads = 1;
  uint64_t seed = 1;
  std::string max_bytes;
  bool quiet = false, no_interleave = false, profile_given = false, layouts_given = false;
};

void add_options(CLI::App& app, RunArgs& a) {
  app.add_option("files", a.files, "corpus files (paths or manifest names)");
  app.add_option("-c,-e,--codecs", a.codecs, "codec spec, e.g. lz4/zstd:1,3/snappy, all, or lzbench's -e zstd,1,3/lz4 (default: profile's)");
  app.add_option("-b,--block-size", a.block_sizes, "block sizes, e.g. 4K,64K (1K..1M)");
  app.add_option("-l,--layout", a.layouts, "layouts: raw, leveldb, rocksdb, hbase, values, values:single")->capture_default_str();
  app.add_option("-d,--dataset", a.datasets, "built-in datasets, comma separated");
  app.add_option("-r,--record-mode", a.record_mode, "record mode for corpus files")->capture_default_str();
  app.add_option("--max-bytes", a.max_bytes, "sample at most this much of each source (default: profile's; 64M for files)");
  app.add_option("--dict", a.dict, "dictionary sizes, e.g. 16K,64K: adds a variant per dictionary-capable codec");
  app.add_option("--time", a.time, "seconds of timed passes per cell (default: profile's)");
  app.add_option("--repetitions", a.repetitions, "repetitions per cell (default: profile's)");
  app.add_option("--cache", a.cache, "stream | hot | cold")->capture_default_str();
  app.add_option("-T,--threads", a.threads, "worker threads, each with its own sessions over disjoint blocks")->capture_default_str();
  app.add_option("--seed", a.seed, "seed for datasets and the dictionary split")->capture_default_str();
  app.add_option("--pin", a.pin, "pin to CPU(s), e.g. 2 or 0,2");
  app.add_option("--min-saving", a.min_saving_pct, "keep-raw rule: store raw unless a block shrinks by this %")->capture_default_str();
  app.add_option("--stall-threshold", a.stall, "stall thresholds in ms")->capture_default_str();
  app.add_option("--profile", a.profile, "sweep size quick|default|full, or a store profile name")->capture_default_str();
  app.add_option("--shard", a.shard, "run only cells with index % N == I (I/N)");
  app.add_option("--sort", a.sort, "table order: cspeed | dspeed | ratio | none")->capture_default_str();
  app.add_option("--csv", a.csv, "write CSV");
  app.add_option("--json", a.json, "write results JSON (Google Benchmark compatible)");
  app.add_option("--md", a.md, "write Markdown");
  app.add_option("--html", a.html, "write the HTML report");
  app.add_option("--check", a.check, "after the run, check against this baseline results JSON");
  app.add_flag("-q,--quiet", a.quiet, "no progress bar");
  app.add_flag("--no-interleave", a.no_interleave, "run repetitions in order instead of randomly interleaved");
}

// Everything resolved from the arguments and the chosen profile.
struct Plan {
  const SweepProfile* sweep = nullptr;
  const StoreProfile* store = nullptr;
  std::vector<std::string> datasets, corpora, layouts;
  std::vector<size_t> block_sizes, dict_sizes;
  std::vector<std::string> dict_codecs;
  std::string codecs;
  bool codecs_given = false;  // typed by the user (else a sweep's or store's default)
  size_t sample_bytes = 0, file_bytes = 0;
  EngineOptions engine;
};

bool make_plan(const RunArgs& a, Plan& p, std::string& err) {
  p.sweep = find_sweep_profile(a.profile);
  if (!p.sweep) {
    std::string store_err;
    p.store = find_store_profile(a.profile, store_err);
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
  }
  const SweepProfile& sw = *p.sweep;
  p.codecs = !a.codecs.empty() ? a.codecs : p.store ? p.store->codecs : sw.codecs;
  p.codecs_given = !a.codecs.empty();
  if (!a.block_sizes.empty()) {
    if (!parse_block_sizes(a.block_sizes, p.block_sizes, err)) return false;
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
  const bool sources_named = !a.files.empty() || !a.datasets.empty();
  p.layouts = a.layouts_given ? split_list(a.layouts)
              : p.store      ? std::vector<std::string>{p.store->layout}
              : sources_named ? std::vector<std::string>{"raw"}
                              : sw.layouts;
  for (const auto& l : p.layouts) {
    if (!is_valid_layout(l)) {
      std::string names;
      for (const auto& n : layout_names()) names += (names.empty() ? "" : ", ") + n;
      err = fmt::format("unknown layout '{}': expected one of {}", l, names);
      return false;
    }
  }
  if (!a.dict.empty()) {
    if (!parse_block_sizes(a.dict, p.dict_sizes, err)) {
      err = "--dict: " + err;
      return false;
    }
  } else if (p.store) {
    p.dict_sizes = p.store->dict_sizes;
  } else if (a.codecs.empty()) {
    p.dict_sizes = sw.dict_sizes;
    p.dict_codecs = sw.dict_codecs;
  }
  p.datasets = split_list(a.datasets);
  for (const auto& d : p.datasets) {
    if (!is_valid_dataset(d)) {
      std::string names;
      for (const auto& n : dataset_names()) names += (names.empty() ? "" : ", ") + n;
      err = fmt::format("unknown dataset '{}': expected one of {}", d, names);
      return false;
    }
  }
  p.corpora = a.files;
  if (p.datasets.empty() && p.corpora.empty()) {
    p.datasets = sw.datasets;
    const std::string dir = corpora_dir();
    if (!dir.empty()) p.corpora = sw.all_corpora ? manifest_names(dir) : sw.corpora;
  }
  p.sample_bytes = sw.sample_bytes;
  p.file_bytes = a.files.empty() ? sw.sample_bytes : kDefaultMaxBytes;
  if (!a.max_bytes.empty()) {
    size_t n = 0;
    if (!parse_byte_size(a.max_bytes, n)) {
      err = fmt::format("invalid --max-bytes '{}'", a.max_bytes);
      return false;
    }
    p.sample_bytes = p.file_bytes = n;
  }
  EngineOptions& e = p.engine;
  // A sweep trades precision for coverage; a run over chosen sources gets the full budget.
  const bool chosen_sources = !a.files.empty() || !a.datasets.empty();
  // A store profile over named sources is a measurement too, not a sweep.
  const bool full_budget = chosen_sources && (!a.profile_given || p.store);
  e.seconds_per_cell = a.time >= 0 ? a.time : full_budget ? 0.5 : sw.seconds_per_cell;
  if (a.time == 0 || a.time > 3600) {
    err = "--time must be > 0 and at most 3600 seconds";
    return false;
  }
  e.repetitions = a.repetitions >= 0 ? a.repetitions : full_budget ? 5 : sw.repetitions;
  if (e.repetitions < 1 || e.repetitions > 1000) {
    err = "--repetitions must be between 1 and 1000";
    return false;
  }
  if (a.cache != "stream" && a.cache != "hot" && a.cache != "cold") {
    err = fmt::format("invalid --cache '{}': expected stream, hot or cold", a.cache);
    return false;
  }
  e.cache = a.cache;
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
  e.seed = a.seed;
  e.random_interleaving = !a.no_interleave;
  return true;
}

// Expand the codec spec and add the dictionary variants.
bool make_choices(const Plan& p, const CodecRegistry& reg, std::vector<CodecChoice>& out, std::string& err) {
  const std::string spec = p.codecs_given ? p.codecs : without_unbuilt_codecs(p.codecs, reg);
  std::vector<CodecChoice> base = parse_codec_spec(spec, reg, err);
  if (base.empty()) {
    if (err.empty()) err = fmt::format("codec spec '{}' selects nothing", p.codecs);
    return false;
  }
  for (const auto& c : base) {
    out.push_back(c);
    if (c.params.dict_size || !c.codec->info().supports_dict) continue;
    const auto& name = c.codec->info().name;
    if (!p.dict_codecs.empty() && std::find(p.dict_codecs.begin(), p.dict_codecs.end(), name) == p.dict_codecs.end())
      continue;
    for (size_t d : p.dict_sizes) {
      CodecChoice v = c;
      v.params.dict_size = d;
      out.push_back(v);
    }
  }
  return true;
}

// Sources -> records -> block sets. Returns false (exit 2) on a missing or unreadable file.
bool make_groups(const Plan& p, const RunArgs& a, std::vector<BlockGroup>& groups, std::vector<CorpusInfo>& corpora,
                 std::string& err) {
  std::vector<RecordSet> sources;
  for (const auto& d : p.datasets) {
    RecordSet rs = generate_dataset(d, a.seed, p.sample_bytes, err);
    if (!err.empty()) return false;
    sources.push_back(std::move(rs));
  }
  for (const auto& f : p.corpora) {
    const std::string path = resolve_corpus(f, err);
    if (path.empty()) {
      if (err.empty()) err = fmt::format("{}: no such corpus file", f);
      return false;
    }
    RecordSet rs = read_corpus(path, a.record_mode, p.file_bytes, err);
    if (!err.empty()) return false;
    for (const auto& w : rs.warnings) std::cerr << "kvzbench run: warning: " << f << ": " << w << "\n";
    std::error_code ec;
    std::string sha_err;
    corpora.push_back({rs.source.empty() ? f : rs.source, path, static_cast<uint64_t>(fs::file_size(path, ec)),
                       sha256_file(path, sha_err)});
    if (rs.records.empty() && rs.raw.empty()) {
      std::cerr << "kvzbench run: warning: " << f << " is empty: no rows for it\n";
      continue;
    }
    sources.push_back(std::move(rs));
  }
  for (const auto& rs : sources) {
    for (const auto& layout : p.layouts) {
      for (size_t bs : p.block_sizes) {
        BlockGroup g;
        g.blocks = build_blocks(rs, layout, bs, err);
        if (!err.empty()) {
          err = fmt::format("{}: {}", rs.source, err);
          return false;
        }
        g.store = p.store;
        if (g.blocks.count() == 0) {
          std::cerr << fmt::format("kvzbench run: warning: {} gives no {} blocks of {}\n", rs.source, layout,
                                   format_byte_size(bs));
          continue;
        }
        groups.push_back(std::move(g));
      }
    }
  }
  return true;
}

void fill_meta(RunMeta& m, const Plan& p, const RunArgs& a, const CodecRegistry& reg, int argc, char** argv) {
  m.kvzbench_version = KVZ_VERSION;
  m.git_revision = KVZ_GIT_REV;
  m.compiler = KVZ_CXX_COMPILER;
  m.build_type = KVZ_BUILD_TYPE;
  m.cxx_flags = KVZ_CXX_FLAGS;
  const SystemFacts sys = read_system_facts();
  m.cpu_model = sys.cpu_model;
  m.cpu_flags = sys.cpu_flags;
  m.cores = sys.cores;
  m.llc_bytes = sys.llc_bytes;
  m.hostname = sys.hostname;
  const TickClockInfo& tc = tick_clock_info();
  m.timer = tc.name;
  m.tsc_ghz = tc.ghz;
  m.timer_overhead_ns = tc.overhead_ns;
  m.started_at = utc_timestamp_iso();
  // main() hands `run` its own argv: argv[0] is "run" for `kvzbench run ...`.
  if (argc > 0 && std::string(argv[0]) == "run") m.command_line = "kvzbench ";
  for (int i = 0; i < argc; ++i) m.command_line += (i ? " " : "") + std::string(argv[i]);
  m.seed = a.seed;
  m.repetitions = p.engine.repetitions;
  m.profile = a.profile;
  for (const auto& c : reg.codecs())
    m.codec_versions.push_back({c->info().name, c->info().library, c->info().version, c->info().has_levels});
  m.extra["cache"] = p.engine.cache;
  m.extra["threads"] = std::to_string(p.engine.threads);
  m.extra["seconds_per_cell"] = fmt::format("{}", p.engine.seconds_per_cell);
  m.extra["random_interleaving"] = p.engine.random_interleaving ? "true" : "false";
  m.extra["mbps_unit"] = "1e6 bytes/s of uncompressed data";
  m.extra["latency_note"] = "per-call times include the timer overhead; nothing is subtracted";
  if (p.engine.shard_count > 1) m.extra["shard"] = fmt::format("{}/{}", p.engine.shard_index, p.engine.shard_count);
  if (!a.pin.empty()) m.extra["pinned_cpus"] = a.pin;
  m.extra["cold_working_set_bytes"] = std::to_string(cold_working_set_bytes(p.engine));
}

bool write_outputs(const RunArgs& a, const RunResults& r, std::vector<std::string>& written) {
  RunArgs out = a;
  if (a.csv.empty() && a.json.empty() && a.md.empty() && a.html.empty()) {
    const std::string dir = "kvzbench-results/" + utc_timestamp_compact();
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
      std::cerr << "kvzbench run: error: cannot create " << dir << ": " << ec.message() << "\n";
      return false;
    }
    out.json = dir + "/results.json";
    out.csv = dir + "/results.csv";
    out.md = dir + "/results.md";
    out.html = dir + "/report.html";
  }
  bool ok = true;
  std::string err;
  auto done = [&](bool good, const std::string& path) {
    if (good) {
      written.push_back(path);
    } else {
      std::cerr << "kvzbench run: error: " << (err.empty() ? "cannot write " + path : err) << "\n";
      ok = false;
    }
    err.clear();
  };
  if (!out.json.empty()) done(save_results(out.json, r, err), out.json);
  if (!out.csv.empty()) done(write_csv(out.csv, r, err), out.csv);
  if (!out.md.empty()) done(write_markdown(out.md, r, err), out.md);
  if (!out.html.empty()) done(write_html(out.html, {r}, err), out.html);
  return ok;
}

bool pin_cpus(const std::string& list, std::string& err) {
  std::vector<int> cpus;
  if (!parse_cpu_list(list, cpus, err)) return false;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) CPU_SET(c, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) {
    err = fmt::format("cannot pin to CPU(s) {}: {}", list, std::strerror(errno));
    return false;
  }
  return true;
}

}  // namespace

int run_main(int argc, char** argv) {
  CLI::App app{"kvzbench run: compress and decompress blocks with every selected codec", "kvzbench run"};
  RunArgs a;
  add_options(app, a);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }
  a.profile_given = app.count("--profile") > 0;
  a.layouts_given = app.count("--layout") > 0;
  Plan plan;
  std::string err;
  if (!make_plan(a, plan, err)) return usage_error(err);
  const CodecRegistry& reg = CodecRegistry::instance();
  std::vector<CodecChoice> choices;
  if (!make_choices(plan, reg, choices, err)) return usage_error(err);
  if (!a.pin.empty() && !pin_cpus(a.pin, err)) return usage_error(err);
  // Refuse before measuring rather than lose a long run to a typo in an output path.
  for (const std::string* out : {&a.json, &a.csv, &a.md, &a.html}) {
    if (out->empty()) continue;
    const fs::path parent = fs::path(*out).parent_path();
    std::error_code ec;
    if (!parent.empty() && !fs::is_directory(parent, ec))
      return usage_error(fmt::format("{}: directory {} does not exist", *out, parent.string()));
  }

  RunResults results;
  fill_meta(results.meta, plan, a, reg, argc, argv);
  std::vector<BlockGroup> groups;
  if (!make_groups(plan, a, groups, results.meta.corpora, err)) return usage_error(err);
  plan.engine.llc_bytes = results.meta.llc_bytes;
  Matrix matrix = build_matrix(std::move(groups), choices, reg);

  const bool show_progress = !a.quiet && isatty(2);
  EngineHooks hooks;
  hooks.stop = &interrupt_flag();
  if (show_progress) {
    hooks.progress = [](double frac, double eta, const std::string& what) {
      const int width = 30;
      const int filled = static_cast<int>(frac * width);
      std::string bar(static_cast<size_t>(filled), '#');
      bar.resize(width, '.');
      std::string line = fmt::format("\r[{}] {:3.0f}% ETA {:>6} {}", bar, frac * 100, eta_text(eta), what);
      if (line.size() > 110) line.resize(110);
      std::cerr << line << std::string(110 - std::min<size_t>(110, line.size()), ' ') << std::flush;
    };
  }
  install_sigint_handler();
  const double t0 = wall_seconds();
  EngineOutcome outcome = run_matrix(matrix, reg, plan.engine, hooks);
  restore_sigint_handler();
  if (show_progress) std::cerr << "\r" << std::string(111, ' ') << "\r" << std::flush;
  const double elapsed = wall_seconds() - t0;

  for (const auto& w : outcome.warnings) std::cerr << "kvzbench run: warning: " << w << "\n";
  results.cells = std::move(outcome.cells);
  results.meta.interrupted = outcome.interrupted;
  results.meta.extra["wall_seconds"] = fmt::format("{:.1f}", elapsed);
  print_console_table(std::cout, results, a.sort);
  print_store_table(std::cout, results);
  print_recommendations(std::cout, results);

  std::vector<std::string> written;
  const bool wrote = write_outputs(a, results, written);
  std::cout << fmt::format("\n{} cells in {:.1f} s, {} failed{}.\n", results.cells.size(), elapsed, outcome.failed,
                           outcome.interrupted ? ", interrupted (finished cells kept)" : "");
  for (const auto& w : written) std::cout << "wrote " << fs::absolute(w).string() << "\n";
  for (const auto& c : results.cells)
    if (c.status == CellStatus::Failed) std::cerr << "kvzbench run: FAILED " << c.key.id() << ": " << c.failure << "\n";
  if (outcome.interrupted) return run_exit_code(true, outcome.failed, wrote, 0);

  int check_code = 0;
  if (!a.check.empty()) {
    RunResults base;
    if (!load_results(a.check, base, err)) {
      std::cerr << "kvzbench run: error: " << err << "\n";
      return 2;
    }
    CheckOptions copt;
    copt.baseline_path = a.check;
    copt.current_path = a.json.empty() ? "this run" : a.json;
    check_code = check_results(base, results, copt, std::cout);
  }
  const int code = run_exit_code(false, outcome.failed, wrote, check_code);
  return code;
}

}  // namespace kvz
