#!/usr/bin/env bash
# The bad-input walk of issue 13, one category at a time: every input gets one clear line
# and the right exit code — never a crash, a hang, a lost or half-written file, or a gate
# that passes by accident. (Signals and pipes: run_signals.sh.)
source "$(dirname "$0")/common.bash"
tiny=(-q -d dbbench -b 4K -c lz4 --max-bytes 64K --time 0.01 --repetitions 1 --latency-calls 100)
tried=0

# expect CODE PATTERN CMD...: exit CODE, stderr one line matching PATTERN, within 60 s.
expect() {
  local want=$1 pattern=$2
  shift 2
  local code=0 cmd="$*"
  cmd=${cmd:0:200}
  timeout 60 "$@" >"$work/out" 2>"$work/err" || code=$?
  tried=$((tried + 1))
  [ "$code" -eq "$want" ] || { head -c 2000 "$work/err"; fail "exit $code, wanted $want: $cmd"; }
  [ "$code" -lt 124 ] || fail "crashed or hung ($code): $cmd"
  if [ -n "$pattern" ]; then
    grep -q -- "$pattern" "$work/err" || { head -c 2000 "$work/err"; fail "no '$pattern' on stderr: $cmd"; }
    [ "$(grep -c 'error' "$work/err")" -le 1 ] || { head -c 2000 "$work/err"; fail "more than one error line: $cmd"; }
  fi
}

# 1. Crashes: nesting that overflowed the stack, an empty value.
python3 -c "print('['*100000 + ']'*100000)" >"$work/deep.json"
expect 0 "" "$kvz" run -q -r json -c lz4 -b 4K --time 0.01 --repetitions 1 --latency-calls 100 --json "$work/deep-out.json" "$work/deep.json"
grep -q "nested deeper" "$work/err" || fail "deep JSON: no warning"
expect 0 "" "$kvz" blocks -r json -l leveldb --stats "$work/deep.json"
python3 -c "
import json
print('\n'.join(json.dumps({'id': i, 'v': ''}) for i in range(50)))" >"$work/empty-values.jsonl"
expect 0 "" "$kvz" run -q -r jsonl --key-field id -l values:single -c lz4 --time 0.01 --repetitions 1 --latency-calls 100 \
  --json "$work/ev.json" "$work/empty-values.jsonl"

# 2. Half-written results: a full disk (a file-size limit) keeps the previous file whole.
"$kvz" run "${tiny[@]}" --json "$work/good.json" >/dev/null
cp "$work/good.json" "$work/good.copy"
code=0
(ulimit -f 8 && "$kvz" run "${tiny[@]}" --json "$work/good.json" >/dev/null 2>"$work/err") || code=$?
tried=$((tried + 1))
[ "$code" -eq 1 ] || fail "disk full: exit $code, wanted 1"
grep -q "previous file is kept" "$work/err" || fail "disk full: no 'previous file is kept'"
cmp -s "$work/good.json" "$work/good.copy" || fail "disk full: the previous result file changed"
ls "$work"/good.json.tmp.* >/dev/null 2>&1 && fail "disk full: a temporary file was left"
# merge in place is refused (an output never replaces an input: bad_input/outputs_over_inputs.bash);
# blocks --out never leaves 0-byte files.
sum=$(sha256sum "$work/good.json")
expect 2 "never replaces an input" "$kvz" merge "$work/good.json" -o "$work/good.json"
[ "$(sha256sum "$work/good.json")" = "$sum" ] || fail "merge in place changed its input"
code=0
(ulimit -f 8 && "$kvz" blocks -d dbbench -b 64K --max-bytes 1M --out "$work/blk" >/dev/null 2>&1) || code=$?
tried=$((tried + 1))
[ "$code" -ne 0 ] || fail "blocks --out on a full disk: exit 0"
[ -z "$(find "$work/blk" -size 0 2>/dev/null)" ] || fail "blocks --out left 0-byte files"

# 3. Outputs that collide or fail late: refused before measuring.
expect 2 "same file" "$kvz" run "${tiny[@]}" --json "$work/x.out" --csv "$work/x.out"
expect 2 "never replaces an input" "$kvz" run "${tiny[@]}" --json "$work/good.json" --check "$work/good.json"
printf 'a\nb\n' >"$work/corpus.txt"
expect 2 "never replaces an input" "$kvz" run -q -c lz4 -b 4K --time 0.01 --repetitions 1 --csv "$work/corpus.txt" \
  "$work/corpus.txt"
[ "$(cat "$work/corpus.txt")" = "$(printf 'a\nb')" ] || fail "the corpus was overwritten"
expect 2 "does not exist" "$kvz" run "${tiny[@]}" --json "$work/no/dir/r.json"
expect 2 "cannot open" "$kvz" run "${tiny[@]}" --json "$work/r.json" --check "$work/missing-baseline.json"
expect 2 "give one" "$kvz" run "${tiny[@]}" --json "$work/r.json" --out-dir "$work/shards"
printf 'x' >"$work/a-file"
expect 2 "not a directory it can create" "$kvz" run "${tiny[@]}" --out-dir "$work/a-file/shards"
# --shard auto outside a scheduler, or in an array that is a list: refused before measuring.
expect 2 "no scheduler names this process's shard" env -u SLURM_ARRAY_TASK_ID -u SLURM_PROCID \
  -u JOB_COMPLETION_INDEX "$kvz" run "${tiny[@]}" --shard auto
