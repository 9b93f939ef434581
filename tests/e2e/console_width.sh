#!/usr/bin/env bash
# The console fits the terminal (issue 36 item 5): with COLUMNS=100 (and at 80) no line that
# `list`, every `--help`, `run` under RocksDB's and ScyllaDB's profiles (their config lines),
# `-c all`, the per-level, universal and per-family plans, `check` and `blocks --stats` print is
# wider (UTF-8 characters counted as one column: check_width in common.bash, which
# tests/e2e/readme_commands.sh runs on every README command too); the answer comes before the
# first table; a config line the console wrapped copies back to the line results.md holds whole.
source "$(dirname "$0")/common.bash"
corpora=${KVZ_CORPORA:?KVZ_CORPORA must name the corpora directory}
budget=(--time 0.002 --repetitions 1 --latency-calls 100 --latency-seconds 0.002 --max-bytes 32K)
export COLUMNS=100
# run_fits NAME ARGS...: `kvzbench ARGS`, exit 0, both streams within $COLUMNS.
run_fits() {
  local name=$1
  shift
  "$kvz" "$@" >"$work/$name.out" 2>"$work/$name.err" || { cat "$work/$name.err"; fail "$name: kvzbench $* failed"; }
  readme_output_checks "$work/$name.out" "$work/$name.err" "kvzbench $*"
}

run_fits list list
for sub in run blocks list report check merge; do run_fits "help-$sub" "$sub" --help; done
twitter=$corpora/json/twitter.json
run_fits rocksdb run --profile rocksdb -b 16K "$twitter" "${budget[@]}" --md "$work/rocksdb.md" --json "$work/rocksdb.json"
run_fits scylla run --profile scylla -c lz4/zstd:3 "$corpora/logs/apache_access_logs.log" "${budget[@]}"
run_fits all run -c all -b 4K "$corpora/snappy/alice29.txt" "${budget[@]:0:8}" --max-bytes 8K
w=write=2,read=50,storage=0.08,cpu=0.04
few=(-c lz4/zstd:1,3)
run_fits leveled run --profile rocksdb "${few[@]}" "$twitter" "${budget[@]}" --workload "$w,size=500G,dynamic=1"
run_fits universal run --profile rocksdb "${few[@]}" "$twitter" "${budget[@]}" --workload "$w,size=500G,style=universal"
run_fits families run --profile rocksdb "${few[@]}" "$twitter" "${budget[@]}" \
  --workload storage=0.08,cpu=0.04,family=hot:write=20:read=200:size=50G,family=cold:write=0.5:read=5:size=2T
run_fits check check --baseline "$work/rocksdb.json" "$work/rocksdb.json"
run_fits blocks blocks --stats -l rocksdb -b 4K,16K "$twitter" --max-bytes 32K
# At 80 its files go to a short relative --out-dir: the "wrote PATH" lines name whole paths.
(cd "$work" && COLUMNS=80 run_fits narrow run --profile rocksdb -b 16K "$twitter" "${budget[@]}" --out-dir n)

# The answer first, the tables after; the plans' lines and the per-level rows are there.
python3 - "$work" <<'PY' || fail "the console's answer, its config lines or the plans are not as expected"
import re, sys
work = sys.argv[1]
out = open(f"{work}/rocksdb.out", encoding="utf-8").read().splitlines()
first_table = next(i for i, l in enumerate(out) if l.startswith("== "))
answer = next(i for i, l in enumerate(out) if l.startswith("recommendations, "))
assert answer < first_table, f"the answer (line {answer + 1}) comes after the first table (line {first_table + 1})"
# Each RocksDB line the console wrapped, joined again, is the line results.md holds whole.
md = open(f"{work}/rocksdb.md", encoding="utf-8").read()
whole = re.findall(r"`(compression=[^`]*)`", md)
assert whole, "results.md holds no RocksDB line"
lines, i = [], 0
while i < len(out):
    if out[i].startswith("    rocksdb: "):
        text = out[i][len("    rocksdb: "):]
        while i + 1 < len(out) and out[i + 1].startswith(" " * 13) and not out[i + 1].strip().startswith("rocksdb"):
            i += 1
            text += out[i].strip()
        lines.append(text)
    i += 1
assert lines, "no RocksDB line under a pick"
assert any("\n" not in l and len(l) > 87 for l in lines), "no line long enough to wrap at 100 columns"
for l in lines:
    assert l in whole, f"the console's line, joined, is not results.md's: {l}"
for name, want in (("leveled", "per-level plan, "), ("universal", "universal plan, "), ("families", "column family plans, ")):
    text = open(f"{work}/{name}.out", encoding="utf-8").read()
    assert want in text, f"{name}: no '{want}'"
    assert re.search(r"^  L[0-9]+ ", text, re.M), f"{name}: no level rows"
print("the answer first; joined lines equal results.md's; plans printed")
PY
echo "console_width: OK"
