# Issue 35 item 1, no output over an input (sourced by bad_input.sh: $kvz, $work, expect, fail,
# $tried): every subcommand's every output flag, named as the input, another spelling of it, a
# symlink or a hard link to it, or standard output appended to it, is refused before anything is
# read (exit 2, one line naming both); two outputs naming one file are refused; every input's
# sha256 is the same after as before, and no refused output is created.
o=$work/over
mkdir -p "$o/s"
q=(-q -d dbbench -b 4K -c lz4 --max-bytes 64K --time 0.01 --repetitions 1 --latency-calls 100)
"$kvz" run "${q[@]}" --json "$o/a.json" >/dev/null 2>&1 || fail "outputs over inputs: run a.json"
"$kvz" run "${q[@]}" --json "$o/b.json" >/dev/null 2>&1 || fail "outputs over inputs: run b.json"
for i in 0 1; do
  "$kvz" run -q -d dbbench,json-docs -b 4K -c lz4 --max-bytes 64K --time 0.01 --repetitions 1 --latency-calls 100 \
    --shard "$i/2" --json "$o/s/s$i.json" >/dev/null 2>&1 || fail "outputs over inputs: shard $i"
done
ln -s a.json "$o/a-link.json"
ln "$o/b.json" "$o/b-hard.json"
printf 'corpus line\n%.0s' {1..200} >"$o/corpus.txt"
inputs=("$o/a.json" "$o/b.json" "$o/s/s0.json" "$o/s/s1.json" "$o/corpus.txt")
before=$(sha256sum "${inputs[@]}")
over="never replaces an input"

# check: --junit, --markdown (appends), --html; the baseline and the current run.
for flag in --junit --markdown --html; do
  for spelling in "$o/a.json" "$o/./a.json" "$o/s/../a.json" "$o/a-link.json"; do
    expect 2 "$over" "$kvz" check --baseline "$o/a.json" "$o/b.json" "$flag" "$spelling"
  done
  expect 2 "$over" "$kvz" check --baseline "$o/a.json" "$o/b.json" "$flag" "$o/b-hard.json"
done
grep -q -- "--html $o/b-hard.json is the same file as the input $o/b.json" "$work/err" ||
  fail "check --html over a hard link: the line does not name both: $(cat "$work/err")"
expect 2 "name the same file" "$kvz" check --baseline "$o/a.json" "$o/b.json" --junit "$o/x.out" --markdown "$o/x.out"
expect 2 "name the same file" "$kvz" check --baseline "$o/a.json" "$o/b.json" --html "$o/x.out" --junit "$o/./x.out"
# Standard output appended to the baseline (`>> a.json`) is the baseline.
code=0
"$kvz" check --baseline "$o/a.json" "$o/b.json" --junit - >>"$o/a.json" 2>"$work/err" || code=$?
tried=$((tried + 1))
[ "$code" -eq 2 ] && grep -q "$over" "$work/err" || fail "check --junit - >> the baseline: exit $code: $(cat "$work/err")"

# report: -o/--html, --md, --csv.
for flag in -o --md --csv; do
  expect 2 "$over" "$kvz" report "$o/a.json" "$flag" "$o/a.json"
  expect 2 "$over" "$kvz" report "$o/a.json" "$flag" "$o/s/../a.json"
  expect 2 "$over" "$kvz" report "$o/a.json" "$flag" "$o/a-link.json"
  expect 2 "$over" "$kvz" report "$o/b.json" "$flag" "$o/b-hard.json"
done
expect 2 "name the same file" "$kvz" report "$o/a.json" --md "$o/x.out" --csv "$o/x.out"
expect 2 "$over" "$kvz" report "$o/a.json" "$o/b.json" --csv "$o/b.json"

# merge -o: a shard, spelled three ways, a link and a hard link to it; in place.
ln -s s1.json "$o/s/s1-link.json"
ln "$o/s/s1.json" "$o/s1-hard.json"
relative=./$(realpath --relative-to=. "$o/s/s1.json")
for target in "$o/s/s1.json" "$o/s/../s/s1.json" "$relative" "$o/s/s1-link.json" "$o/s1-hard.json"; do
  expect 2 "$over" "$kvz" merge "$o/s/s0.json" "$o/s/s1.json" -o "$target"
done
expect 2 "$over" "$kvz" merge "$o/a.json" -o "$o/a.json"

# blocks --out: the input's own directory, or one holding it.
expect 2 "holds the input" "$kvz" blocks -b 4K --out "$o" "$o/corpus.txt"
expect 2 "holds the input" "$kvz" blocks -b 4K --out "$o/s/.." "$o/corpus.txt"
mkdir -p "$o/db"
cp "$o/corpus.txt" "$o/db/"
expect 2 "is inside the input" "$kvz" blocks -b 4K --out "$o/db/blocks" "$o/db"

# run (it refused before: the rule is now the one above).
expect 2 "$over" "$kvz" run -q -c lz4 -b 4K --time 0.01 --repetitions 1 --csv "$o/./corpus.txt" "$o/corpus.txt"
expect 2 "$over" "$kvz" run "${q[@]}" --json "$o/a-link.json" --check "$o/a.json"

[ "$(sha256sum "${inputs[@]}")" = "$before" ] || fail "an input changed: $(sha256sum "${inputs[@]}")"
[ ! -e "$o/x.out" ] || fail "a refused output was created"
[ -z "$(find "$o" -name '*.tmp.*')" ] || fail "a temporary file was left: $(find "$o" -name '*.tmp.*')"
echo "outputs over inputs: refused, every input's sha256 unchanged"
