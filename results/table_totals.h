#pragma once
// Totals per table (issue 27 item 7) and the fleet answer (issue 26): a store's files summed by
// the table they belong to (CorpusInfo::table), across hosts when a merge brought several. The
// one computation every writer (report/table_totals_*.cpp) shows; it reads results only.
//
// Bytes: on disk now is the files' sizes (stat: CorpusInfo::bytes, every byte of every file),
// with the data blocks' share beside it (CorpusInfo::data_bytes, else the current rows'
// on_disk_bytes); under a candidate, the files' other parts (index, filter, properties) as they
// are and their data blocks as the store would write them (its rows' stored_bytes, scaled up
// from a sample's blocks to all of the file's when --max-bytes read only some). CPU: each
// file's seconds at its own host's median speed (input bytes / MB/s, scaled alike), summed per
// CPU model; speeds are never averaged, and CPU models never pooled.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "results/results_fwd.h"

namespace kvz {

// Seconds one pass over the table's files takes, per CPU model (one key when all hosts share one).
using SecondsByCpu = std::map<std::string, double>;

struct TableCandidate {
  std::string label;   // cell_label: "zstd 1", "lz4"
  uint64_t bytes = 0;  // stored bytes summed over every file of the table
  double saving_pct = 0;
  SecondsByCpu compress_seconds, decompress_seconds;
};

struct TableTotal {
  std::string table;    // "ks.events"
  int level = -1;       // level_totals: the LSM level (-1: table_totals, every level)
  std::string profile;  // the cells' store profile ("" none)
  std::vector<std::string> hosts;
  std::vector<std::string> cpus;
  size_t files = 0;
  std::string current;                            // the files' codec ("lz4"; "lz4 + zstd 3" when the files differ)
  uint64_t current_bytes = 0;                     // bytes on disk: the files' sizes (stat), summed
  uint64_t data_bytes = 0;                        // of which data blocks (dictionary blocks included)
  uint64_t input_bytes = 0;                       // the data blocks uncompressed (kvzbench's input bytes, scaled alike)
  int threads = 1;                                // the cells' worker threads (their MB/s are T workers' total)
  std::map<std::string, uint64_t> bytes_by_host;  // current_bytes per host
  SecondsByCpu current_compress_seconds, current_decompress_seconds;
  // Every codec row measured on every file of the table, the fewest bytes first (a row missing
  // on some file is left out: its sum would not be the table's).
  std::vector<TableCandidate> candidates;
};

// One total per table and store profile, in the order the tables' first files come. For a run
// shown in part (RunResults::summary), the summary's totals over every file.
std::vector<TableTotal> table_totals(const RunResults& run);
// The same totals one file at a time, for a run too large to hold (`kvzbench report` at scale).
class TableTotalsBuilder {
 public:
  // The run's metadata (corpora, hosts), never its cells; by_level: per LSM level (level_totals).
  explicit TableTotalsBuilder(const RunResults& run, bool by_level = false);
  ~TableTotalsBuilder();
  TableTotalsBuilder(const TableTotalsBuilder&) = delete;
  TableTotalsBuilder& operator=(const TableTotalsBuilder&) = delete;
  // Every cell of one file (a block set: cell_view.h block_set_of), files in the run's order.
  void add_file(const std::vector<const CellResult*>& cells);
  std::vector<TableTotal> finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
// The same per table and LSM level (a DB read through its MANIFEST: CorpusInfo::level), summed
// across hosts; files with no level are left out. A run shown in part: over the files shown.
std::vector<TableTotal> level_totals(const RunResults& run);
// "96.8 %": the data blocks' share of the bytes on disk.
std::string data_share_text(const TableTotal& t);
// Whether the run's store files come from more than one host (a merged fleet survey).
bool is_fleet(const RunResults& run);
// The candidate that saves the most bytes; null when the table has none.
const TableCandidate* largest_saving(const TableTotal& t);
// "× 6.0" one CPU model; "× 6.0 on EPYC 7B13, × 4.1 on Xeon 8375C" several; "× ?" no speeds.
std::string time_factor_text(const SecondsByCpu& candidate, const SecondsByCpu& current);
// Decimal bytes in 3 significant figures: "2.9 TB", "41.2 MB", "512 B".
std::string decimal_bytes(uint64_t n);
// The fleet answer's sentence for a table (without the table's name): "lz4 → zstd 1 saves
// 41.9 %, 1.2 of 2.9 TB across 3 hosts; compress time × 6.0, decompress time × 1.3".
std::string table_answer_text(const TableTotal& t);

}  // namespace kvz
