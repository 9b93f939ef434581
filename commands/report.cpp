// `kvzbench report`, `check`, `merge`: file in, file (or verdict) out. Usage and input errors
// print one line and exit 2.
#include "commands/report.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "commands/cli_errors.h"
#include "commands/help_format.h"
#include "report/check_writers.h"
#include "report/db_levels_writers.h"
#include "report/report_file.h"
#include "report/table_totals_writers.h"
#include "report/terminal_view.h"
#include "report/writers.h"
#include "results/results.h"
#include "results/results_compact.h"
#include "util/files.h"
#include "util/output_paths.h"
#include "util/text.h"

namespace kvz {

namespace {

// Parse, or return the exit code: 0 after --help, 2 on a usage error (one line).
bool parse(CLI::App& app, int argc, char** argv, int& code) {
  try {
    app.parse(argc, argv);
    return true;
  } catch (const CLI::CallForHelp& e) {
    code = app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "kvzbench %s: error: %s\n", app.get_name().c_str(), parse_error_line(app, e).c_str());
    code = 2;
  }
  return false;
}

int fail(const char* cmd, const std::string& msg, int code = 2) {
  std::fprintf(stderr, "kvzbench %s: error: %s\n", cmd, one_line(msg).c_str());
  return code;
}

// The outputs given (those not empty) against the inputs, before anything is read
// (util/output_paths.h); from here on a signal removes a half-written output's temporary file.
std::string check_paths(const std::vector<NamedPath>& given, const std::vector<std::string>& input_paths,
                        const std::vector<NamedPath>& named_inputs = {}) {
  std::vector<NamedPath> outputs, inputs = named_inputs;
  for (const auto& o : given)
    if (!o.path.empty()) outputs.push_back(o);
  for (const auto& p : input_paths) inputs.push_back({"", p});
  remove_temporaries_on_signals();
  return check_outputs(outputs, inputs);
}

bool load_all(const std::vector<std::string>& paths, std::vector<RunResults>& runs, std::string& error) {
  for (const auto& p : paths) {
    RunResults r;
    if (!load_results(p, r, error)) return false;
    runs.push_back(std::move(r));
  }
  return true;
}

// `report`'s command line: the inputs, the outputs, and the options of what they show.
struct ReportArgs {
  std::vector<std::string> inputs, device_specs;
  std::string html, md, csv, workload;
  ReportOptions opt;
};

// The App `report` parses with; describe_report hands the same one to the man page and completions.
void add_report_options(CLI::App& app, ReportArgs& a) {
  app.description("Write an HTML report (and Markdown/CSV) from result files");
  fit_help(app);  // within the console's width
  app.name("report");
  RecommendOptions& rec = a.opt.recommend;
  app.add_option("results", a.inputs, "result JSON files")->required()->check(CLI::ExistingFile);
  app.add_option("-o,--html", a.html, "HTML report to write (default report.html when no output is named)");
  app.add_option("--md", a.md, "Markdown summary to write");
  app.add_option("--csv", a.csv, "CSV (one row per cell) to write");
  app.add_option("--workload", a.workload,
                 "cost model: write=MB/s,read=MB/s,storage=$/GB-month,cpu=$/core-hour[,device=NAME]");
  app.add_option("--device", a.device_specs,
                 "I/O model device NAME:MBPS:LATENCY_US (repeatable; replaces the default NVMe/SATA/HDD/10GbE)");
  app.add_option("--read-min-ratio", rec.read_min_stored_ratio, "read-heavy: stored ratio above this (a floor)");
  app.add_option("--space-min-decompress", rec.space_min_decompress, "space-sensitive: decompress MB/s floor")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--latency-quota-us", rec.latency_quota_us,
                 "latency-bound: every block's intrinsic cost (its fastest call) below this, in us")
      ->check(CLI::PositiveNumber);
  app.add_option("--cold-min-decompress", rec.cold_min_decompress, "cold data: decompress MB/s floor")
      ->check(CLI::NonNegativeNumber);
}

// --device replaces the default devices; --workload (after them: it may name one) the cost model.
bool resolve_report_options(ReportArgs& a, std::string& error) {
  if (!a.device_specs.empty()) {
    a.opt.devices.clear();
    for (const auto& s : a.device_specs) {
      Device d;
      if (!parse_device(s, d, error)) return false;
      a.opt.devices.push_back(d);
    }
  }
  if (a.workload.empty()) return true;
  Workload w;
  if (!parse_workload(a.workload, a.opt.devices, w, error)) return false;
  a.opt.workload = w;
  return true;
}

// A merged sweep takes a minute to read: on a terminal, how far, on one line of stderr.
ReadProgress read_progress(const std::string& path) {
  if (!isatty(STDERR_FILENO)) return {};
  return [path](double fraction) {
    std::string line = "reading " + path + ": " + std::to_string(static_cast<int>(fraction * 100)) + " %";
    line.resize(terminal_columns() - 1, ' ');
    std::cerr << '\r' << line << std::flush;
  };
}

