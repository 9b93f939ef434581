#pragma once
// The HTML report's assets, embedded at build time (report/html/embed.cmake): its script and
// style from report/html/, and Chart.js 3.9 from Debian's libjs-chart.js (MIT licence, its
// notice kept in the text).
namespace kvz {
extern const char* const kHtmlScript;
extern const char* const kHtmlStyle;
extern const char* const kChartJs;
}  // namespace kvz
