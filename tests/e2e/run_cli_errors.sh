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

# '-' is standard output: the CSV alone on stdout, the table on stderr; the cell ids carry the
# file's name, not its directory.
"$kvz" run -q --time 0.002 --repetitions 1 -c lz4 -b 4K --latency-calls 100 --csv - "$corpus" >"$work/stdout.csv" \
  2>"$work/table" || fail "--csv - did not run"
head -1 "$work/stdout.csv" | grep -q "^id,source," || fail "--csv -: stdout does not start with the CSV header"
[ "$(wc -l <"$work/stdout.csv")" -eq 3 ] || fail "--csv -: stdout is not header + 2 rows"
grep -q "^cp.html:lines/raw/4K/lz4/" "$work/stdout.csv" || fail "--csv -: the cell id is not by file name"
grep -q "wrote standard output" "$work/table" || fail "--csv -: the table did not go to stderr"
[ ! -e ./- ] || fail "--csv - wrote a file named '-'"
expect_error "both write to standard output" -c lz4 -b 4K --csv - --json - "$corpus"
# lzbench's -o: the format to stdout.
"$kvz" run -q --time 0.002 --repetitions 1 -c lz4 -b 4K --latency-calls 100 -o json "$corpus" >"$work/o.json" \
  2>/dev/null || fail "-o json did not run"
jq -e '.kvzbench.cells | length == 2' "$work/o.json" >/dev/null || fail "-o json: stdout is not the results JSON"
expect_error "expected text, csv, md or json" -c lz4 -b 4K -o xml "$corpus"

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
