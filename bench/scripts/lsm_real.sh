#!/usr/bin/env bash
# The per-level plan against a real RocksDB 7.8 (issue 38 item 2): for three held-out sources x
# two load orders (shuffled, ascending) x three sizings (leveled dynamic=1, leveled dynamic=0,
# universal), kvzbench measures the source under --profile rocksdb with a workload whose size= is
# the source's own uncompressed bytes and prints a plan (tests/stores/tools/lsm_plan.cpp prints it
# as TSV); a fresh RocksDB opened with the plan's options line, verbatim, is loaded with the same
# records in the order the model assumes, REPEATS times (tests/stores/tools/lsm_load.cpp), and
# each level's bytes on disk are compared with the plan's.
#
#   bench/scripts/lsm_real.sh BUILD_DIR OUT_DIR
#   env: REPEATS=3 (loads per configuration), MIN_MB=100 (MiB of records per source),
#        KVZ_CORPORA (the corpora), STORAGE (storage $/GB-month; default 20000 / MIN_MB),
#        SOURCES, ORDERS, SIZINGS (subsets, space separated: SOURCES of auth cities phones,
#        ORDERS of shuffled ascending, SIZINGS of dynamic static universal; default all),
#        CODECS (kvzbench -c for the measuring runs; default the rocksdb profile's),
#        RATE (MB/s of keys and values each load writes, and the workload's write=; default 8;
#        0: full speed, with write=1 in the workload)
#
# Sources, read with -r lines (key: the record's line number, 12 digits; value: the line):
#   auth    logs/auth.log                   (797,637 B: syslog authentication lines)
#   cities  csv/world-cities.csv            (1,329,857 B: ~50-byte CSV rows)
#   phones  json/amazon_cellphones.ndjson   (277,673 B: one JSON array per line)
# none of them the plan tests' corpora (tests/stores/real_lsm.h kPlanCorpora). No corpus holds
# MIN_MB MiB, so each is repeated whole into OUT_DIR/sources/NAME.txt until it holds MIN_MB MiB
# or more; the keys stay unique because -r lines keys each record by its line number in the
# repeated file (so the copies follow each other in key order). kvzbench and the loads read the
# whole file (--max-bytes = its size: no sampling).
#
# The LSM knobs, scaled with MIN_MB so the DB has 3-4 levels (U = MIN_MB MiB / 100, at least
# 64 KiB, RocksDB's smallest write_buffer_size; 1 MiB at MIN_MB=100):
#   leveled:   write_buffer=U, level_base=U, target_file=U/4, multiplier=4, l0_trigger=4 (default),
#              num_levels=7 (default), dynamic=1 or dynamic=0
#   universal: write_buffer=U, l0_trigger=4, num_levels=7, size_ratio=1, size_amp=200 (defaults)
# The workload: write=RATE,read=4,cpu=0.04 and storage=20000/MIN_MB $/GB-month, a price at which
# a byte is worth a few cores at this scale so the plan mixes codecs (20000 at 1 MiB is the
# plan tests' price at 2 MB, tests/stores/level_plan_real_test.cpp, halved).
# kvzbench measures quickly: --time 0.002 --repetitions 1 --latency-calls 10 (the plan tests'
# budget: the plan reads ratios, exact, and speeds, which only move the codec choice).
#
# Each load writes at RATE MB/s (or full speed) with the WAL off, flushes and waits for compaction to settle
# (at most 10 minutes; kvz_lsm_load says on stderr when it gave up).
#
# Outputs in OUT_DIR:
#   levels.csv   source,order,sizing,level,predicted_bytes,real_mean,real_min,real_max,diff_pct,
#                spread_pct,verdict  (a row per level either side has, and one for the total)
#   busy.csv     source,order,sizing,predicted,real_mean,real_min,real_max: per leveled
#                configuration the share of one compaction thread's time compaction takes while
#                the load writes, as the plan predicts it (judgement/level_plan.h
#                compaction_thread_load) and as RocksDB counted it (its compactions' seconds below
#                L0 over the writes' seconds; kvz_lsm_load's comp_sec and write_sec); not judged
#   summary.txt  per configuration: the bottom level (the plan's deepest), the total and every
#                other level holding >= 10 % of the DB (plan or loads' mean), predicted against
#                the loads' mean, each with a verdict against issue 38's targets (bottom within
#                +-3 %, total within +-5 %, such a level within +-10 %): "within target", "within
#                the loads' spread (X %)" when the loads differ among themselves by more than the
#                target (spread: (max - min) / mean of the loads) and the mean is within that, or
#                "MISS"; a leveled configuration's compaction thread as in busy.csv, not judged;
#                last, "N of M judged figures within targets".
#   runs/SOURCE-ORDER-SIZING/  each step's output (run.json, plan.tsv, load.tsv) and the exact
#                command that made it with its tool's SHA-1 (*.cmd): a rerun skips a step whose
#                command and tool are unchanged, so a changed plan line (or a rebuilt tool) reruns.
# Progress on stderr; the summary also on stdout. Bad arguments: one line on stderr, exit 2.
set -euo pipefail

