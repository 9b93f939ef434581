#!/usr/bin/env python3
"""Writes N synthetic cells as S shard files (results-<i>-of-<S>.json), for merge_scale.sh.

The cells are a real run's (seed.json: `kvzbench run` with per-repetition speeds and latency
blocks) cloned under new source names, src0000000, src0000001, ...; each shard file has the seed's
context, Google Benchmark rows for its cells and its kvzbench part with meta.extra.shard "i/S",
as `run --shard i/S` writes. Cells go to shards by turns of whole sources.

    synth_results.py SEED.json OUT_DIR --cells N --shards S
"""
import argparse
import json
import os
import sys

MARK = "@@SRC@@"


def templates(seed):
    """One source's cell lines and benchmark rows as text, the source name as MARK."""
    kvz = seed["kvzbench"]
    source = kvz["cells"][0]["key"]["source"]
    old_ids = [c["key"]["id"] for c in kvz["cells"]]
    cells = []
    for c in kvz["cells"]:
        c = dict(c, key=dict(c["key"], source=MARK))
        c["key"].pop("id", None)  # the loader recomputes it
        cells.append(json.dumps(c, separators=(",", ":")))
    rows = []
    for r in seed["benchmarks"]:
        r = dict(r)
        for field in ("name", "run_name"):
            if field in r and any(r[field].startswith(i) for i in old_ids):
                r[field] = MARK + ":" + r[field]  # the id of a renamed source shows its record mode
        rows.append(json.dumps(r, separators=(",", ":")))
    assert all(c["key"]["source"] == source for c in kvz["cells"]), "seed must be one source"
    return cells, rows


def write_shard(path, seed, shard, shards, sources, cell_lines, row_lines, cells_left):
    kvz = seed["kvzbench"]
    meta = dict(kvz["meta"], extra=dict(kvz["meta"].get("extra", {}), shard=f"{shard}/{shards}"))
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write('{"context":' + json.dumps(seed["context"]) + ',\n"benchmarks":[')
        sep = "\n"
        for s in sources:  # every row of the source: merge rewrites the rows from the cells
            for r in row_lines:
                f.write(sep + r.replace(MARK, f"src{s:07d}"))
                sep = ",\n"
        f.write('\n],\n"kvzbench":{"schema_version":' + str(kvz["schema_version"]) + ',"meta":' + json.dumps(meta))
        f.write(',\n"cells":[')
        sep = "\n"
        for s in sources:
            for line in cell_lines[:cells_left(s)]:
                f.write(sep + line.replace(MARK, f"src{s:07d}"))
                sep = ",\n"
        f.write("\n]}}\n")
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed")
    ap.add_argument("out_dir")
    ap.add_argument("--cells", type=int, required=True)
    ap.add_argument("--shards", type=int, required=True)
    a = ap.parse_args()
    seed = json.load(open(a.seed))
    cell_lines, row_lines = templates(seed)
    per_source = len(cell_lines)
    source_count = -(-a.cells // per_source)

    def cells_left(s):  # the last source may be cut short
        return min(per_source, a.cells - s * per_source)

    os.makedirs(a.out_dir, exist_ok=True)
    for shard in range(a.shards):
        path = os.path.join(a.out_dir, f"results-{shard}-of-{a.shards}.json")
        write_shard(path, seed, shard, a.shards, range(shard, source_count, a.shards), cell_lines, row_lines,
                    cells_left)
    return 0


if __name__ == "__main__":
    sys.exit(main())
