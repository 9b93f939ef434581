#pragma once
// The totals per table and the fleet answer (results/table_totals.h), one writer per format:
// console (table_totals_console.cpp), Markdown (table_totals_markdown.cpp), HTML
// (table_totals_html.cpp). The fleet answer comes first in each output of a result whose store
// files come from several hosts; the totals follow the per-file figures.
#include <cstddef>
#include <ostream>
#include <string>

#include "results/results_fwd.h"

namespace kvz {

// Console: "fleet answer, per table across N hosts (...)" and one line per table; nothing
// unless the run is a fleet (results/table_totals.h is_fleet). Lines within `width` columns.
void print_fleet_answer(std::ostream& out, const RunResults& run, size_t width = 100);
// Console: a total per table of store files: bytes on disk now and under each candidate.
void print_table_totals(std::ostream& out, const RunResults& run, size_t width = 100);

// Markdown: the same two, as a list and tables.
void write_fleet_answer_markdown(std::ostream& out, const RunResults& run);
void write_table_totals_markdown(std::ostream& out, const RunResults& run);

// HTML: each a <section> ("" when there is nothing to show).
std::string fleet_answer_html(const RunResults& run);
std::string table_totals_html(const RunResults& run);

}  // namespace kvz
