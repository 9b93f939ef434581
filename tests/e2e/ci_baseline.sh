#!/usr/bin/env bash
# kvzbench's own regression gate: the quick profile, 9 repetitions, checked against the
# baseline committed in tests/baselines/quick.json. Sizes must be equal (same library
# versions) or within the ratio tolerance; speeds are gated only where the CPU and the build
# match the baseline's (check prints SKIPPED otherwise). Re-baseline with:
#   build/release/kvzbench run --profile quick --repetitions 9 -q --json tests/baselines/quick.json
source "$(dirname "$0")/common.bash"
src=$(cd "$(dirname "$0")/../.." && pwd)
# A speed FAIL must reproduce: this shared VM has episodes of tens of seconds in which every codec
# runs 15-35 % slow while memcpy does not (bench/README.md), which no normalisation to memcpy
# cancels. Noise only makes a run slower, never faster, so a regression fails every attempt; an
# episode passes on a later one. Sizes and failures are judged on the first attempt alone.
attempt() { # N: run and check; the verdict lines go to the log
  local code=0
  "$kvz" run --profile quick --repetitions 9 -q --json "$work/quick.json" --html "$build/quick-report.html" \
    --check "$src/tests/baselines/quick.json" >"$work/out" 2>&1 || code=$?
  echo "attempt $1:"
  grep -E "^(baseline|current|speed|check|summary|codec library|re-baseline|run-to-run)|^(FAIL|UNSTABLE) " "$work/out" || true
  return "$code"
}
speed_only() { # every failing line has equal sizes ("=") and no round-trip failure
  ! grep -E "^FAIL " "$work/out" | grep -qvE "^FAIL +=" && ! grep -q "round trip failed" "$work/out"
}
for n in 1 2 3 4 5; do
  code=0
  attempt "$n" || code=$?
  if [ "$code" -eq 0 ] && grep -q "check: PASS" "$work/out"; then
    echo "ci_baseline: PASS (attempt $n)"
    exit 0
  fi
  [ "$n" -eq 1 ] && ! speed_only && { tail -20 "$work/out"; echo "FAIL: not a speed verdict (exit $code)"; exit 1; }
  [ "$n" -lt 5 ] && sleep 20
done
echo "FAIL: kvzbench run --check failed on speed in 5 attempts, 20 s apart"
exit 1
