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
  // Paths and every string from the files, escaped for the terminal (util/text.h one_line); each
  // line within the console's width, continued four columns in (util/text.h wrap_words).
  const auto t = [](std::string_view text) { return one_line(text); };
  const auto line = [&](std::string_view lead, const std::string& text) {
    out << wrap_words(lead, text, opt.width) << "\n";
  };
  line("baseline:", fmt::format("{} rev {} on '{}' ({})", t(opt.baseline_path), t(baseline.git_revision),
                                t(baseline.cpu_model), t(baseline.started_at)));
  line("current: ", fmt::format("{} rev {} on '{}' ({})", t(opt.current_path), t(current.git_revision),
                                t(current.cpu_model), t(current.started_at)));
  if (!opt.speed_gate) {
    out << "speed: gate off (--no-speed): only round trips and sizes are checked\n";
  } else if (!rep.cpu_match) {
    out << "speed: SKIPPED, the CPU model differs from the baseline's\n";
  } else if (!rep.build_match) {
    line("speed:",
         fmt::format("SKIPPED, the build differs from the baseline's ({} '{}' vs {} '{}')", t(current.build_type),
                     t(current.cxx_flags), t(baseline.build_type), t(baseline.cxx_flags)));
  } else {
    line("speed:", fmt::format("FAIL when slower by > {:.0f} % and Mann-Whitney p < {} (>= {} repetitions), "
                               "speeds by {} normalised to the run's memcpy row",
                               opt.slowdown_threshold * 100, opt.p_value, opt.min_repetitions,
                               opt.use_cpu_time ? "CPU time (wall time where a run lacks it)" : "wall time"));
  }
  if (!rep.version_changes.empty()) {
    std::string changes;
    for (const auto& v : rep.version_changes) changes.append(" ").append(t(v)).append(";");
    line("codec library versions differ from the baseline's:",
         fmt::format("{} sizes compared within a {:.1f} % ratio loss", changes.substr(1), opt.ratio_tolerance * 100));
    const std::string& cmd = current.command_line;
    const bool bare = cmd.rfind("run", 0) == 0 || cmd.rfind('-', 0) == 0;  // argv of the subcommand
    // The command on a line of its own, whole, to copy; the run it comes from under it.
    out << fmt::format("re-baseline: cp {} {}\n", t(opt.current_path), t(opt.baseline_path));
    line(" ", fmt::format("(the current run was: {}{})", bare ? "kvzbench " : "", t(cmd)));
  }
  if (rep.compress_noise > 0 || rep.decompress_noise > 0)
    line("run-to-run noise",
         fmt::format("(scatter of the cells' slowdowns): compress +-{:.1f} %, decompress +-{:.1f} %; "
                     "a FAIL must clear the threshold by twice that",
                     rep.compress_noise * 100, rep.decompress_noise * 100));
}

// A cell's row: status, size, both speeds and the cell; where the cell would pass the width, it
// follows the status and the figures go to the next line, under their headings.
std::string check_row(const CellCheck& c, size_t width) {
  // Names from the files are data: escaped for the terminal (util/text.h one_line).
  const std::string figures = fmt::format("{:<12} {:<22} {:<22}", c.size_note.empty() ? "-" : one_line(c.size_note),
                                          one_line(speed_text(c.compress)), one_line(speed_text(c.decompress)));
  const std::string cell = one_line(c.id) + (c.note.empty() ? "" : "  (" + one_line(c.note) + ")");
  const std::string one = fmt::format("{:<9} {} {}", to_string(c.status), figures, cell);
  if (display_width(one) <= width) return one + "\n";
  std::string trimmed = figures;
  while (!trimmed.empty() && trimmed.back() == ' ') trimmed.pop_back();
  return wrap_words(fmt::format("{:<9}", to_string(c.status)), cell, width) + "\n" + std::string(10, ' ') + trimmed +
         "\n";
}

// A row per cell (`row(i)` for i < rows), then the count per status, the geometric means and the verdict.
void print_check_table(const CheckReport& rep, size_t rows, const std::function<CellCheck(size_t)>& row, size_t width,
                       std::ostream& out) {
  out << fmt::format("{:<9} {:<12} {:<22} {:<22} {}\n", "status", "size", "compress", "decompress", "cell");
  std::map<CheckStatus, int> counts;
  std::vector<double> cspeed, dspeed, sizes;
  for (size_t i = 0; i < rows; ++i) {
    const CellCheck c = row(i);
    ++counts[c.status];
    out << check_row(c, width);
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
  out << wrap_words("geometric mean vs baseline:",
                    fmt::format("compress speed {}, decompress speed {}, compressed size {}", mean_text(cspeed, 3),
                                mean_text(dspeed, 3), mean_text(sizes, 4)),
                    width)
      << "\n";
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
      rep, rep.cells.size(), [&](size_t i) { return rep.cells[i]; }, opt.width, out);
}

void print_check_text(const RunMeta& baseline, const RunMeta& current, const CheckOptions& opt,
                      const CompactCheckReport& rep, std::ostream& out) {
  print_check_header(baseline, current, opt, rep.summary, out);
  print_check_table(
      rep.summary, rep.size(), [&](size_t i) { return rep.cell(i); }, opt.width, out);
}

}  // namespace kvz
