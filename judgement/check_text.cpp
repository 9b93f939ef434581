// `check`'s verdict as text: the per-cell table and the summary that `check` prints (the
// verdict itself is judgement/check.cpp's check_cells).
#include <functional>
#include <map>
#include <ostream>
#include <string>

#include <fmt/format.h>

#include "judgement/check.h"
#include "results/run_meta.h"
#include "util/stats.h"
#include "util/text.h"

namespace kvz {

namespace {

std::string speed_text(const SpeedVerdict& v) {
  if (!v.compared) return v.note.empty() ? "-" : v.note;
  return fmt::format("{:+.1f} % p={:.2g}", -v.slowdown * 100, v.p);
}

}  // namespace

namespace {

// Both runs, what the speed gate does, library changes with the re-baseline command, the noise.
void print_check_header(const RunMeta& baseline, const RunMeta& current, const CheckOptions& opt,
                        const CheckReport& rep, std::ostream& out) {
  // Paths and every string from the files, escaped for the terminal (util/text.h one_line).
  const auto t = [](std::string_view text) { return one_line(text); };
  out << fmt::format("baseline: {} rev {} on '{}' ({})\n", t(opt.baseline_path), t(baseline.git_revision),
                     t(baseline.cpu_model), t(baseline.started_at));
  out << fmt::format("current:  {} rev {} on '{}' ({})\n", t(opt.current_path), t(current.git_revision),
                     t(current.cpu_model), t(current.started_at));
  if (!opt.speed_gate) {
    out << "speed: gate off (--no-speed): only round trips and sizes are checked\n";
  } else if (!rep.cpu_match) {
    out << "speed: SKIPPED, the CPU model differs from the baseline's\n";
  } else if (!rep.build_match) {
    out << fmt::format("speed: SKIPPED, the build differs from the baseline's ({} '{}' vs {} '{}')\n",
                       t(current.build_type), t(current.cxx_flags), t(baseline.build_type), t(baseline.cxx_flags));
  } else {
    out << fmt::format(
        "speed: FAIL when slower by > {:.0f} % and Mann-Whitney p < {} (>= {} repetitions), "
        "speeds by {} normalised to the run's memcpy row\n",
        opt.slowdown_threshold * 100, opt.p_value, opt.min_repetitions,
        opt.use_cpu_time ? "CPU time (wall time where a run lacks it)" : "wall time");
  }
  if (!rep.version_changes.empty()) {
    out << "codec library versions differ from the baseline's:";
    for (const auto& v : rep.version_changes) out << " " << t(v) << ";";
    out << fmt::format(" sizes compared within a {:.1f} % ratio loss\n", opt.ratio_tolerance * 100);
    const std::string& cmd = current.command_line;
    const bool bare = cmd.rfind("run", 0) == 0 || cmd.rfind('-', 0) == 0;  // argv of the subcommand
    out << fmt::format("re-baseline: cp {} {}   (the current run was: {}{})\n", t(opt.current_path),
                       t(opt.baseline_path), bare ? "kvzbench " : "", t(cmd));
  }
  if (rep.compress_noise > 0 || rep.decompress_noise > 0)
    out << fmt::format(
        "run-to-run noise (scatter of the cells' slowdowns): compress +-{:.1f} %, decompress +-{:.1f} %; "
        "a FAIL must clear the threshold by twice that\n",
        rep.compress_noise * 100, rep.decompress_noise * 100);
}

// A row per cell (`row(i)` for i < rows), then the count per status, the geometric means and the verdict.
void print_check_table(const CheckReport& rep, size_t rows, const std::function<CellCheck(size_t)>& row,
                       std::ostream& out) {
  out << fmt::format("{:<9} {:<12} {:<22} {:<22} {}\n", "status", "size", "compress", "decompress", "cell");
  std::map<CheckStatus, int> counts;
  std::vector<double> cspeed, dspeed, sizes;
  for (size_t i = 0; i < rows; ++i) {
    const CellCheck c = row(i);
    ++counts[c.status];
    out << fmt::format("{:<9} {:<12} {:<22} {:<22} {}{}\n", to_string(c.status),
                       c.size_note.empty() ? "-" : one_line(c.size_note), one_line(speed_text(c.compress)),
                       one_line(speed_text(c.decompress)), one_line(c.id),
                       c.note.empty() ? "" : "  (" + one_line(c.note) + ")");
    if (c.compress.compared) cspeed.push_back(1 - c.compress.slowdown);
    if (c.decompress.compared) dspeed.push_back(1 - c.decompress.slowdown);
    if (c.size_ratio > 0) sizes.push_back(c.size_ratio);
  }
  out << "summary:";
  for (auto s : {CheckStatus::Pass, CheckStatus::Fail, CheckStatus::Unstable, CheckStatus::Skipped, CheckStatus::New,
                 CheckStatus::Missing})
    out << fmt::format(" {} {}", counts[s], to_string(s));
  out << "\n";
  auto mean_text = [](const std::vector<double>& v, int digits) {
    return v.empty() ? std::string("n/a (0 cells)") : fmt::format("{:.{}f}x ({} cells)", geomean(v), digits, v.size());
  };
  out << fmt::format("geometric mean vs baseline: compress speed {}, decompress speed {}, compressed size {}\n",
                     mean_text(cspeed, 3), mean_text(dspeed, 3), mean_text(sizes, 4));
  if (!rep.refusal.empty())
    out << "check: FAIL: " << one_line(rep.refusal) << "\n";
  else
    out << (rep.exit_code == 0 ? "check: PASS\n" : "check: FAIL\n");
}

}  // namespace

void print_check_text(const RunMeta& baseline, const RunMeta& current, const CheckOptions& opt, const CheckReport& rep,
                      std::ostream& out) {
  print_check_header(baseline, current, opt, rep, out);
  print_check_table(
      rep, rep.cells.size(), [&](size_t i) { return rep.cells[i]; }, out);
}

void print_check_text(const RunMeta& baseline, const RunMeta& current, const CheckOptions& opt,
                      const CompactCheckReport& rep, std::ostream& out) {
  print_check_header(baseline, current, opt, rep.summary, out);
  print_check_table(
      rep.summary, rep.size(), [&](size_t i) { return rep.cell(i); }, out);
}

}  // namespace kvz
