#!/usr/bin/env bash
# Every command README.md shows runs (issue 36): the commands are read from README.md itself
# (its ```sh blocks and the `- run:` steps of its ```yaml block), so a command added to the
# README is run here or this test fails. Each command is either
#   run   here, in a sandbox directory ($work/readme) where build/release/kvzbench and `kvzbench`
#         are the binary under test, with stand-ins of the same shape for data that is not on
#         this machine (the table `standins` below says which), and a small measuring budget
#         appended to every `run` (--time, --repetitions, --latency-*, --max-bytes: the README's
#         sweeps at full budget take minutes; what they print and write is the same), exit 0; its
#         output then goes through readme_output_checks (tests/e2e/common.bash); or
#   covered by the test named in `elsewhere` below, which must exist and run it (checked here):
#         the build, install and package commands (tests/install, kvz.sh test itself), the
#         Slurm launchers (tests/slurm, on a real single-node cluster) and the Kubernetes
#         manifests (tests/kubernetes: validated against the API schema and their commands run;
#         no cluster runs here, so `kubectl` itself does not).
source "$(dirname "$0")/common.bash"
root=$(cd "$(dirname "$0")/../.." && pwd)
corpora=${KVZ_CORPORA:?KVZ_CORPORA must name the corpora directory}
fixtures=${KVZ_FIXTURES:-$corpora/../fixtures/stores}
command -v ldb >/dev/null || fail "ldb not found: the README's test command installs rocksdb-tools"
sandbox=$work/readme
mkdir -p "$sandbox/build/release" "$sandbox/bin" "$sandbox/tmp"
kvz_abs=$(cd "$(dirname "$kvz")" && pwd)/$(basename "$kvz")
ln -s "$kvz_abs" "$sandbox/build/release/kvzbench" # K=build/release/kvzbench, ./build/release/kvzbench
ln -s "$kvz_abs" "$sandbox/bin/kvzbench"           # `kvzbench ...` on PATH

# Stand-ins, made before the commands run:
# /var/lib/mydb/: a RocksDB directory that RocksDB's own `ldb load` wrote (LZ4, 2,000 lines of an
#   access log), compacted to one SST, which stands in for /var/lib/mydb/001234.sst too.
mydb=$sandbox/var/lib/mydb
mkdir -p "$mydb"
head -2000 "$corpora/logs/apache_access_logs.log" | awk '{ printf "k%08d ==> %s\n", NR, $0 }' |
  ldb --db="$mydb" --create_if_missing --compression_type=lz4 load >/dev/null