// The inputs read and merged before the first file is written; then each output, named as written.
// One input is streamed (report/report_file.h): past a size it is shown in part, its answers over
// every cell. Several are held whole and merged, as ever.
bool write_reports(ReportArgs& a, std::string& error) {
  if (a.html.empty() && a.md.empty() && a.csv.empty()) a.html = "report.html";
  if (a.inputs.size() == 1) {
    const bool ok = report_file(a.inputs[0], {a.html, a.md, a.csv}, a.opt, error, {}, read_progress(a.inputs[0]));
    if (isatty(STDERR_FILENO)) std::cerr << '\r' << std::string(terminal_columns() - 1, ' ') << '\r' << std::flush;
    if (!ok) return false;
    for (const auto* out : {&a.html, &a.md, &a.csv})
      if (!out->empty()) std::printf("wrote %s\n", out->c_str());
    return true;
  }
  std::vector<RunResults> runs;
  if (!load_all(a.inputs, runs, error)) return false;
  RunResults all;
  if ((!a.md.empty() || !a.csv.empty()) && !merge_results(runs, all, error)) return false;
  if (!a.html.empty()) {
    if (!write_html(a.html, runs, a.opt, error)) return false;
    std::printf("wrote %s\n", a.html.c_str());
  }
  if (!a.md.empty()) {
    if (!write_markdown(a.md, all, a.opt, error)) return false;
    std::printf("wrote %s\n", a.md.c_str());
  }
  if (!a.csv.empty()) {
    if (!write_csv(a.csv, all, error)) return false;
    std::printf("wrote %s\n", a.csv.c_str());
  }
  return true;
}

// `check`'s command line.
struct CheckArgs {
  std::string base_path, cur_path, html;
  std::string junit, markdown;  // the verdict for CI systems (report/check_writers.h)
  CheckOptions opt;
  bool no_speed = false, wall = false;
};

// The App `check` parses with; describe_check hands the same one to the man page and completions.
void add_check_options(CLI::App& app, CheckArgs& a) {
  app.description("Check a run against a baseline: exit 0 pass, 1 fail, 2 unusable input");
  fit_help(app);  // within the console's width
  app.name("check");
  CheckOptions& opt = a.opt;
  app.add_option("-b,--baseline", a.base_path, "baseline result JSON")->required();
  app.add_option("current", a.cur_path, "current result JSON")->required();
  app.add_option("--threshold", opt.slowdown_threshold, "slowdown that can FAIL (fraction, default 0.10)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--p-value", opt.p_value, "Mann-Whitney significance (default 0.01)")->check(CLI::Range(0.0, 1.0));
  app.add_option("--ratio-tolerance", opt.ratio_tolerance,
                 "ratio loss allowed when codec library versions differ (default 0.005)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--min-repetitions", opt.min_repetitions, "repetitions needed before a speed can FAIL (default 9)");
  app.add_flag("--no-speed", a.no_speed, "check only round trips and sizes");
  app.add_flag("--wall-time", a.wall, "gate on wall-clock speeds instead of CPU-time speeds");
  app.add_flag("--fail-missing", opt.fail_on_missing, "a baseline cell missing from the current run fails");
  app.add_option("--html", a.html, "also write the comparison as an HTML report (both runs, check's verdicts)");
  app.add_option("--junit", a.junit,
                 "also write the verdict as JUnit XML: per cell, test cases size, compress, decompress");
  app.add_option("--markdown", a.markdown,
                 "also append the verdict table as Markdown to this file, e.g. \"$GITHUB_STEP_SUMMARY\"");
}

// check --junit and --markdown, judged again from the same runs (check_results keeps its report
// to itself); they never change the exit code.
bool write_ci_outputs(const CheckArgs& a, const RunResults& base, const RunResults& cur, double seconds,
                      std::string& error) {
  if (a.junit.empty() && a.markdown.empty()) return true;
  const CheckReport rep = check_cells(base, cur, a.opt);
  const CheckContext ctx{a.opt, &base, &cur, seconds};
  if (!a.junit.empty()) {
    if (!write_check_junit(a.junit, rep, ctx, error)) return false;
    std::fprintf(stderr, "wrote %s\n", a.junit.c_str());
  }
  if (!a.markdown.empty()) {
    if (!append_check_markdown(a.markdown, rep, ctx, error)) return false;
    std::fprintf(stderr, "appended to %s\n", a.markdown.c_str());
  }
  return true;
}

// `check` with only the console verdict: both files read compact, each on its own thread (JSON
// parsing is most of the time), so a million-cell merged sweep checks in bounded memory
// (bench/scripts/merge_scale.sh). The HTML and CI outputs need whole cells and take the path below.
int check_compact_files(const CheckArgs& a) {
  CompactRun base, cur;
  std::string base_error, cur_error;
  bool base_ok = false;
  std::thread base_loader([&] { base_ok = load_compact_results(a.base_path, base, base_error); });
  const bool cur_ok = load_compact_results(a.cur_path, cur, cur_error);
  base_loader.join();
  if (!base_ok) return fail("check", "baseline " + base_error);
  if (!cur_ok) return fail("check", cur_error);
  const CompactCheckReport rep = check_compact(base, cur, a.opt);
  print_check_text(base.meta, cur.meta, a.opt, rep, std::cout);
  return rep.summary.exit_code;
}

