# shellcheck shell=bash disable=SC2154 # $kvz, $work: set by bad_input.sh, which sources this
# Issue 27 item 7: a store file whose structure is broken (cut short, no footer, a Data.db whose
# CompressionInfo.db is another table's) is refused with exit 2 and one line naming what is
# missing and `-r bytes`, the way to measure its raw bytes; it is never read as a corpus. Each
# case is a damaged copy of a real fixture (shared/fixtures/stores), made in $work.
fixtures=${KVZ_FIXTURES:-${KVZ_CORPORA:?KVZ_CORPORA must name the corpora directory}/../fixtures/stores}
broken=$work/broken
mkdir -p "$broken"
broken_run=(run -q -c snappy -b 4K --time 0.01 --repetitions 1 --latency-calls 100)
hint="; to measure its raw bytes: -r bytes"
# refused FILE PATTERN: exit 2, one line naming FILE, what is missing (PATTERN) and -r bytes.
refused() {
  expect 2 "$2" "$kvz" "${broken_run[@]}" "$1"
  grep -qF -- "$hint" "$work/err" || fail "$1: the error does not name -r bytes"
  grep -qF -- "$1" "$work/err" || fail "$1: the error does not name the file"
  [ "$(wc -l <"$work/err")" -eq 1 ] || { cat "$work/err"; fail "not one line: $1"; }
}
# cut SRC DST BYTES: the first BYTES of SRC as DST.
cut_copy() { head -c "$3" "$1" >"$2"; }

sst=$fixtures/rocksdb/pebble_h_snappy/h.sst
cut_copy "$sst" "$broken/000013.sst" 5000
refused "$broken/000013.sst" "offset 4992: no table footer"
cut_copy "$fixtures/leveldb/golang_h_snappy/h.ldb" "$broken/000005.ldb" 3000
refused "$broken/000005.ldb" "offset 2992: no table footer"
# The whole table with its footer's magic overwritten: no footer, though nothing is cut.
cp "$sst" "$broken/nofooter.sst" && chmod u+w "$broken/nofooter.sst"
printf 'xxxxxxxx' | dd of="$broken/nofooter.sst" bs=1 seek=$(($(stat -c %s "$sst") - 8)) conv=notrunc 2>/dev/null
refused "$broken/nofooter.sst" "no table footer"
# A RocksDB directory holding a cut table: refused, not skipped.
mkdir -p "$broken/db" && cp "$broken/000013.sst" "$broken/db/"
refused "$broken/db" "000013.sst: offset 4992: no table footer"

# An HFile cut short, under HBase's own kind of name (no extension): its first block's magic
# says HFile.
hfile=$fixtures/hbase/hudi_1_0_hbase_2_4_9_16KB_NONE_5000/hudi_1_0_hbase_2_4_9_16KB_NONE_5000.hfile
cut_copy "$hfile" "$broken/8e8ab58dcf39412da19833fcd8f687ab" 20000
refused "$broken/8e8ab58dcf39412da19833fcd8f687ab" "no HFile trailer"
cut_copy "$hfile" "$broken/cut.hfile" 20000
refused "$broken/cut.hfile" "no HFile trailer"

# Cassandra: a cut Data.db, one whose CompressionInfo.db is another table's, and one without it.
table=$fixtures/cassandra/legacy_nb_clust
for t in cut other alone; do mkdir -p "$broken/$t" && cp "$table"/nb-1-big-* "$broken/$t/" && chmod u+w "$broken/$t"/*; done
cut_copy "$table/nb-1-big-Data.db" "$broken/cut/nb-1-big-Data.db" 3000
refused "$broken/cut/nb-1-big-Data.db" "chunk 7 runs outside the file"
cp "$fixtures/cassandra/legacy_nb_clust_counter/nb-1-big-CompressionInfo.db" "$broken/other/"
refused "$broken/other/nb-1-big-Data.db" "chunk 0 fails its crc32 checksum"
rm "$broken/alone/nb-1-big-CompressionInfo.db"
refused "$broken/alone/nb-1-big-Data.db" "no nb-1-big-CompressionInfo.db beside it"

# The way out the line names: -r bytes measures the file's bytes as they are on disk, under
# the raw layout, with no store profile chosen from the file.
expect 0 "" "$kvz" "${broken_run[@]}" -r bytes -l raw --json "$broken/bytes.json" "$broken/000013.sst"
[ "$(jq '[.kvzbench.cells[] | select(.key.codec == "snappy")][0].input_bytes' "$broken/bytes.json")" = 5000 ] ||
  fail "-r bytes on a cut table: snappy's input is not the file's 5000 bytes"
expect 0 "" "$kvz" "${broken_run[@]}" -r bytes --json "$broken/bytes2.json" "$sst"
[ "$(jq '[.kvzbench.cells[] | select(.key.codec == "snappy")][0].input_bytes' "$broken/bytes2.json")" = "$(stat -c %s "$sst")" ] ||
  fail "-r bytes on a whole table: snappy's input is not the file's bytes"
