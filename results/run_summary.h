#pragma once
// A run shown in part (RunResults::summary): `kvzbench report` of a result too large to show whole
// (report/README.md "At scale") keeps in `cells` only the block sets it shows, and here what holds
// over every cell of the file, which the answers read instead of the cells held: recommend() and
// store_table() the pooled figures, table_totals() the totals. Its own header so that only code
// that reads a summary includes it.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "results/table_totals.h"

namespace kvz {

class PooledCells;  // judgement/analysis.h: every cell pooled as the recommendations read them

struct RunSummary {
  size_t cells = 0;                              // in the file
  size_t block_sets = 0;                         // in the file
  size_t failed = 0;                             // FAILED cells in the file (the first ones are among the cells held)
  size_t shown_block_sets = 0, shown_cells = 0;  // the block sets held, and their cells
  std::string shown_by;                          // what chose them: "the most input bytes"
  std::vector<TableTotal> table_totals;          // every table's, over every file
  std::shared_ptr<const PooledCells> pooled;
};

}  // namespace kvz
