# Issue 36 item 6 and issue 35 item 5 (sourced by bad_input.sh: expect, $kvz, $work, $tiny, fail,
# $tried): typos get "did you mean", lzbench's and `zstd -b`'s flags get kvzbench's, sizes have
# one range, options given twice or contradicting each other are refused, --shard auto says what
# the scheduler's variables said; each one line and exit 2, before anything is measured.
# ($tiny names -c and -b, which several cases here give themselves: one option twice is an error.)
few=(-q --max-bytes 64K --time 0.01 --repetitions 1 --latency-calls 100)

# "Did you mean": each lookup, its candidates from its own registry.
expect 2 "unknown codec 'zstdd': did you mean 'zstd'?" "$kvz" run "${few[@]}" -d dbbench -c zstdd
expect 2 "unknown codec 'lz4hv': did you mean 'lz4hc'?" "$kvz" run "${few[@]}" -d dbbench -c lz4/lz4hv:9
expect 2 "unknown profile 'rocksbd': did you mean 'rocksdb'?" "$kvz" run "${tiny[@]}" --profile rocksbd
expect 2 "unknown store profile 'casandra': did you mean 'cassandra'?" "$kvz" run "${tiny[@]}" --profile casandra:chunk=16K
expect 2 "unknown option 'chunck': did you mean 'chunk'?" "$kvz" run "${tiny[@]}" --profile cassandra:chunck=16K
expect 2 "unknown dataset 'dbbnch': did you mean 'dbbench'?" "$kvz" run "${few[@]}" -d dbbnch
expect 2 "unknown layout 'rocksbd': did you mean 'rocksdb'?" "$kvz" run "${tiny[@]}" -l rocksbd
expect 2 "unknown record mode 'jsonll': did you mean 'jsonl'?" "$kvz" run "${tiny[@]}" -r jsonll
expect 2 "canterbury/alice29.txt: no such file, nor a corpus name in .*: did you mean 'snappy/alice29.txt'?" \
  "$kvz" run "${few[@]}" canterbury/alice29.txt
expect 2 "twiter.json: no such file, nor a corpus name in .*: did you mean 'json/twitter.json'?" \
  "$kvz" run "${few[@]}" twiter.json
expect 2 "unknown command 'reprot': did you mean 'report'?" "$kvz" reprot
expect 2 "unknown command 'mrege': did you mean 'merge'?" "$kvz" mrege a.json
expect 2 "unknown option '--repetiton': did you mean '--repetitions'?" "$kvz" run "${few[@]}" -d dbbench --repetiton 3
expect 2 "unknown option '--baselin': did you mean '--baseline'?" "$kvz" check --baselin a.json b.json
expect 2 "unknown option '--stat': did you mean '--stats'?" "$kvz" blocks -d dbbench --stat
expect 2 "unknown option '--jsno': did you mean '--json'?" "$kvz" list --jsno
expect 2 "unknown option '--frobnicate' (\`kvzbench run --help\` lists them)" "$kvz" run "${few[@]}" -d dbbench --frobnicate

# lzbench's and zstd -b's flags: kvzbench's equivalent, never a silent other meaning.
expect 2 "-b16: kvzbench's block sizes are 1K..1M (a bare number is bytes): lzbench's -b16 is 16 KB blocks, kvzbench's -b 16K" \
  "$kvz" run -q -d dbbench -b16
expect 2 "-b 64: .*lzbench's -b64 is 64 KB blocks, kvzbench's -b 64K" "$kvz" blocks -d dbbench -b 64 --stats
expect 2 "-b3: .*zstd's -b3 benchmarks level 3, kvzbench's -c zstd:3" "$kvz" run -q -d dbbench -b3
expect 2 "-b1e19: zstd's -b#e# benchmarks levels 1..19: kvzbench's -c zstd:1..19" "$kvz" run -q -d dbbench -b1e19
expect 2 "-e19: zstd's -e19 benchmarks levels up to 19: kvzbench's -c zstd:1..19" "$kvz" run -q -d dbbench -e19
expect 2 "-c4: lzbench's -c4 sorts by compressed size: kvzbench's --sort ratio" "$kvz" run -q -d dbbench -c4
expect 2 "-i3,5: lzbench's -iX,Y sets the minimum iterations: kvzbench's --repetitions N" "$kvz" run -q -d dbbench -i3,5
expect 2 "-t1,1: lzbench's -tX,Y .*kvzbench's --time S" "$kvz" run -q -d dbbench -t1,1
expect 2 "-B16K: zstd's -B# cuts the input into independent chunks of # bytes: kvzbench's -b SIZE" \
  "$kvz" run -q -d dbbench -B16K
