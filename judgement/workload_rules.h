#pragma once
// The five named workloads as costs (judgement/README.md "Recommendations"): each is a monthly
// cost in the cost model's own terms (judgement/cost.h: write and read MB/s, storage $/GB-month,
// CPU $/core-hour, the data held), with documented defaults, and the floors it must meet. A pick
// is the cheapest candidate that meets the floors; costs that the uncertainty of their speeds
// cannot tell apart are a tie, never between speeds more than 1.5x apart, and a tie goes to the
// better stored ratio and is said to be one. No pick is dominated on (stored ratio, the
// workload's speed) by another candidate: with one speed in its cost, a candidate at least as
// good on both is never dearer.
#include <string>
#include <vector>

#include "judgement/analysis.h"
#include "judgement/cost.h"

namespace kvz {

// The one speed a workload's cost counts.
enum class WorkloadSpeed { Compress, Decompress };

struct NamedWorkload {
  std::string name;     // "write-heavy"
  std::string meaning;  // who this is, in one phrase
  Workload terms;       // write=, read=, storage=, cpu= and size= (the data held) of the cost model
  WorkloadSpeed speed = WorkloadSpeed::Compress;
  // Floors a pick must meet (0: none).
  double min_decompress_mbps = 0;
  double min_stored_ratio = 0;  // strictly above
  double max_block_us = 0;      // no stall block and every block's intrinsic cost below it
};

// The five, in the order every output prints them, with the floors of `opt`:
//   write-heavy      write=100 MB/s (10 MB/s ingested, rewritten ~10x by compaction), 500 GiB held
//   read-heavy       read=500 MB/s (block reads that miss the cache), 200 GiB held; saves space
//   space-sensitive  read=10 MB/s, 2 TiB held; decompress >= 500 MB/s
//   latency-bound    read=100 MB/s, 500 GiB held; no block's fastest call reaches 500 us
//   cold data        read=1 MB/s, 10 TiB held; decompress >= 50 MB/s
// all at $0.08/GB-month and $0.04/core-hour.
std::vector<NamedWorkload> named_workloads(const RecommendOptions& opt);
// "--workload write=100,read=0,storage=0.08,cpu=0.04,size=500G": the same cost as a ranking.
std::string workload_option_text(const NamedWorkload& w);

// The candidate's speed the workload counts, and its monthly cost under the workload's terms.
double workload_speed(const NamedWorkload& w, const Candidate& c);
CostRow workload_cost(const NamedWorkload& w, const Candidate& c, int threads);
bool meets_floors(const NamedWorkload& w, const Candidate& c);

// The picks of one group (GroupRecommendations::picks), one per named workload. A candidate
// `allowed` rejects is never a pick; one `own_call` rejects (a store's best possible call) is
// never a pick either, but when it would have been cheaper the pick says so (code_change).
// `too_busy`: the machine was too busy to decide, and every pick says it is not decided.
void add_picks(GroupRecommendations& g, const RecommendOptions& opt, const CandidateFilter& allowed,
               const CandidateFilter& own_call, bool too_busy);

}  // namespace kvz
