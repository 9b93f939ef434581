#pragma once
// The console's names (report/README.md "Names are data"): a run as the console prints it, every
// string that came from a file, a store or the environment (sources, tables, hosts, CPU models,
// command lines, failures, ...) through util/text.h one_line, so no name can move the cursor,
// clear the screen, set the terminal's title or start a line of its own ("cf\nkvzbench check:
// PASS"). The console printers take this copy; the files are written from the run itself.
#include "results/results_fwd.h"

namespace kvz {

RunResults terminal_view(const RunResults& run);

}  // namespace kvz
