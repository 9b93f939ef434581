#!/usr/bin/env python3
"""Scale benchmark for the result tools: `check` and `merge` over many cells.

Issue 13 found `check` quadratic in cells (> 60 s at 40,000) and `merge` at ~127 KB per cell.
This script builds synthetic result files of N cells from one real run (cells cloned under new
source names), then times `kvzbench check` and `kvzbench merge` and reads their peak memory.
The targets live here, not in a timed unit test:

    bench/scripts/scale_check.py build/release/kvzbench [--cells 50000]

Exit 1 when a target is missed: check <= 30 s, merge <= 30 s, each <= 2 GiB peak RSS
(~40 KB per cell at 50,000).
"""
import argparse
import copy
import json
import os
import resource
import subprocess
import sys
import tempfile
import time


def run_measured(cmd):
    """Runs cmd; returns (exit code, seconds, peak RSS of that child in bytes)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    secs = time.monotonic() - t0
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of children is the largest of any child so far: run the biggest last or alone.
    return proc.returncode, secs, max(peak_kb, before) * 1024, proc.stderr.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kvzbench")
    ap.add_argument("--cells", type=int, default=50000)
    ap.add_argument("--max-seconds", type=float, default=30.0)
    ap.add_argument("--max-rss", type=int, default=2 << 30)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        seed = os.path.join(tmp, "seed.json")
        subprocess.run([a.kvzbench, "run", "-q", "-d", "dbbench", "-b", "4K", "-c", "lz4/zstd:1/snappy",
                        "--max-bytes", "64K", "--time", "0.01", "--repetitions", "3", "--json", seed],
                       check=True, stdout=subprocess.DEVNULL)
        doc = json.load(open(seed))
        cells = doc["kvzbench"]["cells"]
        big = []
        i = 0
        while len(big) < a.cells:
            for c in cells:
                c2 = copy.deepcopy(c)
                c2["key"]["source"] = f"src{i:06d}"
                c2["key"].pop("id", None)
                big.append(c2)
            i += 1
        big = big[:a.cells]
        doc["kvzbench"]["cells"] = big
        doc["benchmarks"] = []
        full = os.path.join(tmp, "full.json")
        json.dump(doc, open(full, "w"))
        halves = []
        for h in (0, 1):
            d = copy.deepcopy(doc)
            d["kvzbench"]["cells"] = big[h::2]
            d["kvzbench"]["meta"]["extra"] = dict(d["kvzbench"]["meta"].get("extra", {}), shard=f"{h}/2")
            path = os.path.join(tmp, f"half{h}.json")
            json.dump(d, open(path, "w"))
            halves.append(path)
        size_mb = os.path.getsize(full) / 1e6
        print(f"{a.cells} cells, {size_mb:.1f} MB of results")
        ok = True
        for name, cmd in (("check", [a.kvzbench, "check", "--baseline", full, full]),
                          ("merge", [a.kvzbench, "merge", *halves, "-o", os.path.join(tmp, "merged.json")])):
            code, secs, rss, err = run_measured(cmd)
            per_cell = rss / a.cells
            good = code == 0 and secs <= a.max_seconds and rss <= a.max_rss
            ok &= good
            print(f"{name:6} exit {code}  {secs:6.1f} s  peak RSS {rss / 2**20:7.0f} MiB ({per_cell / 1e3:.1f} KB/cell)"
                  f"  {'ok' if good else 'MISSED'}{'  ' + err[:200] if code else ''}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
