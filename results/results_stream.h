#pragma once
// A results file too large to hold (`kvzbench report` of a merged million-cell sweep), read as
// load_results reads it, with the same one-line refusals for the same files, but with no cell
// kept: each is parsed whole on a worker thread (parsing is most of the time) and handed to the
// caller in file order with the place its text takes in the file, so that a second pass can read
// again only the cells it wants (read_cells_at).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "results/results.h"

namespace kvz {

// Where a cell's text lies in its file.
struct CellPlace {
  uint64_t offset = 0;
  uint32_t size = 0;
};

struct ResultsStream {
  // Once, before the first cell: the file's schema version and metadata, no cells.
  std::function<void(const RunResults& head)> on_head;
  // Each cell in file order, with its id and place (the cell may be moved from); throwing
  // std::runtime_error refuses the file with its message, as a malformed cell is refused.
  std::function<void(CellResult& cell, const std::string& id, CellPlace place)> on_cell;
};

// False with `error` = load_results' line for the same file; on_head never came then, or cells
// after it stopped at the refused one.
bool stream_results(const std::string& path, const ResultsStream& stream, std::string& error);

// The cells at `places` (given by stream_results for this file), parsed again in that order.
// False with one line when a place no longer holds a cell (the file changed in between).
bool read_cells_at(const std::string& path, const std::vector<CellPlace>& places,
                   const std::function<void(CellResult& cell)>& on_cell, std::string& error);

}  // namespace kvz
