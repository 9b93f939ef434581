#!/usr/bin/env bash
# `kvzbench run path/to/rocksdb-dir` as a new user types it (README "Benchmark your own data"):
# a DB written by RocksDB's own `ldb` (rocksdb-tools, LZ4), no options. The file's blocks as
# stored, under the rocksdb profile it infers; the row right after memcpy is the file's own
# codec (marked *) and stores exactly the data-block bytes sst_dump reports; every other row is
# a switch from it. With -b, the records are re-blocked too.
source "$(dirname "$0")/common.bash"
command -v ldb >/dev/null || fail "ldb not found: the README's test command installs rocksdb-tools"
corpus=${KVZ_CORPORA:?KVZ_CORPORA must name the corpora directory}/logs/apache_access_logs.log
head -4000 "$corpus" | awk '{ printf "k%08d ==> %s\n", NR, $0 }' >"$work/load.txt"
ldb --db="$work/db" --create_if_missing --compression_type=lz4 load <"$work/load.txt" >/dev/null
ldb --db="$work/db" --compression_type=lz4 compact >/dev/null
sst=$(ls "$work"/db/*.sst)
[ "$(echo "$sst" | wc -l)" -eq 1 ] || fail "expected one SST after compact: $sst"
data_bytes=$(sst_dump --file="$sst" --show_properties 2>/dev/null | sed -n 's/^ *data block size: //p')
blocks=$(sst_dump --file="$sst" --show_properties 2>/dev/null | sed -n 's/^ *# data blocks: //p')

"$kvz" run "$work/db" --json "$work/out.json" >"$work/out" 2>"$work/err" ||
  { cat "$work/err"; fail "kvzbench run DIR failed"; }
# The DB's one level is the source (its MANIFEST: the compacted table on L1).
[ "$(jq -r '.kvzbench.meta.corpora[0].name' "$work/out.json")" = "db:default/L1" ] ||
  fail "source $(jq -r '.kvzbench.meta.corpora[0].name' "$work/out.json"), not the DB's L1"
grep -q "^store file db:default/L1: rocksdb default/L1 (lz4 ×1): 1 file, $(stat -c %s "$sst") bytes on disk (data blocks $data_bytes); $blocks data blocks" \
  <(unwrapped "$work/out") ||
  fail "no level line: $(grep -m1 '^store file' "$work/out")"
cur=$(jq -c '[.kvzbench.cells[] | select(.current)]' "$work/out.json")
[ "$(jq length <<<"$cur")" -eq 1 ] || fail "expected one current row: $cur"
[ "$(jq -r '.[0].key.layout + " " + .[0].key.profile + " " + .[0].key.codec + " " + .[0].key.params' <<<"$cur")" = \
  "as-stored rocksdb lz4 1:stream:fresh" ] || fail "current row: $cur"
[ "$(jq '.[0].stored_bytes' <<<"$cur")" = "$data_bytes" ] || fail "current row stores $(jq '.[0].stored_bytes' <<<"$cur"), sst_dump: $data_bytes"
[ "$(jq '.[0].on_disk_bytes' <<<"$cur")" = "$data_bytes" ] || fail "file bytes $(jq '.[0].on_disk_bytes' <<<"$cur") != $data_bytes"
[ "$(jq '.[0].blocks' <<<"$cur")" = "$blocks" ] || fail "blocks $(jq '.[0].blocks' <<<"$cur") != $blocks"
# The console: the row after memcpy is the file's codec, then the switches from it.
table=$(sed -n '/^== .*as-stored/,/^$/p' "$work/out")
[ "$(grep -A1 '^memcpy ' <<<"$table" | sed -n 2p | awk '{ print $1, $2, $3 }')" = "lz4 1:stream:fresh *" ] ||
  fail "row after memcpy: $table"
file_bytes=$(stat -c %s "$sst")
# The console's lines within 100 columns: a line continued four columns in is joined again.
joined=$(awk '/^    [^ ]/ && prev != "" { sub(/^ +/, " "); prev = prev $0; next } { if (NR > 1) print prev; prev = $0 }
              END { print prev }' "$work/out")
grep -q "^\* the file's own codec, lz4 1:stream:fresh: $data_bytes B on disk; measured here $data_bytes B (exact); the whole file $file_bytes B$" \
  <<<"$joined" || fail "no baseline line: $(grep -m1 "file's own" <<<"$joined")"
grep -q "^switching from lz4 1:stream:fresh" <<<"$joined" || fail "no switches"
switches=$(sed -n '/^switching from/,/^$/p' <<<"$joined" | grep -c '^  [^ ]')
others=$(jq '[.kvzbench.cells[] | select(.key.layout == "as-stored" and (.current | not) and (.reference | not))] | length' "$work/out.json")
[ "$switches" -eq "$others" ] || fail "$switches switch lines for $others other rows"
# With -b: the blocks as stored and the records re-blocked by the rocksdb layout.
"$kvz" run "$work/db" -b 16K -c zstd:3 --time 0.02 --repetitions 3 --json "$work/b.json" >/dev/null 2>"$work/err" ||
  { cat "$work/err"; fail "run DIR -b 16K failed"; }
[ "$(jq -c '[.kvzbench.cells[].key | .layout + ":" + (.block_size | tostring)] | unique' "$work/b.json")" = \
  '["as-stored:4096","rocksdb:16384"]' ] || fail "block sets: $(jq -c '[.kvzbench.cells[].key.layout] | unique' "$work/b.json")"
# As-stored is a store file's: a corpus file gets one line and exit 2.
code=0
"$kvz" run -l as-stored -r lines "$corpus" >"$work/bad" 2>&1 || code=$?
[ "$code" -eq 2 ] && [ "$(wc -l <"$work/bad")" -eq 1 ] || fail "as-stored on a corpus file: exit $code, $(cat "$work/bad")"
echo "rocksdb_dir_as_stored: OK ($blocks blocks, current row $data_bytes B = sst_dump's data block size)"
