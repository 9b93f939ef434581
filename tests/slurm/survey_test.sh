#!/usr/bin/env bash
# A kvzbench fleet survey on a real (single-node, 127.0.0.1) Slurm cluster, through the launchers
# in deploy/slurm as the README gives them: 3 survey tasks, then the merge job that depends on
# them (afterok). The merged per-table total of bytes on disk equals the sum of the table's files'
# sizes (stat), and the fleet answer is the first thing in the merge's console and in the
# Markdown report.
#
# How this differs from a real fleet: the cluster has one node, so the three tasks run side by
# side on it (--nodes=1 --overcommit: 3 tasks on one node instead of one on each of 3), and each stands in
# for a node: a wrapper (KVZBENCH) gives task i the name node<i> (KVZ_NODE_NAME, as a real node's
# hostname would be) and its own copy of the data root, node<i>/data, where the survey's
# KVZ_STORE_DIR (/data/ks/events-<id>, the same on every node) holds a different Cassandra
# fixture set on each (../shared/fixtures/stores/cassandra: nb, na, me), so table ks.events spans
# all three nodes.
# Usage: survey_test.sh KVZBENCH (ctest passes the built binary). Needs root, slurm-wlm, munge.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kvz=$(realpath "$1")
fixtures=$(realpath "$here/../../../shared/fixtures/stores/cassandra")
# shellcheck source=tests/slurm/cluster.sh
source "$here/cluster.sh"

dir=$(mktemp -d /tmp/kvz-survey.XXXXXX)    # the cluster's (slurm_cluster_start wants it empty)
nodes=$(mktemp -d /tmp/kvz-survey-nodes.XXXXXX) # the stand-in nodes' data roots, the wrapper, the results
trap 'rm -rf "$dir" "$nodes"' EXIT # slurm_cluster_start puts the cluster's stop before it
fail() {
  slurm_cluster_logs 2>&1 || true
  tail -n 20 "$nodes"/*.log "$nodes"/out/*.log 2>/dev/null || true
  echo "FAIL: slurm survey_test: $*"
  exit 1
}

table=/data/ks/events-5a1c395e0b4511efa8e7a1b2c3d4e5f6
sets=(legacy_nb_clust legacy_na_clust legacy_me_clust)
expected=0
for i in 0 1 2; do
  mkdir -p "$nodes/node$i$table"
  cp "$fixtures/${sets[$i]}"/* "$nodes/node$i$table/"
  for f in "$nodes/node$i$table"/*-Data.db; do expected=$((expected + $(stat -c %s "$f"))); done
done
cat >"$nodes/stand-in-node.sh" <<WRAP
#!/bin/bash
# Task i of the survey stands in for node<i>: its name, and its data root under $nodes/node<i>.
args=()
for a in "\$@"; do [ "\$a" = "\$KVZ_STORE_DIR" ] && a=$nodes/node\$SLURM_PROCID\$a; args+=("\$a"); done
KVZ_NODE_NAME=node\$SLURM_PROCID exec $kvz "\${args[@]}"
WRAP
chmod +x "$nodes/stand-in-node.sh"

slurm_cluster_start "$dir" || fail "the cluster did not start"
out=$nodes/out
submitted=$(KVZBENCH=$nodes/stand-in-node.sh KVZ_OUT_DIR=$out KVZ_STORE_DIR=$table \
  KVZ_SBATCH_ARGS="--chdir=$nodes --nodes=1 --overcommit" \
  "$here/../../deploy/slurm/submit-survey.sh" 3 --profile cassandra -c zstd:1 --time 0.01 --repetitions 1 \
  --latency-seconds 0.003) || fail "submit-survey.sh failed"
survey=$(sed -n 's/^survey job \([0-9]*\) .*/\1/p' <<<"$submitted")
merge=$(sed -n 's/.*merge job \([0-9]*\):.*/\1/p' <<<"$submitted")
if [ -z "$survey" ] || [ -z "$merge" ]; then fail "no job ids in: $submitted"; fi
for job in "$survey" "$merge"; do
  states=$(slurm_wait_job "$job" 120) || fail "job $job did not finish: $states"
  [ "$(awk '$2 != "COMPLETED" || $3 != "0:0"' <<<"$states")" = "" ] || fail "job $job: $states"
done
[ -s "$out/merged.json" ] || fail "the merge job wrote no $out/merged.json"
for i in 0 1 2; do [ -s "$out/survey-$i.json" ] || fail "task $i wrote no survey-$i.json"; done

# The merge's console (its job log) and the Markdown report open on the fleet answer; ks.events
# spans 3 hosts; its total on disk is the sum of its Data.db files' sizes.
log=$out/merge-$merge.log
[ "$(head -n 1 "$log")" = "fleet answer, per table across hosts (each host's own speeds; CPU models kept apart):" ] ||
  fail "the merge's console does not open on the fleet answer: $(head -n 2 "$log")"
# Its line for ks.events, continued on lines four columns in where it passes 100 columns.
fleet_line=$(awk 'NR == 2 { line = $0; next } NR > 2 && /^    / { sub(/^ +/, " "); line = line $0; next }
                  NR > 2 { exit } END { print line }' "$log")
grep -q '^  ks\.events: lz4 .* across 3 files on 3 hosts; compress time × ' <<<"$fleet_line" ||
  fail "the fleet answer's line for ks.events: $fleet_line"
grep -qE "^  lz4 [^ ]* \* +$expected +on disk now, data blocks [0-9.]+ %$" "$log" || fail "the total on disk is not $expected B (stat): $(cat "$log")"
"$kvz" report "$out/merged.json" --md "$nodes/survey.md" >/dev/null || fail "report --md failed"
[ "$(head -n 1 "$nodes/survey.md")" = "## Fleet answer, per table across hosts" ] || fail "the Markdown opens on: $(head -n 1 "$nodes/survey.md")"
sed -n 3p "$nodes/survey.md" | grep -q '^- ks\.events: lz4 ' || fail "the Markdown's first line: $(sed -n 3p "$nodes/survey.md")"
grep -qE "^\| lz4 [^|]*\(on disk now: the files' sizes, data blocks [0-9.]+ %\) \| $expected \|" "$nodes/survey.md" || fail "the Markdown total is not $expected B"
# The same sum from the merged JSON: the current rows' on_disk_bytes of table ks.events.
python3 - "$out/merged.json" "$expected" <<'PY' || fail "the merged JSON's ks.events total"
import json, sys
k = json.load(open(sys.argv[1]))["kvzbench"]
tables = {(c["name"], c.get("host", "")): c.get("table") for c in k["meta"]["corpora"]}
hosts, total = set(), 0
for c in k["cells"]:
    if c.get("current") and tables.get((c["key"]["source"], c["key"].get("host", ""))) == "ks.events":
        total += c["on_disk_bytes"]
        hosts.add(c["key"].get("host"))
assert hosts == {"node0", "node1", "node2"}, hosts
assert total == int(sys.argv[2]), (total, sys.argv[2])
PY
echo "slurm survey_test: OK (3 stand-in nodes, ks.events $expected B on disk across 3 hosts = stat; fleet answer first in console and Markdown)"
