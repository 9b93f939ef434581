#include "blockgen/pipeline.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "blockgen/corpus.h"
#include "blockgen/layouts.h"
#include "blockgen/source_registry.h"
#include "util/bytes.h"

namespace kvz {

namespace {

// The last `n` components of `path` ("b/data.csv" for n = 2; all of them when it has fewer).
std::string path_tail(const std::filesystem::path& path, size_t n, size_t& parts_total) {
  std::vector<std::string> parts;
  for (const auto& part : path.lexically_normal()) {
    if (!part.empty() && part != "/") parts.push_back(part.string());
  }
  parts_total = parts.size();
  std::string tail;
  for (size_t i = parts.size() > n ? parts.size() - n : 0; i < parts.size(); ++i)
    tail += (tail.empty() ? "" : "/") + parts[i];
  return tail;
}

}  // namespace

std::vector<std::string> source_names(const std::vector<std::string>& paths, const std::vector<std::string>& taken) {
  std::vector<std::string> names(paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    for (size_t n = 1;; ++n) {
      size_t parts = 0, other_parts = 0;
      names[i] = path_tail(paths[i], n, parts);
      bool unique = std::find(taken.begin(), taken.end(), names[i]) == taken.end();
      for (size_t j = 0; unique && j < paths.size(); ++j)
        unique = j == i || paths[j] == paths[i] || path_tail(paths[j], n, other_parts) != names[i];
      if (unique) break;
      if (n >= parts) {  // no shorter name tells it apart: the path as given
        names[i] = std::filesystem::path(paths[i]).lexically_normal().string();
        break;
      }
    }
  }
  return names;
}

namespace {

// The sample caps (kMaxSampleBytes): refused before anything is read.
bool check_sample_caps(const SourceRequest& request, std::string& error) {
  if (!request.datasets.empty() && request.dataset_bytes > kMaxSampleBytes) {
    error = "dataset size above 1G: datasets are built in memory (--dataset-bytes/--max-bytes)";
    return false;
  }
  if (!request.files.empty() && request.file_max_bytes > kMaxSampleBytes) {
    error = "--max-bytes above 1G: a file's sample is read into memory";
    return false;
  }
  return true;
}

// What one source is read from: a file, or a part of a store that a directory holds whole
// (a DB's level), read by the reader that describes it.
struct SourceInput {
  std::string path;  // the file, or the part's directory
  const StoreFileReader* reader = nullptr;
  FileGroup group{};
  bool is_group() const { return reader != nullptr; }
};

// A directory: the parts a store describes it by (each its own source), else its store files.
bool resolve_directory(const SourceRequest& request, const std::string& dir, const SourceRegistry& readers,
                       std::vector<SourceInput>& inputs, std::vector<std::string>& warnings, std::string& error) {
  DirectoryParts parts;
  const StoreFileReader* reader = request.read_store_files ? readers.parts_in(dir, parts) : nullptr;
  for (const auto& n : parts.notes) warnings.push_back(dir + ": " + n);
  if (reader && !parts.groups.empty()) {
    for (auto& g : parts.groups) inputs.push_back({dir, reader, std::move(g)});
    return true;
  }
  const auto files = readers.files_in(dir);
  if (files.empty()) {
    error =
        dir + ": a directory without store files (*-Data.db, RocksDB/LevelDB tables, HFiles): give the files to read";
    return false;
  }
  for (const auto& f : files) inputs.push_back({f});
  return true;
}

// The files to read: each argument resolved (a corpus path or manifest name), a directory
// standing for the store files in it (a store's table directory) or for its parts (a DB's levels).
bool resolve_files(const SourceRequest& request, const SourceRegistry& readers, std::vector<SourceInput>& inputs,
                   std::vector<std::string>& warnings, std::string& error) {
  for (const auto& f : request.files) {
    std::error_code ec;
    if (std::filesystem::is_directory(f, ec)) {
      if (!resolve_directory(request, f, readers, inputs, warnings, error)) return false;
      continue;
    }
    const std::string path = resolve_corpus(f, error);
    if (path.empty()) {
      if (error.empty()) error = f + ": no such corpus file";
      return false;
    }
    inputs.push_back({path});
  }
  if (!request.names.empty() && request.names.size() != inputs.size()) {
    error = fmt::format(
        "--name gives {} name(s) but the sources hold {} (a directory counts its store files, or a DB its levels)",
        request.names.size(), inputs.size());
    return false;
  }
  return true;
}

// The names of the sources: a file's from its path (source_names), a part's its directory's
// name and the part's ("db:default/L6").
std::vector<std::string> input_names(const SourceRequest& request, const std::vector<SourceInput>& inputs) {
  if (!request.names.empty()) return request.names;
  std::vector<std::string> paths;
  for (const auto& in : inputs) paths.push_back(in.path);
  std::vector<std::string> names = source_names(paths, request.datasets);
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].is_group()) names[i] += ":" + inputs[i].group.name;
  return names;
}

