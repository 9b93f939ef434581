# shellcheck shell=bash disable=SC2154 # $kvz, $work: set by bad_input.sh, which sources this
# Issue 24, store files that cannot blow up (sourced by bad_input.sh: expect, $kvz, $work, fail,
# $tried). Crafted bombs (tests/stores/store_bombs.py writes them from scratch) each end within
# 2 s with exit 2 and one line naming the file and offset, under 256 MiB peak RSS; companion
# files that are a FIFO or /dev/zero are refused before they are opened; --max-bytes stops the
# decoding of a large table early.
bombs=$work/bombs
python3 "$(dirname "${BASH_SOURCE[0]}")/../../stores/store_bombs.py" "$bombs"
store_run=(run -q -c snappy -b 4K --time 0.01 --repetitions 1 --latency-calls 100 --max-bytes 64K)

# "${limited[@]}" SECONDS MIB CMD...: CMD's exit code, or 3 with a line when it took longer or its peak
# RSS was higher (both logged to $work/store_limits.log).
cat >"$work/limited.py" <<'EOF'
import os, resource, subprocess, sys, time
secs, mib, cmd = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
mib += int(os.environ.get("KVZ_RSS_ALLOWANCE_MIB", "0"))
secs += float(os.environ.get("KVZ_TIME_ALLOWANCE_S", "0"))
start = time.monotonic()
try:
    code = subprocess.run(cmd, timeout=10 * secs).returncode
except subprocess.TimeoutExpired:
    code = 124
took = time.monotonic() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
with open(sys.argv[0] + ".log", "a") as log:
    print(f"{took:.3f} s  {peak} MiB  exit {code}  {cmd[-1]}", file=log)
if took > secs or peak > mib:
    print(f"over the limit: {took:.2f} s (at most {secs}), {peak} MiB peak RSS (at most {mib})", file=sys.stderr)
    sys.exit(3)
sys.exit(code)
EOF
limited=(python3 "$work/limited.py")
# Under ASan+UBSan every run carries the sanitizer's own shadow memory and quarantine (about
# 110 MiB here, whatever the input): there the limits hold above an ordinary small run's peak.
# On any build a loaded machine slows every run alike: the time limits hold above three times an
# ordinary small run's time (a bomb took 42 s and gigabytes before; a refused one takes as long
# as the small run).
printf 'key%d\tvalue %d\n' $(seq 1 2000 | sed 's/.*/& &/') >"$work/small.tsv"
read -r small_peak_mib small_secs < <(python3 -c '
import resource, subprocess, sys, time
start = time.monotonic()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024, f"{3 * (time.monotonic() - start):.3f}")' \
  "$kvz" "${store_run[@]}" "$work/small.tsv")
export KVZ_TIME_ALLOWANCE_S=$small_secs KVZ_RSS_ALLOWANCE_MIB=0
grep -q '^KVZ_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null && KVZ_RSS_ALLOWANCE_MIB=$small_peak_mib
one_line() { [ "$(wc -l <"$work/err")" -eq 1 ] || { cat "$work/err"; fail "not one line: $*"; }; }

# Declared sizes past the format's limit or the codec's expansion: refused before allocating.
for bomb in "wt_big_page.wt:offset 512: a page declaring 536870912 bytes in memory" \
  "wt_zlib_ratio.wt:offset 512: a zlib page of [0-9]* bytes declaring 62914560 bytes" \
  "sst_snappy_ratio.sst:offset 0: a snappy block of [0-9]* bytes declaring 62914560" \
  "cass/nb-1-big-Data.db:offset 0: chunk 0 of 18 bytes declares 67108864 raw bytes"; do
  expect 2 "${bomb#*:}" "${limited[@]}" 2 256 "$kvz" "${store_run[@]}" "$bombs/${bomb%%:*}"
  grep -q "$bombs/${bomb%%:*}" "$work/err" || fail "${bomb%%:*}: the error does not name the file"
  one_line "${bomb%%:*}"
done
# One block or page referenced again and again: refused at the second reference, never walked
# exponentially or counted twice.
expect 2 "sst_repeat.sst: offset 0: a data block named twice" "${limited[@]}" 2 256 "$kvz" "${store_run[@]}" \
  "$bombs/sst_repeat.sst"
one_line sst_repeat
expect 2 "wt_shared.wt: offset 512: a page referenced twice (a shared child or a cycle)" "${limited[@]}" 2 256 "$kvz" \
  "${store_run[@]}" "$bombs/wt_shared.wt"