ldb --db="$mydb" --compression_type=lz4 compact >/dev/null
mydb_sst=$(basename "$(ls "$mydb"/*.sst | head -1)")
# /var/lib/cassandra/data/ks/tbl-*/: a table directory Cassandra wrote (the nb fixture set).
tbl=$sandbox/var/lib/cassandra/data/ks/tbl-5a1c395e0b4511efa8e7a1b2c3d4e5f6
mkdir -p "$tbl"
cp "$fixtures"/cassandra/legacy_nb_clust/* "$tbl/"
# export.tsv (key<TAB>value lines) and docs.jsonl (id and doc fields), from real corpora.
head -3000 "$corpora/logs/auth.log" | awk '{ printf "user%06d\t%s\n", NR, $0 }' >"$sandbox/export.tsv"
python3 - "$corpora/json/github_events.json" "$sandbox/docs.jsonl" <<'PY'
import json, sys
events = json.load(open(sys.argv[1], encoding="utf-8"))
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for i, e in enumerate(events):
        out.write(json.dumps({"id": f"e{i:05d}", "doc": e}) + "\n")
PY
# base.json (an earlier run, for report and check), shard0.json and shard1.json (`run --shard 0/2`
# and `--shard 1/2`, as the README's merge line says) and baseline.json (the CI's kept baseline)
# are made from this sandbox's own runs where the README uses them (`derive` below).
budget=(--time 0.001 --repetitions 1 --latency-calls 1 --latency-seconds 0.001 --max-bytes 32K)

# The commands, one a line: KIND<TAB>README line<TAB>command as run. The Python checks the
# `elsewhere` table itself and fails on a command no rule takes.
python3 - "$root/README.md" "$root" "${budget[*]}" "$mydb_sst" >"$work/commands.tsv" <<'PY'
import os, re, sys

readme, root, budget, mydb_sst = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4]


def commands(path):
    """(line number, command) of every command in the ```sh blocks and the ```yaml `- run:` steps."""
    lang, pending, start = None, "", 0
    for n, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        fence = re.match(r"^\s*```(\w*)\s*$", line)
        if fence:
            lang = None if lang is not None else fence.group(1)
            continue
        if lang == "yaml":
            m = re.match(r"^\s*- run:\s*(.*)$", line)
            if m:
                yield n, m.group(1)
            continue
        if lang not in ("sh", "bash"):
            continue
        text = line.strip()
        if not pending and (not text or text.startswith("#")):
            continue  # a comment, or the output a command printed ("# -> sweep array 812 ...")
        start = start if pending else n
        text = re.sub(r"\s+#\s.*$", "", text)  # the README's explanations after a command
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        if text.endswith(("&&", "||", "|")):  # the shell reads on to the next line
            pending += text + " "
            continue
        yield start, pending + text
        pending = ""


# Data that is not on this machine: the same shape in the sandbox.
STANDINS = [
    ("/var/lib/mydb/001234.sst", "var/lib/mydb/" + mydb_sst),
    ("/var/lib/mydb", "var/lib/mydb"),
    ("/var/lib/cassandra/", "var/lib/cassandra/"),
    ("/tmp/blocks", "tmp/blocks"),
]

# Commands another test runs: (pattern, file that runs it, what that file must contain).
ELSEWHERE = [
    (r"^\./kvz\.sh test$", ".ci/run", "./kvz.sh test"),  # the test command: CI runs it
    (r"^cmake --install build/release ", "tests/install/check_install.sh", "cmake --install"),
    (r"^cd build/release && cpack -G DEB && apt-get install \./kvzbench_", "tests/install/check_install.sh",
     "cpack -G DEB"),
    (r"^cmake -S \. -B build/portable -DKVZ_PORTABLE=ON ", "kvz.sh",
     "configure_and_build build/portable Release -DKVZ_BUILD_TESTS=OFF -DKVZ_PORTABLE=ON"),
    (r"deploy/slurm/submit-sweep\.sh ", "tests/slurm/sweep_test.sh", "deploy/slurm/submit-sweep.sh"),
    (r"deploy/slurm/submit-survey\.sh ", "tests/slurm/survey_test.sh", "deploy/slurm/submit-survey.sh"),
    # The registry step: the Kubernetes test runs each block that applies a manifest, as written,
    # with stand-ins for docker and kubectl that keep what they are given.
    (r"^IMAGE=|^docker build |image: kvzbench:latest\|image: \$IMAGE", "tests/kubernetes/manifests_test.sh",
     'if "kubectl apply" in b'),
]


def fail(msg):
    sys.exit(f"FAIL: {msg}")


def contains(rel, text):
    path = os.path.join(root, rel)
    return os.path.exists(path) and text in open(path, encoding="utf-8").read()


def with_budget(cmd, budget):
    """A command's options with the test budget: given values replaced, the others appended."""
    words = cmd.split()
    for opt, value in zip(budget[::2], budget[1::2]):
        if opt in words:
            words[words.index(opt) + 1] = value
        else:
            words += [opt, value]
    return " ".join(words)


def kubectl(n, cmd):
    for part in cmd.split("&&"):
        words = part.split()
        if words[:2] == ["kubectl", "wait"]:
            continue  # waits on the Job the previous line applied
        if words[:2] != ["kubectl", "apply"] or "-f" not in words:
            fail(f"README line {n}: no rule for '{part.strip()}'")
        manifest = words[words.index("-f") + 1]
        if not (manifest.startswith("deploy/kubernetes/") and os.path.exists(os.path.join(root, manifest))):
            fail(f"README line {n}: {manifest} is not a manifest in deploy/kubernetes/")
        if not contains("tests/kubernetes/manifests_test.sh", 'validate.mjs "$manifests"/*.yaml'):
            fail("tests/kubernetes/manifests_test.sh no longer validates every manifest in deploy/kubernetes/")
        run = contains("tests/kubernetes/manifests_test.sh", f'"{os.path.basename(manifest)}"')
        print(f"covered\t{n}\t{manifest}: validated against the API schema"
              f"{' and its command run' if run else ' (its command is not run)'} by tests/kubernetes/manifests_test.sh",
              file=sys.stderr)


count = 0
for n, cmd in commands(readme):
    count += 1
    rule = next((r for r in ELSEWHERE if re.search(r[0], cmd)), None)
    if rule:
        if not contains(rule[1], rule[2]):
            fail(f"README line {n}: '{cmd}' is said to run in {rule[1]}, which does not contain '{rule[2]}'")
        print(f"covered\t{n}\t{cmd} (by {rule[1]})", file=sys.stderr)
        continue
    if cmd.startswith("kubectl "):
        kubectl(n, cmd)
        continue
    if cmd.startswith("K="):
        print(f"env\t{n}\t{cmd}")
        continue
    cmd = re.sub("|".join(re.escape(real) for real, _ in STANDINS), lambda m: dict(STANDINS)[m.group(0)], cmd)
    # ./kvz.sh bench ARGS builds Release (this test's binary is that build) and execs
    # `kvzbench run ARGS` (checked in kvz.sh): that run is what runs here.
    bench = re.match(r"^(sudo )?\./kvz\.sh bench(.*)$", cmd)
    if bench:
        if not contains("kvz.sh", 'exec ./build/release/kvzbench run "$@"'):
            fail("kvz.sh bench no longer execs ./build/release/kvzbench run \"$@\"")
        cmd = "./build/release/kvzbench run" + bench.group(2)
    words = cmd.split()
    if not words or not re.match(r"^(\$K|kvzbench|\./build/release/kvzbench|ldb)$", words[0]):
        fail(f"README line {n}: no rule for '{cmd}': run it here or name the test that runs it")
    if words[0] != "ldb" and words[1] == "run":
        cmd = with_budget(cmd, budget)
    if words[0] != "ldb" and words[1] == "blocks":  # one file per block: 32 KiB of a dataset, not 16 MB
        cmd = with_budget(cmd, budget[-2:])
    print(f"{'bench' if bench else 'run'}\t{n}\t{cmd}")
print(f"{count} README commands", file=sys.stderr)
PY

# What a command needs that an earlier one makes.
derive() {
  case "$1" in
    *"report base.json"* | *"check --baseline base.json"*) [ -e base.json ] || cp out.json base.json ;;
    *"merge shard0.json shard1.json"*)
      for i in 0 1; do
        "$kvz" run -d dbbench -b 4K,16K -c lz4 "${budget[@]}" --shard "$i/2" --json "shard$i.json" >/dev/null
      done
      ;;
    *"check --baseline baseline.json current.json"*) cp current.json baseline.json ;;
  esac
}

ran=0
export GITHUB_STEP_SUMMARY=$sandbox/step-summary.md COLUMNS=100 PATH="$sandbox/bin:$PATH"
while IFS=$'\t' read -r kind line cmd; do
  if [ "$kind" = env ]; then
    export "${cmd?}"
    continue
  fi
  (cd "$sandbox" && derive "$cmd")
  code=0
  start=$SECONDS
  (cd "$sandbox" && bash -o pipefail -c "$cmd") >"$work/out" 2>"$work/err" || code=$?
  echo "ran $((SECONDS - start)) s	$line	$cmd"
  [ "$code" -eq 0 ] || {
    head -c 3000 "$work/err"
    fail "README line $line exits $code: $cmd"
  }
  if [ "$kind" = bench ] && ! grep -qE -- "--(json|csv|md|html) " <<<"$cmd"; then # "print the report path"
    grep -q "^wrote .*/report.html$" "$work/out" || fail "README line $line: no report path printed: $cmd"
  fi
  readme_output_checks "$work/out" "$work/err" "$cmd"
  ran=$((ran + 1))
done <"$work/commands.tsv"
[ "$ran" -ge 20 ] || fail "only $ran README commands ran"
[ -s "$sandbox/cf.dump" ] && [ -d "$sandbox/tmp/blocks" ] && [ -s "$sandbox/all.json" ] ||
  fail "the README's commands did not make cf.dump, the blocks directory and the merged all.json"
echo "readme_commands: OK ($ran commands run here)"
