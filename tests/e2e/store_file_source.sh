#!/usr/bin/env bash
# A Cassandra table directory as a source (shared/fixtures/stores, written by Cassandra's own
# tests): under --profile cassandra at the file's own codec and chunk size, the store table's
# stored bytes are the Data.db's size on disk, exactly; the console names the file; a directory
# without store files and --max-bytes behave as documented.
source "$(dirname "$0")/common.bash"
# What the console says, not how it is laid out: a terminal wide enough that no line wraps
# (tests/e2e/console_width.sh holds every line to 100 columns).
export COLUMNS=1000
fixtures=${KVZ_FIXTURES:-${KVZ_CORPORA:?KVZ_CORPORA must name the corpora directory}/../fixtures/stores}
table=$fixtures/cassandra/legacy_nb_clust
"$kvz" run --profile cassandra -c lz4 -b 16K "$table" --time 0.02 --repetitions 3 --json "$work/out.json" \
  >"$work/out" 2>"$work/err" || { cat "$work/err"; fail "run on a Cassandra table directory failed"; }
on_disk=$(stat -c %s "$table/nb-1-big-Data.db")
stored=$(jq '[.kvzbench.cells[] | select(.key.codec == "lz4" and .key.layout == "raw")][0].stored_bytes' "$work/out.json")
[ "$stored" = "$on_disk" ] || fail "lz4 at 16K stores $stored bytes, the real Data.db is $on_disk"
# The chunks as stored: the current row (the file's lz4) is the same bytes.
as_stored=$(jq '[.kvzbench.cells[] | select(.current and .key.layout == "as-stored")][0].stored_bytes' "$work/out.json")
[ "$as_stored" = "$on_disk" ] || fail "the as-stored current row stores $as_stored bytes, the real Data.db is $on_disk"
grep -q "^store file nb-1-big-Data.db: nb Data.db (lz4): LZ4Compressor, 21 chunks of 16K, $on_disk bytes on disk" \
  "$work/out" || fail "the console does not name the store file: $(grep -m1 'store file' "$work/out")"
jq -e '.kvzbench.meta.corpora[0].detail | startswith("nb Data.db (lz4)")' "$work/out.json" >/dev/null ||
  fail "the result's meta lacks the store file's detail"
"$kvz" run --profile cassandra -c lz4 -b 16K "$table" --max-bytes 40K --time 0.02 --repetitions 3 \
  --json "$work/cut.json" >"$work/cut" 2>&1 || { cat "$work/cut"; fail "--max-bytes run failed"; }
grep -q "the first 3 chunks read (--max-bytes)" "$work/cut" || fail "--max-bytes: $(grep -m1 'store file' "$work/cut")"
code=0
"$kvz" run "$fixtures/cassandra" >"$work/none" 2>&1 || code=$?
[ "$code" -eq 2 ] || fail "a directory without store files: exit $code"
[ "$(wc -l <"$work/none")" -eq 1 ] || fail "not one line: $(cat "$work/none")"
# An HFile v1 (HBase 0.9x, no block headers or checksums): read through its data index.
"$kvz" run "$fixtures/hbase/hfile_v1_gz_8e8ab58" -c zstd:3 --time 0.02 --repetitions 3 >"$work/v1" 2>&1 ||
  { cat "$work/v1"; fail "an HFile v1 was not read"; }
grep -q "HFile v1.0 (GZ): 2 data blocks, 84698 bytes on disk for 90095 raw; 1000 cells" "$work/v1" ||
  fail "an HFile v1: $(grep -m1 'store file' "$work/v1")"
# A RocksDB table (written by RocksDB's SstFileWriter for pebble's tests, 2 KiB blocks): its
# records re-blocked by the rocksdb layout at 2K give back the file's very blocks: memcpy's
# stored bytes are the data block bytes sst_dump reports for the uncompressed twin file.
# (Given as its directory, as a RocksDB DB directory would be: the tables are found by magic.)
"$kvz" run --profile rocksdb -c memcpy/snappy -b 2K "$fixtures/rocksdb/pebble_h_snappy" --time 0.02 --repetitions 3 --json "$work/sst.json" \
  >"$work/sst" 2>"$work/err" || { cat "$work/err"; fail "run on an SST failed"; }
grep -q "^store file h.sst: rocksdb table format_version 2 (snappy): 14 data blocks, 13913 bytes on disk" \
  "$work/sst" || fail "the console does not name the SST: $(grep -m1 'store file' "$work/sst")"
twin=$(sst_dump --file="$fixtures/rocksdb/pebble_h_none/h.no-compression.sst" --show_properties 2>/dev/null |
  sed -n 's/^ *data block size: //p')
raw=$(jq '[.kvzbench.cells[] | select(.key.codec == "memcpy" and .key.layout == "rocksdb")][0].stored_bytes' "$work/sst.json")
[ -n "$twin" ] && [ "$raw" = "$twin" ] || fail "memcpy at 2K stores $raw bytes; the uncompressed file's data blocks: $twin"
# An HBase column family directory (an HFile HBase 2.4.9 wrote for Apache Hudi's tests): its
# cells are the records, the console names the file.
"$kvz" run --profile hbase -c zstd:3 "$fixtures/hbase/hudi_1_0_hbase_2_4_9_16KB_GZ_20000" --time 0.02 --repetitions 3 \
  --json "$work/hfile.json" >"$work/hfile" 2>"$work/err" || { cat "$work/err"; fail "run on an HFile failed"; }
grep -q "HFile v3.3 (GZ): 72 data blocks, 99900 bytes on disk for 1180000 raw; 20000 cells" "$work/hfile" ||
  fail "the console does not name the HFile: $(grep -m1 'store file' "$work/hfile")"
echo "store_file_source: OK ($stored bytes = Data.db; $raw bytes = the SST's uncompressed data blocks)"
