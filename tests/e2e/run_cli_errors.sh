#!/usr/bin/env bash
# `kvzbench run` input errors: one clear line on stderr and exit 2, never a crash; an empty
# file is a warning and no rows.
source "$(dirname "$0")/common.bash"
corpus=${KVZ_CORPORA:?KVZ_CORPORA must name the corpora directory}/canterbury/cp.html
# expect_error WANT_SUBSTRING ARGS...: exit 2 and exactly one stderr line containing WANT
expect_error() {
  local want=$1 got=0
  shift
  "$kvz" run -q --time 0.002 --repetitions 1 "$@" >"$work/out" 2>"$work/err" || got=$?
  [ "$got" -eq 2 ] || { cat "$work/err"; fail "exit $got, wanted 2: $*"; }
  [ "$(wc -l <"$work/err")" -eq 1 ] || { cat "$work/err"; fail "not one line: $*"; }
  grep -q -- "$want" "$work/err" || { cat "$work/err"; fail "no '$want' in error: $*"; }
}
for bad in 0 -4K abc 512 2M 4K,x; do
  expect_error "block size" -c lz4 -b "$bad" "$corpus"
done
expect_error "nosuchcodec" -c nosuchcodec -b 4K "$corpus"
expect_error "zstd" -c zstd:99 -b 4K "$corpus"
expect_error "no/such/file" -c lz4 -b 4K "$work/no/such/file"
expect_error "cache" -c lz4 -b 4K --cache warm "$corpus"
expect_error "threads" -c lz4 -b 4K -T 0 "$corpus"
expect_error "shard" -c lz4 -b 4K --shard 3/3 "$corpus"
expect_error "profile" --profile nosuchprofile -b 4K "$corpus"
expect_error "layout" -c lz4 -b 4K -l btree "$corpus"
expect_error "stall" -c lz4 -b 4K --stall-threshold 0 "$corpus"
expect_error "does not exist" -c lz4 -b 4K --json "$work/no/such/dir/out.json" "$corpus"
expect_error "min_compress_ratio" --profile cassandra:min_compress_ratio=0.5 "$corpus"

# lzbench's flag and syntax: -e zstd,1,3/lz4 selects the same rows as -c zstd:1,3/lz4.
"$kvz" run -q --time 0.002 --repetitions 1 -e zstd,1,3/lz4 -b 4K --json "$work/e.json" "$corpus" >/dev/null 2>&1 ||
  fail "-e zstd,1,3/lz4 did not run"
rows=$(jq -r '[.kvzbench.cells[].key | "\(.codec):\(.params)"] | sort | join(" ")' "$work/e.json")
[ "$rows" = "lz4:1 memcpy:0 zstd:1 zstd:3" ] || fail "-e zstd,1,3/lz4 gave rows: $rows"

# An empty file: a warning, no rows, and exit 1: a run that measured nothing is not a success.
: >"$work/empty.txt"
code=0
"$kvz" run -q -c lz4 -b 4K --time 0.002 --repetitions 1 --json "$work/empty.json" "$work/empty.txt" \
  >"$work/out" 2>"$work/err" || code=$?
[ "$code" -eq 1 ] || { cat "$work/err"; fail "empty file: exit $code, wanted 1"; }
grep -q "nothing was measured" "$work/err" || fail "empty file: no 'nothing was measured' line"
grep -q "empty" "$work/err" || fail "empty file: no warning"
[ "$(jq '.kvzbench.cells | length' "$work/empty.json")" -eq 0 ] || fail "empty file produced rows"
echo "run_cli_errors: OK"
