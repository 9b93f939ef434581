#include "blockgen/lsm_sample.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <random>

namespace kvz {

std::vector<size_t> load_order(size_t records, LoadOrder order) {
  std::vector<size_t> out(records);
  std::iota(out.begin(), out.end(), size_t{0});
  if (order == LoadOrder::Shuffled) std::shuffle(out.begin(), out.end(), std::mt19937_64(kShuffleSeed));
  return out;
}

namespace {

size_t position(double fraction, size_t n) {
  return static_cast<size_t>(std::llround(std::clamp(fraction, 0.0, 1.0) * static_cast<double>(n)));
}

// Whether run `r` of the level keeps its numbers: the runs' golden-ratio sequence fills [0, 1)
// evenly, so any share of them is spread over the whole key range.
bool run_kept(size_t r, double kept) {
  constexpr double kGolden = 0.6180339887498949;
  const double x = static_cast<double>(r) * kGolden;
  return x - std::floor(x) < kept;
}

}  // namespace

RecordSet level_records(const RecordSet& in, const std::vector<size_t>& order, const LevelSlice& slice) {
  RecordSet out;
  out.source = in.source;
  out.record_mode = in.record_mode;
  out.field_separator = in.field_separator;
  out.columns = in.columns;
  const size_t n = std::min(order.size(), in.records.size());
  const size_t from = position(slice.from, n), to = std::max(from, position(slice.to, n));
  // (record index, sequence number) of the slice's writes, then in key order.
  std::vector<std::pair<size_t, uint64_t>> held;
  held.reserve(to - from);
  for (size_t w = from; w < to; ++w) held.emplace_back(order[w], w + 1);
  std::sort(held.begin(), held.end());
  out.records.reserve(held.size());
  out.sequences.reserve(held.size());
  for (size_t p = 0; p < held.size(); ++p) {
    out.records.push_back(in.records[held[p].first]);
    out.sequences.push_back(run_kept(p / kKeptRun, slice.kept) ? held[p].second : 0);
  }
  return out;
}

std::string level_cut_layout(const std::string& layout, int first, int last, CutNumbers numbers) {
  // Appended, not concatenated: GCC 12 at -O3 warns (-Wrestrict) on "literal" + std::string&&
  // in a build that is not a unity build.
  std::string name = layout;
  name += "@L";
  name += std::to_string(first);
  if (last != first) {
    name += '-';
    name += std::to_string(last);
  }
  if (numbers == CutNumbers::AllKept) name += 'k';
  if (numbers == CutNumbers::AllZeroed) name += 'z';
  return name;
}

bool parse_level_cut(const std::string& name, std::string& layout, int& first, int& last, CutNumbers& numbers) {
  const size_t at = name.find("@L");
  if (at == std::string::npos) return false;
  const char* p = name.c_str() + at + 2;
  char* end = nullptr;
  const long a = std::strtol(p, &end, 10);
  if (end == p || a < 0 || a > 64) return false;
  long b = a;
  if (*end == '-') {
    p = end + 1;
    b = std::strtol(p, &end, 10);
    if (end == p || b < a || b > 64) return false;
  }
  numbers = *end == 'k' ? CutNumbers::AllKept : *end == 'z' ? CutNumbers::AllZeroed : CutNumbers::Own;
  if (numbers != CutNumbers::Own) ++end;
  if (*end) return false;
  layout = name.substr(0, at);
  first = static_cast<int>(a);
  last = static_cast<int>(b);
  return true;
}

bool parse_level_cut(const std::string& name, std::string& layout, int& first, int& last) {
  CutNumbers numbers = CutNumbers::Own;
  return parse_level_cut(name, layout, first, last, numbers) && numbers == CutNumbers::Own;
}

}  // namespace kvz
