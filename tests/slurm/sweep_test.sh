#!/usr/bin/env bash
# A kvzbench sweep on a real (single-node, 127.0.0.1) Slurm cluster, through the launchers in
# deploy/slurm exactly as the README gives them: a 4-task job array of shards (--shard auto) and
# the merge job that depends on it (afterok). The merged result holds the same cells as one
# unsharded run with the same bytes (keys, compressed and stored bytes); each shard says which
# array task it was; a retried task (scontrol requeue) replaces only its own file.
# Usage: sweep_test.sh KVZBENCH (ctest passes the built binary). Needs root, slurm-wlm, munge.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kvz=$(realpath "$1")
# shellcheck source=tests/slurm/cluster.sh
source "$here/cluster.sh"

dir=$(mktemp -d /tmp/kvz-slurm.XXXXXX)
trap 'rm -rf "$dir"' EXIT # slurm_cluster_start puts the cluster's stop before it
fail() {
  slurm_cluster_logs 2>&1 || true
  tail -n 20 "$dir"/*.log 2>/dev/null || true
  echo "FAIL: slurm sweep_test: $*"
  exit 1
}
sweep=(--profile quick --time 0.01 --repetitions 1 --latency-seconds 0.003)
slurm_cluster_start "$dir" || fail "the cluster did not start"

out=$dir/sweep
submitted=$(KVZBENCH=$kvz KVZ_OUT_DIR=$out KVZ_SBATCH_ARGS="--chdir=$dir" \
  "$here/../../deploy/slurm/submit-sweep.sh" 4 "${sweep[@]}") || fail "submit-sweep.sh failed"
array=$(sed -n 's/^sweep array \([0-9]*\) .*/\1/p' <<<"$submitted")
merge=$(sed -n 's/.*merge job \([0-9]*\):.*/\1/p' <<<"$submitted")
if [ -z "$array" ] || [ -z "$merge" ]; then fail "no job ids in: $submitted"; fi
all_completed() { # job seconds: every record COMPLETED with exit 0
  local states
  states=$(slurm_wait_job "$1" "$2") || fail "job $1 did not finish: $states"
  [ "$(awk '$2 != "COMPLETED" || $3 != "0:0"' <<<"$states")" = "" ] || fail "job $1: $states"
  echo "$states"
}
[ "$(all_completed "$array" 120 | wc -l)" -eq 4 ] || fail "the array did not run 4 tasks"
all_completed "$merge" 60 >/dev/null
[ -s "$out/merged.json" ] || fail "the merge job wrote no $out/merged.json"

# The same sweep, unsharded, here.
"$kvz" run -q "${sweep[@]}" --json "$dir/whole.json" >"$dir/whole.log" 2>&1 || fail "the unsharded run failed"

compare() { # merged.json whole.json shard files...: one line on a difference
  python3 - "$@" <<'PY'
import json, sys
def cells(path):
    return {c["key"]["id"]: (c["compressed_bytes"], c["stored_bytes"], c["status"])
            for c in json.load(open(path))["kvzbench"]["cells"]}
merged, whole = cells(sys.argv[1]), cells(sys.argv[2])
if merged.keys() != whole.keys():
    sys.exit(f"cells differ: only merged {sorted(merged.keys() - whole.keys())[:3]}, "
             f"only unsharded {sorted(whole.keys() - merged.keys())[:3]}")
diff = [k for k in whole if merged[k] != whole[k]]
if diff:
    sys.exit(f"{len(diff)} cells' bytes differ, e.g. {diff[0]}: {merged[diff[0]]} vs {whole[diff[0]]}")
for i, path in enumerate(sys.argv[3:]):
    meta = json.load(open(path))["kvzbench"]["meta"]["extra"]
    want = f"Slurm array task {i} of 0-3:1"
    if meta.get("shard") != f"{i}/4" or meta.get("shard_scheduler") != want:
        sys.exit(f"{path}: shard {meta.get('shard')} from {meta.get('shard_scheduler')!r}, not {i}/4 from {want!r}")
print(f"{len(whole)} cells")
PY
}
shards=("$out"/results-{0,1,2,3}-of-4.json)
cells=$(compare "$out/merged.json" "$dir/whole.json" "${shards[@]}") || fail "merged vs unsharded: $cells"

# A retried task (the scheduler requeues task 2) rewrites its own file and no other.
before=$(stat -c '%n %Y.%y' "${shards[@]}")
sleep 1.1 # a rewrite must show in the modification time
scontrol requeue "${array}_2" || fail "scontrol requeue ${array}_2 failed"
# Slurm holds a requeued job back (its begin time about two minutes ahead): now, for the test.
scontrol update JobId="${array}_2" StartTime=now || fail "could not release the requeued task"
all_completed "${array}_2" 120 >/dev/null
after=$(stat -c '%n %Y.%y' "${shards[@]}")
changed=$( (diff <(echo "$before") <(echo "$after") || true) | sed -n 's/^> \([^ ]*\) .*/\1/p')
[ "$changed" = "$out/results-2-of-4.json" ] || fail "the retried task changed: '${changed}' (want only results-2-of-4.json)"
"$kvz" merge -o "$dir/again.json" "${shards[@]}" >/dev/null 2>&1 || fail "the shards do not merge after the retry"
compare "$dir/again.json" "$dir/whole.json" "${shards[@]}" >/dev/null || fail "after the retry: merged vs unsharded differ"

slurm_cluster_stop
echo "slurm sweep_test: OK (4 shards through deploy/slurm, merged = unsharded in $cells, a retried shard rewrote only its file)"
