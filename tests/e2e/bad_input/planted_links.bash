# Issue 35 item 2, shared directories are not a way in (sourced by bad_input.sh: $kvz, $work,
# expect, fail, $tried). A symbolic link inside --out-dir, or in any directory others can write
# (mode 1777 as /tmp, 0775, another user's), is never followed: refused before anything is read
# or measured (exit 2), its target untouched, a dangling one creating nothing where it points. A
# link the user made in a directory that is theirs alone is followed as documented. A FIFO output
# is refused before the run.
p=$work/planted
mkdir -p "$p/sweep" "$p/shared" "$p/group" "$p/mine"
chmod 1777 "$p/shared"
chmod 0775 "$p/group"
chmod 0700 "$p/mine"
q=(-q -d dbbench -b 4K -c lz4 --max-bytes 64K --time 0.01 --repetitions 1 --latency-calls 100)
"$kvz" run "${q[@]}" --json "$p/a.json" >/dev/null 2>&1 || fail "planted links: run a.json"
"$kvz" run "${q[@]}" --json "$p/b.json" >/dev/null 2>&1 || fail "planted links: run b.json"
echo "victim=1" >"$p/victim.conf"
before=$(sha256sum "$p/victim.conf" "$p/a.json" "$p/b.json")
never="never followed"

# --out-dir: the shard's own name planted as a link to a file outside, or dangling. Refused before
# the run (no measuring: the run would take its whole time first).
ln -s ../victim.conf "$p/sweep/results-0-of-2.json"
ln -s ../made-by-link.conf "$p/sweep/results-1-of-2.json"
expect 2 "$never" "$kvz" run "${q[@]}" --shard 0/2 --out-dir "$p/sweep"
grep -q "results-0-of-2.json: is a symbolic link in $p/sweep, which is an output directory jobs share" "$work/err" ||
  fail "--out-dir planted link: $(cat "$work/err")"
expect 2 "$never" "$kvz" run "${q[@]}" --shard 1/2 --out-dir "$p/sweep"
[ -L "$p/sweep/results-0-of-2.json" ] || fail "the planted link was removed: the refusal must leave it for its owner to see"
[ ! -e "$p/made-by-link.conf" ] || fail "a dangling planted link created a file where it points"

# The --out-dir itself, or run's default kvzbench-results, a link planted in a shared directory:
# the results would land where it points.
mkdir -p "$p/elsewhere"
ln -s ../elsewhere "$p/shared/sweep"
expect 2 "$never" "$kvz" run "${q[@]}" --shard 0/2 --out-dir "$p/shared/sweep"
ln -s ../elsewhere "$p/shared/kvzbench-results"
(cd "$p/shared" && expect 2 "kvzbench-results: is a symbolic link in" "$kvz" run "${q[@]}")
[ -z "$(ls -A "$p/elsewhere")" ] || fail "results were written through a planted directory link"

# merge -o, report -o/--md/--csv, check --junit/--markdown/--html, run --json through a link
# planted in a directory others can write (sticky 1777, group-writable 0775).
for dir in shared group; do
  ln -s ../victim.conf "$p/$dir/out"
  ln -s ../made-by-link.conf "$p/$dir/dangling"
  for out in "$p/$dir/out" "$p/$dir/dangling"; do
    expect 2 "$never" "$kvz" merge "$p/a.json" -o "$out"
    for flag in -o --md --csv; do expect 2 "$never" "$kvz" report "$p/a.json" "$flag" "$out"; done
    for flag in --junit --markdown --html; do
      expect 2 "$never" "$kvz" check --baseline "$p/a.json" "$p/b.json" "$flag" "$out"
    done
    expect 2 "$never" "$kvz" run "${q[@]}" --json "$out"
  done
done
grep -q "which others can write (mode 775)" "$work/err" || fail "group-writable: $(cat "$work/err")"
# A link of the user's own that leads to one planted in a shared directory stops there.
ln -s ../shared/out "$p/mine/chain.json"
expect 2 "leads to $p/mine/../shared/out" "$kvz" report "$p/a.json" --md "$p/mine/chain.json"
[ "$(sha256sum "$p/victim.conf" "$p/a.json" "$p/b.json")" = "$before" ] || fail "a planted link's target changed"
[ ! -e "$p/made-by-link.conf" ] || fail "a dangling planted link created a file where it points"

# blocks --out into a directory where a block's name is planted: the link is replaced, never followed.
printf 'corpus line\n%.0s' {1..200} >"$p/corpus.txt"
mkdir -p "$p/blocks"
ln -s ../victim.conf "$p/blocks/000000.blk"
expect 0 "" "$kvz" blocks -b 4K --out "$p/blocks" "$p/corpus.txt"
[ -f "$p/blocks/000000.blk" ] && [ ! -L "$p/blocks/000000.blk" ] || fail "blocks --out: the planted link is still there"
[ "$(sha256sum "$p/victim.conf" "$p/a.json" "$p/b.json")" = "$before" ] || fail "blocks --out followed a planted link"

# The user's own directory (mode 0700, theirs): an explicit link is followed, its target replaced,
# the link kept (util/files.h; README "Where results go").
echo old >"$p/mine/target.md"
ln -s target.md "$p/mine/link.md"
expect 0 "" "$kvz" report "$p/a.json" --md "$p/mine/link.md"
[ -L "$p/mine/link.md" ] || fail "a link in the user's own directory was replaced"
grep -q "^## kvzbench results" "$p/mine/target.md" || fail "the link's target in the user's own directory was not written"

# A FIFO is refused before the run: nothing is measured, nothing blocks at the end.
mkfifo "$p/fifo"
t0=$(date +%s%N)
expect 2 "is a FIFO" "$kvz" run -q -d dbbench -b 4K -c all --json "$p/fifo"
[ $((($(date +%s%N) - t0) / 1000000)) -lt 10000 ] || fail "a FIFO output was refused only after measuring"
expect 2 "is a FIFO" "$kvz" merge "$p/a.json" -o "$p/fifo"
expect 2 "is a FIFO" "$kvz" report "$p/a.json" --csv "$p/fifo"
expect 2 "is a FIFO" "$kvz" check --baseline "$p/a.json" "$p/b.json" --junit "$p/fifo"
[ -p "$p/fifo" ] || fail "the FIFO was replaced"
# A pipe is still a stream: standard output, /dev/stdout, /dev/fd/N.
"$kvz" report "$p/a.json" --csv /dev/stdout 2>/dev/null | grep -q "^id," || fail "report --csv /dev/stdout | ...: no CSV"
tried=$((tried + 1))
echo "planted links: none followed, every target's sha256 unchanged; FIFO outputs refused before the run"
