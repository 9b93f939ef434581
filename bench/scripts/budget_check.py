#!/usr/bin/env python3
"""--time is a budget (issue 24, item 4). The target lives here, not in a timed unit test:

    bench/scripts/budget_check.py build/release/kvzbench [--runs 3] [--limit 10]

Runs `kvzbench run -c all -b 4K --time 0.01 --repetitions 1 --max-bytes 16K canterbury/cp.html`
`--runs` times (it took 155 s when the latency pass and the late check ignored the budget) and
checks, exit 1 on a miss:
  time     every run takes <= --limit s of wall time (10 s on 2 cores);
  calls    no p99.9 over fewer than 1,000 calls, and the slow directions print null ("—") for it:
           the small budget bounds their calls instead of buying them 1,000.
Needs the corpora (KVZ_CORPORA).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def run_once(binary, path):
    corpora = os.environ.get("KVZ_CORPORA")
    if not corpora:
        sys.exit("budget_check: KVZ_CORPORA must name the corpora directory")
    cmd = [binary, "run", "-q", "-c", "all", "-b", "4K", "--time", "0.01", "--repetitions", "1",
           "--max-bytes", "16K", os.path.join(corpora, "canterbury/cp.html"), "--json", path]
    t0 = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    secs = time.monotonic() - t0
    if proc.returncode != 0:
        sys.exit(f"budget_check: exit {proc.returncode}: {proc.stderr.strip()[-400:]}")
    with open(path) as f:
        return json.load(f)["kvzbench"], secs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kvzbench")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--limit", type=float, default=10.0, help="seconds a run may take")
    args = ap.parse_args()
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            res, secs = run_once(args.kvzbench, os.path.join(tmp, f"run{i}.json"))
            dirs = [c[d] for c in res["cells"] for d in ("compress_latency", "decompress_latency")]
            dashes = sum(1 for d in dirs if d["p999_ns"] is None)
            short = [d["calls"] for d in dirs if d["p999_ns"] is not None and d["calls"] < 1000]
            print(f"run {i + 1}: {secs:.1f} s, {len(res['cells'])} cells, {dashes} of {len(dirs)} directions "
                  f"without p99.9")
            if secs > args.limit:
                problems.append(f"run {i + 1} took {secs:.1f} s > {args.limit} s")
            if short:
                problems.append(f"run {i + 1}: p99.9 over {min(short)} calls")
            if dashes == 0:
                problems.append(f"run {i + 1}: every direction got 1,000 calls: the budget did not bound them")
    for p in problems:
        print("budget_check: " + p)
    print("budget_check: " + ("FAIL" if problems else "OK"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
