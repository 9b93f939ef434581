#pragma once
// `kvzbench run` options and the sweep profiles (quick/default/full) that fill in what the
// user did not give. Parsing is separate from running so tests can check the errors.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/matrix.h"

namespace kvz {

struct SweepProfile {
  std::string name{};
  std::vector<std::string> datasets{};
  std::vector<std::string> corpora{};  // manifest paths, used when the corpora directory exists
  bool all_corpora = false;            // full: every file of the manifest
  std::string codecs{};
  std::vector<size_t> block_sizes{};
  std::vector<std::string> layouts{};  // used when -l is not given
  std::vector<size_t> dict_sizes{};
  std::vector<std::string> dict_codecs{};  // codecs that get the dictionary variants; empty = all that can
  std::optional<int> dict_max_level{};     // and only up to this level (unset: every level)
  size_t sample_bytes = 0;                 // per source
  double seconds_per_cell = 0;
  int repetitions = 0;
  double latency_seconds = 0;  // time cap of one latency pass (see bench/cell.h latency_calls)
};

const SweepProfile* find_sweep_profile(const std::string& name);
const std::vector<SweepProfile>& sweep_profiles();

// The share of the default budget (seconds per cell x repetitions) a run's --time and
// --repetitions leave it, at most 1 each: 0.004 for `--time 0.01 --repetitions 1` against a
// named source's 0.5 s x 5.
double budget_scale(double default_seconds, int default_repetitions, double seconds, int repetitions);

// Block size list "4K,64KiB": each 1 KiB..1 MiB. Returns false with a one-line error.
bool parse_block_sizes(const std::string& text, std::vector<size_t>& out, std::string& error);
// Stall thresholds in milliseconds "0.5,1" -> ns. Returns false with a one-line error.
// --dict sizes: "16K,64K", each within the dictionary range (4K..112K), de-duplicated.
bool parse_dict_sizes(const std::string& text, std::vector<size_t>& out, std::string& error);
bool parse_stall_thresholds(const std::string& text, std::vector<uint64_t>& out_ns, std::string& error);
// "I/N" with 0 <= I < N.
bool parse_shard(const std::string& text, int& index, int& count, std::string& error);
// CPU list "2" or "0,2".
bool parse_cpu_list(const std::string& text, std::vector<int>& out, std::string& error);

}  // namespace kvz
