#!/usr/bin/env bash
# `kvzbench run DBDIR` on a live multi-level RocksDB (README "The DB as it stands"): a DB that
# RocksDB's own `ldb load` filled with small memtables and files, so flushes and compactions
# leave files on several levels. Per level, the console and the JSON give the files and bytes
# RocksDB's own reading of its MANIFEST gives (`ldb manifest_dump`, without opening the DB, so no
# compaction starts; each file's size checked by stat), the codec in use,
# the candidates on the level's blocks and a plan with its compression_per_level line. A damaged
# MANIFEST: one line, and the tables read one by one.
# The content checks read whole lines: COLUMNS=1000 (the wrapping to a terminal is e2e_console_width's).
source "$(dirname "$0")/common.bash"
command -v ldb >/dev/null || fail "ldb not found: the README's test command installs rocksdb-tools"
corpus=${KVZ_CORPORA:?KVZ_CORPORA must name the corpora directory}/logs/apache_access_logs.log
head -12000 "$corpus" | awk '{ printf "k%08d ==> %s\n", (NR * 7919) % 12000, $0 }' >"$work/load.txt"
ldb --db="$work/db" --create_if_missing --write_buffer_size=65536 --file_size=65536 --compression_type=lz4 \
  load <"$work/load.txt" >/dev/null
