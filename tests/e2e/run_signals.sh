#!/usr/bin/env bash
# Signals and pipes: SIGINT, SIGTERM and SIGHUP all stop a run with exit 128+N and its
# finished cells written; a second signal right after the first does not kill the writes;
# a closed stdout (`| head`) loses only the console table; a signal inside one slow cell acts
# within a second or two, not after the cell (it took 9-13 s before).
source "$(dirname "$0")/common.bash"

# Starts a run in the background; its pid in $pid.
start_run() { # json, extra args...
  local json=$1
  shift
  "$kvz" run -q -d dbbench,json-docs -l raw,rocksdb -b 4K,16K,64K -c lz4/zstd:1 --time 0.1 --repetitions 3 \
    --json "$json" "$@" >"$work/table" 2>"$work/err" &
  pid=$!
}

# Waits for $pid; its exit code in $code.
finish() {
  code=0
  wait "$pid" || code=$?
}

expect_written() { # json, wanted exit, what
  [ "$code" -eq "$2" ] || { cat "$work/err"; fail "$3: exit $code, wanted $2"; }
  jq -e '.kvzbench.meta.interrupted == true' "$1" >/dev/null || fail "$3: no valid interrupted result in $1"
}

for sig in TERM HUP; do
  start_run "$work/$sig.json"
  sleep 2
  kill -"$sig" "$pid"
  finish
  wanted=$((128 + $(kill -l "$sig")))
  expect_written "$work/$sig.json" "$wanted" "SIG$sig"
done

# Two Ctrl-C back to back: the second must not kill the run before its files are written.
start_run "$work/twice.json"
sleep 2
kill -INT "$pid"
kill -INT "$pid" 2>/dev/null || true
finish
expect_written "$work/twice.json" 130 "double SIGINT"

# A closed stdout: the files come first and the exit code is the run's own.
set +o pipefail
"$kvz" run -q -d dbbench -b 4K -c lz4 --time 0.01 --repetitions 1 --json "$work/pipe.json" | head -c 1 >/dev/null
status=${PIPESTATUS[0]}
set -o pipefail
[ "$status" -eq 0 ] || fail "| head: kvzbench exit $status, wanted 0"
jq -e '.kvzbench.cells | length > 0' "$work/pipe.json" >/dev/null || fail "| head: no results written"

# Inside one slow cell (xz 9 on 64 KiB blocks, 3 x 5 s per cell): the signal acts within the
# cell, not after it (8 s leaves room for a loaded sanitizer build and stays under the cell's 15 s).
"$kvz" run -q -d dbbench -b 64K -c xz:9 --time 5 --repetitions 3 --json "$work/slow.json" >/dev/null 2>&1 &
pid=$!
sleep 3
t0=$(date +%s%N)
kill -INT "$pid"
finish
elapsed_ms=$((($(date +%s%N) - t0) / 1000000))
expect_written "$work/slow.json" 130 "slow cell"
[ "$elapsed_ms" -lt 8000 ] || fail "slow cell: stopped ${elapsed_ms} ms after the signal"
echo "run_signals: OK (slow cell stopped in ${elapsed_ms} ms)"
