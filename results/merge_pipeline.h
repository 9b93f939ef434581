#pragma once
// merge_stream.cpp's second pass on every core (internal to results/). The scan hands over each
// input's cells as text, in batches of one input; a worker thread per batch parses, keys and
// formats them (nine tenths of the time: nlohmann's parse and the Google Benchmark rows); the
// batches are then checked and written in their order, so the file is a one-thread merge's byte
// for byte and an error names the first bad cell, whichever thread met it.
#include <cstddef>
#include <cstdio>
#include <deque>
#include <future>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "results/results.h"
#include "results/results_checks.h"
#include "util/files.h"

namespace kvz {

class MergePlan;

// An error that is already the whole line (the input path is not prefixed again).
struct MergeRefusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Cells of one input on their way through the pipeline.
struct CellBatch {
  size_t input = 0;
  std::vector<std::string> texts;     // as the scan captured them
  std::vector<CellResult> cells;      // parsed and keyed, in order
  std::vector<std::string> problems;  // per parsed cell: "" or why it contradicts its run
  std::exception_ptr failure;         // the cell after the last parsed one could not be read
  std::string rows, lines;            // the batch's GB rows and cell lines, each starting "\n"
};

// The ordered end: checks each batch's cells against the cells before them (by id, and one
// current row per block set: the little kept per cell) and writes the GB rows to the output and
// the cell lines to a spool file, which follows the metadata at the end.
class MergeWriter {
 public:
  MergeWriter(const MergePlan& plan, const std::string& out_path) : plan_(plan), out_(out_path) {}
  bool open(std::string& error);
  void add(const CellBatch& batch);  // throws on the batch's first bad cell
  bool finish(std::string& error);
  size_t cells() const { return cells_; }

 private:
  void check(size_t input, const CellResult& c, const std::string& problem);
  void write(std::string_view text);
  void spool(std::string_view text);

  const MergePlan& plan_;
  StreamedFileWriter out_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> spool_{nullptr, &std::fclose};
  bool first_row_ = true, first_cell_ = true;
  size_t cells_ = 0;
  std::unordered_map<std::string, size_t> owner_;  // cell id -> input: ~150 bytes a cell
  CurrentRows current_;
};

class MergePipeline {
 public:
  MergePipeline(const MergePlan& plan, const std::vector<std::set<std::string>>& codecs,
                const std::vector<std::string>& paths, MergeWriter& writer)
      : plan_(plan), codecs_(codecs), paths_(paths), writer_(writer) {}
  MergePipeline(const MergePipeline&) = delete;
  MergePipeline& operator=(const MergePipeline&) = delete;
  ~MergePipeline();  // waits for the workers still running (after an error)

  // One cell of input `input` as text. Throws MergeRefusal, the whole line, when an earlier
  // cell failed.
  void add(size_t input, std::string text);
  void end_input();  // the input's last cells go as a batch of their own
  // Checks and writes every batch still on its way: "" or the first error's line (once an
  // error is met, always that one).
  std::string drain();

 private:
  void submit();
  void write_oldest();  // throws MergeRefusal

  const MergePlan& plan_;
  const std::vector<std::set<std::string>>& codecs_;
  const std::vector<std::string>& paths_;
  MergeWriter& writer_;
  CellBatch filling_;
  std::deque<std::future<CellBatch>> pending_;
  std::shared_future<int> next_family_;  // where the next batch's GB families start
  std::string failed_;                   // the first error's line: nothing is written after it
  bool started_ = false;
};

}  // namespace kvz