# RocksDB's account: level -> files, and their sizes summed (each the file's size on disk).
ldb manifest_dump --path="$(ls "$work"/db/MANIFEST-*)" >"$work/live"
declare -A files bytes
level=
while read -r line; do
  case $line in
    "--- level "*) level=${line#--- level }; level=${level%% *} ;;
    [0-9]*:[0-9]*\[*)
      number=${line%%:*} size=${line#*:} size=${size%%[*}
      [ "$(stat -c %s "$(printf '%s/db/%06d.sst' "$work" "$number")")" = "$size" ] || fail "file $number: not $size B"
      files[$level]=$((${files[$level]:-0} + 1)) bytes[$level]=$((${bytes[$level]:-0} + size)) ;;
  esac
done <"$work/live"
[ "${#files[@]}" -ge 2 ] || fail "expected files on two levels or more: $(cat "$work/live")"

COLUMNS=1000 "$kvz" run "$work/db" -c lz4/zstd:3 --time 0.02 --repetitions 2 --json "$work/out.json" >"$work/out" 2>"$work/err" ||
  { cat "$work/err"; fail "kvzbench run DBDIR failed"; }
# No warnings on a sound DB (a level too small for ZDICT is skipped as RocksDB's own call would be).
! grep -v ": skipped: RocksDB's per-file method writes no dictionary" "$work/err" | grep -q . ||
  fail "warnings on a sound DB: $(cat "$work/err")"
grep -q "^the DB as it stands, per level" "$work/out" || fail "no per-level view: $(cat "$work/out")"
for l in "${!files[@]}"; do
  entry=$(jq -c --arg n "db:default/L$l" '.kvzbench.meta.corpora[] | select(.name == $n)' "$work/out.json")
  [ -n "$entry" ] || fail "no source for L$l"
  [ "$(jq '.level' <<<"$entry")" = "$l" ] || fail "L$l: level $(jq '.level' <<<"$entry")"
  [ "$(jq '.files' <<<"$entry")" = "${files[$l]}" ] || fail "L$l: $(jq '.files' <<<"$entry") files, RocksDB ${files[$l]}"
  [ "$(jq '.bytes' <<<"$entry")" = "${bytes[$l]}" ] || fail "L$l: $(jq '.bytes' <<<"$entry") B, stat ${bytes[$l]}"
  [ "$(jq -c '.codecs' <<<"$entry")" = "{\"lz4\":${files[$l]}}" ] || fail "L$l codecs: $(jq -c '.codecs' <<<"$entry")"
  # The console's level line: files, exact bytes, the codec in use, the best candidate on its blocks.
  grep -A1 -E "^  L$l +${files[$l]} files? +${bytes[$l]} B  lz4 1:stream:fresh$" "$work/out" |
    grep -Eq "^       (→ .+ saves|the fewest)" || fail "no console lines for L$l: $(grep -A1 '^  L' "$work/out")"
  # Its own block set: the level's blocks as stored, every candidate measured on them.
  [ "$(jq --arg n "db:default/L$l" '[.kvzbench.cells[] | select(.key.source == $n)] | length' "$work/out.json")" -ge 3 ] ||
    fail "L$l: fewer than memcpy, lz4 and zstd 3 cells"
done
grep -q "^    rocksdb: compression_per_level=" "$work/out" || fail "no plan line: $(sed -n '/DB as it stands/,$p' "$work/out")"
# The DB's total on disk is its files' sizes: the total per table and the per-level view's heading.
total=0
for l in "${!bytes[@]}"; do total=$((total + bytes[$l])); done
grep -Eq "^  lz4 1:stream:fresh \* +$total +on disk now, data blocks [0-9.]+ %$" "$work/out" ||
  fail "total per table is not the files' $total B: $(sed -n '/^total per table/,/^$/p' "$work/out")"
grep -Eq ":default \(rocksdb\): ${#files[@]} levels, [0-9]+ files, $total B on disk" "$work/out" || fail "no DB heading of $total B"

# A fleet survey: the same DB measured as two hosts, merged: each level summed across them.
for node in node1 node2; do
  COLUMNS=1000 KVZ_NODE_NAME=$node "$kvz" run "$work/db" -c lz4 --time 0.01 --repetitions 1 --json "$work/$node.json" >/dev/null 2>&1 ||
    fail "run as $node"
done
COLUMNS=1000 "$kvz" merge "$work/node1.json" "$work/node2.json" -o "$work/merged.json" >"$work/merged" 2>&1 || fail "merge: $(cat "$work/merged")"
for l in "${!files[@]}"; do
  grep -Eq "^  L$l +$((2 * files[$l])) files +$((2 * bytes[$l])) B " "$work/merged" ||
    fail "merged L$l is not both hosts' $((2 * bytes[$l])) B: $(sed -n '/DB as it stands/,$p' "$work/merged")"
done

# A damaged MANIFEST: one line, the tables one by one (no levels).
cp -r "$work/db" "$work/broken"
manifest=$(ls "$work"/broken/MANIFEST-*)
printf '\x7f' | dd of="$manifest" bs=1 seek=20 conv=notrunc 2>/dev/null
"$kvz" run "$work/broken" -c lz4 --time 0.01 --repetitions 1 --json "$work/broken.json" >"$work/out2" 2>"$work/err2" ||
  { cat "$work/err2"; fail "run on a damaged MANIFEST failed"; }
# One line on the MANIFEST. A table read alone may be too small for ZDICT, as RocksDB's own call
# finds (which tables exist depends on where the load's background compactions stopped): the only
# other lines allowed are those cells' skips.
[ "$(grep -c "MANIFEST" "$work/err2")" -eq 1 ] && grep -q "read one by one, levels unknown" "$work/err2" ||
  fail "expected one line on a damaged MANIFEST: $(cat "$work/err2")"
! grep -v "MANIFEST" "$work/err2" | grep -v ": skipped: RocksDB's per-file method writes no dictionary" | grep -q . ||
  fail "unexpected lines on a damaged MANIFEST: $(cat "$work/err2")"
[ "$(jq '[.kvzbench.meta.corpora[] | select(.level != null)] | length' "$work/broken.json")" -eq 0 ] ||
  fail "levels from a damaged MANIFEST"
# A live table cut short: refused with one line naming it, as a table named alone is (exit 2).
cp -r "$work/db" "$work/cut"
table=$(ls "$work"/cut/*.sst | head -1)
truncate -s 3000 "$table"
code=0
"$kvz" run "$work/cut" -c lz4 --time 0.01 --repetitions 1 >"$work/out3" 2>"$work/err3" || code=$?
[ "$code" -eq 2 ] && [ "$(wc -l <"$work/err3")" -eq 1 ] && grep -q "$(basename "$table"): offset .*no table footer" "$work/err3" ||
  fail "a cut live table: exit $code, $(cat "$work/err3")"
echo "db_levels: OK (${#files[@]} levels, as RocksDB's metadata lists them)"
