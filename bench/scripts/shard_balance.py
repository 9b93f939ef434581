#!/usr/bin/env python3
"""Shards finish close together (issue 26): the target lives here, not in a timed unit test.

    bench/scripts/shard_balance.py build/release/kvzbench [--shards 4] [--rounds 2] [--limit 25] [-- run args]

Runs the default sweep (`kvzbench run -q --shard I/N`, plus any run arguments after `--`) for
every shard, one at a time, `--rounds` times (the order turned round each round, so a machine
that slows down or speeds up mid-way does not favour the shards run first), and prints each
shard's cells and median wall seconds. The spread is (slowest - fastest) / slowest of the
shards' medians; exit 1 when it is over --limit percent (25).

Shards run one after another, not side by side: on a shared 2-core machine side by side would
measure the machine, not the split. Each shard's CPU seconds and their spread are printed too:
on a loaded machine the wall times measure the neighbours as well, the CPU times much less. Needs the corpora (KVZ_CORPORA).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def run_shard(binary, index, count, extra, path):
    cmd = [binary, "run", "-q", "--shard", f"{index}/{count}", "--json", path] + extra
    t0, r0 = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    secs, r1 = time.monotonic() - t0, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
    if proc.returncode != 0:
        sys.exit(f"shard_balance: shard {index}/{count}: exit {proc.returncode}: {proc.stderr.strip()[-400:]}")
    with open(path) as f:
        return len(json.load(f)["kvzbench"]["cells"]), secs, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kvzbench")
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--limit", type=float, default=25.0, help="percent the shards' wall times may differ")
    ap.add_argument("run_args", nargs="*", help="after --: arguments for every shard's run")
    args = ap.parse_args()
    if not os.environ.get("KVZ_CORPORA"):
        sys.exit("shard_balance: KVZ_CORPORA must name the corpora directory")
    walls = {i: [] for i in range(args.shards)}
    cpus = {i: [] for i in range(args.shards)}
    cells = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            order = range(args.shards) if r % 2 == 0 else reversed(range(args.shards))
            for i in order:
                path = os.path.join(tmp, f"{i}.json")
                cells[i], secs, cpu = run_shard(args.kvzbench, i, args.shards, args.run_args, path)
                walls[i].append(secs)
                cpus[i].append(cpu)
                print(f"round {r + 1} shard {i}/{args.shards}: {cells[i]} cells, {secs:.1f} s wall, {cpu:.1f} s CPU",
                      flush=True)
    medians = {i: statistics.median(w) for i, w in walls.items()}
    for i in range(args.shards):
        print(f"shard {i}/{args.shards}: {cells[i]} cells, median {medians[i]:.1f} s wall of {args.rounds} "
              f"({', '.join(f'{w:.1f}' for w in walls[i])}), CPU {statistics.median(cpus[i]):.1f} s")
    cpu_medians = [statistics.median(c) for c in cpus.values()]
    cpu_spread = 100.0 * (max(cpu_medians) - min(cpu_medians)) / max(cpu_medians) if max(cpu_medians) > 0 else 0.0
    # On a loaded machine the wall spread measures the neighbours too; the CPU spread does not.
    print(f"shard_balance: CPU seconds spread {cpu_spread:.1f} %")
    slow, fast = max(medians.values()), min(medians.values())
    spread = 100.0 * (slow - fast) / slow if slow > 0 else 0.0
    print(f"shard_balance: {sum(cells.values())} cells in {args.shards} shards, slowest {slow:.1f} s, "
          f"fastest {fast:.1f} s, spread {spread:.1f} % (limit {args.limit:g} %): "
          f"{'OK' if spread <= args.limit else 'FAIL'}")
    return 0 if spread <= args.limit else 1


if __name__ == "__main__":
    sys.exit(main())
