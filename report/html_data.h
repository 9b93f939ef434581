#pragma once
// The data blob the HTML report's inline script draws from: charts (with the number of
// points each must show), the cell table, recommendations, I/O model, store and stall tables.
#include <vector>

#include <nlohmann/json.hpp>

#include "report/writers.h"

namespace kvz {

nlohmann::json html_data(const std::vector<RunResults>& runs, const ReportOptions& opt);
// Points a chart must draw: the sum of its series' points (scatter) or positive bars (bar).
size_t chart_point_count(const nlohmann::json& chart);

}  // namespace kvz
