#pragma once
// What a results file must hold together beyond each field's own type (internal to results/):
// the loader and `merge` refuse a file that breaks it, so `check`, `report` and `merge` never
// judge cells no run could have written.
#include <map>
#include <set>
#include <string>

#include "results/cell_view.h"
#include "results/results_fwd.h"

namespace kvz {

// "" or one line naming the first cell that breaks a rule: a codec the run does not list
// (meta.codec_versions; memcpy, the reference, always counts), 0 blocks with bytes, more
// blocks kept raw than blocks, or a second current-codec row in one block set.
std::string results_consistency_error(const RunResults& run);

// The same rules one cell at a time, for a merge that never holds the run (merge_stream.cpp).
// `known`: the codecs the cell's run lists.
std::string cell_consistency_error(const std::set<std::string>& known, const CellResult& c);
class CurrentRows {
 public:
  // "" or the line naming this cell and the block set's earlier current row.
  std::string add(const CellResult& c);

 private:
  std::map<BlockSetKey, std::string> ids_;  // the one current-codec row of each block set
};

}  // namespace kvz
