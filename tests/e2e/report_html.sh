#!/usr/bin/env bash
# The HTML report of a real quick run opens in headless Chromium with no console message,
# every chart draws exactly the points the results hold, and a screenshot is kept:
#   $2/report.png   (from `bash report_html.sh <kvzbench> <build-dir>`, as ctest calls it)
source "$(dirname "$0")/common.bash"

if ! "$kvz" run --profile quick -q --json "$work/results.json" >"$work/run.log" 2>&1; then
  echo "FAIL: kvzbench run --profile quick failed:"
  tail -5 "$work/run.log"
  exit 1
fi
"$kvz" report "$work/results.json" -o "$work/report.html" --md "$work/report.md" --csv "$work/report.csv"

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "FAIL: chromium not found (apt-get install chromium)"
  exit 1
fi
profile_dir=$(mktemp -d)
trap 'rm -rf "$profile_dir"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
  --disable-component-update --disable-sync --user-data-dir="$profile_dir" --enable-logging=stderr --v=0)
url="file://$work/report.html"
timeout 120 "$browser" "${flags[@]}" --virtual-time-budget=5000 --dump-dom "$url" >"$work/dom.html" 2>"$work/chromium-dom.log"
timeout 120 "$browser" "${flags[@]}" --screenshot="$build/report.png" --window-size=1400,4000 "$url" \
  >/dev/null 2>"$work/chromium-shot.log"

python3 - "$work" "$build/report.png" <<'PY'
import json, re, sys, os
work, png = sys.argv[1], sys.argv[2]
errors = []
dom = open(os.path.join(work, "dom.html"), encoding="utf-8").read()
for log in ("chromium-dom.log", "chromium-shot.log"):
    for line in open(os.path.join(work, log), encoding="utf-8", errors="replace"):
        if "CONSOLE" in line:
            errors.append(f"console message in {log}: {line.strip()}")
if 'data-status="ok"' not in dom:
    errors.append("the page script did not finish (body data-status is not ok)")
if re.search(r'\s(src|href)\s*=', dom):
    errors.append("the page references an external resource (src= or href=)")

# Points each chart must show, counted here from the results file, independently of the report code.
res = json.load(open(os.path.join(work, "results.json")))
cells = [c for c in res["kvzbench"]["cells"] if c["status"] == "OK" and c["key"]["codec"] != "memcpy"]
def med(v):
    v = sorted(v); n = len(v)
    return 0 if n == 0 else (v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2)
want = {
    "speed-c": sum(1 for c in cells if med(c.get("compress_mbps", [])) > 0),
    "speed-d": sum(1 for c in cells if med(c.get("decompress_mbps", [])) > 0),
    "dict": sum(1 for c in cells if c.get("dict_gain") is not None),
}
if want["speed-c"] == 0:
    errors.append("the run produced no codec cell with speeds")

# Split the DOM at each chart box and count the drawn points (elements with class "pt") in it.
parts = re.split(r'(?=<div class="chart" id="chart-)', dom)
seen = 0
for part in parts[1:]:
    m = re.match(r'<div class="chart" id="chart-([a-z-]+)" data-expected="(\d+)"', part)
    if not m:
        errors.append("chart box without data-expected: " + part[:80])
        continue
    cid, expected = m.group(1), int(m.group(2))
    body = part.split('<h2>', 1)[0] if cid == "io" else part
    drawn = len(re.findall(r'class="pt[ "]', body))
    svg = re.search(r'<svg[^>]*data-points="(\d+)"', body)
    seen += 1
    print(f"chart {cid}: expected {expected}, drawn {drawn}" + (f", independent count {want[cid]}" if cid in want else ""))
    if drawn != expected:
        errors.append(f"chart {cid}: {drawn} points drawn, {expected} expected")
    if not svg or int(svg.group(1)) != drawn:
        errors.append(f"chart {cid}: svg data-points does not match the drawn points")
    if cid in want and want[cid] != expected:
        errors.append(f"chart {cid}: results hold {want[cid]} points, report expects {expected}")
if seen != 6:
    errors.append(f"{seen} charts found, 6 expected")
if not os.path.exists(png) or os.path.getsize(png) < 10000:
    errors.append("no screenshot at " + png)
for e in errors:
    print("FAIL:", e)
if errors:
    sys.exit(1)
print(f"report ok: {seen} charts, screenshot {png}")
PY
