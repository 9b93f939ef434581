#pragma once
// What `kvzbench run` prints: the answer first, then the console table: one section per block set,
// memcpy first, rows sorted lzbench-style, each speed also relative to memcpy of the same block set.
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "judgement/cost.h"
#include "results/results_fwd.h"

namespace kvz {

// The table's order within a block set (memcpy and the current codec first): compression speed
// (fastest first, the default), decompression speed, ratio, or as measured.
enum class TableSort { CompressSpeed, DecompressSpeed, Ratio, None };
// Their names, as `run --sort` takes them.
inline constexpr std::pair<std::string_view, TableSort> kTableSorts[] = {{"cspeed", TableSort::CompressSpeed},
                                                                         {"dspeed", TableSort::DecompressSpeed},
                                                                         {"ratio", TableSort::Ratio},
                                                                         {"none", TableSort::None}};

// The width the console is laid out for when none is given (a file or a pipe; util/text.h
// console_columns gives the terminal's).
inline constexpr size_t kConsoleColumns = 100;

// What `kvzbench run` prints after measuring, in this order: the answer first (what it stands
// on, a merged survey's fleet answer, the pick per workload with the line that applies it, the
// marks explained), then the table per block set, the store table, the totals per table and,
// with --workload, the cost ranking and the plans. Every line within `width` columns, but the
// --wide table's.
struct ConsoleOptions {
  TableSort sort = TableSort::CompressSpeed;
  bool wide = false;
  size_t width = kConsoleColumns;
  std::optional<Workload> workload;  // the cost model and the plans (--workload)
  std::vector<Device> devices = default_devices();
};
void print_run_console(std::ostream& out, const RunResults& results, const ConsoleOptions& opt);
// The order by its name in kTableSorts; an unknown name: compression speed.
TableSort table_sort_named(std::string_view name);

// The answer (report/console_answer.cpp): the header lines (report/answer.h answer_header_lines),
// the recommendations with their configuration lines, and the marks they and the tables use.
void print_answer(std::ostream& out, const RunResults& results, size_t width = kConsoleColumns);
void print_answer_header(std::ostream& out, const RunResults& results, size_t width = kConsoleColumns);
// The recommendations per workload group (report/answer.h run_answer), one line each, a store's
// line under its pick.
void print_recommendations(std::ostream& out, const RunResults& results, size_t width = kConsoleColumns);
// `line` after `lead` ("    rocksdb: "), broken after its ';' (after ',' or a space where one
// option is wider than the room) so no line passes `width`; continuation lines indented under
// the line's start. No trailing newline.
std::string wrap_config_line(std::string_view lead, std::string_view line, size_t width);

// Codecs whose level means nothing (meta.codec_versions has_levels false) show no level. The
// compact table leaves out its last columns where `width` cannot hold them (and says so);
// --wide shows every column, whatever the width.
void print_console_table(std::ostream& out, const RunResults& results, TableSort sort, bool wide = false,
                         size_t width = kConsoleColumns);
// The same with the order by its name in kTableSorts (an unknown name: compression speed).
void print_console_table(std::ostream& out, const RunResults& results, std::string_view sort, bool wide = false);
// With a store profile: what that store would write, per codec (nothing without one).
void print_store_table(std::ostream& out, const RunResults& results, size_t width = kConsoleColumns);
// The cost model (--workload): per workload group, the three cheapest candidates with their
// monthly storage and CPU cost, and "uncompressed" for reference.
void print_costs(std::ostream& out, const RunResults& results, const Workload& workload,
                 const std::vector<Device>& devices, size_t width = kConsoleColumns);

// The per-level plan (--workload with size=, under a RocksDB profile): per workload group the
// options line and each level's data, writes, reads, codec and cost (judgement/level_plan.h);
// with style=universal the universal plan (its sorted runs too, judgement/universal_plan.h); with
// family= a plan per column family, leveled or universal (judgement/family_plan.h).
void print_level_plans(std::ostream& out, const RunResults& results, const Workload& workload,
                       size_t width = kConsoleColumns);

}  // namespace kvz