die() {
  echo "lsm_real.sh: $*" >&2
  exit 2
}
usage="usage: bench/scripts/lsm_real.sh BUILD_DIR OUT_DIR"
[ $# -eq 2 ] || die "expected 2 arguments, got $# ($usage)"
build=$1
out=$2
REPEATS=${REPEATS:-3}
MIN_MB=${MIN_MB:-100}
RATE=${RATE:-8}
[[ $REPEATS =~ ^[1-9][0-9]?$ ]] || die "REPEATS='$REPEATS': a whole number 1..99"
if ! [[ $MIN_MB =~ ^[0-9]+([.][0-9]+)?$ ]] || ! awk -v m="$MIN_MB" 'BEGIN { exit !(m > 0 && m <= 1024) }'; then
  die "MIN_MB='$MIN_MB': MiB of records per source, a number in (0, 1024]"
fi
if ! [[ $RATE =~ ^[0-9]+([.][0-9]+)?$ ]] || ! awk -v r="$RATE" 'BEGIN { exit !(r <= 10000) }'; then
  die "RATE='$RATE': MB/s each load writes, a number in [0, 10000] (0: full speed)"
fi
write_rate=$(awk -v r="$RATE" 'BEGIN { print (r > 0 ? r : 1) }')
kvz=$build/kvzbench
load_tool=$build/tests/kvz_lsm_load
plan_tool=$build/tests/kvz_lsm_plan
for t in "$kvz" "$load_tool" "$plan_tool"; do
  [ -x "$t" ] || die "$t: not found (build kvzbench, kvz_lsm_load and kvz_lsm_plan with -DKVZ_BUILD_TESTS=ON)"
done
corpora=${KVZ_CORPORA:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/corpora}
[ -d "$corpora" ] || die "KVZ_CORPORA='$corpora': not a directory"
export KVZ_CORPORA=$corpora
declare -A corpus=([auth]=logs/auth.log [cities]=csv/world-cities.csv [phones]=json/amazon_cellphones.ndjson)
SOURCES=${SOURCES:-auth cities phones}
ORDERS=${ORDERS:-shuffled ascending}
SIZINGS=${SIZINGS:-dynamic static universal}
for s in $SOURCES; do [ -n "${corpus[$s]:-}" ] || die "SOURCES: unknown source '$s' (auth, cities, phones)"; done
for o in $ORDERS; do [[ $o =~ ^(shuffled|ascending)$ ]] || die "ORDERS: unknown order '$o' (shuffled, ascending)"; done
for z in $SIZINGS; do
  [[ $z =~ ^(dynamic|static|universal)$ ]] || die "SIZINGS: unknown sizing '$z' (dynamic, static, universal)"
done
for s in $SOURCES; do [ -r "$corpora/${corpus[$s]}" ] || die "$corpora/${corpus[$s]}: not readable"; done
mkdir -p "$out/sources" "$out/runs" || die "cannot create $out"
out=$(cd "$out" && pwd)

unit_k=$(awk -v m="$MIN_MB" 'BEGIN { u = int(m * 1024 / 100); print (u < 64 ? 64 : u) }')
storage=${STORAGE:-$(awk -v m="$MIN_MB" 'BEGIN { printf "%g", 20000 / m }')}
knobs_of() {
  case $1 in
    dynamic) echo "multiplier=4,level_base=${unit_k}K,write_buffer=${unit_k}K,target_file=$((unit_k / 4))K,dynamic=1" ;;
    static) echo "multiplier=4,level_base=${unit_k}K,write_buffer=${unit_k}K,target_file=$((unit_k / 4))K,dynamic=0" ;;
    universal) echo "style=universal,write_buffer=${unit_k}K" ;;
  esac
}
quick=(--time 0.002 --repetitions 1 --latency-calls 10 -q)
codecs=()
[ -n "${CODECS:-}" ] && codecs=(-c "$CODECS")

