# Issue 35 item 3, names cannot inject (sourced by bad_input.sh: $kvz, $work, expect, fail,
# $tried). Corpus files, a Cassandra keyspace and table, and KVZ_NODE_NAME named like the third
# attack's (a terminal escape sequence, a newline and a fake passing gate, a spreadsheet formula,
# a pipe with an HTML tag, a javascript: link) through run, merge, report and check, every format:
# the console shows them escaped (no ESC, no line of theirs), CSV neutralises the formula, Markdown
# and HTML pass no tag or link, JUnit stays well-formed XML.
fixtures=${KVZ_FIXTURES:-${KVZ_CORPORA:?KVZ_CORPORA must name the corpora directory}/../fixtures/stores}
n=$work/names
mkdir -p "$n"
fake=$'kvzbench check: PASS (0 of 0 cells failed)'
names=($'evil\e]0;owned\a\e[2J.txt' $'cf\n'"$fake" "=cmd|' -C calc'!A0" 'a|b<img src=x onerror=alert(1)>'
  '[x](javascript:alert(1))')
q=(-q -c lz4 -b 4K --time 0.01 --repetitions 1 --latency-calls 100)

# clean FILE...: no ESC or other control byte but newlines, no line of the fake gate's.
clean() {
  local f
  for f in "$@"; do
    ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$f" || fail "$f: a control character from a name: $(head -c 600 "$f")"
    ! grep -q "^$fake" "$f" || fail "$f: a name started a line: $(grep -n "^$fake" "$f")"
  done
}
# safe_files PREFIX: the CSV, Markdown and HTML written under PREFIX.
safe_files() {
  clean "$1.csv" "$1.md" "$1.html"
  ! grep -qF ',=cmd' "$1.csv" || fail "$1.csv: a formula cell left as is"
  ! grep -q '<img' "$1.md" "$1.html" || fail "$1: an HTML tag from a name passed"
  ! grep -q '[^\\]\](javascript' "$1.md" || fail "$1.md: a javascript: link from a name passed"
}

# A Cassandra table whose keyspace and table directory are hostile, on a host named hostile too.
table=$n/data/$'ks\e]0;owned\a'/$'t\n'"$fake"-5a1c395e0b4511efa8e7a1b2c3d4e5f6
mkdir -p "$table"
cp "$fixtures/cassandra/legacy_nb_clust"/* "$table/"
for i in 0 1; do
  expect 0 "" env KVZ_NODE_NAME=$'node\e[2J'"$i"$'\n'"$fake" "$kvz" run "${q[@]}" -l as-stored "$table" \
    --json "$n/host$i.json" --csv "$n/host$i.csv" --md "$n/host$i.md" --html "$n/host$i.html"
  clean "$work/out" "$work/err"
  safe_files "$n/host$i"
done
expect 0 "" "$kvz" merge "$n/host0.json" "$n/host1.json" -o "$n/fleet.json"
clean "$work/out" "$work/err"
grep -q '^fleet answer' "$work/out" || fail "the fleet merge printed no fleet answer: $(head -3 "$work/out")"
grep -qF 'ks\x1b]0;owned\x07.t\n'"$fake" <(unwrapped "$work/out") || fail "the table's name is not shown escaped: $(cat "$work/out")"
expect 0 "" "$kvz" report "$n/fleet.json" --csv "$n/fleet.csv" --md "$n/fleet.md" --html "$n/fleet.html"
clean "$work/out" "$work/err"
safe_files "$n/fleet"

# A RocksDB column family named to fake a gate, in a DB directory named with an escape sequence,
# written by RocksDB's own ldb (rocksdb-tools): the family's name comes from the SST's properties.
db=$n/$'db\e[2J'
cf=$'cf\e[2J\n'"$fake"
seq 1 400 | awk '{ printf "k%06d ==> value %d of the family\n", $1, $1 }' >"$n/load.txt"
ldb --db="$db" --create_if_missing put seed value >/dev/null
ldb --db="$db" create_column_family "$cf" >/dev/null
ldb --db="$db" --column_family="$cf" load <"$n/load.txt" >/dev/null
ldb --db="$db" --column_family="$cf" compact >/dev/null
expect 0 "" "$kvz" run "${q[@]}" "$db" --json "$n/cf.json" --csv "$n/cf.csv" --md "$n/cf.md" --html "$n/cf.html"
clean "$work/out" "$work/err"
safe_files "$n/cf"
grep -qF 'db\x1b[2J:cf\x1b[2J\n'"$fake" <(unwrapped "$work/out") || fail "the column family is not shown escaped: $(cat "$work/out")"

# Corpus files named each way.
for i in "${!names[@]}"; do
  printf '{"id": %d, "v": "value %d"}\n' $(seq 1 400 | sed 'p') >"$n/${names[$i]}"
  expect 0 "" "$kvz" run "${q[@]}" "$n/${names[$i]}" --json "$n/c$i.json" --csv "$n/c$i.csv" --md "$n/c$i.md" \
    --html "$n/c$i.html"
  clean "$work/out" "$work/err"
  safe_files "$n/c$i"
  expect 0 "" "$kvz" report "$n/c$i.json" --csv "$n/r$i.csv" --md "$n/r$i.md" --html "$n/r$i.html"
  safe_files "$n/r$i"
  expect 0 "" "$kvz" check --baseline "$n/c$i.json" "$n/c$i.json" --no-speed --junit "$n/c$i.xml" \
    --markdown "$n/c$i.check.md"
  clean "$work/out" "$work/err" "$n/c$i.check.md"
  xmllint --noout "$n/c$i.xml" || fail "check --junit with a hostile name is not well-formed XML"
  ! grep -q '<img\|[^\\]\](javascript' "$n/c$i.check.md" || fail "check --markdown passed a tag or a link"
done
grep -qF "\"'=cmd|' -C calc'!A0\"" "$n/c2.csv" || fail "the formula name is not quoted after a ': $(head -2 "$n/c2.csv")"
echo "hostile names: escaped in the console, CSV, Markdown, HTML and JUnit (${#names[@]} file names, a table, 2 hosts)"
