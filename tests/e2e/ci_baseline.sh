#!/usr/bin/env bash
# kvzbench's own regression gate: the quick profile, 9 repetitions, checked against the
# baseline committed in tests/baselines/quick.json. Sizes must be equal (same library
# versions) or within the ratio tolerance; speeds are gated only where the CPU and the build
# match the baseline's (check prints SKIPPED otherwise). Re-baseline with:
#   build/release/kvzbench run --profile quick --repetitions 9 -q --json tests/baselines/quick.json
source "$(dirname "$0")/common.bash"
src=$(cd "$(dirname "$0")/../.." && pwd)
code=0
"$kvz" run --profile quick --repetitions 9 -q --json "$work/quick.json" --html "$build/quick-report.html" \
  --check "$src/tests/baselines/quick.json" >"$work/out" 2>&1 || code=$?
# The check's verdict lines (the console table is in $work/out).
grep -E "^(baseline|current|speed|check|summary|codec library|re-baseline|run-to-run)|^(FAIL|UNSTABLE) " "$work/out" || true
if [ "$code" -ne 0 ]; then
  echo "FAIL: kvzbench run --check exited $code"
  grep -E "^FAIL " "$work/out" || tail -20 "$work/out"
  exit 1
fi
grep -q "check: PASS" "$work/out" || { tail -20 "$work/out"; echo "FAIL: no 'check: PASS' line"; exit 1; }
echo "ci_baseline: PASS"