one_line wt_shared
# The same under `blocks` (another command reading store files).
expect 2 "a data block named twice" "${limited[@]}" 2 256 "$kvz" blocks --stats --max-bytes 64K "$bombs/sst_repeat.sst"

# Companion files: a FIFO (open() would block) and a symlink to /dev/zero (never ends) named
# *-CompressionInfo.db are refused before they are opened; the FIFO run also ends on SIGTERM.
mkdir -p "$work/fifo_table" "$work/zero_table"
cp "$bombs/cass/nb-1-big-Data.db" "$work/fifo_table/"
cp "$bombs/cass/nb-1-big-Data.db" "$work/zero_table/"
mkfifo "$work/fifo_table/nb-1-big-CompressionInfo.db"
ln -s /dev/zero "$work/zero_table/nb-1-big-CompressionInfo.db"
expect 2 "nb-1-big-CompressionInfo.db: a FIFO, not a regular file" "${limited[@]}" 2 256 "$kvz" "${store_run[@]}" \
  "$work/fifo_table/nb-1-big-Data.db"
one_line fifo
expect 2 "nb-1-big-CompressionInfo.db: a device, not a regular file" "${limited[@]}" 2 256 "$kvz" "${store_run[@]}" \
  "$work/zero_table/nb-1-big-Data.db"
one_line zero
expect 2 "a FIFO, not a regular file" "${limited[@]}" 2 256 "$kvz" "${store_run[@]}" "$work/fifo_table"
# Not a timing test: the run must end after SIGTERM (refused, exit 2, or ended by the signal,
# 143); 20 s is only the line between "ended" and "hung", generous on a loaded sanitizer build.
"$kvz" "${store_run[@]}" "$work/fifo_table/nb-1-big-Data.db" >/dev/null 2>&1 &
pid=$!
sleep 0.3
kill -TERM "$pid" 2>/dev/null || true
ended=0
timeout 20 tail --pid="$pid" -f /dev/null || ended=$?
tried=$((tried + 1))
[ "$ended" -eq 0 ] || fail "the FIFO companion run did not end within 20 s of SIGTERM"
code=0
wait "$pid" || code=$?
[ "$code" -eq 2 ] || [ "$code" -eq 143 ] || fail "the FIFO companion run ended with $code (2: refused, 143: SIGTERM)"

# Empty store files are bad input (exit 2, one line), not an empty text corpus.
for ext in sst hfile wt; do
  : >"$work/empty.$ext"
  expect 2 "empty.$ext: offset 0:" "$kvz" "${store_run[@]}" "$work/empty.$ext"
  one_line "empty.$ext"
done

# --max-bytes stops the decoding as soon as the sample is full: a 64 MiB table of 1,024 blocks
# of 65,480 raw bytes each is read in its first two blocks only, within 2 s and 2 x 64K + 64 MiB.
python3 - "$work/many_blocks.sst" <<'EOF'
import struct, sys
def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append(v & 0x7F | 0x80); v >>= 7
    out.append(v)
    return bytes(out)
def block(entries):  # RocksDB block, stored raw; the footer says "no checksums"
    body = b"".join(varint(0) + varint(len(k)) + varint(len(v)) + k + v for k, v in entries)
    return body + struct.pack("<II", 0, 1) + bytes(5)
out, index = b"", []
for b in range(1024):
    blk = block([(b"key%08d" % (b * 64 + i) + struct.pack("<Q", 1), bytes([b % 251]) * 1000) for i in range(64)])
    index.append((b"k%08d" % b, varint(len(out)) + varint(len(blk) - 5)))
    out += blk
meta_at, meta = len(out), block([])
out += meta
index_at, idx = len(out), block(index)
out += idx
handles = varint(meta_at) + varint(len(meta) - 5) + varint(index_at) + varint(len(idx) - 5)
out += bytes([0]) + handles + bytes(40 - len(handles)) + struct.pack("<IQ", 2, 0x88E241B785F4CFF7)
open(sys.argv[1], "wb").write(out)
EOF
expect 0 "" "${limited[@]}" 2 65 "$kvz" run -c snappy -b 4K --time 0.01 --repetitions 1 --latency-calls 100 --max-bytes 64K \
  "$work/many_blocks.sst"
grep -q "1024 data blocks, [0-9]* bytes on disk (the first 2, " <(unwrapped "$work/out") ||
  fail "--max-bytes on a 1,024-block table: $(grep -m1 '^store file' "$work/out")"
