#include "blockgen/pipeline.h"

#include <filesystem>

#include "blockgen/corpus.h"
#include "blockgen/layouts.h"
#include "util/bytes.h"

namespace kvz {

bool load_sources(const SourceRequest& request, std::vector<Source>& out, std::vector<std::string>& warnings,
                  std::string& error) {
  if (!request.datasets.empty() && request.dataset_bytes > kMaxSampleBytes) {
    error = "dataset size above 1G: datasets are built in memory (--dataset-bytes/--max-bytes)";
    return false;
  }
  if (!request.files.empty() && request.file_max_bytes > kMaxSampleBytes) {
    error = "--max-bytes above 1G: a file's sample is read into memory";
    return false;
  }
  std::vector<std::string> paths;
  for (const auto& f : request.files) {
    const std::string path = resolve_corpus(f, error);
    if (path.empty()) {
      if (error.empty()) error = f + ": no such corpus file";
      return false;
    }
    paths.push_back(path);
  }
  for (const auto& d : request.datasets) {
    Source s;
    s.records = generate_dataset(d, request.seed, request.dataset_bytes, request.dataset, error);
    if (!error.empty()) return false;
    s.name = d;
    out.push_back(std::move(s));
  }
  for (size_t i = 0; i < paths.size(); ++i) {
    Source s;
    s.records = read_corpus(paths[i], request.record_mode, request.file_max_bytes, request.record, error);
    if (!error.empty()) return false;
    s.name = s.records.source.empty() ? request.files[i] : s.records.source;
    s.path = paths[i];
    for (const auto& w : s.records.warnings) warnings.push_back(request.files[i] + ": " + w);
    std::error_code ec;
    s.file_bytes = static_cast<uint64_t>(std::filesystem::file_size(paths[i], ec));
    if (request.hash_files) s.sha256 = s.records.sample_sha256;
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
      for (size_t size : block_sizes) {
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
