// `check --markdown`: check's verdict as Markdown for a CI job summary ($GITHUB_STEP_SUMMARY),
// appended to the file; see report/check_writers.h.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "report/check_writers.h"
#include "report/writers.h"
#include "results/results.h"
#include "util/files.h"
#include "util/output_target.h"
#include "util/text.h"

namespace kvz {

namespace {

constexpr size_t kMaxRows = 100;  // a step summary holds at most 1 MiB

constexpr CheckStatus kStatuses[] = {CheckStatus::Pass,    CheckStatus::Fail, CheckStatus::Unstable,
                                     CheckStatus::Skipped, CheckStatus::New,  CheckStatus::Missing};

// Table order: what fails the gate first, then what needs a look, then the rest.
int rank(CheckStatus s, bool fail_missing) {
  switch (s) {
    case CheckStatus::Fail:
      return 0;
    case CheckStatus::Missing:
      return fail_missing ? 1 : 5;
    case CheckStatus::Unstable:
      return 2;
    case CheckStatus::Skipped:
      return 3;
    case CheckStatus::New:
      return 4;
    case CheckStatus::Pass:
      break;
  }
  return 6;
}

std::string speed_text(const SpeedVerdict& v) {
  if (!v.compared) return v.note.empty() ? "-" : markdown_escape(v.note);
  return fmt::format("{} {:+.1f} % p={:.2g}", to_string(v.status), -v.slowdown * 100 + 0.0, v.p);
}

std::string verdict_line(const CheckReport& rep, const std::map<CheckStatus, size_t>& counts) {
  const size_t fails = counts.count(CheckStatus::Fail) ? counts.at(CheckStatus::Fail) : 0;
  std::string why;
  if (!rep.refusal.empty())
    why = markdown_escape(rep.refusal);
  else if (rep.exit_code != 0 && fails == 0)
    why = "a baseline cell is missing (--fail-missing)";
  else
    why = fmt::format("{} of {} cells failed", fails, rep.cells.size());
  return fmt::format("### kvzbench check: {} ({})\n\n", rep.exit_code == 0 ? "PASS" : "FAIL", why);
}

std::string runs_text(const CheckReport& rep, const CheckContext& ctx) {
  const CheckOptions& opt = ctx.options;
  auto run = [](const std::string& path, const RunResults* r) {
    return r ? fmt::format("{} (rev {}, {})", markdown_escape(path), markdown_escape(r->meta.git_revision),
                           markdown_escape(r->meta.started_at))
             : markdown_escape(path);
  };
  std::string o = fmt::format("Baseline {} against current {}", run(opt.baseline_path, ctx.baseline),
                              run(opt.current_path, ctx.current));
  if (ctx.current) o += " on " + markdown_escape(ctx.current->meta.cpu_model);
  if (!opt.speed_gate)
    o += ". Speeds: not checked (--no-speed).";
  else if (!rep.cpu_match)
    o += ". Speeds: SKIPPED, the CPU model differs from the baseline's (sizes still checked).";
  else if (!rep.build_match)
    o += ". Speeds: SKIPPED, the build differs from the baseline's.";
  else
    o += fmt::format(". Speeds FAIL when slower by > {:.0f} % with Mann-Whitney p < {} (>= {} repetitions).",
                     opt.slowdown_threshold * 100, opt.p_value, opt.min_repetitions);
  o += "\n\n";
  if (!rep.version_changes.empty())
    o += "Codec library versions differ from the baseline's: " + markdown_escape(join(rep.version_changes, "; ")) +
         fmt::format("; sizes compared within a {:.1f} % ratio loss.\n\n", opt.ratio_tolerance * 100);
  if (!rep.refusal.empty()) o += "**The gate cannot pass:** " + markdown_escape(rep.refusal) + ".\n\n";
  return o;
}

// The cells that did not pass, worst first (in the report's order within a status), at most kMaxRows.
std::string table_text(const CheckReport& rep, const CheckContext& ctx) {
  std::vector<const CellCheck*> rows;
  for (const auto& c : rep.cells)
    if (c.status != CheckStatus::Pass) rows.push_back(&c);
  if (rows.empty()) return rep.cells.empty() ? "" : "Every cell passed.\n\n";
  const bool fail_missing = ctx.options.fail_on_missing;
  std::stable_sort(rows.begin(), rows.end(), [&](const CellCheck* a, const CellCheck* b) {
    return rank(a->status, fail_missing) < rank(b->status, fail_missing);
  });
  std::string o = "| status | cell | size | compress | decompress | note |\n|---|---|---|---|---|---|\n";
  for (size_t i = 0; i < rows.size() && i < kMaxRows; ++i) {
    const CellCheck& c = *rows[i];
    o += fmt::format("| {} | {} | {} | {} | {} | {} |\n", to_string(c.status), markdown_escape(c.id),
                     c.size_note.empty() ? "-" : markdown_escape(c.size_note), speed_text(c.compress),
                     speed_text(c.decompress), markdown_escape(c.note));
  }
  if (rows.size() > kMaxRows)
    o += fmt::format("\n… and {} more cells not passing (the JUnit file and check's console table list every cell).\n",
                     rows.size() - kMaxRows);
  return o + "\n";
}

}  // namespace

std::string check_markdown(const CheckReport& rep, const CheckContext& ctx) {
  std::map<CheckStatus, size_t> counts;
  for (const auto& c : rep.cells) ++counts[c.status];
  std::string o = verdict_line(rep, counts) + runs_text(rep, ctx) + table_text(rep, ctx);
  o += fmt::format("**{} cells:**", rep.cells.size());
  for (size_t i = 0; i < std::size(kStatuses); ++i)
    o += fmt::format("{} {} {}", i ? "," : "", counts[kStatuses[i]], to_string(kStatuses[i]));
  return o + "\n";
}

bool append_check_markdown(const std::string& path, const CheckReport& rep, const CheckContext& ctx,
                           std::string& error) {
  std::string text;
  // What the write will replace, read through the same links (a link it will replace itself is
  // never read through: util/output_target.h).
  const OutputTarget t = classify_output(path, LinkRule::kReplaceLink);
  if (t.kind == OutputKind::kReplace && t.exists) {
    std::ifstream in(t.path, std::ios::binary);
    std::ostringstream old;
    old << in.rdbuf();
    if (!in) {
      error = path + ": cannot read it to append to it";
      return false;
    }
    text = old.str();
    if (!text.empty()) text += text.back() == '\n' ? "\n" : "\n\n";
  }
  return write_text_file(path, text + check_markdown(rep, ctx), error);
}

}  // namespace kvz
