#!/usr/bin/env bash
# `kvzbench report` of a result past 5,000 cells (report/README.md "At scale"): the committed quick
# baseline's 28 cells cloned under 200 source names each (5,600 cells, 800 block sets). The
# Markdown and the page say what they show, 200 block sets; the page's script finishes in headless
# Chromium with no console message; the CSV has every cell, one row each.
source "$(dirname "$0")/common.bash"
here=$(cd "$(dirname "$0")" && pwd)

python3 - "$here/../baselines/quick.json" "$work/big.json" <<'PY'
import json, sys
src, dst = sys.argv[1:]
doc = json.load(open(src))
cells = doc["kvzbench"]["cells"]
doc["kvzbench"]["cells"] = [dict(c, key=dict(c["key"], source=f'{c["key"]["source"]}-{i}')) for i in range(200) for c in cells]
for c in doc["kvzbench"]["cells"]:
    c["key"].pop("id", None)  # the loader computes it
doc["benchmarks"] = []  # the Google Benchmark rows are not what report reads
# meta before cells, as kvzbench writes them (json.dump keeps insertion order)
json.dump(doc, open(dst, "w"))
PY
"$kvz" report "$work/big.json" -o "$work/report.html" --md "$work/report.md" --csv "$work/report.csv" >"$work/report.log" 2>&1 ||
  { cat "$work/report.log"; fail "report of 5,600 cells"; }

note="This result has 5600 cells in 800 block sets, too many to show each"
grep -q "$note" "$work/report.md" || fail "the Markdown does not say it shows the result in part"
grep -q "the 200 block sets with the most input bytes" "$work/report.md" || fail "the Markdown does not say what it shows"
[ "$(wc -l <"$work/report.csv")" -eq 5601 ] || fail "the CSV has $(wc -l <"$work/report.csv") lines, not a header and 5,600 rows"
grep -q "id=\"in-part\">$note" "$work/report.html" || fail "the page does not say it shows the result in part"

browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || fail "chromium not found (apt-get install chromium)"
profile_dir=$(mktemp -d)
trap 'rm -rf "$profile_dir"' EXIT
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$profile_dir" \
  --enable-logging=stderr --v=0 --window-size=1400,900 --virtual-time-budget=5000 --dump-dom \
  "file://$work/report.html" >"$work/dom.html" 2>"$work/chromium.log"
grep -q 'data-status="ok"' "$work/dom.html" || fail "the page's script did not finish"
if grep -q CONSOLE "$work/chromium.log"; then
  grep CONSOLE "$work/chromium.log"
  fail "console messages"
fi
echo "report of 5,600 cells in part: Markdown, page and CSV as stated"