log() { echo "lsm_real: $*" >&2; }
# The tools' contents, so a rebuilt tool reruns its steps.
declare -A tool_sha
for t in "$kvz" "$load_tool" "$plan_tool"; do tool_sha[$t]=$(sha1sum <"$t" | cut -c1-40); done
# cached CMD_FILE OUTPUT COMMAND...: runs COMMAND (stdout to OUTPUT) unless CMD_FILE holds the same
# command (and the same build of its tool) and OUTPUT exists; "cached" or "ran" on stdout.
cached() {
  local cmd_file=$1 output=$2
  shift 2
  local cmd
  cmd="$(printf '%q ' "$@")# tool sha1 ${tool_sha[$1]}"
  if [ -s "$output" ] && [ -f "$cmd_file" ] && [ "$(cat "$cmd_file")" = "$cmd" ]; then
    echo cached
    return
  fi
  rm -f "$cmd_file"
  "$@" >"$output.tmp" 2>"$output.err" || {
    cat "$output.err" >&2
    echo "lsm_real.sh: failed: $cmd" >&2
    exit 1
  }
  mv "$output.tmp" "$output"
  echo "$cmd" >"$cmd_file"
  echo ran
}

# The source's file: the corpus repeated whole until it holds MIN_MB MiB.
min_bytes=$(awk -v m="$MIN_MB" 'BEGIN { printf "%d", m * 1048576 }')
make_source() {
  local src=$corpora/${corpus[$1]} dst=$out/sources/$1.txt
  local size copies
  size=$(stat -c %s "$src")
  copies=$(((min_bytes + size - 1) / size))
  if [ ! -f "$dst" ] || [ "$(stat -c %s "$dst")" -ne $((size * copies)) ]; then
    for ((i = 0; i < copies; ++i)); do cat "$src"; done >"$dst.tmp"
    mv "$dst.tmp" "$dst"
  fi
  echo "$dst"
}

