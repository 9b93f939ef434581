#!/usr/bin/env bash
# The README's plan commands (README.md "Examples", judgement/README.md "Universal compaction and
# column families"): under --profile rocksdb, style=universal prints the universal plan and its
# line instead of the leveled one; family= prints each family's pick with a line naming the family.
source "$(dirname "$0")/common.bash"
# What the console says, not how it is laid out: a terminal wide enough that no line wraps
# (tests/e2e/console_width.sh holds every line to 100 columns).
export COLUMNS=1000
corpus=${KVZ_CORPORA:?KVZ_CORPORA must name the corpora directory}/json/twitter.json
quick=(run -q --profile rocksdb -c lz4/zstd:3 --time 0.01 --repetitions 1 --latency-calls 100 "$corpus")
"$kvz" "${quick[@]}" --json "$work/u.json" \
  --workload write=2,read=50,storage=0.08,cpu=0.04,size=500G,style=universal >"$work/universal" 2>"$work/err" ||
  { cat "$work/err"; fail "run --workload ...,style=universal failed"; }
grep -q "^universal plan, .*(500 GiB, universal, 7 levels, size ratio 1 %, size amplification 200 %" "$work/universal" ||
  fail "no universal plan: $(cat "$work/universal")"
grep -q "^  rocksdb: compaction_style=kCompactionStyleUniversal;.*;compression_per_level=.*;bottommost_compression=" \
  "$work/universal" || fail "no universal line"
# Paced at write=2 MB/s: the replays' mean per level and how long the load takes.
grep -q "^  sorted runs by level, newest first (stored GiB, the mean of the replays and their range): L" \
  "$work/universal" || fail "no sorted runs"
grep -qE "^  the load takes [0-9.e+]+ s at the write rate, writes slowed or stopped for [0-9.e+]+ s of it" \
  "$work/universal" || fail "no load time: $(cat "$work/universal")"
grep -q "^per-level plan" "$work/universal" && fail "style=universal also printed the leveled plan"
"$kvz" "${quick[@]}" --json "$work/f.json" \
  --workload storage=0.08,cpu=0.04,family=hot:write=20:read=200:size=50G,family=cold:write=0.5:read=5:size=2T \
  >"$work/families" 2>"$work/err" || { cat "$work/err"; fail "run --workload ...,family= failed"; }
grep -q "^column family plans, .*(30 days at 20.5 MB/s written, 205 MB/s read" "$work/families" ||
  fail "no family plans: $(cat "$work/families")"
for family in hot cold; do
  grep -qE "^  $family \\([0-9.]+ MB/s written, [0-9.]+ MB/s read, [0-9.]+ GiB\\): (leveled|universal), \\$" \
    "$work/families" || fail "no pick for $family"
  grep -qE "^    rocksdb \\[CFOptions \"$family\"\\]: (compaction_style=kCompactionStyleUniversal;|compression_per_level=)" \
    "$work/families" || fail "no line for $family"
done
echo "workload_plans: OK"
