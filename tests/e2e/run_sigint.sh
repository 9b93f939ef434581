#!/usr/bin/env bash
# Ctrl-C mid-run: exit 130, every finished repetition is written (a cell interrupted mid-way
# keeps the ones it finished, with a warning), meta.interrupted is true.
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
# Every kept cell has the repetitions that finished (1..3 each way; with interleaving the block
# set under way is mid-way in every cell), and each one short of 3 is named in a warning.
jq -e '[.kvzbench.cells[] | [.compress_mbps, .decompress_mbps][] | length | . >= 1 and . <= 3] | all' \
  "$work/out.json" >/dev/null || fail "a kept cell has no finished repetition in one direction"
short=$(jq '[.kvzbench.cells[] | select((.compress_mbps | length) < 3 or (.decompress_mbps | length) < 3)] | length' \
  "$work/out.json")
named=$(grep -c ': interrupted: ' "$work/err" || true)
[ "$short" -eq "$named" ] || fail "$short cells with fewer repetitions, $named warnings"
# A block set cut short is marked: every short cell is partial_set, and the marked cells are
# one block set (the one under way), named in a warning.
jq -e '[.kvzbench.cells[] | select((.compress_mbps | length) < 3 or (.decompress_mbps | length) < 3) |
        .partial_set == true] | all' "$work/out.json" >/dev/null || fail "a short cell is not marked partial_set"
sets=$(jq '[.kvzbench.cells[] | select(.partial_set) | .key | "\(.source) \(.layout) \(.block_size)"] | unique |
  length' "$work/out.json")
[ "$sets" -le 1 ] || fail "$sets block sets marked partial_set, at most the one under way"
[ "$sets" -eq "$(grep -c 'block set cut short' "$work/err" || true)" ] || fail "a partial block set without its warning"
echo "run_sigint: OK ($cells cells kept)"
