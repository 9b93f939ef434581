# Issue 24, inputs and loaders (sourced by bad_input.sh: expect, $kvz, $work, fail, $tried):
# counts that are true (every input line not read is counted and said), store
# options and result files that are nonsense refused with exit 2 and one line, and messages
# that fit the case, their suggested fixes tried.
fixtures=${KVZ_FIXTURES:-${KVZ_CORPORA:?KVZ_CORPORA must name the corpora directory}/../fixtures/stores}
quick=(-q -c lz4 -b 4K --time 0.01 --repetitions 1 --latency-calls 100)

# 1. Dropped lines are counted: a dump of ldb scan lines, every other one without --hex.
python3 -c "
for i in range(50):
    print('0x6B%04X : 0x76616C7565' % i)
    print('k%d : value' % i)" >"$work/mixed.hex"
expect 0 "" "$kvz" blocks --stats -r kv-hex "$work/mixed.hex"
grep -q "kv-hex: 50 of 100 lines are not hex key/value pairs (first at line 2): skipped" "$work/err" ||
  { cat "$work/err"; fail "kv-hex: the unread lines are not counted"; }
grep -q "50 records" "$work/out" || fail "kv-hex: not 50 records: $(head -1 "$work/out")"
printf 'a\t1\n\nb\t2\nno tab\n' >"$work/blank.kv"
expect 0 "" "$kvz" blocks --stats -r kv "$work/blank.kv"
grep -q "kv: 1 blank lines: skipped" "$work/err" || fail "kv: a blank line dropped without a count"
grep -q "kv: 1 of 3 lines have no tab" "$work/err" || fail "kv: a line without a tab not counted"
printf '{"a":1}\n\n{"a":2}\n' >"$work/blank.jsonl"
expect 0 "" "$kvz" blocks --stats -r jsonl "$work/blank.jsonl"
grep -q "jsonl: 1 blank lines: skipped" "$work/err" || fail "jsonl: a blank line dropped without a count"

# 2. A table's own options, validated as the store does: a ScyllaDB zstd table (level 5) with its
# compression_level rewritten.
zstd_table=$fixtures/scylladb/zstd-multiple_chunks-mc
for level in abc 99999999999 -200000; do
  mkdir -p "$work/level$level"
  cp "$zstd_table/mc-1-big-Data.db" "$work/level$level/"
  python3 - "$zstd_table/mc-1-big-CompressionInfo.db" "$work/level$level/mc-1-big-CompressionInfo.db" "$level" <<'EOF'
import struct, sys
info = open(sys.argv[1], "rb").read()
pos = 2 + struct.unpack(">H", info[:2])[0]
count = struct.unpack(">i", info[pos:pos + 4])[0]
end = pos + 4
for _ in range(2 * count):
    end += 2 + struct.unpack(">H", info[end:end + 2])[0]
text = lambda s: struct.pack(">H", len(s)) + s.encode()
opts = struct.pack(">i", 1) + text("compression_level") + text(sys.argv[3])
open(sys.argv[2], "wb").write(info[:pos] + opts + info[end:])
EOF
  expect 2 "compression_level '$level' is not a level of ZstdCompressor" "$kvz" run "${quick[@]}" "$work/level$level"
done
# The untouched table reads: the refusals above are the option's, not the copy's.
expect 0 "" "$kvz" blocks --stats -l as-stored "$zstd_table"
# An HFile whose trailer names codec 2^32 + 1: it wrapped to 1 (GZ) and read as if it were.
hfile=$(find "$fixtures/hbase/hudi_1_0_hbase_2_4_9_16KB_GZ_20000" -type f | head -1)
python3 - "$hfile" "$work/codec.hfile" <<'EOF'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
t = len(d) - 4096
n = d[t + 8]
pb = d[t + 9:t + 9 + n]
at = pb.index(b"\x60\x01")  # field 12 (compressionCodec) = 1, GZ
pb[at:at + 2] = b"\x60\x81\x80\x80\x80\x10"  # 2^32 + 1
d[t + 8:t + 9 + n + 4] = bytes([len(pb)]) + pb
open(sys.argv[2], "wb").write(d)
EOF
expect 2 "compression codec 2147483647" "$kvz" run "${quick[@]}" "$work/codec.hfile"
# Store profile options (WiredTiger's page size, HBase's block size, Cassandra's ratio).
for opt in wiredtiger:block=abc wiredtiger:block=99999999999999999999 hbase:block=0 cassandra:min_compress_ratio=nan \
  cassandra:compression_level=abc scylla:chunk=3K; do
  expect 2 "profile '$opt'" "$kvz" run "${quick[@]}" -d dbbench --max-bytes 64K --profile "$opt"
