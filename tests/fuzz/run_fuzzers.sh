#!/usr/bin/env bash
# Run every libFuzzer target of a build on a copy of its checked-in seed corpus.
#   tests/fuzz/run_fuzzers.sh <build-dir> [seconds-per-target, default 30]
# One line per target: name, executions, result. Exits 1 if any target crashed (the crash
# input is kept under <build-dir>/tests/fuzz/artifacts/<target>/), 2 on a usage error.
set -u

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 <build-dir> [seconds-per-target]" >&2
  exit 2
fi
build=$(cd "$1" 2>/dev/null && pwd) || { echo "$0: no build directory '$1'" >&2; exit 2; }
secs=${2:-30}
if ! [[ $secs =~ ^[1-9][0-9]*$ ]]; then
  echo "$0: seconds-per-target must be a positive integer, not '$secs'" >&2
  exit 2
fi
# UBSan findings are fatal in these builds; print their stack like ASan's.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
outdir=$build/tests/fuzz

bins=()
for f in "$outdir"/kvz_fuzz_*; do
  [[ -f $f && -x $f ]] && bins+=("$f")
done
if [[ ${#bins[@]} -eq 0 ]]; then
  echo "$0: no kvz_fuzz_* binaries in $outdir (configure with -DKVZ_FUZZ=ON and clang, see tests/fuzz/README.md)" >&2
  exit 2
fi

# The corpus copies live in a temp dir, so the checked-in seeds are never modified.
work=$(mktemp -d "${TMPDIR:-/tmp}/kvz_fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# All targets fuzz at once (CI has 2 cores and a time budget); then one line per target.
pids=()
for bin in "${bins[@]}"; do
  target=fuzz_${bin##*/kvz_fuzz_}
  corpus=$work/$target
  mkdir -p "$corpus"
  if [[ -d $here/corpus/$target ]]; then
    cp -R "$here/corpus/$target/." "$corpus/"
  fi
  artifacts=$outdir/artifacts/$target
  log=$outdir/logs/$target.log
  rm -rf "$artifacts"
  mkdir -p "$artifacts" "$(dirname "$log")"
  # A bomb (an allocation or RSS past 512 MB) or a hang (one input past 5 s) fails the target.
  "$bin" -max_total_time="$secs" -rss_limit_mb=512 -timeout=5 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$corpus" >"$log" 2>&1 &
  pids+=($!)
done

failed=0
printf '%-22s %14s  %s\n' target executions result
for i in "${!bins[@]}"; do
  bin=${bins[$i]}
  target=fuzz_${bin##*/kvz_fuzz_}
  corpus=$work/$target
  log=$outdir/logs/$target.log
  rc=0
  wait "${pids[$i]}" || rc=$?

  execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
  if [[ -z $execs ]]; then  # no final stats (killed hard): the last status line
    execs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
  fi
  artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
  if [[ $rc -eq 0 && -z $artifact ]]; then
    result="ok ($(find "$corpus" -type f | wc -l) corpus files)"
  else
    failed=1
    kind=crash
    [[ -n $artifact ]] && kind=$(basename "$artifact" | cut -d- -f1)  # crash, leak, timeout, oom
    result="FAILED: $kind (exit $rc), input ${artifact:-not written}, log $log"
  fi
  printf '%-22s %14s  %s\n' "$target" "${execs:-?}" "$result"
done

if [[ $failed -ne 0 ]]; then
  echo "fuzzing found failures; save each input as tests/fuzz/crashes/<target>-<short-name> (see README.md)" >&2
  exit 1
fi
exit 0
