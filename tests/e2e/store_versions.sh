#!/usr/bin/env bash
# Codec lists by store version: --profile leveldb models LevelDB 1.23 (no zstd row, the version
# in the console heading and in the JSON's meta.store_versions); leveldb:version=main adds zstd,
# labelled as main's in the store table; -c zstd under plain leveldb names that option.
source "$(dirname "$0")/common.bash"
# What the console says, not how it is laid out: a terminal wide enough that no line wraps
# (tests/e2e/console_width.sh holds every line to 100 columns).
export COLUMNS=1000
quick=(run -d dbbench --dataset-bytes 64K --time 0.002 --repetitions 1 --latency-calls 10)

"$kvz" "${quick[@]}" --profile leveldb --json "$work/base.json" >"$work/base.out" 2>&1 ||
  { cat "$work/base.out"; fail "--profile leveldb"; }
grep -q "· profile leveldb (LevelDB 1.23) ==" "$work/base.out" ||
  fail "the heading does not name LevelDB 1.23: $(grep -m1 '^==' "$work/base.out")"
[ "$(jq -r '.kvzbench.meta.store_versions.leveldb' "$work/base.json")" = "LevelDB 1.23" ] ||
  fail "meta.store_versions: $(jq -c '.kvzbench.meta.store_versions' "$work/base.json")"
codecs=$(jq -r '[.kvzbench.cells[].key.codec] | unique | join(",")' "$work/base.json")
[ "$codecs" = "memcpy,snappy" ] || fail "--profile leveldb measured $codecs"

"$kvz" "${quick[@]}" --profile leveldb:version=main --json "$work/main.json" >"$work/main.out" 2>&1 ||
  { cat "$work/main.out"; fail "--profile leveldb:version=main"; }
grep -q "· profile leveldb:version=main (LevelDB main (unreleased)) ==" "$work/main.out" ||
  fail "the heading does not name LevelDB main: $(grep -m1 '^==' "$work/main.out")"
[ "$(jq -r '.kvzbench.meta.store_versions["leveldb:version=main"]' "$work/main.json")" = \
  "LevelDB main (unreleased)" ] || fail "meta.store_versions: $(jq -c '.kvzbench.meta.store_versions' "$work/main.json")"
jq -e '[.kvzbench.cells[] | select(.key.codec == "zstd" and .key.profile == "leveldb:version=main")] | length == 1' \
  "$work/main.json" >/dev/null || fail "no zstd row under leveldb:version=main"
# The store table names the profile in its heading, a row per codec, a row's caveat under it.
sed -n '/^store table, leveldb:version=main (LevelDB main (unreleased))/,/^$/p' "$work/main.out" >"$work/store_table"
grep -A1 "^  zstd 1 " "$work/store_table" | grep -q "^    LevelDB main (unreleased) only, not LevelDB 1.23" ||
  fail "the store table does not label zstd as main's: $(grep -A1 'zstd 1' "$work/main.out")"

code=0
"$kvz" "${quick[@]}" --profile leveldb -c zstd >"$work/zstd.out" 2>&1 || code=$?
[ "$code" -eq 2 ] || fail "-c zstd under --profile leveldb: exit $code"
grep -q "not zstd, which LevelDB main (unreleased) writes (--profile leveldb:version=main)" "$work/zstd.out" ||
  fail "-c zstd: $(cat "$work/zstd.out")"
echo "store_versions: OK"