done

# 3. The results loader: a codec no run has, 0 blocks with bytes, every cell the file's current
# codec. check, report and merge all refuse them.
"$kvz" run -q -d dbbench -b 4K -c lz4/zstd:1 --max-bytes 64K --time 0.01 --repetitions 1 --latency-calls 100 \
  --json "$work/in-good.json" >/dev/null 2>&1 || fail "run for the loader failed"
jq '.kvzbench.cells[1].key.codec = "zstdx"' "$work/in-good.json" >"$work/in-codec.json"
jq '.kvzbench.cells[1].blocks = 0' "$work/in-good.json" >"$work/in-blocks.json"
jq '.kvzbench.cells[].current = true' "$work/in-good.json" >"$work/in-current.json"
for bad in codec:"codec 'zstdx' is not one of the run's codecs" blocks:"0 blocks but" current:"current codec"; do
  file=$work/in-${bad%%:*}.json pattern=${bad#*:}
  expect 2 "$pattern" "$kvz" check --baseline "$work/in-good.json" "$file"
  expect 2 "$pattern" "$kvz" report --md "$work/in.md" "$file"
  expect 2 "$pattern" "$kvz" merge "$file" -o "$work/in-merged.json"
done
expect 0 "" "$kvz" report --md "$work/in.md" "$work/in-good.json"

# 4. Exit codes and one clear line.
expect 2 "takes no arguments, got 'foo'" "$kvz" --version foo
for field in 0 -1 99999999999999999999; do
  expect 2 "a field number is 1..65536" "$kvz" blocks --stats --key-field "$field" "$work/blank.kv"
done
expect 2 "-r lines takes a field number" "$kvz" blocks --stats -r lines --key-field id "$work/blank.kv"
expect 0 "" "$kvz" blocks --stats -r lines --key-field 2 "$work/mixed.hex"
expect 2 "the record size 0 is out of range (1..1048576 bytes)" "$kvz" blocks --stats -r fixed:0 "$work/blank.kv"
expect 2 "the record size 2000000 is out of range" "$kvz" run "${quick[@]}" -r fixed:2000000 "$work/blank.kv"
# A Cassandra table directory under a record layout: the suggested fixes are tried and work.
table=$fixtures/cassandra/legacy_nb_clust
expect 2 "use -l as-stored or -l raw" "$kvz" blocks --stats -l rocksdb "$table"
grep -q "fixed:" "$work/err" && fail "the Cassandra error still suggests -r fixed:N"
expect 0 "" "$kvz" blocks --stats -l as-stored "$table"
expect 0 "" "$kvz" blocks --stats -l raw "$table"
expect 2 "use -l as-stored or -l raw" "$kvz" run "${quick[@]}" -l rocksdb "$table"
expect 0 "" "$kvz" run "${quick[@]}" -l raw "$table"
# Not a terminal: warnings are one line each, however long (stderr is $work/err here).
expect 0 "" env -u COLUMNS "$kvz" run "${quick[@]}" -r kv-hex "$work/mixed.hex"
grep -q "^kvzbench run: warning: .*mixed.hex: kv-hex: 50 of 100 lines are not hex key/value pairs (first at line 2): skipped$" \
  "$work/err" || { cat "$work/err"; fail "a warning wrapped in a file"; }
grep -q "^    " "$work/err" && { cat "$work/err"; fail "a continuation line in a file"; }
# A text file that ends in LevelDB's table magic: the store was the file's, not a --profile.
python3 -c "
import struct, sys
sys.stdout.buffer.write(b'plain text, not a table\n' * 100 + struct.pack('<Q', 0xdb4775248b80fb57))" >"$work/magic.txt"
expect 2 "look like leveldb files" "$kvz" run "${quick[@]}" "$work/magic.txt"
grep -q "drop --profile" "$work/err" && fail "told to drop a --profile that was never given"
expect 2 "magic.txt: offset" "$kvz" run "${quick[@]}" --profile default "$work/magic.txt"
