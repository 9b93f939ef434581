#include "commands/run_outputs.h"

#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "bench/interrupt.h"
#include "bench/sysinfo.h"
#include "report/writers.h"
#include "results/results.h"
#include "util/files.h"
#include "util/output_paths.h"
#include "util/output_target.h"
#include "util/text.h"

namespace kvz {
namespace {
namespace fs = std::filesystem;

struct Named {
  const char* option;
  const std::string* path;
};

std::vector<Named> named(const OutputFiles& o) {
  return {{"--json", &o.json}, {"--csv", &o.csv}, {"--md", &o.md}, {"--html", &o.html}};
}

// A directory no other run has: two runs started in the same second get "-2", "-3"...
std::string new_results_directory(bool& made_parent, std::string& error) {
  const std::string base = "kvzbench-results/" + utc_timestamp_compact();
  if (std::string why = check_directory_link("kvzbench-results"); !why.empty()) {
    error = why;
    return "";
  }
  std::error_code ec;
  for (int n = 1; n <= 1000 && !ec; ++n) {
    // Each time: another run that failed may have removed an empty kvzbench-results/ meanwhile.
    made_parent = fs::create_directories("kvzbench-results", ec) || made_parent;
    std::string dir = n == 1 ? base : fmt::format("{}-{}", base, n);
    if (!ec && fs::create_directory(dir, ec)) {
      remove_on_setup_exit(dir);  // a signal before measuring leaves no empty directory behind
      return dir;
    }
    // false: it exists, try the next name
  }
  error = fmt::format("cannot create a results directory under kvzbench-results: {}",
                      ec ? ec.message() : "every name is taken");
  return "";
}

}  // namespace

std::string shard_results_file(const std::string& dir, int index, int count, std::string& path) {
  if (std::string why = check_directory_link(dir); !why.empty()) return "--out-dir " + why;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir, ec)) return fmt::format("--out-dir {}: not a directory it can create", dir);
  path = (fs::path(dir) / fmt::format("results-{}-of-{}.json", index, count)).string();
  // Jobs share it (a ReadWriteMany volume, /shared/sweep; pods run as root): a link there may
  // have been planted, so none is followed (util/output_target.h).
  never_follow_links_in(dir);
  return "";
}

std::string prepare_outputs(const OutputFiles& given, const std::vector<std::string>& inputs, OutputFiles& out) {
  out = given;
  if (given.json.empty() && given.csv.empty() && given.md.empty() && given.html.empty()) {
    std::string error;
    bool made_parent = false;
    const std::string dir = new_results_directory(made_parent, error);
    if (dir.empty()) return error;
    out = {dir + "/results.json", dir + "/results.csv", dir + "/results.md", dir + "/report.html", dir, made_parent};
  }
  return output_overwrites_input(out, inputs);
}

// util/output_paths.h's one rule: writable, distinct, no input.
std::string output_overwrites_input(const OutputFiles& out, const std::vector<std::string>& inputs) {
  std::vector<NamedPath> outputs, read;
  for (const Named& o : named(out))
    if (!o.path->empty()) outputs.push_back({o.option, *o.path});
  for (const auto& input : inputs) read.push_back({"", input});
  return check_outputs(outputs, read);
}

void remove_unused_results_directory(const OutputFiles& out) {
  if (out.made_dir.empty()) return;
  // remove() of a directory is rmdir(2): it fails, and changes nothing, unless the directory is empty.
  std::error_code ec;
  if (fs::remove(out.made_dir, ec) && out.made_parent) fs::remove("kvzbench-results", ec);
}

bool writes_stdout(const OutputFiles& out) {
  return names_standard_output(out.json) || names_standard_output(out.csv) || names_standard_output(out.md) ||
         names_standard_output(out.html);
}

namespace {

// NAME.EXT -> NAME.interrupted.EXT (results-0-of-2.json -> results-0-of-2.interrupted.json).
std::string beside(const std::string& path) {
  const fs::path p(path);
  return (p.parent_path() / (p.stem().string() + ".interrupted" + p.extension().string())).string();
}

// An interrupted run never replaces a complete result: when the results file it would replace
// holds one (a shard that finished, re-run and stopped by a time limit), every output goes beside
// its target as NAME.interrupted.EXT, and a warning says so.
OutputFiles outputs_of(const OutputFiles& out, const RunResults& r) {
  if (!r.meta.interrupted || out.json.empty()) return out;
  const OutputTarget t = classify_output(out.json, LinkRule::kReplaceLink);
  RunMeta held;
  std::string ignored;
  if (t.kind != OutputKind::kReplace || !t.exists || !load_results_meta(t.path, held, ignored) || held.interrupted)
    return out;
  OutputFiles moved = out;
  for (std::string* path : {&moved.json, &moved.csv, &moved.md, &moved.html})
    if (!path->empty() && classify_output(*path, LinkRule::kReplaceLink).kind == OutputKind::kReplace)
      *path = beside(*path);
  std::cerr << "kvzbench run: warning: " << one_line(out.json)
            << " holds a complete result and is kept: this interrupted run's results go beside it ("
            << one_line(moved.json) << ")\n";
  return moved;
}

}  // namespace

bool write_outputs(const OutputFiles& given, const RunResults& r, const ReportOptions& opt,
                   std::vector<std::string>& written) {
  const OutputFiles out = outputs_of(given, r);
  bool ok = true;
  auto done = [&](bool good, const std::string& path, const std::string& err) {
    if (good) {
      written.push_back(path);
    } else {
      std::cerr << "kvzbench run: error: " << (err.empty() ? "cannot write " + path : err) << "\n";
      ok = false;
    }
  };
  std::string err;
  if (!out.json.empty()) done(save_results(out.json, r, err), out.json, err);
  if (!out.csv.empty()) done(write_csv(out.csv, r, err), out.csv, err);
  if (!out.md.empty()) done(write_markdown(out.md, r, opt, err), out.md, err);
  if (!out.html.empty()) done(write_html(out.html, {r}, opt, err), out.html, err);
  return ok;
}

}  // namespace kvz
