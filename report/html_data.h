#pragma once
// The data blob the HTML report's script (report/html/*.js) draws from: every cell with
// its table columns and the fields the charts read, the answer per source and store, the
// two-run comparison, recommendations, I/O model, store and stall tables, run metadata.
#include <vector>

#include <nlohmann/json.hpp>

#include "report/writers.h"

namespace kvz {

nlohmann::json html_data(const std::vector<RunResults>& runs, const ReportOptions& opt);

}  // namespace kvz
