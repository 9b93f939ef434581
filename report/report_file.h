#pragma once
// `kvzbench report FILE`: one results file, read as a stream (results/results_stream.h). Up to
// ReportScale::whole_cells cells it is shown whole, every cell, as a report always was. Past that
// it is shown in part (report/README.md "At scale"): the answer (recommendations, the cost model,
// the plans, the picks per store), the store table and the totals per table are over every cell
// (results/run_summary.h); the cell tables, charts, stalls and I/O model show the block sets with
// the most input bytes and the first failed cells, and each output says so; the CSV streams
// every cell, one row each, holding none.
#include <cstddef>
#include <functional>
#include <string>

#include "report/writers.h"

namespace kvz {

struct ReportOutputs {
  std::string html, md, csv;  // "" = not written
};

struct ReportScale {
  size_t whole_cells = 5000;      // past this many cells a report shows the file in part
  size_t shown_block_sets = 200;  // in part: at most this many block sets, and whole_cells cells, shown
  size_t shown_failed = 100;      // in part: the first failed cells shown, wherever they are
};

// How far a long report has read its file (0..1), a few times a second.
using ReadProgress = std::function<void(double fraction)>;

// Writes each output named, in the order html, md, csv; false with one line. The file is read
// and checked whole before the first output is written.
bool report_file(const std::string& path, const ReportOutputs& out, const ReportOptions& opt, std::string& error,
                 const ReportScale& scale = {}, const ReadProgress& progress = {});

// What a report of a run shown in part shows, in a sentence each output prints; "" for a whole run.
std::string summary_text(const RunResults& run);

}  // namespace kvz
