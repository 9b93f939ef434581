#!/usr/bin/env bash
# `kvzbench run -c all -b 4K <corpus file>`: every codec at every standard level round-trips
# every block (exit 0, every cell OK, every registered codec present).
source "$(dirname "$0")/common.bash"
corpus=${KVZ_CORPORA:?KVZ_CORPORA must name the corpora directory}/canterbury/cp.html
code=0
"$kvz" run -q -c all -b 4K --time 0.002 --repetitions 1 --latency-calls 100 --json "$work/all.json" "$corpus" >"$work/out" 2>&1 || code=$?
[ "$code" -eq 0 ] || { cat "$work/out"; fail "exit $code"; }
cells=$(jq '.kvzbench.cells | length' "$work/all.json")
[ "$cells" -gt 10 ] || fail "only $cells cells"
bad=$(jq '[.kvzbench.cells[] | select(.status != "OK")] | length' "$work/all.json")
[ "$bad" -eq 0 ] || fail "$bad cells not OK"
for codec in $("$kvz" list --json | jq -r '.. | objects | select(has("name") and has("version")) | .name' | sort -u); do
  jq -e --arg c "$codec" '[.kvzbench.cells[] | select(.key.codec == $c)] | length > 0' "$work/all.json" >/dev/null ||
    fail "codec $codec missing from -c all"
done
echo "run_all_codecs: OK ($cells cells)"
