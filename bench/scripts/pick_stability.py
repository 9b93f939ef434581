#!/usr/bin/env python3
"""Picks that load does not move (issue 36): the same run, quiet and beside CPU-bound processes.

    bench/scripts/pick_stability.py build/release/kvzbench [--procs 6] [--rounds 1] [--keep DIR]
        [--files A B C] [-- run args]

For each file (default: three held-out text files of the corpora, KVZ_CORPORA), runs
`kvzbench run -c fast -b 16K --max-bytes 512K FILE` (or the run args after `--`) once quiet and
once beside --procs CPU-bound processes (`sh -c 'while :; do :; done'`, each started here and
stopped by its PID), and compares the two results.json files:

- the picks: every (file, group, workload) of `kvzbench.recommendations`, quiet against busy,
  in a table, and the count of identical picks (the target: at least 14 of 15 with six
  processes on 2 cores);
- each run's machine verdict and load (meta.machine_load), so a figure is never read without it;
- per estimator of a cell's speed (wall-time median, CPU-time median, each block's fastest call:
  intrinsic.fastest_sum_ns), how far load moved it: busy / quiet - 1 over every cell and
  direction, median and 90th percentile of |shift|.

"Quiet" is the machine as it is: on a shared machine say how busy it was (the verdict is
printed); re-run on an idle machine for the figures in judgement/README.md. Exit 1 when fewer
than --min-same picks are identical (default: all but one).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HELD_OUT = ["canterbury/world192.txt", "snappy/lcet10.txt", "logs/kafka0_controller.log"]


def run(binary, args, path):
    cmd = [binary, "run", "-q", "--json", path] + args
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"pick_stability: exit {proc.returncode}: {' '.join(cmd)}: {proc.stderr.strip()[-400:]}")
    with open(path, encoding="utf-8") as f:
        return json.load(f)["kvzbench"]


def start_hogs(n):
    return [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(n)]


def stop_hogs(hogs):
    for h in hogs:  # each by its own PID: never by name
        h.kill()
    for h in hogs:
        h.wait()


def picks(k):
    out = {}
    for rec in k.get("recommendations", []):
        out[(rec["group"], rec["workload"])] = rec.get("pick") or "none"
    return out


def load_line(k):
    m = k["meta"].get("machine_load", {})
    avg = lambda a: f"{a[0]:.1f}" if a else "?"
    return (f"{m.get('verdict', '?')}: load {avg(m.get('load_avg_start'))} -> {avg(m.get('load_avg_end'))}, "
            f"CPU {m.get('process_cpu_seconds', 0):.1f} s of {m.get('wall_seconds', 0):.1f} s wall, "
            f"others {m.get('others_cores', -1):.2f} cores, preempted {100 * m.get('preempted_share', -1):.1f} %")


def estimators(cell):
    """Per direction: the wall median, the CPU-time median, the speed by each block's fastest call."""
    out = {}
    for d in ("compress", "decompress"):
        wall, cpu = cell.get(f"{d}_mbps") or [], cell.get(f"{d}_cpu_mbps") or []
        fastest = cell.get(f"{d}_latency", {}).get("intrinsic", {}).get("fastest_sum_ns", 0)
        out[(d, "wall median")] = statistics.median(wall) if wall else None
        out[(d, "CPU median")] = statistics.median(cpu) if cpu else None
        out[(d, "fastest calls")] = cell["input_bytes"] / fastest * 1e3 if fastest else None
    return out


def shifts(quiet, busy, into):
    q = {c["key"]["id"]: c for c in quiet["cells"] if c["status"] == "OK" and not c.get("reference")}
    for c in busy["cells"]:
        if c["status"] != "OK" or c["key"]["id"] not in q:
            continue
        a, b = estimators(q[c["key"]["id"]]), estimators(c)
        for key, va in a.items():
            if va and b.get(key):
                into.setdefault(key, []).append(b[key] / va - 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--procs", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=1, help="quiet/busy pairs per file")
    ap.add_argument("--files", nargs="*", default=None)
    ap.add_argument("--keep", help="keep the result files in this directory")
    ap.add_argument("--min-same", type=int, default=None)
    ap.add_argument("run_args", nargs="*")
    a = ap.parse_args()
    corpora = os.environ.get("KVZ_CORPORA", os.path.join(os.path.dirname(__file__), "../../../shared/corpora"))
    files = a.files or [os.path.join(corpora, f) for f in HELD_OUT]
    base = a.run_args or ["-c", "fast", "-b", "16K", "--max-bytes", "512K"]
    out_dir = a.keep or tempfile.mkdtemp(prefix="pick_stability.")
    os.makedirs(out_dir, exist_ok=True)
    rows, moved, same, total = [], {}, 0, 0
    for r in range(a.rounds):
        for i, f in enumerate(files):
            name = os.path.basename(f)
            quiet = run(a.binary, base + [f], os.path.join(out_dir, f"quiet-{r}-{i}.json"))
            hogs = start_hogs(a.procs)
            try:
                time.sleep(1)  # the processes are running before the run starts
                busy = run(a.binary, base + [f], os.path.join(out_dir, f"busy-{r}-{i}.json"))
            finally:
                stop_hogs(hogs)
            print(f"{name} round {r + 1}: quiet {load_line(quiet)}")
            print(f"{name} round {r + 1}: busy  {load_line(busy)}")
            pq, pb = picks(quiet), picks(busy)
            for key in sorted(set(pq) | set(pb)):
                ok = pq.get(key) == pb.get(key)
                same += ok
                total += 1
                rows.append((name, key[0], key[1], pq.get(key, "-"), pb.get(key, "-"), "same" if ok else "DIFFERS"))
            shifts(quiet, busy, moved)
    print()
    w = [max(len(str(row[i])) for row in rows + [("file", "group", "workload", "quiet", "busy", "")]) for i in range(6)]
    print("  ".join(h.ljust(w[i]) for i, h in enumerate(("file", "group", "workload", "quiet", "busy", ""))))
    for row in rows:
        print("  ".join(str(v).ljust(w[i]) for i, v in enumerate(row)))
    print(f"\npicks identical: {same} of {total} ({a.procs} CPU-bound processes beside the busy runs)")
    print("\nhow far load moved each estimate (busy / quiet - 1, every cell):")
    for key in sorted(moved):
        v = sorted(abs(x) for x in moved[key])
        p90 = v[min(len(v) - 1, int(0.9 * len(v)))]
        print(f"  {key[0]:<10} {key[1]:<13} median |shift| {100 * statistics.median(v):5.1f} %   "
              f"p90 {100 * p90:5.1f} %   mean shift {100 * statistics.mean(moved[key]):+6.1f} %   ({len(v)} cells)")
    print(f"\nresult files: {out_dir}")
    need = a.min_same if a.min_same is not None else total - 1
    return 0 if same >= need else 1


if __name__ == "__main__":
    sys.exit(main())
