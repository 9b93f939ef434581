// Corpus lookup (README: "Corpora") and file hashing for the run metadata.
#include "blockgen/corpus.h"

#include <openssl/evp.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "util/text.h"

namespace kvz {

namespace fs = std::filesystem;

namespace {

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

fs::path exe_dir() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  buf[n] = 0;
  return fs::path(buf).parent_path();
}

// "did you mean" for a corpus name the manifest does not list: a typo of a listed name
// ("json/twiter.json"), or a listed file's name under another directory ("canterbury/alice29.txt"
// is snappy/alice29.txt), or a typo of a listed file's name ("twiter.json").
std::string corpus_hint(const std::string& arg, const std::vector<std::string>& names) {
  if (std::string hint = did_you_mean(arg, names); !hint.empty()) return hint;
  const std::string file = fs::path(arg).filename().string();
  std::vector<std::string> files, same_file;
  for (const auto& n : names) {
    files.push_back(fs::path(n).filename().string());
    if (files.back() == file) same_file.push_back(n);
  }
  if (!same_file.empty()) return did_you_mean(same_file);
  std::vector<std::string> near;
  for (const auto& f : closest_names(file, files))
    for (size_t i = 0; i < names.size(); ++i)
      if (files[i] == f) near.push_back(names[i]);
  return did_you_mean(near);
}

}  // namespace

std::string corpora_dir() {
  if (const char* env = std::getenv(kCorporaEnv); env && *env) return is_dir(env) ? std::string(env) : "";
  const fs::path exe = exe_dir();
  if (!exe.empty()) {
    // The build dir sits in the repo: <repo>/build-x/kvzbench or deeper (tests/).
    for (const char* up : {"../../shared/corpora", "../../../shared/corpora"}) {
      std::error_code ec;
      const fs::path p = fs::weakly_canonical(exe / up, ec);
      if (!ec && is_dir(p)) return p.string();
    }
  }
  if (is_dir("corpora-cache")) return fs::absolute("corpora-cache").string();
  return "";
}

std::vector<std::string> manifest_names(const std::string& dir) {
  std::vector<std::string> names;
  std::ifstream in(fs::path(dir) / "MANIFEST.tsv");
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (header) {
      header = false;
      if (line.rfind("file\t", 0) == 0) continue;
    }
    if (line.empty() || line[0] == '#') continue;
    names.push_back(line.substr(0, line.find('\t')));
  }
  return names;
}

std::string resolve_corpus(const std::string& arg, std::string& error) {
  if (arg.empty()) {
    error = "empty corpus name";
    return "";
  }
  if (is_file(arg)) return arg;
  if (is_dir(arg)) {
    error = arg + ": is a directory (give the corpus files in it)";
    return "";
  }
  // It exists but is no regular file, or cannot be resolved: say which, not "no such file".
  std::error_code ec;
  const fs::file_status st = fs::status(arg, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    error = arg + ": " + ec.message();  // e.g. "Too many levels of symbolic links"
    return "";
  }
  if (fs::exists(st)) {
    error = arg + ": not a regular file (" +
            (fs::is_fifo(st)                                      ? "a FIFO"
             : fs::is_character_file(st) || fs::is_block_file(st) ? "a device"
                                                                  : "special") +
            "): give a file";
    return "";
  }
  const std::string dir = corpora_dir();
  std::string hint;
  if (!dir.empty()) {
    if (is_file(fs::path(dir) / arg)) return (fs::path(dir) / arg).string();
    // A bare name: match the manifest's file names by base name, with or without extension.
    std::vector<std::string> hits;
    const std::vector<std::string> names = manifest_names(dir);
    for (const auto& name : names) {
      const fs::path p(name);
      if (p.filename() == arg || p.stem() == arg) hits.push_back(name);
    }
    if (hits.size() == 1) {
      const fs::path p = fs::path(dir) / hits[0];
      if (is_file(p)) return p.string();
      error = arg + ": listed in the manifest as " + hits[0] + " but missing from " + dir + " (run corpora/fetch.sh)";
      return "";
    }
    if (hits.size() > 1) {
      error = arg + ": ambiguous corpus name, matches " + hits[0] + " and " + hits[1];
      return "";
    }
    hint = corpus_hint(arg, names);
  }
  error = arg + ": no such file" +
          (dir.empty() ? std::string(", and no corpora directory (set ") + kCorporaEnv + ")"
                       : ", nor a corpus name in " + dir) +
          (hint.empty() ? "" : ": " + hint);
  return "";
}

std::string sha256_hex(std::string_view bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr) != 1) return "";
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < len; ++i) {
    out.push_back(hex[md[i] >> 4]);
    out.push_back(hex[md[i] & 15]);
  }
  return out;
}

}  // namespace kvz
