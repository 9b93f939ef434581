#pragma once
// The result model's names, for headers that only pass results by reference (like <iosfwd>):
// a code file that reads a field includes results/results.h itself, and only those rebuild
// when the model gains a field.
namespace kvz {

struct CellKey;
struct CellResult;
struct CorpusInfo;
struct LatencyStats;
struct RunMeta;
struct RunResults;

}  // namespace kvz
