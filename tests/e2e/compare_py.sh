#!/usr/bin/env bash
# Google Benchmark's own compare.py (Debian's libbenchmark-tools) reads kvzbench's results JSON
# and sees a size change: each cell's `<id>/stored_bytes` row carries its stored bytes in
# real_time and cpu_time. Two runs of the same cells, the second with a stricter keep-raw rule
# (--min-saving 60: more blocks stored raw), must show the size row grow and nothing fail.
source "$(dirname "$0")/common.bash"
compare=/usr/share/benchmark/compare.py
[ -f "$compare" ] || fail "no $compare: install libbenchmark-tools (./kvz.sh test does)"
py=/usr/bin/python3 # Debian's, with python3-scipy and python3-numpy (compare.py imports both)
run() { # MIN_SAVING OUT
  "$kvz" run -q -d dbbench -b 4K -c lz4 --max-bytes 128K --time 0.01 --repetitions 3 --latency-calls 100 \
    --min-saving "$1" --json "$2" >/dev/null 2>"$work/err" || { cat "$work/err"; fail "run failed"; }
}
run 12.5 "$work/base.json"
run 60 "$work/new.json"
"$py" "$compare" --no-color benchmarks "$work/base.json" "$work/new.json" >"$work/out" 2>&1 ||
  { cat "$work/out"; fail "compare.py failed"; }
line=$(grep "/stored_bytes " "$work/out" | grep -v memcpy | head -1)
[ -n "$line" ] || { cat "$work/out"; fail "compare.py shows no stored_bytes row"; }
# Columns: name, time change, cpu change, old, new, ...: the change is +x.xxxx (a fraction).
change=$(awk '{print $2}' <<<"$line")
old=$(awk '{print $4}' <<<"$line")
new=$(awk '{print $5}' <<<"$line")
awk -v c="$change" 'BEGIN { exit !(c > 0) }' || { echo "$line"; fail "the stored bytes did not grow: $change"; }
want_old=$(jq '[.kvzbench.cells[] | select(.key.codec == "lz4") | .stored_bytes][0]' "$work/base.json")
want_new=$(jq '[.kvzbench.cells[] | select(.key.codec == "lz4") | .stored_bytes][0]' "$work/new.json")
[ "$old" = "$want_old" ] && [ "$new" = "$want_new" ] ||
  { echo "$line"; fail "compare.py shows $old -> $new, the runs stored $want_old -> $want_new"; }
echo "compare_py: OK (lz4 stored bytes $old -> $new, change $change)"
