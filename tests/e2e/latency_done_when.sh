#!/usr/bin/env bash
# Issue 10's acceptance on a corpus file: every printed p99.9 rests on >= 1,000 calls (p99 on
# >= 100), the JSON says how many; every cell has an intrinsic worst block, timed at least three
# times; and the worst block exports with `blocks` as the very bytes that cell timed.
source "$(dirname "$0")/common.bash"
corpus=${KVZ_CORPORA:?KVZ_CORPORA must name the corpora directory}/logs/apache_access_logs.log
src=(-l rocksdb --max-bytes 512K "$corpus")
"$kvz" run -q --wide -b 4K,64K -c lz4/zstd:1,19/xz:6 "${src[@]}" --time 0.05 --repetitions 3 \
  --latency-seconds 0.2 --json "$work/out.json" >"$work/table" 2>"$work/err" || { cat "$work/err"; fail "run failed"; }

# The JSON: percentiles only where the calls support them; an intrinsic figure everywhere.
jq -e '[.kvzbench.cells[] | .compress_latency, .decompress_latency |
        (.p999_ns == null or .calls >= 1000) and (.p99_ns == null or .calls >= 100) and
        .intrinsic.calls_per_block >= 3 and .intrinsic.worst_block_ns > 0] | all' "$work/out.json" >/dev/null ||
  fail "a percentile without its calls, or a cell without an intrinsic worst block"
# Fast cells get their p99.9: lz4 at 4K is far below 100 us a call.
jq -e '[.kvzbench.cells[] | select(.key.codec == "lz4" and .key.block_size == 4096) |
        .compress_latency.p999_ns != null and .decompress_latency.p999_ns != null] | all' "$work/out.json" \
  >/dev/null || fail "lz4 4K has no p99.9"

# The wide console: "p50/p99/p99.9 (n)", a dash wherever n is too small.
python3 - "$work/table" <<'PY' || fail "the table prints a percentile its calls cannot support"
import re, sys
seen = 0
for line in open(sys.argv[1], encoding="utf-8"):
    for p50, p99, p999, n in re.findall(r"(\S+)/(\S+)/(\S+) \((\d+)\)", line):
        seen += 1
        n = int(n)
        if (n < 1000) != (p999 == "—") or (n < 100) != (p99 == "—"):
            sys.exit(f"bad figure for {n} calls: {p50}/{p99}/{p999}")
if seen < 18:
    sys.exit(f"only {seen} latency figures in the table")
PY

# The worst block of the xz 64K cell, exported, is the block that cell timed: same size, and
# compressed alone it gives the size the cell recorded for it.
read -r index bytes packed < <(jq -r '.kvzbench.cells[] | select(.key.codec == "xz" and .key.block_size == 65536) |
  .compress_latency.intrinsic | "\(.worst_block) \(.worst_block_bytes) \(.worst_block_compressed_bytes)"' "$work/out.json")
[ -n "$packed" ] && [ "$bytes" -gt 0 ] || fail "no worst block for xz 64K"
"$kvz" blocks -b 64K "${src[@]}" --out "$work/blocks" >/dev/null || fail "blocks --out failed"
file=$(printf '%s/%06d.blk' "$work/blocks" "$index")
[ "$(stat -c %s "$file")" -eq "$bytes" ] || fail "block $index is $(stat -c %s "$file") bytes, the cell timed $bytes"
"$kvz" run -q -l raw -b 1M -c xz:6 "$file" --time 0.02 --repetitions 1 --json "$work/one.json" >/dev/null 2>&1 ||
  fail "run on the exported block failed"
again=$(jq '.kvzbench.cells[] | select(.key.codec == "xz") | .compressed_bytes' "$work/one.json")
[ "$again" -eq "$packed" ] || fail "exported block compresses to $again bytes, the cell recorded $packed"
echo "latency_done_when: OK (xz 64K worst block #$index, $bytes -> $packed bytes)"
