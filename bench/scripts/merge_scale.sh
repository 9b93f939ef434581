#!/usr/bin/env bash
# Scale benchmark of `kvzbench merge` and `kvzbench check` on a merged sweep (issue 26): N
# synthetic cells in S shard files (synth_results.py: a real run's cells, with their
# per-repetition speeds and latency blocks, cloned under new source names), merged, then the
# merged file checked against itself as baseline. Prints cells, shards, wall seconds and peak RSS
# of each, measured by /usr/bin/time -v (Debian package `time`). A benchmark, not a unit test;
# the targets (issue 26: 1,000,000 cells, <= 2 min and <= 1 GiB each on 2 cores) are checked here.
#
#   bench/scripts/merge_scale.sh build/release/kvzbench [CELLS [SHARDS]]   # default 100000 8
#
# Needs ~11 KB of disk a cell for inputs and as much again for the merged file (in $TMPDIR).
# KEEP_MERGED=PATH moves the merged file there at the end (to time another build's check on it)
# instead of deleting it.
# Exit 0 when both commands succeed within the targets, 1 when one is missed, 2 on bad usage.
set -euo pipefail

kvzbench=${1:?usage: merge_scale.sh KVZBENCH [CELLS [SHARDS]]}
cells=${2:-100000}
shards=${3:-8}
max_seconds=${MAX_SECONDS:-120}
max_rss_kib=${MAX_RSS_KIB:-1048576}
here=$(cd "$(dirname "$0")" && pwd)
[[ -x /usr/bin/time ]] || { echo "merge_scale.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
[[ -x $kvzbench ]] || { echo "merge_scale.sh: $kvzbench is not an executable" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/kvz_merge_scale.XXXXXX")
trap 'rm -rf "$work"' EXIT

# A real run of one source: per-repetition speeds and latency blocks as a sweep writes them.
"$kvzbench" run -q -d dbbench -b 4K -c lz4/zstd:1/zstd:3/snappy/zlib:1 --max-bytes 64K --time 0.01 \
  --repetitions 5 --json "$work/seed.json" >/dev/null
python3 "$here/synth_results.py" "$work/seed.json" "$work/shards" --cells "$cells" --shards "$shards"
input_mb=$(du -sm "$work/shards" | cut -f1)

# measure NAME CMD...: runs CMD under /usr/bin/time -v; prints one line, returns 1 on a miss.
measure() {
  local name=$1
  shift
  local code=0
  /usr/bin/time -v -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" || code=$?
  local wall rss cpu
  cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$work/$name.time")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$work/$name.time")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/$name.time")
  local verdict=ok
  if ((code != 0 && code != 1)) || awk -v w="$wall" -v m="$max_seconds" 'BEGIN {exit !(w > m)}' || ((rss > max_rss_kib)); then
    verdict=MISSED
  fi
  # CPU seconds beside wall: on a shared machine the wall time includes waiting for a core.
  printf '%-6s cells %8d  shards %3d  exit %d  wall %7.1f s  cpu %7.1f s  peak RSS %6.0f MiB  %s\n' "$name" "$cells" \
    "$shards" "$code" "$wall" "$cpu" "$(awk -v r="$rss" 'BEGIN {print r / 1024}')" "$verdict"
  if ((code != 0 && code != 1)); then head -c 300 "$work/$name.err" >&2; fi
  [[ $verdict == ok ]]
}

echo "inputs: $cells cells in $shards shard files, $input_mb MB; load average $(cut -d' ' -f1-3 /proc/loadavg)"
ok=0
measure merge "$kvzbench" merge "$work"/shards/results-*-of-"$shards".json -o "$work/merged.json" || ok=1
rm -rf "$work/shards"
echo "merged file: $(du -sm "$work/merged.json" | cut -f1) MB"
# check exits 1 when it finds a regression; either verdict is a finished check. Its address space
# is capped (CHECK_MAX_VM_KIB, default 4 GiB) so a check that would need tens of GB fails here, as
# a MISSED line, instead of taking a shared machine's memory.
measure check bash -c 'ulimit -v "$1" && exec "$2" check --baseline "$3" "$3"' check "${CHECK_MAX_VM_KIB:-4194304}" \
  "$kvzbench" "$work/merged.json" || ok=1
if [[ -n ${KEEP_MERGED:-} ]]; then mv "$work/merged.json" "$KEEP_MERGED"; fi
exit $ok
