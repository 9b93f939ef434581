#!/usr/bin/env bash
# Ctrl-C mid-run: exit 130, the finished cells are written (and only finished ones: each has
# every repetition), meta.interrupted is true.
source "$(dirname "$0")/common.bash"
# Plenty of block sets so the signal lands mid-run.
"$kvz" run -q -d dbbench,json-docs -l raw,leveldb,rocksdb -b 4K,8K,16K,32K,64K -c lz4/snappy/zstd:1 \
  --time 0.1 --repetitions 3 --json "$work/out.json" >"$work/table" 2>"$work/err" &
pid=$!
sleep 3
kill -INT "$pid"
code=0
wait "$pid" || code=$?
[ "$code" -eq 130 ] || { cat "$work/err"; fail "exit $code, wanted 130"; }
[ -s "$work/out.json" ] || fail "no results written"
jq -e '.kvzbench.meta.interrupted == true' "$work/out.json" >/dev/null || fail "meta.interrupted not true"
cells=$(jq '.kvzbench.cells | length' "$work/out.json")
[ "$cells" -gt 0 ] || fail "no finished cell kept"
[ "$cells" -lt 120 ] || fail "all $cells cells present: the signal did not interrupt"
jq -e '[.kvzbench.cells[] | (.compress_mbps | length) == 3 and (.decompress_mbps | length) == 3] | all' \
  "$work/out.json" >/dev/null || fail "an unfinished cell was kept"
echo "run_sigint: OK ($cells cells kept)"
