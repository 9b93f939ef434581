// `kvzbench run`: options -> block sets -> matrix -> engine -> table and result files.
#include "commands/run.h"

#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "bench/engine.h"
#include "bench/interrupt.h"
#include "bench/machine_load.h"
#include "bench/stats.h"
#include "bench/timer.h"
#include "blockgen/corpus.h"
#include "blockgen/layouts.h"
#include "blockgen/pipeline.h"
#include "blockgen/records.h"
#include "blockgen/source_registry.h"
#include "codecs/registry.h"
#include "codecs/spec.h"
#include "commands/cli_errors.h"
#include "commands/help_format.h"
#include "commands/run_contenders.h"
#include "commands/run_levels.h"
#include "commands/run_metadata.h"
#include "commands/run_options.h"
#include "commands/run_outputs.h"
#include "commands/run_plan.h"
#include "commands/run_plan_hash.h"
#include "judgement/analysis.h"
#include "judgement/answer.h"
#include "report/console.h"
#include "report/db_levels_writers.h"
#include "report/table_totals_writers.h"
#include "report/terminal_view.h"
#include "report/writers.h"
#include "stores/store_profile.h"
#include "util/files.h"
#include "util/text.h"

namespace kvz {

namespace {

namespace fs = std::filesystem;

int usage_error(const std::string& msg) {
  std::cerr << "kvzbench run: error: " << one_line(msg) << "\n";
  return 2;
}

std::string eta_text(double s) {
  const auto t = static_cast<int>(std::lround(s));
  return t >= 60 ? fmt::format("{}m{:02}s", t / 60, t % 60) : fmt::format("{}s", t);
}

void add_options(CLI::App& app, RunArgs& a) {
  add_source_options(app, a.sources);
  app.add_option("-c,-e,--codecs", a.codecs,
                 "codec spec, e.g. lz4/zstd:1,3/snappy, all, or lzbench's -e zstd,1,3/lz4 (default: profile's)");
  app.add_option("--dict", a.dict, "dictionary sizes, e.g. 16K,64K: adds a variant per dictionary-capable codec");
  app.add_option("--dict-method", a.dict_method,
                 "file: one dictionary per block set, sampled from all its blocks and counted in stored bytes, as "
                 "RocksDB keeps one per SST | split: trained on 20 % of the blocks, measured on the rest (a "
                 "dictionary shipped outside the data)")
      ->capture_default_str();
  app.add_option("--time", a.time, "seconds of timed passes per cell (default: profile's)");
  app.add_option("--repetitions", a.repetitions, "repetitions per cell (default: profile's)");
  app.add_option("--latency-calls", a.latency_calls,
                 "latency calls wanted per cell and direction (default 10000; p99.9 needs 1000)");
  app.add_option("--latency-seconds", a.latency_seconds,
                 "time cap of one latency pass (default: profile's); calls of 100 us or less still get 1000");
  app.add_option("--cache", a.cache, accepted_values(kCacheOption, " | ", " | "))->capture_default_str();
  app.add_option("-T,--threads", a.threads, "worker threads, each with its own sessions over disjoint blocks")
      ->capture_default_str();
  app.add_option("--pin", a.pin, "pin to CPU(s), e.g. 2 or 0,2");
  app.add_option("--min-saving", a.min_saving_pct, "keep-raw rule: store raw unless a block shrinks by this %")
      ->capture_default_str();
  app.add_option("--stall-threshold", a.stall, "stall thresholds in ms")->capture_default_str();
  app.add_option("--profile", a.profile, "sweep size quick|default|full, or a store profile NAME[:key=value,...]")
      ->capture_default_str();
  app.add_option("--shard", a.shard,
                 "run shard I of N (I/N: whole block sets, balanced by estimated cost), or auto: I and N from Slurm "
                 "(array or job step) or a Kubernetes Indexed Job");
  app.add_option("--out-dir", a.out_dir,
                 "write the results JSON as DIR/results-<I>-of-<N>.json (the shard's; created if missing; a re-run "
                 "replaces only its own file)");
  app.add_option("--sort", a.sort, "table order: " + accepted_values(kSortOption, " | ", " | "))->capture_default_str();
  app.add_option("--csv", a.csv, "write CSV");
  app.add_option("--json", a.json, "write results JSON (Google Benchmark compatible)");
  app.add_option("--md", a.md, "write Markdown");
  app.add_option("--html", a.html, "write the HTML report");
  app.add_option("-o,--format", a.format,
                 "lzbench-style: the results to stdout as text (the table, default), csv, md or json; the table "
                 "then goes to stderr (same as --csv -, --md -, --json -)");
  app.add_option("--check", a.check, "after the run, check against this baseline results JSON");
  app.add_option("--workload", a.workload,
                 "cost model: write=MB/s,read=MB/s,storage=$/GB-month,cpu=$/core-hour[,device=NAME]: each "
                 "candidate's monthly cost, ranked, in the console summary, Markdown and HTML; with size=500G "
                 "[,num_levels=,multiplier=,dynamic=1,level_base=] [,write_buffer=,l0_trigger=,target_file=] "
                 "[,order=shuffled|ascending] under a RocksDB profile, a codec per level and its "
                 "compression_per_level line (console), each level measured on the blocks it holds (rocksdb@L3)");
  app.add_flag("-q,--quiet", a.quiet, "no progress bar");
  app.add_flag("--wide", a.wide,
               "the console table with every column (spreads, x memcpy, context memory, p50/p99/p99.9 per "
               "direction); the default fits 100 columns");
  app.add_flag("--no-interleave", a.no_interleave, "run repetitions in order instead of randomly interleaved");
}

// The App `run` parses with; describe_run hands the same one to the man page and completions.
void init_app(CLI::App& app, RunArgs& a) {
  app.description("kvzbench run: compress and decompress blocks with every selected codec");
  fit_help(app);  // within the console's width
  app.name("kvzbench run");
  add_options(app, a);
}

// A warning on stderr, wrapped at spaces to the terminal's width (continuation lines indented),
// so `COLUMNS=100 kvzbench run ...` prints no line wider than 100 code points; one line when
// stderr is a file or a pipe (util/text.h: stderr_wrap_width).
void print_warning(const std::string& text) {
  std::cerr << wrap_words("kvzbench run: warning:", one_line(text), stderr_wrap_width()) << "\n";
}

// What a store file or part (a DB's level) records beside its bytes: level, files, data blocks, codecs.
void add_store_part(const StoredOrigin& origin, CorpusInfo& c) {
  c.level = origin.level;
  c.files = origin.files;
  c.data_bytes = origin.data_bytes;
  c.codecs = origin.file_codecs;
  c.options = origin.options;
}

// Sources -> records -> block sets (and, with --workload ...,size=, their level cuts). Returns false
// (exit 2) on a missing or unreadable file.
bool make_groups(const RunPlan& p, const std::optional<Workload>& workload, std::vector<BlockGroup>& groups,
                 std::vector<CorpusInfo>& corpora, std::string& err) {
  std::vector<Source> sources;
  std::vector<std::string> warnings;
  const bool loaded = load_sources(p.sources, sources, warnings, err);
  for (const auto& s : sources)
    if (!s.path.empty()) {
      const bool store_file = SourceRegistry::global().made(s.records);
      corpora.push_back({s.name, s.path, s.file_bytes, s.sha256, store_file ? s.records.detail : std::string(),
                         store_file ? s.records.origin.table : std::string()});
      if (store_file) add_store_part(s.records.origin, corpora.back());
    }
  std::vector<BlockSet> sets;
  const bool cut = loaded && cut_block_sets(sources, p.layouts, p.block_sizes, sets, warnings, err) &&
                   cut_run_levels(p, workload, sources, sets, err);
  if (!cut) {
    for (const auto& w : warnings) print_warning(w);
    return false;
  }
  for (auto& blocks : sets) {
    groups.emplace_back();
    if (!make_group(p, std::move(blocks), CodecRegistry::instance(), groups.back(), warnings, err)) return false;
  }
  for (const auto& w : warnings) print_warning(w);
  return true;
}

// One line on stderr, never wider than the terminal minus one column (no wrap, no scroll).
void progress_bar(double frac, double eta, const std::string& what) {
  const size_t width = terminal_columns() - 1;
  const size_t bar_width = std::clamp<size_t>(width / 4, 10, 30);
  std::string bar(static_cast<size_t>(frac * static_cast<double>(bar_width)), '#');
  bar.resize(bar_width, '.');
  std::string line = fmt::format("[{}] {:3.0f}% ETA {:>6} {}", bar, frac * 100, eta_text(eta), what);
  line.resize(width, ' ');
  std::cerr << '\r' << line << std::flush;
}

void clear_progress() { std::cerr << '\r' << std::string(terminal_columns() - 1, ' ') << '\r' << std::flush; }

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

// -o/--format: which result goes to standard output (the table then goes to stderr).
enum class StdoutFormat { Text, Csv, Md, Json };
constexpr OptionValue<StdoutFormat> kStdoutFormats[] = {
    {"text", StdoutFormat::Text}, {"csv", StdoutFormat::Csv}, {"md", StdoutFormat::Md}, {"json", StdoutFormat::Json}};
constexpr OptionRow<StdoutFormat> kFormatOption{"-o/--format", kStdoutFormats};

// -o csv|md|json is --csv -, --md -, --json -; naming both is an error.
bool route_format(const std::string& format, OutputFiles& given, std::string& err) {
  StdoutFormat f = StdoutFormat::Text;
  if (!format.empty() && !parse_option(kFormatOption, format, f, err)) return false;
  std::string* to_stdout = f == StdoutFormat::Csv    ? &given.csv
                           : f == StdoutFormat::Md   ? &given.md
                           : f == StdoutFormat::Json ? &given.json
                                                     : nullptr;
  if (!to_stdout) return true;
  if (!to_stdout->empty()) {
    err = fmt::format("-o {} and --{} {}: one of them", format, format, *to_stdout);
    return false;
  }
  *to_stdout = std::string(kStdout);
  return true;
}

// The arguments, or false with the exit code: 0 after --help, 2 on a usage error.
bool parse_run_args(int argc, char** argv, RunArgs& a, int& code) {
  CLI::App app;
  init_app(app, a);
  if (std::string theirs = foreign_flag_error(app, argc, argv); !theirs.empty()) {
    code = usage_error(theirs);
    return false;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    code = app.exit(e);
    return false;
  } catch (const CLI::ParseError& e) {
    code = usage_error(parse_error_line(app, e));
    return false;
  }
  if (std::string empty = empty_option_value(app); !empty.empty()) {
    code = usage_error(empty);
    return false;
  }
  a.profile_given = app.count("--profile") > 0;
  note_given_sources(app, a.sources);
  return true;
}

// Everything settled before a block is read: the plan, the codec rows, the report's options,
// the --check baseline and where the outputs go.
struct RunSetup {
  RunPlan plan;
  std::vector<CodecChoice> choices;
  ReportOptions report;
  RunResults baseline;
  std::vector<std::string> inputs;  // what the run reads: no output may be one of them
  OutputFiles outputs;
};

// False with a one-line error (exit 2).
bool set_up(const RunArgs& a, RunSetup& s, std::string& err) {
  if (!make_plan(a, s.plan, err)) return false;
  if (!make_choices(s.plan, CodecRegistry::instance(), s.choices, err)) return false;
  if (!a.workload.empty()) {
    Workload w;
    if (!parse_workload(a.workload, s.report.devices, w, err)) return false;
    s.report.workload = w;
  }
  if (!a.pin.empty() && !pin_cpus(a.pin, err)) return false;
  // Signals are handled from here on: until measuring starts one ends the process at once
  // (nothing to save, and an open() of a FIFO never returns on its own).
  install_interrupt_handlers();
  // The baseline first: an unreadable --check must not cost a whole run.
  if (!a.check.empty() && !load_results(a.check, s.baseline, err)) return false;
  s.inputs = s.plan.sources.files;
  if (!a.check.empty()) s.inputs.push_back(a.check);
  OutputFiles given{a.json, a.csv, a.md, a.html, "", false};
  if (!route_format(a.format, given, err)) return false;
  if (!a.out_dir.empty()) {
    const EngineOptions& e = s.plan.engine;
    if (!given.json.empty()) {
      err = "--out-dir and --json both name the results file: give one";
      return false;
    }
    err = shard_results_file(a.out_dir, e.shard_index, e.shard_count, given.json);
    if (!err.empty()) return false;
  }
  err = prepare_outputs(given, s.inputs, s.outputs);
  return err.empty();
}

// What the measuring left: the results, the cells that failed, the time it took.
struct RunOutcome {
  RunResults results;
  size_t failed = 0;
  double elapsed = 0;
  bool empty_shard = false;  // more shards than block sets: this one runs none, and says so
};

// A shard that no block set falls to (bench/matrix.h assign_shards) still writes its file, with
// no cells, so the sweep's merge finds every shard's.
void note_empty_shard(const Matrix& matrix, const EngineOptions& e, RunOutcome& out) {
  const std::vector<int> shard_of = assign_shards(matrix, e);
  out.empty_shard = e.shard_count > 1 && std::count(shard_of.begin(), shard_of.end(), e.shard_index) == 0;
  if (out.empty_shard)
    print_warning(fmt::format("shard {} of {}: none of the {} block sets falls to it: its result holds no cells",
                              e.shard_index, e.shard_count, matrix.groups.size()));
}

// Reads the sources, then measures the matrix (a signal stops it and keeps what finished).
// False with a one-line error (exit 2) when a source cannot be read.
bool measure(const RunArgs& a, RunSetup& s, int argc, char** argv, RunOutcome& out, std::string& err) {
  const CodecRegistry& reg = CodecRegistry::instance();
  RunResults& results = out.results;
  fill_run_meta(results.meta, s.plan, a, reg, argc, argv);
  std::vector<BlockGroup> groups;
  if (!make_groups(s.plan, s.report.workload, groups, results.meta.corpora, err)) return false;
  record_plan(results.meta, s.plan, s.choices);  // merge joins only the shards of one plan
  results.meta.store_versions = store_versions_of(groups);
  for (const auto& c : results.meta.corpora) s.inputs.push_back(c.path);
  err = output_overwrites_input(s.outputs, s.inputs);
  if (!err.empty()) return false;
  s.plan.engine.llc_bytes = results.meta.llc_bytes;
  Matrix matrix = build_matrix(std::move(groups), s.choices, reg);
  note_empty_shard(matrix, s.plan.engine, out);
  const bool show_progress = !a.quiet && isatty(2);
  EngineHooks hooks;
  hooks.stop = &interrupt_flag();
  if (show_progress) hooks.progress = progress_bar;
  const double t0 = wall_seconds();
  set_run_phase(RunPhase::Measuring);  // a signal now stops the engine and keeps what finished
  const LoadSample load_start = sample_machine_load();
  EngineOutcome outcome = run_matrix(matrix, s.plan.engine, hooks);
  results.cells = std::move(outcome.cells);
  results.meta.interrupted = outcome.interrupted || interrupt_signal() != 0;
  if (const size_t again = measure_contenders(matrix, s.plan.engine, hooks, results, outcome.warnings))
    results.meta.extra["contender_cells"] = std::to_string(again);  // ties measured again
  results.meta.machine_load = machine_load_between(load_start, sample_machine_load(), s.plan.engine.threads);
  set_run_phase(RunPhase::Writing);  // ... and cannot hold the writes on a FIFO or pipe nobody reads
  if (show_progress) clear_progress();
  out.elapsed = wall_seconds() - t0;
  out.failed = outcome.failed;
  for (const auto& w : outcome.warnings) print_warning(w);
  results.meta.interrupted = results.meta.interrupted || interrupt_signal() != 0;
  results.meta.extra["wall_seconds"] = fmt::format("{:.1f}", out.elapsed);
  return true;
}

// The answer, the tables, the totals, costs and plans, the files written.
void print_summary(std::ostream& console, const RunOutcome& run, const RunSetup& s, bool wide,
                   const std::vector<std::string>& written) {
  const RunResults results = terminal_view(run.results);  // names are data: escaped for the terminal
  // The answer first (with the machine's verdict), then the tables, within the terminal's width
  // (100 in a file or a pipe).
  print_run_console(console, results,
                    {.sort = s.plan.sort,
                     .wide = wide,
                     .width = console_columns(),
                     .workload = s.report.workload,
                     .devices = s.report.devices});
  console << fmt::format("\n{} cells in {:.1f} s, {} failed{}.\n", results.cells.size(), run.elapsed, run.failed,
                         results.meta.interrupted ? ", interrupted (finished cells kept)" : "");
  for (const auto& w : written)
    console << "wrote " << (w == kStdout ? std::string("standard output") : fs::absolute(w).string()) << "\n";
  console << std::flush;
}

// After the console: the failed cells on stderr, then the exit code (with --check, its verdict).
int finish(const RunArgs& a, const RunSetup& s, const RunOutcome& run, bool wrote, std::ostream& console) {
  const RunResults& results = run.results;
  for (const auto& c : results.cells)
    if (c.status == CellStatus::Failed)
      std::cerr << "kvzbench run: FAILED " << one_line(c.key.id()) << ": " << one_line(c.failure) << "\n";
  if (results.meta.interrupted) return run_exit_code(interrupt_signal() ? interrupt_signal() : SIGINT, 0, wrote, 0);
  if (results.cells.empty() && !run.empty_shard) {
    std::cerr << "kvzbench run: error: nothing was measured (no cell ran)\n";
    return 1;
  }
  int check_code = 0;
  if (!a.check.empty()) {
    CheckOptions copt;
    copt.baseline_path = a.check;
    copt.current_path = s.outputs.json.empty() ? "this run" : s.outputs.json;
    copt.width = console_columns();
    check_code = check_results(s.baseline, results, copt, console);
  }
  return run_exit_code(0, run.failed, wrote, check_code);
}

}  // namespace

void describe_run(CLI::App& app) {
  static RunArgs a;  // what the options bind to: a described App is never parsed
  init_app(app, a);
}

int run_main(int argc, char** argv) {
  RunArgs a;
  int code = 0;
  if (!parse_run_args(argc, argv, a, code)) return code;
  RunSetup s;
  // However the run ends (an error, an exception main catches), the results directory it made
  // is not left behind empty.
  const struct DirectoryGuard {
    const OutputFiles& outputs;
    ~DirectoryGuard() { remove_unused_results_directory(outputs); }
  } guard{s.outputs};
  std::string err;
  if (!set_up(a, s, err)) return usage_error(err);
  RunOutcome run;
  if (!measure(a, s, argc, argv, run, err)) return usage_error(err);
  add_answer(run.results);  // the machine's verdict and the answer, in the files as on the console
  // The files before the console: `run ... | head` may close stdout at any line.
  std::vector<std::string> written;
  const bool wrote = write_outputs(s.outputs, run.results, s.report, written);
  // An output written to standard output (`--json -`) keeps it for the data: the table goes to stderr.
  std::ostream& console = writes_stdout(s.outputs) ? std::cerr : std::cout;
  print_summary(console, run, s, a.wide, written);
  return finish(a, s, run, wrote, console);
}

}  // namespace kvz
