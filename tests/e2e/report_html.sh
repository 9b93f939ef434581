#!/usr/bin/env bash
# The HTML report of a real quick run, opened in headless Chromium: no console message, the
# answer in the first screen at 1400x900, pooled over every source as the console's is, every
# chart draws exactly the points the results hold for the selection (the default one, and one
# given in the URL hash), every series in its legend, one dictionary size drawn as bars; the same
# run with every speed made equal: its tie chains collapsed and RocksDB's lines on screen at
# 1280x800; then a two-run comparison from `check --html`. Screenshots are kept:
#   $2/report.png (default run, first screen), $2/report-compare.png (two runs)
source "$(dirname "$0")/common.bash"

for i in 1 2; do
  if ! "$kvz" run --profile quick -q --json "$work/results$i.json" >"$work/run$i.log" 2>&1; then
    echo "FAIL: kvzbench run --profile quick failed:"
    tail -5 "$work/run$i.log"
    exit 1
  fi
done
"$kvz" report "$work/results1.json" -o "$work/report.html" --md "$work/report.md" --csv "$work/report.csv" >/dev/null
"$kvz" check -b "$work/results1.json" "$work/results2.json" --no-speed --html "$work/compare.html" >"$work/check.log" 2>&1
test -s "$work/compare.html" || { echo "FAIL: check --html wrote nothing"; exit 1; }

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "FAIL: chromium not found (apt-get install chromium)"
  exit 1
fi
profile_dir=$(mktemp -d)
trap 'rm -rf "$profile_dir"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
  --disable-component-update --disable-sync --user-data-dir="$profile_dir" --enable-logging=stderr --v=0)
# open <html> <hash> <tag>: the DOM after the script ran, at 1400x900, and its console log.
open_page() {
  timeout 120 "$browser" "${flags[@]}" --window-size=1400,900 --virtual-time-budget=5000 --dump-dom "file://$1#$2" \
    >"$work/dom-$3.html" 2>"$work/chromium-$3.log"
}
second=$(jq -r '[.kvzbench.cells[].key.source] | unique | .[1] // .[0]' "$work/results1.json")
# Every codec as fast as every other: each workload's pick ties with the rest, a long chain. The
# picks stand on each block's fastest call (intrinsic.fastest_sum_ns), so those are 100 MB/s too.
jq '(.kvzbench.cells[] | select(.key.codec != "memcpy") | (.compress_mbps, .decompress_mbps,
     .compress_cpu_mbps, .decompress_cpu_mbps)) |= map(100)
    | (.kvzbench.cells[] | select(.key.codec != "memcpy" and .input_bytes != null)) |=
       (.input_bytes as $b | (.compress_latency.intrinsic, .decompress_latency.intrinsic)
        |= (if . == null then . else .fastest_sum_ns = $b * 10 end))' "$work/results1.json" >"$work/ties.json"
"$kvz" report "$work/ties.json" -o "$work/ties.html" >/dev/null
open_page "$work/report.html" "" default
open_page "$work/report.html" "source=$second&block=4K&dir=compress&family=zstd" picked
open_page "$work/compare.html" "" compare
# The tie chains collapsed, RocksDB's lines on the screen at 1280x800.
timeout 120 "$browser" "${flags[@]}" --window-size=1280,800 --virtual-time-budget=5000 --dump-dom \
  "file://$work/ties.html#store=rocksdb" >"$work/dom-ties.html" 2>"$work/chromium-ties.log"
timeout 120 "$browser" "${flags[@]}" --screenshot="$build/report.png" --window-size=1400,900 "file://$work/report.html" \
  >/dev/null 2>"$work/chromium-shot.log"
timeout 120 "$browser" "${flags[@]}" --screenshot="$build/report-compare.png" --window-size=1400,2400 \
  "file://$work/compare.html" >/dev/null 2>>"$work/chromium-shot.log"

python3 - "$work" "$build" "$second" <<'PY'
import json, re, sys, os
work, build, second = sys.argv[1], sys.argv[2], sys.argv[3]
errors = []
for log in os.listdir(work):
    if log.startswith("chromium-"):
        for line in open(os.path.join(work, log), encoding="utf-8", errors="replace"):
            if "CONSOLE" in line:
                errors.append(f"console message in {log}: {line.strip()}")

def cells_of(path, run):
    res = json.load(open(path))
    return [dict(c, run=run) for c in res["kvzbench"]["cells"] if c["status"] == "OK" and not c["reference"]]

def med(v):
    v = sorted(v); n = len(v)
    return 0 if n == 0 else (v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2)

# Points each chart must show for a selection, counted here from the results files,
# independently of the report's code. A codec row is identified by (codec, params).
def expected(cells, source, block, direction, family):
    def pick(c, with_block=True):
        k = c["key"]
        return (source is None or k["source"] == source) and (family is None or k["codec"] == family) and \
               (not with_block or block is None or k["block_size"] == block)
    sel = [c for c in cells if pick(c)]
    speed = "compress_mbps" if direction == "compress" else "decompress_mbps"
    lat = "compress_latency" if direction == "compress" else "decompress_latency"
    rows = {}
    for c in sel:
        rows.setdefault((c["run"], c["key"]["codec"], c["key"]["params"]), []).append(c)
    tails = sum(1 for cs in rows.values() if max(c[lat]["intrinsic"]["worst_block_ns"] for c in cs) > 0)
    tails += sum(1 for cs in rows.values() if all(c[lat].get("p999_ns") is not None for c in cs))
    saving = {(c["run"], c["key"]["codec"], c["key"]["params"], c["key"]["block_size"]) for c in cells if pick(c, False)}
    # The ratio chart shows one block set: the first in (source, layout, block size, profile) order.
    first = min(((c["key"]["source"], c["key"]["layout"], c["key"]["block_size"], c["key"]["profile"]) for c in sel),
                default=None)
    one = [c for c in sel if (c["key"]["source"], c["key"]["layout"], c["key"]["block_size"], c["key"]["profile"]) == first]
    return {"ratio": sum(1 for c in one if med(c[speed]) > 0),
            "dict": sum(1 for c in sel if c.get("dict_gain") is not None),
            "saving": len(saving), "tails": tails}, len(sel)

