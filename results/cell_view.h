#pragma once
// A cell as every reporter shows it: one label, one block-set key, one reference row and one
// meaning of "relative to memcpy" (this cell's median speed over the median speed of the
// reference row of the same block set). `check` normalises differently on purpose: by the
// run-wide copy speed (judgement/check.cpp), so one noisy small-block memcpy row cannot decide.
#include <cstddef>
#include <string>
#include <tuple>

#include "results/results_fwd.h"

namespace kvz {

// What makes cells comparable side by side: the same blocks (source, record mode, layout, block
// size) measured the same way (cache, threads, store profile), on one host's file and one CPU
// model when a fleet merge keys cells by them (results/results.h CellKey::host, cpu).
using BlockSetKey = std::tuple<std::string, std::string, std::string, uint64_t, std::string, int, std::string,
                               std::string, std::string>;
BlockSetKey block_set_of(const CellKey& key);

// A source as the reports name it: "000009.sst", or "000009.sst@node2" for a store file of one
// host in a merged fleet survey (CellKey::host, CorpusInfo::host), where the same file name on
// two nodes is two files.
std::string source_label(const CellKey& key);
std::string source_label(const CorpusInfo& corpus);

// The row label: "zstd 3", "zstd 3:dict=16K", "xz 6e"; the reference row and codecs whose level
// means nothing (meta.codec_versions has_levels false) show no level: "memcpy", "snappy".
std::string cell_label(const RunResults& run, const CellResult& cell);

// A dictionary row's facts in one line: where the dictionary came from, its size, and its net
// gain, a loss said as one ("file" method: "dict 16384 B sampled from all 512 blocks, kept in
// the file (16389 B counted in stored bytes): net gain x0.981, a LOSS (1.9 % more bytes than
// no dictionary): never recommended"). Empty for a row without a dictionary.
// `brief`: the same facts in under 100 columns, for the compact console.
std::string dictionary_text(const CellResult& cell, bool brief = false);

// The OK reference row of the cell's block set, else any OK reference row of the run; null
// when the run has none.
const CellResult* reference_of(const RunResults& run, const CellResult& cell);

struct CellView {
  const RunResults& run;
  const CellResult& cell;
  const CellResult* reference;  // reference_of(run, cell)
  size_t run_index = 0;         // position among the runs of a multi-run report

  bool ok() const;  // the cell is OK (not FAILED)
  std::string label() const { return cell_label(run, cell); }
  // Median speed relative to the reference row's; 0 when either is missing.
  double compress_rel() const;
  double decompress_rel() const;
};
CellView view_of(const RunResults& run, const CellResult& cell, size_t run_index = 0);

}  // namespace kvz
