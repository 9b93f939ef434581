#!/usr/bin/env bash
# bench/scripts/lsm_real.sh at a small size (2 MiB of auth.log, one load per configuration, two
# configurations: shuffled leveled dynamic=1 and shuffled universal, lz4 and zstd measured): it
# writes levels.csv and summary.txt with a verdict per judged figure and the count line, and a
# second run reuses every step (nothing measured or loaded again) until a step's command changes.
# Issue 38's targets are for 100 MB loads; a 2 MiB DB is much noisier, so they are not asserted.
# Bad arguments to the script and its two tools: one line on stderr, exit 2.
source "$(dirname "$0")/common.bash"
script=$(cd "$(dirname "$0")/../.." && pwd)/bench/scripts/lsm_real.sh
for t in kvz_lsm_load kvz_lsm_plan; do
  [ -x "$build/tests/$t" ] || fail "$build/tests/$t not built (KVZ_BUILD_TESTS)"
done
# The script takes the build directory's kvzbench; the test's binary must be that one.
[ "$(realpath "$kvz")" = "$(realpath "$build/kvzbench")" ] || fail "$kvz is not $build/kvzbench"
out=$work/out
small=(env MIN_MB=2 REPEATS=1 SOURCES=auth ORDERS=shuffled SIZINGS="dynamic universal" CODECS=lz4/zstd)

"${small[@]}" bash "$script" "$build" "$out" >"$work/stdout1" 2>"$work/stderr1" ||
  { cat "$work/stderr1"; fail "lsm_real.sh failed"; }
[ -f "$out/levels.csv" ] || fail "no levels.csv"
[ -f "$out/summary.txt" ] || fail "no summary.txt"
cmp -s "$work/stdout1" "$out/summary.txt" || fail "stdout is not the summary"
[ "$(head -1 "$out/levels.csv")" = \
  "source,order,sizing,level,predicted_bytes,real_mean,real_min,real_max,diff_pct,spread_pct,verdict" ] ||
  fail "levels.csv header: $(head -1 "$out/levels.csv")"
python3 - "$out/levels.csv" <<'PY' || fail "levels.csv rows"
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows, "no rows"
configs = {(r["source"], r["order"], r["sizing"]) for r in rows}
assert configs == {("auth", "shuffled", "dynamic"), ("auth", "shuffled", "universal")}, configs
verdict = re.compile(r"within target|within the loads' spread \(\d+\.\d %\)|MISS|not judged \(< 10 % of the DB\)")
for r in rows:
    assert None not in r and all(v is not None for v in r.values()), r
    assert r["level"] == "total" or re.fullmatch(r"L\d", r["level"]), r
    assert verdict.fullmatch(r["verdict"]), r
    assert int(r["real_min"]) <= float(r["real_mean"]) <= int(r["real_max"]), r
    assert float(r["spread_pct"]) == 0, r  # one load
for c in configs:
    levels = [r for r in rows if (r["source"], r["order"], r["sizing"]) == c]
    total = [r for r in levels if r["level"] == "total"]
    assert len(total) == 1 and total[0]["verdict"] != "not judged (< 10 % of the DB)", levels
    assert int(total[0]["real_mean"]) == sum(int(r["real_mean"]) for r in levels if r["level"] != "total"), levels
    assert int(total[0]["real_mean"]) > 0, levels
PY
# summary.txt: per configuration its line, the bottom level and the total, each judged figure with
# a verdict; the count line last, counting them.
s=$out/summary.txt
[ "$(grep -c '^auth shuffled leveled dynamic=1: compression_per_level=' "$s")" -eq 1 ] || fail "no leveled line: $(cat "$s")"
[ "$(grep -c '^auth shuffled universal: compaction_style=kCompactionStyleUniversal' "$s")" -eq 1 ] ||
  fail "no universal line: $(cat "$s")"
[ "$(grep -c '^  bottom L[0-9]: predicted ' "$s")" -eq 2 ] || fail "not one bottom level per configuration: $(cat "$s")"
[ "$(grep -c '^  total: predicted ' "$s")" -eq 2 ] || fail "not one total per configuration: $(cat "$s")"
judged=$(grep -c ': predicted .*, target +-[0-9]* %: ' "$s")
verdicts=$(grep -cE ": (within target|within the loads' spread \([0-9.]+ %\)|MISS)$" "$s")
[ "$judged" -eq "$verdicts" ] || fail "$judged judged figures, $verdicts verdicts: $(cat "$s")"
within=$(grep -cE ": (within target|within the loads' spread \([0-9.]+ %\))$" "$s" || true)
tail -1 "$s" | grep -q "^$within of $judged judged figures within targets (1 load(s) per configuration" ||
  fail "count line: $(tail -1 "$s") ($within of $judged)"
