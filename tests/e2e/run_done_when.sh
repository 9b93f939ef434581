#!/usr/bin/env bash
# The issue's acceptance command (shorter budget): the table shows latency percentiles and
# stall counts; out.json is Google Benchmark JSON (what tools/compare.py reads) and keeps
# kvzbench's cells; out.csv is written; memcpy is measured first.
source "$(dirname "$0")/common.bash"
corpus=${KVZ_CORPORA:?KVZ_CORPORA must name the corpora directory}/json/twitter.json
"$kvz" run -c lz4/zstd:1,3/snappy -b 4K,64K -l rocksdb "$corpus" --time 0.02 --repetitions 3 \
  --csv "$work/out.csv" --json "$work/out.json" >"$work/table" 2>"$work/err" || { cat "$work/err"; fail "run failed"; }
grep -q "p99.9 µs c/d (n)" "$work/table" || fail "no latency percentile in the table"
grep -q "stall blk" "$work/table" || fail "no stall counts in the table"
grep -q "^memcpy" "$work/table" || fail "no memcpy row"
[ -s "$work/out.csv" ] || fail "no CSV"
# Google Benchmark JSON: context + benchmarks with the fields compare.py uses.
jq -e '.context and (.benchmarks | length > 0)' "$work/out.json" >/dev/null || fail "not GB JSON"
jq -e '[.benchmarks[] | select(.run_type == "iteration") | (.name and .real_time and .cpu_time and .time_unit and .iterations)] | all' \
  "$work/out.json" >/dev/null || fail "GB rows lack name/real_time/cpu_time/time_unit/iterations"
cells=$(jq '.kvzbench.cells | length' "$work/out.json")
[ "$cells" -eq 10 ] || fail "$cells cells, wanted 10 (memcpy + 4 rows, 2 block sizes)"
jq -e '[.kvzbench.cells[] | (.compress_mbps | length) == 3] | all' "$work/out.json" >/dev/null ||
  fail "cells lack 3 repetitions"
jq -e '.kvzbench.meta.timer_overhead_ns > 0 and (.kvzbench.meta.corpora[0].sha256 | length) == 64' "$work/out.json" \
  >/dev/null || fail "meta lacks timer overhead or corpus sha256"
# --wide: every percentile per direction, the spreads and the context memory.
"$kvz" run -q --wide -c lz4 -b 4K -l rocksdb "$corpus" --time 0.02 --repetitions 3 --latency-calls 1000 \
  --json "$work/wide.json" >"$work/wide" 2>"$work/err" || { cat "$work/err"; fail "run --wide failed"; }
grep -q "comp µs p50/99/99.9 (n)" "$work/wide" || fail "--wide: no per-direction percentiles"
grep -q "context c/d" "$work/wide" || fail "--wide: no context memory"
# Issue 14's width rule: at COLUMNS=100 the whole output, warnings included, fits 100 columns
# (code points), even with a long corpus path.
# apache_access_logs.log: the longest corpus name of the default sweep (its block-set headers
# were 106 columns).
logs=${KVZ_CORPORA}/logs/apache_access_logs.log
COLUMNS=100 "$kvz" run -c lz4/zstd:1,3 -b 4K,64K "$corpus" "$logs" -l rocksdb --time 0.02 --repetitions 3 \
  --json "$work/c100.json" >"$work/c100" 2>&1 || { cat "$work/c100"; fail "COLUMNS=100 run failed"; }
python3 - "$work/c100" <<'PY' || fail "a line is wider than 100 columns at COLUMNS=100"
import sys
wide = [l for l in open(sys.argv[1], encoding="utf-8").read().splitlines() if len(l) > 100]
for l in wide:
    print(len(l), l)
sys.exit(1 if wide else 0)
PY
# --workload: the console summary ranks each group's candidates by monthly cost.
"$kvz" run -q -c lz4/zstd:1 -b 4K -l rocksdb "$corpus" --time 0.02 --repetitions 3 --json "$work/cost.json" \
  --workload write=50,read=200,storage=0.08,cpu=0.04,device=NVMe >"$work/cost" 2>"$work/err" ||
  { cat "$work/err"; fail "run --workload failed"; }
grep -q "^monthly cost, rocksdb 4K stream T1 (30 days at 50 MB/s written, 200 MB/s read" "$work/cost" ||
  fail "no cost summary"
grep -qE "^  uncompressed +\\$ +[0-9.]+ = storage" "$work/cost" || fail "no uncompressed row in the cost summary"
echo "run_done_when: OK"
