#!/usr/bin/env bash
# The README's "The answer first" claims on a real run of its command (short time): the machine's
# verdict and load are printed above the answer and recorded in results.json; under --profile
# rocksdb every pick is RocksDB's own call (its LZ4, LZ4HC and zlib rows are `:fresh`, a state set
# up per block), followed by its line and why; and results.json's `recommendations` hold the
# console's picks, in its order, with the same lines.
source "$(dirname "$0")/common.bash"
# What the answer says, not how it is laid out: a terminal wide enough that no line wraps
# (tests/e2e/console_width.sh holds every line to 100 columns).
export COLUMNS=1000
corpus=${KVZ_CORPORA:?KVZ_CORPORA must name the corpora directory}/json/twitter.json
"$kvz" run --profile rocksdb -b 16K "$corpus" --time 0.02 --repetitions 3 --latency-calls 200 \
  --json "$work/out.json" >"$work/out" 2>"$work/err" || { cat "$work/err"; fail "run failed"; }
python3 - "$work/out" "$work/out.json" <<'PY'
import json, re, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
k = json.load(open(sys.argv[2], encoding="utf-8"))["kvzbench"]
load = k["meta"]["machine_load"]
if load["verdict"] not in ("quiet", "busy", "too busy to decide"):
    sys.exit(f"FAIL: verdict {load['verdict']!r}")
if len(load["load_avg_start"]) != 3 or load["wall_seconds"] <= 0 or load["preempted_share"] < 0:
    sys.exit(f"FAIL: machine load not recorded: {load}")
machine = next((i for i, l in enumerate(lines) if l.startswith(f"machine: {load['verdict']} (")), None)
answer = next((i for i, l in enumerate(lines) if l.startswith("recommendations, rocksdb:")), None)
if machine is None or answer is None or machine > answer:
    sys.exit(f"FAIL: the machine's line is not above the answer ({machine}, {answer})")
printed = []
for i in range(answer + 1, len(lines)):
    m = re.match(r"  (write-heavy|read-heavy|space-sensitive|latency-bound|cold data)\s+(\S+(?: \S+)?)", lines[i])
    if not m:
        continue
    workload, choice = m.groups()
    printed.append((workload, choice, lines[i + 1]))
    codec = choice.split()[0]
    if codec in ("lz4", "lz4hc", "zlib") and ":fresh" not in choice:
        sys.exit(f"FAIL: {workload}: {choice} is not RocksDB's own call (a state set up per block)")
    if not lines[i + 1].startswith("    rocksdb: ") or not lines[i + 2].startswith("    why: $"):
        sys.exit(f"FAIL: {workload}: no line and why under the pick: {lines[i + 1:i + 3]}")
recs = [r for r in k["recommendations"] if r["group"].startswith("rocksdb: rocksdb 16K")]
if [r["workload"] for r in recs] != [p[0] for p in printed]:
    sys.exit(f"FAIL: results.json's workloads {[r['workload'] for r in recs]} are not the console's")
for rec, (workload, choice, line) in zip(recs, printed):
    if not choice.startswith(rec["pick"]):
        sys.exit(f"FAIL: {workload}: the console's {choice!r}, results.json's {rec['pick']!r}")
    if line != "    rocksdb: " + rec["config"][0]["line"] or not rec["config"][0]["store_call"]:
        sys.exit(f"FAIL: {workload}: the line differs: {line!r} / {rec['config']}")
print("answer_holds: OK")
PY