expect 2 "is not a range" env SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_MIN=1 \
  SLURM_ARRAY_TASK_MAX=7 "$kvz" run "${tiny[@]}" --shard auto
(
  cd "$work"
  "$kvz" run "${tiny[@]}" >/dev/null &
  "$kvz" run "${tiny[@]}" >/dev/null &
  wait
)
tried=$((tried + 1))
[ "$(find "$work/kvzbench-results" -name results.json | wc -l)" -eq 2 ] || fail "two runs at once share a directory"

# 5. The gate: nothing compared, interrupted, NaN thresholds, zero speeds.
jq '.kvzbench.cells = []' "$work/good.json" >"$work/none.json"
expect 1 "" "$kvz" check --baseline "$work/good.json" "$work/none.json"
grep -q "nothing was compared" "$work/out" || fail "empty check: no reason given"
jq '.kvzbench.meta.interrupted = true' "$work/good.json" >"$work/cut.json"
expect 1 "" "$kvz" check --baseline "$work/good.json" "$work/cut.json"
for opt in --threshold --p-value --ratio-tolerance; do
  expect 2 "$opt" "$kvz" check --baseline "$work/good.json" "$work/good.json" "$opt" nan
done
jq '(.kvzbench.cells[] | select(.reference) | .compress_mbps) |= map(0)' "$work/good.json" >"$work/zero.json"
expect 2 "compress_mbps" "$kvz" check --baseline "$work/zero.json" "$work/good.json"

# 6. Resources: refused up front, not attempted.
expect 2 "above 1G" "$kvz" run -q -d dbbench --max-bytes 100G -c lz4 -b 4K
expect 0 "" "$kvz" run -q -d dbbench -c lz4 --max-bytes 64K --time 0.01 --repetitions 1 --latency-calls 100 \
  -b "$(printf '4K,%.0s' {1..3000})4K" --json "$work/many.json"

# 7. Values accepted silently before.
for bad in "--time -1" "--time nan" "--repetitions -1" "--seed 18446744073709551616" "--dict 2K" \
  "--profile rocksdb -l leveldb" "--latency-calls 0" "--latency-calls -5" "--latency-calls nan" \
  "--latency-calls 1e12" "--latency-calls 2.5" "--latency-seconds 0" "--latency-seconds nan" \
  "--latency-seconds -1" "--latency-seconds 1e9" "--dict-method train" "--dict-method FILE"; do
  # shellcheck disable=SC2086
  expect 2 "error" "$kvz" run -q -d dbbench -b 4K -c lz4 --max-bytes 64K $bad
done
for opt in -c -d -l --json --csv --check; do
  expect 2 "empty value" "$kvz" run -q "$opt" ""
done
expect 2 "contradict" "$kvz" run -q -d dbbench -b 4K -c zlib:1:zlib:raw
# A codec the store cannot write, under its profile: refused, naming what it writes.
expect 2 "leveldb writes snappy (and uncompressed blocks): not lz4" "$kvz" run -q -d dbbench -b 4K -c lz4 --profile leveldb
: >"$work/empty.txt"
expect 1 "nothing was measured" "$kvz" run -q -c lz4 -b 4K --time 0.01 --repetitions 1 --json "$work/e.json" \
  "$work/empty.txt"
jq '.kvzbench.cells[0].input_bytes = -5' "$work/good.json" >"$work/neg.json"
expect 2 "input_bytes" "$kvz" report --md "$work/neg.md" "$work/neg.json"
jq '.kvzbench.schema_version = 1.5' "$work/good.json" >"$work/v15.json"
expect 2 "schema_version" "$kvz" report --md "$work/v15.md" "$work/v15.json"
jq '.kvzbench.cells += [.kvzbench.cells[0]]' "$work/good.json" >"$work/twice.json"
expect 2 "appears twice" "$kvz" report --md "$work/twice.md" "$work/twice.json"

# 8. Errors that are one clear line.
expect 2 "kvzbench list: error" "$kvz" list --foo
expect 2 "unknown command 'foo'" "$kvz" foo
mkfifo "$work/fifo"
expect 2 "FIFO" "$kvz" run -q "$work/fifo"
ln -s "$work/loop-a" "$work/loop-b"
ln -s "$work/loop-b" "$work/loop-a"
expect 2 "symbolic links" "$kvz" run -q "$work/loop-a"
expect 2 'new\\nline' "$kvz" run -q "$work/new
line"
# Issue 24's categories, one file each (outputs, store files, stops and budgets, inputs and
# loaders), sharing expect() and $tried.
for part in "$(dirname "$0")"/bad_input/*.bash; do
  [ -e "$part" ] || continue
  # shellcheck source=/dev/null
  source "$part"
done
echo "bad_input: OK ($tried inputs)"
