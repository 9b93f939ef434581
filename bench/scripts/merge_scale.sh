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
source "$here/scale_lib.bash"
scale_setup merge_scale.sh "$kvzbench"
make_shards "$kvzbench" "$work" "$cells" "$shards"
input_mb=$(du -sm "$work/shards" | cut -f1)

echo "inputs: $cells cells in $shards shard files, $input_mb MB; load average $(cut -d' ' -f1-3 /proc/loadavg)"
ok=0
measure merge "$cells" "$max_seconds" "$max_rss_kib" "$kvzbench" merge "$work"/shards/results-*-of-"$shards".json -o "$work/merged.json" || ok=1
rm -rf "$work/shards"
echo "merged file: $(du -sm "$work/merged.json" | cut -f1) MB"
# check exits 1 when it finds a regression; either verdict is a finished check. Its address space
# is capped (CHECK_MAX_VM_KIB, default 4 GiB) so a check that would need tens of GB fails here, as
# a MISSED line, instead of taking a shared machine's memory.
measure check "$cells" "$max_seconds" "$max_rss_kib" bash -c 'ulimit -v "$1" && exec "$2" check --baseline "$3" "$3"' check "${CHECK_MAX_VM_KIB:-4194304}" \
  "$kvzbench" "$work/merged.json" || ok=1
if [[ -n ${KEEP_MERGED:-} ]]; then mv "$work/merged.json" "$KEEP_MERGED"; fi
exit $ok