// `merge`'s command line, and the App it parses with.
struct MergeArgs {
  std::vector<std::string> inputs;
  std::string out;
};

void add_merge_options(CLI::App& app, MergeArgs& a) {
  app.description("Merge result files (shards or machines) into one");
  fit_help(app);  // within the console's width
  app.name("merge");
  app.add_option("results", a.inputs, "result JSON files")->required();
  app.add_option("-o,--output", a.out, "merged result JSON")->required();
}

}  // namespace

void describe_report(CLI::App& app) {
  static ReportArgs a;  // what the options bind to: a described App is never parsed
  add_report_options(app, a);
}

void describe_check(CLI::App& app) {
  static CheckArgs a;
  add_check_options(app, a);
}

void describe_merge(CLI::App& app) {
  static MergeArgs a;
  add_merge_options(app, a);
}

int report_main(int argc, char** argv) {
  CLI::App app;
  ReportArgs a;
  add_report_options(app, a);
  int code = 0;
  if (!parse(app, argc, argv, code)) return code;
  std::string error;
  if (a.html.empty() && a.md.empty() && a.csv.empty()) a.html = "report.html";
  if (error = check_paths({{"-o/--html", a.html}, {"--md", a.md}, {"--csv", a.csv}}, a.inputs); !error.empty())
    return fail("report", error);
  if (!resolve_report_options(a, error) || !write_reports(a, error)) return fail("report", error);
  return 0;
}

int check_main(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  CLI::App app;
  CheckArgs a;
  add_check_options(app, a);
  int code = 0;
  if (!parse(app, argc, argv, code)) return code;
  CheckOptions& opt = a.opt;
  // CLI11's Range lets NaN through (every comparison with it is false): a NaN threshold
  // would switch the test off.
  if (!(opt.slowdown_threshold > 0 && opt.slowdown_threshold < 1))
    return fail("check", "--threshold must be a fraction in (0, 1), e.g. 0.10");
  if (!(opt.p_value > 0 && opt.p_value <= 1)) return fail("check", "--p-value must be in (0, 1], e.g. 0.01");
  if (!(opt.ratio_tolerance >= 0 && opt.ratio_tolerance < 1))
    return fail("check", "--ratio-tolerance must be a fraction in [0, 1), e.g. 0.005");
  if (opt.min_repetitions < 2) return fail("check", "--min-repetitions must be at least 2");
  opt.speed_gate = !a.no_speed;
  opt.use_cpu_time = !a.wall;
  opt.baseline_path = a.base_path;
  opt.current_path = a.cur_path;
  opt.width = console_columns();
  if (const std::string why = check_paths({{"--html", a.html}, {"--junit", a.junit}, {"--markdown", a.markdown}},
                                          {a.cur_path}, {{"--baseline", a.base_path}});
      !why.empty())
    return fail("check", why);
  if (a.html.empty() && a.junit.empty() && a.markdown.empty()) return check_compact_files(a);
  RunResults base, cur;
  std::string error;
  if (!load_results(a.base_path, base, error)) return fail("check", "baseline " + error);
  if (!load_results(a.cur_path, cur, error)) return fail("check", error);
  const int verdict = check_results(base, cur, opt, std::cout);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!write_ci_outputs(a, base, cur, seconds, error)) return fail("check", error);
  if (!a.html.empty()) {
    ReportOptions report;
    report.check = opt;
    if (!write_html(a.html, {base, cur}, report, error)) return fail("check", error);
    std::fprintf(stderr, "wrote %s\n", a.html.c_str());
  }
  return verdict;
}

int merge_main(int argc, char** argv) {
  CLI::App app;
  MergeArgs a;
  add_merge_options(app, a);
  int code = 0;
  if (!parse(app, argc, argv, code)) return code;
  size_t cells = 0;
  std::string error = check_paths({{"-o", a.out}}, a.inputs);
  if (!error.empty()) return fail("merge", error);
  // Streamed: a million-cell merge holds ids, not cells (results/merge_stream.cpp).
  RunMeta meta;
  if (!merge_result_files(a.inputs, a.out, cells, error, &meta)) return fail("merge", error);
  // A fleet survey's merge opens on its answer, then the totals per table. Only a result with
  // store tables is read back for them: a sweep's million cells never are.
  const bool has_tables =
      std::any_of(meta.corpora.begin(), meta.corpora.end(), [](const CorpusInfo& c) { return !c.table.empty(); });
  RunResults merged;
  if (has_tables && !load_results(a.out, merged, error)) return fail("merge", error);
  const RunResults shown = terminal_view(merged);  // names are data: escaped for the terminal
  print_fleet_answer(std::cout, shown, console_columns());
  print_table_totals(std::cout, shown, console_columns());
  print_db_levels(std::cout, shown, nullptr, console_columns());  // a DB's levels, per table and level across hosts
  std::cout << std::flush;
  std::printf("merged %zu files, %zu cells into %s\n", a.inputs.size(), cells, a.out.c_str());
  return 0;
}

}  // namespace kvz
