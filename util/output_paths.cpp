#include "util/output_paths.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string_view>

#include "util/files.h"

namespace kvz {
namespace fs = std::filesystem;

namespace {

// What a path names: its canonical spelling, and the file there if there is one.
struct PathId {
  std::string canonical;  // "" for standard output ("-")
  bool exists = false;
  bool directory = false;
  bool device = false;  // a character device: written in place, never anyone's input file
  dev_t dev = 0;
  ino_t ino = 0;
};

PathId identify(const std::string& path) {
  PathId id;
  struct stat st {};
  bool found = false;
  if (path == kStdout) {
    found = ::fstat(STDOUT_FILENO, &st) == 0;
  } else {
    std::error_code ec;
    const fs::path c = fs::weakly_canonical(fs::absolute(path, ec), ec);
    id.canonical = ec ? path : c.string();
    found = ::stat(path.c_str(), &st) == 0;
  }
  if (found) {
    id.exists = true;
    id.directory = S_ISDIR(st.st_mode);
    id.device = S_ISCHR(st.st_mode);
    id.dev = st.st_dev;
    id.ino = st.st_ino;
  }
  return id;
}

bool same(const PathId& a, const PathId& b) {
  if (a.device || b.device) return false;
  if (a.exists && b.exists && a.dev == b.dev && a.ino == b.ino) return true;
  return !a.canonical.empty() && a.canonical == b.canonical;
}

// `inner` is below the directory `outer` (not the directory itself).
bool inside(const PathId& inner, const PathId& outer) {
  if (!outer.directory || inner.canonical.empty() || outer.canonical.empty()) return false;
  const std::string prefix = outer.canonical == "/" ? "/" : outer.canonical + "/";
  return std::string_view(inner.canonical).starts_with(prefix);
}

std::string named(const NamedPath& p) { return p.option.empty() ? "the input " + p.path : p.option + " " + p.path; }

// "" or why `out` may not be written over `inputs`: it is one of them, or inside an input
// directory; an output `directory` also when it holds an input (it may not exist yet: its
// canonical spelling still tells what it will hold).
std::string over_input(const NamedPath& out, const PathId& out_id, const std::vector<NamedPath>& inputs,
                       bool directory) {
  PathId as_directory = out_id;
  as_directory.directory = directory;
  for (const auto& in : inputs) {
    const PathId in_id = identify(in.path);
    if (same(out_id, in_id))
      return fmt::format("{} is the same {} as {}: an output never replaces an input", named(out),
                         directory ? "directory" : "file", named(in));
    if (inside(out_id, in_id))
      return fmt::format("{} is inside {}, an input directory: an output never goes among the inputs", named(out),
                         named(in));
    if (directory && inside(in_id, as_directory))
      return fmt::format("{} holds {}: an output directory never holds an input", named(out), named(in));
  }
  return "";
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) { return a == b || same(identify(a), identify(b)); }

std::string check_outputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
  std::vector<PathId> ids;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const NamedPath& out = outputs[i];
    if (std::string why = check_writable(out.path); !why.empty()) return out.option + " " + why;
    ids.push_back(identify(out.path));
    for (size_t j = 0; j < i; ++j) {
      const bool both_stdout = names_standard_output(out.path) && names_standard_output(outputs[j].path);
      if (both_stdout)
        return fmt::format("{} and {} both write to standard output: give one of them a file", outputs[j].option,
                           out.option);
      if (same(ids[i], ids[j]))
        return fmt::format("{} and {} name the same file ({} and {}): give each output its own", outputs[j].option,
                           out.option, outputs[j].path, out.path);
    }
    if (std::string e = over_input(out, ids[i], inputs, false); !e.empty()) return e;
  }
  return "";
}

std::string check_output_directory(const NamedPath& dir, const std::vector<NamedPath>& inputs) {
  return over_input(dir, identify(dir.path), inputs, true);
}

}  // namespace kvz