expect 2 "-j: lzbench's -j joins files" "$kvz" run -q -d dbbench -j
expect 2 "-o4: lzbench's -o4 is CSV: kvzbench's -o csv" "$kvz" run -q -d dbbench -o4
expect 2 "-m100: lzbench's -m# caps memory in MB: kvzbench's --max-bytes SIZE" "$kvz" run -q -d dbbench -m100
expect 2 "-V: lzbench's -V: kvzbench --version" "$kvz" -V
# What kvzbench itself takes stays its own: -e with lzbench's list, -b in bytes, -T threads, -o json.
expect 0 "" "$kvz" run -q -d dbbench -e zstd,1/lz4 -b 4096 -T 1 -o json --max-bytes 64K --time 0.01 --repetitions 1 \
  --latency-calls 100

# One range for every --workload size (1 byte .. 1E), each key once.
plan=(run "${few[@]}" -d dbbench -b 4K --profile rocksdb -c lz4)
range="a size from 1 byte to 1E"
expect 2 "size='1e308': $range" "$kvz" "${plan[@]}" --workload write=1,read=1,storage=0.1,cpu=0.05,size=1e308
expect 2 "level_base='1e308': $range" "$kvz" "${plan[@]}" \
  --workload write=1,read=1,storage=0.1,cpu=0.05,size=1G,level_base=1e308
expect 2 "write_buffer='2E': $range" "$kvz" "${plan[@]}" \
  --workload write=1,read=1,storage=0.1,cpu=0.05,size=1G,write_buffer=2E
expect 2 "target_file='0.5': $range" "$kvz" "${plan[@]}" \
  --workload write=1,read=1,storage=0.1,cpu=0.05,size=1G,target_file=0.5
expect 2 "size='9999999T': $range" "$kvz" "${plan[@]}" \
  --workload storage=0.1,cpu=0.05,family=a:write=1:read=1:size=9999999T
expect 2 "write= given twice" "$kvz" "${plan[@]}" --workload write=1,read=1,storage=0.1,cpu=0.05,write=2
expect 0 "" "$kvz" "${plan[@]}" --workload write=1,read=1,storage=0.1,cpu=0.05,size=1E --json "$work/1e.json"

# A profile's option given twice (chunk= and block= are one), or two run together.
expect 2 "cassandra: option chunk= given twice" "$kvz" run "${tiny[@]}" --profile cassandra:chunk=16K,chunk=64K
expect 2 "rocksdb: option block= given twice" "$kvz" run "${tiny[@]}" --profile rocksdb:chunk=16K,block=4K
expect 2 "option 'chunk=16K:chunk=64K' is two options: separate them with ','" \
  "$kvz" run "${tiny[@]}" --profile cassandra:chunk=16K:chunk=64K

# --shard auto: what the variables said, what was expected; schedulers that disagree.
expect 2 "JOB_COMPLETION_INDEX=4 of KVZ_SHARD_COUNT=4: the index must be below the count, 0..3" \
  env -u SLURM_ARRAY_TASK_ID -u SLURM_STEP_ID JOB_COMPLETION_INDEX=4 KVZ_SHARD_COUNT=4 \
  "$kvz" run "${tiny[@]}" --shard auto
expect 2 "the schedulers disagree: Slurm array task 2 of 0-3:1 is shard 2 of 4, Kubernetes Indexed Job pod 1 of 3" \
  env SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=3 \
  JOB_COMPLETION_INDEX=1 KVZ_SHARD_COUNT=3 "$kvz" run "${tiny[@]}" --shard auto

# No empty kvzbench-results/<time>/ after a run that fails (here a corpus that is not there, found
# missing only once the sources are read), and kvzbench-results/ itself only if this run made it.
mkdir -p "$work/fresh"
cd "$work/fresh"
expect 2 "no-such-corpus.txt: no such file" "$kvz" run "${few[@]}" -c lz4 no-such-corpus.txt
[ ! -e kvzbench-results ] || fail "a failed run left $(find kvzbench-results)"
mkdir -p kvzbench-results/earlier
expect 2 "no such file" "$kvz" run "${few[@]}" -c lz4 no-such-corpus.txt
[ "$(find kvzbench-results -mindepth 1)" = kvzbench-results/earlier ] ||
  fail "a failed run changed an existing kvzbench-results/: $(find kvzbench-results)"
cd - >/dev/null
