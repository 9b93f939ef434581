#!/usr/bin/env bash
# Scale benchmark of `kvzbench report` on a merged sweep (issue 37 item 2): N synthetic cells in S
# shard files (synth_results.py, as merge_scale.sh makes them), merged with `kvzbench merge`, then
# one report per format of the merged file: HTML, Markdown and CSV, each timed alone by
# /usr/bin/time -v (Debian package `time`): wall and CPU seconds, peak RSS, the load average at the
# start, and MISSED when over the target. A benchmark, not a unit test.
#
#   bench/scripts/report_scale.sh build/release/kvzbench [CELLS [SHARDS]]   # default 20000 4
#
# Targets (issue 37): up to 20,000 cells 15 s and 256 MiB; more, 2 minutes and 1 GiB (on 2 cores);
# MAX_SECONDS and MAX_RSS_KIB override them. The machine's load is printed beside each figure: on
# a shared machine the wall time includes waiting for a core, so compare CPU seconds there.
# Needs ~21 KB of disk a cell at the peak (shards and the merged file, in $TMPDIR; the shards go
# once merged) and ~1 KB a cell for the CSV; everything is deleted at the end.
# Exit 0 when every report is within its target, 1 when one is missed, 2 on bad usage.
set -euo pipefail

kvzbench=${1:?usage: report_scale.sh KVZBENCH [CELLS [SHARDS]]}
cells=${2:-20000}
shards=${3:-4}
if ((cells <= 20000)); then seconds=15 rss_kib=262144; else seconds=120 rss_kib=1048576; fi
max_seconds=${MAX_SECONDS:-$seconds}
max_rss_kib=${MAX_RSS_KIB:-$rss_kib}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/scale_lib.bash"
scale_setup report_scale.sh "$kvzbench"
make_shards "$kvzbench" "$work" "$cells" "$shards"
"$kvzbench" merge "$work"/shards/results-*-of-"$shards".json -o "$work/merged.json" >/dev/null
rm -rf "$work/shards"
echo "merged file: $cells cells, $(du -sm "$work/merged.json" | cut -f1) MB; targets ${max_seconds} s, $((max_rss_kib / 1024)) MiB;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
ok=0
for format in html md csv; do
  case $format in
    html) out=(-o "$work/report.html") ;;
    md) out=(--md "$work/report.md") ;;
    csv) out=(--csv "$work/report.csv") ;;
  esac
  measure "report-$format" "$cells" "$max_seconds" "$max_rss_kib" "$kvzbench" report "$work/merged.json" "${out[@]}" || ok=1
  echo "            wrote $(du -k "$work/report.$format" | cut -f1) KiB"
  rm -f "$work/report.$format"
done
exit $ok
