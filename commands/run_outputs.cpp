#include "commands/run_outputs.h"

#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "bench/interrupt.h"
#include "bench/sysinfo.h"
#include "report/writers.h"
#include "results/results.h"
#include "util/files.h"

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
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir, ec)) return fmt::format("--out-dir {}: not a directory it can create", dir);
  path = (fs::path(dir) / fmt::format("results-{}-of-{}.json", index, count)).string();
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
  const auto outputs = named(out);
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::string& path = *outputs[i].path;
    if (path.empty()) continue;
    if (std::string why = check_writable(path); !why.empty()) return std::string(outputs[i].option) + " " + why;
    for (size_t j = 0; j < i; ++j) {
      if (!outputs[j].path->empty() && same_file(path, *outputs[j].path))
        return path == kStdout
                   ? fmt::format("{} and {} both write to standard output ('-'): give one of them a file",
                                 outputs[j].option, outputs[i].option)
                   : fmt::format("{} and {} name the same file {}", outputs[j].option, outputs[i].option, path);
    }
  }
  return output_overwrites_input(out, inputs);
}

std::string output_overwrites_input(const OutputFiles& out, const std::vector<std::string>& inputs) {
  for (const Named& o : named(out)) {
    if (o.path->empty()) continue;
    for (const auto& input : inputs) {
      if (same_file(*o.path, input))
        return fmt::format("{} {} is an input of this run: it would be overwritten", o.option, *o.path);
    }
  }
  return "";
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

bool write_outputs(const OutputFiles& out, const RunResults& r, const ReportOptions& opt,
                   std::vector<std::string>& written) {
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