// One file: a store file through the reader that takes it, any other as a corpus. A file a
// reader takes (by its name or its bytes) that it cannot read is refused, never read as a
// corpus: the error says how to measure its bytes anyway.
bool load_file(const SourceRequest& request, const SourceRegistry& readers, const SourceInput& input,
               const std::string& name, Source& s, std::vector<std::string>& warnings, std::string& error) {
  const std::string& path = input.path;
  const StoreFileReader* reader = request.read_store_files ? readers.reader_for(path) : nullptr;
  if (input.is_group()) {
    if (!input.reader->read_group(input.group, request.file_max_bytes, s.records, error)) {
      error += "; to measure its raw bytes: -r bytes";
      return false;
    }
  } else if (reader) {
    if (!reader->read(path, request.file_max_bytes, s.records, error)) {
      error += "; to measure its raw bytes: -r bytes";
      return false;
    }
  } else {
    s.records = read_corpus(path, request.record_mode, request.file_max_bytes, request.record, error);
  }
  if (!error.empty()) return false;
  s.name = s.records.source = name;
  s.path = path;
  for (const auto& w : s.records.warnings) warnings.push_back(path + ": " + w);
  std::error_code ec;
  s.file_bytes =
      input.is_group() ? s.records.origin.file_bytes : static_cast<uint64_t>(std::filesystem::file_size(path, ec));
  if (request.hash_files) s.sha256 = s.records.sample_sha256;
  return true;
}

}  // namespace

bool load_sources(const SourceRequest& request, std::vector<Source>& out, std::vector<std::string>& warnings,
                  std::string& error) {
  const SourceRegistry& readers = SourceRegistry::global();
  std::vector<SourceInput> inputs;
  if (!check_sample_caps(request, error) || !resolve_files(request, readers, inputs, warnings, error)) return false;
  for (const auto& d : request.datasets) {
    Source s;
    s.records = generate_dataset(d, request.seed, request.dataset_bytes, request.dataset, error);
    if (!error.empty()) return false;
    s.name = d;
    out.push_back(std::move(s));
  }
  const std::vector<std::string> names = input_names(request, inputs);
  for (size_t i = 0; i < inputs.size(); ++i) {
    Source s;
    if (!load_file(request, readers, inputs[i], names[i], s, warnings, error)) return false;
    out.push_back(std::move(s));
  }
  return true;
}

bool cut_block_sets(const std::vector<Source>& sources, const std::vector<std::string>& layouts,
                    const std::vector<size_t>& block_sizes, std::vector<BlockSet>& out,
                    std::vector<std::string>& warnings, std::string& error) {
  for (const auto& s : sources) {
    if (s.empty()) {
      warnings.push_back(s.name + " is empty: no blocks");
      continue;
    }
    for (const auto& layout : layouts) {
      const LayoutInfo* info = find_layout(layout);
      for (size_t size : block_sizes) {
        // A layout that ignores -b (one block per value, a file's own blocks) is cut once.
        if (info && info->ignores_block_size && size != block_sizes.front()) continue;
        BlockSet blocks = build_blocks(s.records, layout, size, error);
        if (!error.empty()) {
          error = s.records.source + ": " + error;
          return false;
        }
        if (blocks.count() == 0) {
          warnings.push_back(s.records.source + " gives no " + layout + " blocks of " + format_byte_size(size));
          continue;
        }
        out.push_back(std::move(blocks));
      }
    }
  }
  return true;
}

}  // namespace kvz