def charts(tag):
    dom = open(os.path.join(work, f"dom-{tag}.html"), encoding="utf-8").read()
    if 'data-status="ok"' not in dom:
        errors.append(f"{tag}: the page script did not finish (body data-status is not ok)")
    found = {}
    for m in re.finditer(r'<div class="chart" id="chart-([a-z]+)" data-points="(\d+)" data-series="(\d+)" data-legend="(\d+)"', dom):
        found[m.group(1)] = tuple(int(x) for x in m.group(2, 3, 4))
    if len(found) != 5:
        errors.append(f"{tag}: {len(found)} charts drawn, 5 expected")
    for cid, (points, series, legend) in found.items():
        if series != legend:
            errors.append(f"{tag}: chart {cid} has {series} series but {legend} legend entries")
    return dom, found

cells1 = cells_of(os.path.join(work, "results1.json"), 1)
sources = sorted({c["key"]["source"] for c in cells1} | {c["key"]["source"] for c in json.load(open(os.path.join(work, "results1.json")))["kvzbench"]["cells"]})
# The page opens on every source (the pooled answer, the console's); a source chosen in the hash.
cases = [("default", cells1, None, None, "decompress", None),
         ("picked", cells1, second, 4096, "compress", "zstd")]
cells2 = cells_of(os.path.join(work, "results2.json"), 2)
cases.append(("compare", cells1 + cells2, None, None, "decompress", None))
counts = {}
for tag, cells, source, block, direction, family in cases:
    dom, found = charts(tag)
    want, selected = expected(cells, source, block, direction, family)
    counts[tag] = found
    m = re.search(r'data-selected="(\d+)"', dom)
    if not m or int(m.group(1)) != selected:
        errors.append(f"{tag}: {m and m.group(1)} cells selected, {selected} expected")
    for cid, n in want.items():
        got = found.get(cid, (None,))[0]
        print(f"{tag}: chart {cid}: drawn {got}, independent count {n}")
        if got != n:
            errors.append(f"{tag}: chart {cid} drew {got} points, the results hold {n} for this selection")
    top = re.search(r'data-answer-top="(-?\d+)"', dom)
    if not top or not 0 <= int(top.group(1)) < 900:
        errors.append(f"{tag}: the answer section starts at {top and top.group(1)} px, not in the first 900")
    if tag != "compare" and '<table class="answer">' not in dom:
        errors.append(f"{tag}: no answer table")
if counts["default"].get("ratio") == counts["picked"].get("ratio"):
    errors.append("changing the selection did not change the plotted point count")
dom = open(os.path.join(work, "dom-default.html"), encoding="utf-8").read()
# The pooled answer first: its groups say so, as the console's and the Markdown's are.
if not re.search(r'<td class="group"[^>]*>all sources · ', dom):
    errors.append("default: the answer does not open on the groups pooled over every source")
# One dictionary size in the quick run: the dictionary chart draws bars, not one dot a series.
dict_sizes = {c["key"]["dict_size"] for c in cells1 if c.get("dict_gain") is not None}
kind = re.search(r'id="chart-dict"[^>]*data-kind="(\w+)"', dom)
if len(dict_sizes) == 1 and (not kind or kind.group(1) != "bar"):
    errors.append(f"default: one dictionary size, but the dictionary chart is {kind and kind.group(1)}")
# A long tie chain, collapsed ("+N tied", opened by a click); every line on screen at 1280 px.
dom = open(os.path.join(work, "dom-ties.html"), encoding="utf-8").read()
if 'data-status="ok"' not in dom:
    errors.append("ties: the page script did not finish")
chains = re.findall(r'<details class="ties"><summary>[^<]* \+(\d+) tied</summary>', dom)
if not chains or max(int(n) for n in chains) < 3:
    errors.append(f"ties: no long tie chain collapsed ({chains})")
if '<code>compression=kZSTD;<wbr>' not in dom:
    errors.append("ties: no RocksDB line in the answer (#store=rocksdb)")
right, page = re.search(r'data-config-right="(\d+)"', dom), re.search(r'data-page-width="(\d+)"', dom)
if not right or not 0 < int(right.group(1)) <= 1280 or not page or int(page.group(1)) > 1280:
    errors.append(f"ties: at 1280 px the lines end at {right and right.group(1)} px, the page is "
                  f"{page and page.group(1)} px wide")
else:
    print(f"ties: {len(chains)} chains collapsed (up to +{max(int(n) for n in chains)}); lines end at {right.group(1)} px of 1280")
dom = open(os.path.join(work, "dom-compare.html"), encoding="utf-8").read()
if 'class="verdict pass"' not in dom and 'class="verdict fail"' not in dom:
    errors.append("compare: no check verdict in the comparison")
if not re.search(r'class="num st-(pass|fail|unstable)"|class="st-(pass|fail|unstable)"', dom):
    errors.append("compare: no verdict coloured in the comparison table")
for png in ("report.png", "report-compare.png"):
    p = os.path.join(build, png)
    if not os.path.exists(p) or os.path.getsize(p) < 10000:
        errors.append("no screenshot at " + p)
for e in errors:
    print("FAIL:", e)
if errors:
    sys.exit(1)
print(f"report ok: 5 charts per page, screenshots in {build}")
PY
