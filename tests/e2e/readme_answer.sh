#!/usr/bin/env bash
# The README's "answer first" claim: under --profile rocksdb at 16K, each workload's pick is a
# codec RocksDB writes and is followed by its RocksDB options line with block_size=16384.
source "$(dirname "$0")/common.bash"
corpus=${KVZ_CORPORA:?KVZ_CORPORA must name the corpora directory}/json/twitter.json
"$kvz" run --profile rocksdb -b 16K -c lz4/zstd:1,3/snappy --dict 16K "$corpus" --time 0.02 --repetitions 3 --json "$work/out.json" \
  >"$work/out" 2>"$work/err" || { cat "$work/err"; fail "run failed"; }
grep -q "^recommendations, rocksdb: rocksdb 16K" "$work/out" || fail "no recommendations for rocksdb 16K"
python3 - "$work/out" <<'PY'
import re, sys
raw = open(sys.argv[1], encoding="utf-8").read().splitlines()
# A RocksDB line the console wrapped between its options (continued under its start, 13
# columns in) joined again: copied as printed, RocksDB takes it the same.
lines = []
for l in raw:
    if lines and lines[-1].startswith("    rocksdb: ") and l.startswith(" " * 13) and l.strip():
        lines[-1] += l.strip()
    else:
        lines.append(l)
start = next(i for i, l in enumerate(lines) if l.startswith("recommendations, rocksdb:"))
names = {"lz4": "kLZ4Compression", "zstd": "kZSTD", "snappy": "kSnappyCompression"}
seen = []
for i in range(start + 1, len(lines)):
    m = re.match(r"  (write-heavy|read-heavy|space-sensitive|latency-bound|cold data)\s+(\S+)", lines[i])
    if not m:
        continue
    workload, choice = m.groups()
    seen.append(workload)
    if choice == "none:":
        continue
    nxt = lines[i + 1] if i + 1 < len(lines) else ""
    codec = choice.split()[0] if " " in choice else choice
    want = names[codec.split(":")[0]]
    if not nxt.startswith(f"    rocksdb: compression={want};bottommost_compression={want};"):
        sys.exit(f"FAIL: {workload} pick {choice} is not followed by its RocksDB line: {nxt!r}")
    if not nxt.endswith("block_based_table_factory={block_size=16384}"):
        sys.exit(f"FAIL: {workload}: the line does not set block_size=16384: {nxt!r}")
    if ":dict=16K" in lines[i].split()[1] and "max_dict_bytes=16384" not in nxt:
        sys.exit(f"FAIL: {workload}: a dictionary pick without max_dict_bytes: {nxt!r}")
if seen != ["write-heavy", "read-heavy", "space-sensitive", "latency-bound", "cold data"]:
    sys.exit(f"FAIL: workloads {seen}")
print("readme_answer: OK")
PY
