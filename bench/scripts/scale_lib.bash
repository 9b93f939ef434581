# Shared by merge_scale.sh and report_scale.sh (sourced): a merged synthetic sweep, and a command
# timed with /usr/bin/time -v (Debian package `time`).

# scale_setup SCRIPT KVZBENCH: exits 2 without /usr/bin/time or an executable KVZBENCH; makes the
# work directory $work in $TMPDIR, deleted at exit.
scale_setup() {
  local script=$1 kvzbench=$2
  [[ -x /usr/bin/time ]] || { echo "$script: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
  [[ -x $kvzbench ]] || { echo "$script: $kvzbench is not an executable" >&2; exit 2; }
  work=$(mktemp -d "${TMPDIR:-/tmp}/kvz_${script%.sh}.XXXXXX")
  trap 'rm -rf "$work"' EXIT
}

# make_shards KVZBENCH WORK CELLS SHARDS: WORK/shards/results-*-of-SHARDS.json, CELLS synthetic
# cells (synth_results.py: a real run's cells, speeds and latency blocks, cloned under new source
# names).
make_shards() {
  local kvzbench=$1 work=$2 cells=$3 shards=$4
  local here
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  # A real run of one source: per-repetition speeds and latency blocks as a sweep writes them.
  "$kvzbench" run -q -d dbbench -b 4K -c lz4/zstd:1/zstd:3/snappy/zlib:1 --max-bytes 64K --time 0.01 \
    --repetitions 5 --json "$work/seed.json" >/dev/null
  python3 "$here/synth_results.py" "$work/seed.json" "$work/shards" --cells "$cells" --shards "$shards"
}

# measure NAME CELLS MAX_SECONDS MAX_RSS_KIB CMD...: runs CMD under /usr/bin/time -v (its output in
# $work/NAME.{out,err,time}); prints one line with the wall and CPU seconds, the peak RSS and the
# load average at the start, ok or MISSED; returns 1 on a miss. Exit 1 from CMD (check's verdict
# "fail") counts as finished.
measure() {
  local name=$1 cells=$2 max_seconds=$3 max_rss_kib=$4
  shift 4
  local code=0 load
  load=$(cut -d' ' -f1 /proc/loadavg)
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
  printf '%-11s cells %8d  exit %d  wall %7.1f s  cpu %7.1f s  peak RSS %6.0f MiB  load %5s  %s\n' "$name" "$cells" \
    "$code" "$wall" "$cpu" "$(awk -v r="$rss" 'BEGIN {print r / 1024}')" "$load" "$verdict"
  if ((code != 0 && code != 1)); then head -c 300 "$work/$name.err" >&2; fi
  [[ $verdict == ok ]]
}
