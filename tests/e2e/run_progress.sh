#!/usr/bin/env bash
# The progress line on a terminal is sized to it: run under a pseudo-terminal 50 columns wide,
# no progress frame is wider than 49 characters (it used to be a fixed 110 and wrapped), and
# none is drawn when stderr is not a terminal. Also: `kvzbench --version` is one line.
source "$(dirname "$0")/common.bash"
"$kvz" --version | grep -qE '^kvzbench [0-9]+\.[0-9]+\.[0-9]+ \(git ' || fail "--version"
script -qec "stty cols 50 rows 20; '$kvz' run -d dbbench,json-docs -b 4K,16K -c lz4/zstd:1 --max-bytes 256K \
  --time 0.05 --repetitions 2 --json '$work/p.json' >/dev/null" /dev/null >"$work/tty" 2>&1 || true
frames=$(tr '\r' '\n' <"$work/tty" | grep -c 'ETA' || true)
[ "$frames" -gt 0 ] || { cat "$work/tty"; fail "no progress frame drawn on a terminal"; }
widest=$(tr '\r' '\n' <"$work/tty" | grep 'ETA' | awk '{ if (length($0) > w) w = length($0) } END { print w }')
[ "$widest" -le 49 ] || fail "a progress frame is $widest wide on a 50-column terminal"
"$kvz" run -d dbbench -b 4K -c lz4 --max-bytes 64K --time 0.01 --repetitions 1 --json "$work/q.json" \
  >/dev/null 2>"$work/err"
! grep -q 'ETA' "$work/err" || fail "progress drawn into a file"
echo "run_progress: OK ($frames frames, widest $widest)"