grep -q "loaded (ran)" "$work/stderr1" || fail "no load on the first run: $(cat "$work/stderr1")"
# The compaction thread's busy share, predicted and counted by RocksDB: the leveled configuration
# only (the universal plan prints none), one line in the summary, not judged.
python3 - "$out/busy.csv" <<'PY' || fail "busy.csv: $(cat "$out/busy.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [(r["source"], r["order"], r["sizing"]) for r in rows] == [("auth", "shuffled", "dynamic")], rows
r = rows[0]
assert float(r["predicted"]) > 0 and float(r["real_mean"]) > 0, r
assert float(r["real_min"]) <= float(r["real_mean"]) <= float(r["real_max"]), r
PY
line_re='^  compaction thread while writing: predicted [0-9]+ % busy, loads [0-9]+ % \(min [0-9]+, max [0-9]+\), not judged$'
[ "$(grep -cE "$line_re" "$s")" -eq 1 ] || fail "no compaction thread line: $(cat "$s")"

# A second run reuses every step: nothing measured, planned or loaded again, the same outputs.
stamp=$(stat -c %Y.%s "$out"/runs/*/load.tsv "$out"/runs/*/run.json)
cp "$out/levels.csv" "$work/levels1.csv"
"${small[@]}" bash "$script" "$build" "$out" >"$work/stdout2" 2>"$work/stderr2" ||
  { cat "$work/stderr2"; fail "second lsm_real.sh failed"; }
! grep -q "(ran)" "$work/stderr2" || fail "the second run redid a step: $(grep '(ran)' "$work/stderr2")"
[ "$(grep -c "loaded (cached)" "$work/stderr2")" -eq 2 ] || fail "second run: $(cat "$work/stderr2")"
[ "$(stat -c %Y.%s "$out"/runs/*/load.tsv "$out"/runs/*/run.json)" = "$stamp" ] || fail "outputs rewritten"
cmp -s "$work/levels1.csv" "$out/levels.csv" || fail "levels.csv changed on a cached rerun"
# A changed load command (two loads) loads again, and only that.
env MIN_MB=2 REPEATS=2 SOURCES=auth ORDERS=shuffled SIZINGS=dynamic CODECS=lz4/zstd \
  bash "$script" "$build" "$out" >"$work/stdout3" 2>"$work/stderr3" || { cat "$work/stderr3"; fail "third run failed"; }
grep -q "measured (cached)" "$work/stderr3" || fail "third run measured again: $(cat "$work/stderr3")"
grep -q "loaded (ran)" "$work/stderr3" || fail "third run did not reload: $(cat "$work/stderr3")"
[ "$(cut -f1 "$out/runs/auth-shuffled-dynamic/load.tsv" | sort -u | tr '\n' ' ')" = "0 1 load " ] ||
  fail "two loads expected: $(cat "$out/runs/auth-shuffled-dynamic/load.tsv")"

# Bad arguments: one line on stderr, exit 2.
expect_bad() {
  local what=$1
  shift
  set +e
  "$@" >"$work/bad.out" 2>"$work/bad.err"
  local rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "$what: exit $rc, not 2: $(cat "$work/bad.err")"
  [ "$(wc -l <"$work/bad.err")" -eq 1 ] || fail "$what: not one line on stderr: $(cat "$work/bad.err")"
}
expect_bad "lsm_real.sh with one argument" bash "$script" "$build"
expect_bad "lsm_real.sh REPEATS=x" env REPEATS=x bash "$script" "$build" "$work/bad"
expect_bad "lsm_real.sh SOURCES=nope" env SOURCES=nope bash "$script" "$build" "$work/bad"
expect_bad "lsm_real.sh RATE=fast" env RATE=fast bash "$script" "$build" "$work/bad"
expect_bad "kvz_lsm_load --rate -1" "$build/tests/kvz_lsm_load" --source "$out/sources/auth.txt" --mode lines \
  --max-bytes 1M --order shuffled --rate -1 --line write_buffer_size=65536 --dir "$work/bad"
expect_bad "kvz_lsm_load --order sideways" "$build/tests/kvz_lsm_load" --source "$out/sources/auth.txt" --mode lines \
  --max-bytes 1M --order sideways --line write_buffer_size=65536 --dir "$work/bad"
expect_bad "kvz_lsm_load bad line" "$build/tests/kvz_lsm_load" --source "$out/sources/auth.txt" --mode lines \
  --max-bytes 1M --order shuffled --line no_such_option=1 --dir "$work/bad"
expect_bad "kvz_lsm_plan with no workload" "$build/tests/kvz_lsm_plan" "$out/runs/auth-shuffled-dynamic/run.json"
expect_bad "kvz_lsm_plan bad workload" "$build/tests/kvz_lsm_plan" "$out/runs/auth-shuffled-dynamic/run.json" write=x
[ ! -e "$work/bad" ] || fail "a bad argument created $work/bad"
echo "PASS"