configs=()
for s in $SOURCES; do for o in $ORDERS; do for z in $SIZINGS; do configs+=("$s $o $z"); done; done; done
n=0
for s in $SOURCES; do
  file=$(make_source "$s")
  bytes=$(stat -c %s "$file")
  # The uncompressed bytes kvzbench measures (its memcpy cell's input under the rocksdb layout):
  # the plan's size=.
  dir=$out/runs/$s
  mkdir -p "$dir"
  r=$(cached "$dir/input.cmd" "$dir/input.json" "$kvz" run "$file" -r lines --max-bytes "$bytes" --profile rocksdb \
    -c memcpy "${quick[@]}" -o json)
  input=$(python3 -c '
import json, sys
cells = json.load(open(sys.argv[1]))["kvzbench"]["cells"]
print(next(c["input_bytes"] for c in cells
           if c["key"]["codec"] == "memcpy" and c["key"]["layout"] == "rocksdb" and not c["key"]["dict_size"]))' \
    "$dir/input.json")
  log "$s: ${corpus[$s]} x $((bytes / $(stat -c %s "$corpora/${corpus[$s]}"))) = $bytes bytes, kvzbench input $input bytes ($r)"
  for o in $ORDERS; do
    for z in $SIZINGS; do
      n=$((n + 1))
      tag="[$n/${#configs[@]}] $s $o $z"
      dir=$out/runs/$s-$o-$z
      mkdir -p "$dir"
      workload="write=$write_rate,read=4,storage=$storage,cpu=0.04,size=$input,$(knobs_of "$z"),order=$o"
      echo "$workload" >"$dir/workload"
      log "$tag: measuring..."
      [ -s "$dir/run.json" ] || rm -f "$dir/run.cmd"
      r=$(cached "$dir/run.cmd" "$dir/run.txt" "$kvz" run "$file" -r lines --max-bytes "$bytes" --profile rocksdb \
        "${codecs[@]}" "${quick[@]}" --workload "$workload" --json "$dir/run.json")
      log "$tag: measured ($r)"
      r=$(cached "$dir/plan.cmd" "$dir/plan.tsv" "$plan_tool" "$dir/run.json" "$workload")
      line=$(awk -F'\t' '$1 == "line" { print $2; exit }' "$dir/plan.tsv")
      [ -n "$line" ] || {
        echo "lsm_real.sh: no plan line in $dir/plan.tsv" >&2
        exit 1
      }
      log "$tag: plan ($r): $line"
      log "$tag: loading $REPEATS time(s)..."
      r=$(cached "$dir/load.cmd" "$dir/load.tsv" "$load_tool" --source "$file" --mode lines --max-bytes "$bytes" \
        --order "$o" --line "$line" --dir "$out/db" --repeats "$REPEATS" --rate "$RATE")
      log "$tag: loaded ($r)"
    done
  done
done
rm -rf "$out/db"

# The comparison: levels.csv and summary.txt.
python3 - "$out" "$REPEATS" "${configs[@]}" <<'PY'
import csv, sys
out, repeats, configs = sys.argv[1], int(sys.argv[2]), [c.split() for c in sys.argv[3:]]
TARGET = {"bottom": 0.03, "total": 0.05, "level": 0.10}
sizing_text = {"dynamic": "leveled dynamic=1", "static": "leveled dynamic=0", "universal": "universal"}
rows, lines, judged, within, busy_rows = [], [], 0, 0, []

def pct(x):
    return f"{x * 100:+.1f} %"

def verdict(kind, pred, real):
    """The loads' mean against the plan; the spread when the loads differ by more than the target."""
    mean = sum(real) / len(real)
    diff = mean / pred - 1 if pred > 0 else (0.0 if mean == 0 else float("inf"))
    spread = (max(real) - min(real)) / mean if mean > 0 else 0.0
    t = TARGET[kind]
    if abs(diff) <= t:
        v = "within target"
    elif spread > t and abs(diff) <= spread:
        v = f"within the loads' spread ({spread * 100:.1f} %)"
    else:
        v = "MISS"
    return mean, diff, spread, v

for source, order, sizing in configs:
    d = f"{out}/runs/{source}-{order}-{sizing}"
    pred, line, busy_pred, plans = {}, "", None, 0
    for f in (l.rstrip("\n").split("\t") for l in open(f"{d}/plan.tsv")):
        plans += f[0] == "plan"
        if plans > 1:
            break  # the first plan (one workload group)
        if f[0] == "line" and not line:
            line = f[1]
        elif f[0] == "level" and f[1][1:].isdigit():
            pred.setdefault(int(f[1][1:]), float(f[3]))
        elif f[0] == "total":
            pred["total"] = float(f[1])
        elif f[0] == "busy":
            busy_pred = float(f[1])
    loads, comp_sec, write_sec = {}, {}, {}
    with open(f"{d}/load.tsv") as fh:
        for r in csv.DictReader(fh, delimiter="\t"):
            i, level = int(r["load"]), int(r["level"])
            loads.setdefault(i, {})[level] = int(r["file_bytes"])
            comp_sec[i] = comp_sec.get(i, 0.0) + (float(r["comp_sec"]) if level > 0 else 0.0)  # L0's: flushes
            write_sec[i] = float(r["write_sec"])
    real = {}
    levels = sorted({k for k in pred if k != "total"} | {l for per in loads.values() for l, b in per.items() if b})
    for l in levels:
        real[l] = [loads[i].get(l, 0) for i in sorted(loads)]
    real["total"] = [sum(loads[i].values()) for i in sorted(loads)]
    deepest = max((l for l in pred if l != "total" and pred[l] > 0), default=0)
    db = max(pred["total"], sum(real["total"]) / len(real["total"]))
    lines.append(f"{source} {order} {sizing_text[sizing]}: {line}")
    for key in levels + ["total"]:
        p = pred.get(key, 0.0)
        mean, diff, spread, v = verdict("level", p, real[key])
        share = max(p, mean) / db if db else 0
        if key == "total":
            kind, name = "total", "total"
        elif key == deepest:
            kind, name = "bottom", f"bottom L{key}"
        elif share >= 0.10:
            kind, name = "level", f"L{key} ({share * 100:.0f} % of the DB)"
        else:
            kind = None
        if kind:
            mean, diff, spread, v = verdict(kind, p, real[key])
            judged += 1
            within += v != "MISS"
            lines.append(f"  {name}: predicted {p:,.0f} B, loads {mean:,.0f} B (min {min(real[key]):,}, max "
                         f"{max(real[key]):,}), diff {pct(diff)}, spread {spread * 100:.1f} %, target "
                         f"+-{TARGET[kind] * 100:.0f} %: {v}")
        else:
            v = "not judged (< 10 % of the DB)"
        rows.append([source, order, sizing, key if key == "total" else f"L{key}", f"{p:.0f}", f"{mean:.0f}",
                     min(real[key]), max(real[key]), f"{diff * 100:.2f}" if p > 0 else "", f"{spread * 100:.2f}", v])
    if busy_pred is not None:
        # Not judged: how busy the plan says one compaction thread is while the load writes, and
        # what RocksDB's own compaction seconds say (below L0) over the writes' seconds.
        busy = [comp_sec[i] / write_sec[i] for i in sorted(loads) if write_sec[i] > 0]
        if busy:
            mean = sum(busy) / len(busy)
            lines.append(f"  compaction thread while writing: predicted {busy_pred * 100:.0f} % busy, loads "
                         f"{mean * 100:.0f} % (min {min(busy) * 100:.0f}, max {max(busy) * 100:.0f}), not judged")
            busy_rows.append([source, order, sizing, f"{busy_pred:.3f}", f"{mean:.3f}", f"{min(busy):.3f}",
                              f"{max(busy):.3f}"])
    below = [l for l in levels if l > deepest and any(real[l])]
    if below:
        lines.append(f"  the loads hold data below the plan's deepest level: L{', L'.join(map(str, below))}")

with open(f"{out}/levels.csv", "w", newline="") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(["source", "order", "sizing", "level", "predicted_bytes", "real_mean", "real_min", "real_max",
                "diff_pct", "spread_pct", "verdict"])
    w.writerows(rows)
with open(f"{out}/busy.csv", "w", newline="") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(["source", "order", "sizing", "predicted", "real_mean", "real_min", "real_max"])
    w.writerows(busy_rows)
lines.append(f"{within} of {judged} judged figures within targets ({repeats} load(s) per configuration; targets: "
             "bottom level +-3 %, total +-5 %, a level holding >= 10 % of the DB +-10 %, or the loads' spread)")
text = "\n".join(lines) + "\n"
open(f"{out}/summary.txt", "w").write(text)
sys.stdout.write(text)
PY
log "wrote $out/levels.csv and $out/summary.txt"
