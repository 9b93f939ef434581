# Issue 35 item 4, a merge is one sweep or nothing (sourced by bad_input.sh: $kvz, $work, expect,
# fail, $tried): shards of different plans (options or sources), interrupted shards and block sets
# cut short are refused with exit 2 naming them, writing nothing; an interrupted re-run keeps the
# complete shard file it would have replaced and writes beside it; a merge stopped by a signal
# leaves no temporary file and the previous output whole; a merged file is no shard.
w=$work/sweep
mkdir -p "$w"
q=(-q -d dbbench,json-docs -b 4K --max-bytes 64K --time 0.01 --repetitions 1 --latency-calls 100)
for i in 0 1; do
  "$kvz" run "${q[@]}" -c lz4/zstd:1 --shard "$i/2" --out-dir "$w/a" >/dev/null 2>&1 || fail "one sweep: shard $i"
done
"$kvz" run "${q[@]}" -c lz4/snappy --shard 1/2 --out-dir "$w/b" >/dev/null 2>&1 || fail "one sweep: the other plan"
expect 0 "" "$kvz" merge "$w/a/results-0-of-2.json" "$w/a/results-1-of-2.json" -o "$w/ab.json"
jq -e '.kvzbench.meta.extra | .shard == null and .shard_scheduler == null and .merged_inputs == "2" and
  (.plan | length) == 16' "$w/ab.json" >/dev/null || fail "the merged file still says it is a shard, or lost its plan"
expect 2 "are not one sweep: their options differ ('.*-c lz4/zstd:1.*' and '.*-c lz4/snappy" \
  "$kvz" merge "$w/a/results-0-of-2.json" "$w/b/results-1-of-2.json" -o "$w/mixed.json"
[ ! -e "$w/mixed.json" ] || fail "a refused merge wrote its output"
# The same options on another file's contents: not one sweep either.
printf 'first line %d\n' {1..300} >"$w/corpus.txt"
qf=(-q -c lz4 -b 4K --time 0.01 --repetitions 1 --latency-calls 100 -d dbbench --max-bytes 64K)
"$kvz" run "${qf[@]}" "$w/corpus.txt" --shard 0/2 --out-dir "$w/c" >/dev/null 2>&1 || fail "one sweep: file shard 0"
printf 'other line %d\n' {1..300} >"$w/corpus.txt"
"$kvz" run "${qf[@]}" "$w/corpus.txt" --shard 1/2 --out-dir "$w/c" >/dev/null 2>&1 || fail "one sweep: file shard 1"
expect 2 "their sources differ" "$kvz" merge "$w/c/results-0-of-2.json" "$w/c/results-1-of-2.json" -o "$w/c.json"

# A block set cut short, even without meta.interrupted (an edit can lose it), is refused.
jq '.kvzbench.cells[0].partial_set = true' "$w/a/results-1-of-2.json" >"$w/cut-cells.json"
expect 2 "cut-cells.json: cell .* is of a block set a stop cut short" \
  "$kvz" merge "$w/a/results-0-of-2.json" "$w/cut-cells.json" -o "$w/cut.json"

# A re-run of a finished shard stopped by SIGTERM (a Slurm time limit): the complete file stays,
# the interrupted results go beside it, and merge refuses them.
complete=$(sha256sum "$w/a/results-0-of-2.json")
"$kvz" run -q -d dbbench,json-docs -b 4K --max-bytes 64K -c lz4/zstd:1 --time 2 --repetitions 5 --shard 0/2 \
  --out-dir "$w/a" >/dev/null 2>"$w/rerun.err" &
pid=$!
sleep 3
kill -TERM "$pid"
code=0
wait "$pid" || code=$?
tried=$((tried + 1))
[ "$code" -eq 143 ] || fail "the interrupted re-run: exit $code, wanted 143: $(cat "$w/rerun.err")"
[ "$(sha256sum "$w/a/results-0-of-2.json")" = "$complete" ] || fail "an interrupted run replaced a complete shard file"
jq -e '.kvzbench.meta.interrupted == true' "$w/a/results-0-of-2.interrupted.json" >/dev/null ||
  fail "the interrupted run's results are not beside the complete file"
grep -q "results-0-of-2.json holds a complete result and is kept" "$w/rerun.err" || fail "no warning: $(cat "$w/rerun.err")"
expect 2 "results-0-of-2.interrupted.json was interrupted (meta.interrupted)" \
  "$kvz" merge "$w/a/results-0-of-2.interrupted.json" "$w/a/results-1-of-2.json" -o "$w/int.json"
[ ! -e "$w/int.json" ] || fail "a refused merge wrote its output"
# report joins runs without merge's sweep rules: it shows the interrupted run as such.
expect 0 "" "$kvz" report "$w/a/results-0-of-2.interrupted.json" "$w/a/results-1-of-2.json" --md "$w/int.md"
grep -q '\*\*interrupted\*\*' "$w/int.md" || fail "report of an interrupted run does not say so"

# A merge stopped by a signal: no OUT.tmp.* left, the previous output whole. Synthetic shards
# (bench/scripts/synth_results.py) make a merge that writes for a second or more; the signal is
# sent as soon as the temporary file appears.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
python3 "$here/../../../bench/scripts/synth_results.py" "$w/a/results-0-of-2.json" "$w/big" --cells 3000 --shards 2 \
  >/dev/null || fail "synth_results.py"
cp "$w/ab.json" "$w/big.json"
previous=$(sha256sum "$w/big.json")
landed=0
signals=(TERM INT HUP)
for trial in 1 2 3 4 5; do
  "$kvz" merge "$w"/big/results-*-of-2.json -o "$w/big.json" >/dev/null 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null && ! compgen -G "$w/big.json.tmp.*" >/dev/null; do sleep 0.005; done
  kill -"${signals[$((trial % 3))]}" "$pid" 2>/dev/null || true
  code=0
  { wait "$pid"; } 2>/dev/null || code=$?  # bash's "Hangup" notice is no output of ours
  tried=$((tried + 1))
  [ -z "$(compgen -G "$w/big.json.tmp.*")" ] || fail "merge stopped by a signal (exit $code) left $(ls "$w"/big.json.tmp.*)"
  if [ "$code" -gt 128 ]; then
    landed=$((landed + 1))
    [ "$(sha256sum "$w/big.json")" = "$previous" ] || fail "a stopped merge changed the previous output"
  else
    [ "$code" -eq 0 ] || fail "merge: exit $code"
    previous=$(sha256sum "$w/big.json")  # it finished first: this is now the output to keep
  fi
done
[ "$landed" -gt 0 ] || fail "no signal landed during a merge in 5 trials"
echo "one sweep: plans, sources, interruptions refused; complete shard kept; $landed of 5 stopped merges left nothing"
