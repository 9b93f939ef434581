#!/usr/bin/env bash
# The single-node Slurm harness itself (tests/slurm/README.md): a 4-task array, a job that depends
# on it (afterok), a 3-task srun step; the environment each sees; every daemon and srun listening
# on 127.0.0.1 only; after the stop, none of the cluster's processes left. Needs root and Debian's
# slurm-wlm and munge. Takes no arguments (ctest passes none).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/slurm/cluster.sh
source "$here/cluster.sh"

dir=$(mktemp -d /tmp/kvz-slurm.XXXXXX)
trap 'rm -rf "$dir"' EXIT # slurm_cluster_start puts the cluster's stop before it
fail() {
  slurm_cluster_logs 2>&1 || true
  echo "FAIL: slurm cluster_test: $*"
  exit 1
}
now_ms() { echo $((${EPOCHREALTIME/./} / 1000)); }

t0=$(now_ms)
slurm_cluster_start "$dir" || fail "the cluster did not start"
start_ms=$(($(now_ms) - t0))
[ "$SLURM_CONF" = "$dir/slurm.conf" ] || fail "SLURM_CONF is '$SLURM_CONF', not $dir/slurm.conf"
ctld_port=$(sed -n 's/^SlurmctldPort=//p' "$SLURM_CONF")
slurmd_port=$(sed -n 's/^SlurmdPort=//p' "$SLURM_CONF")
pid_of() { awk -v n="$1" '$1 == n { print $2 }' "$dir/run/pids"; }

# Every TCP/UDP socket that PID listens on (IPv4 or IPv6), as "proto local-address", one a line.
listening() { ss -Htulnp | awk -v p="pid=$1," 'index($0, p) { print $1, $5 }' | sort -u; }
# Each Slurm daemon listens on its own port on 127.0.0.1 and nowhere else; munged on no IP socket.
check_listening() { # name pid port
  local got
  got=$(listening "$2")
  [ "$got" = "tcp 127.0.0.1:$3" ] || fail "$1 (pid $2) listens on '$(echo "$got" | tr '\n' ' ')', not only tcp 127.0.0.1:$3"
}
check_listening slurmctld "$(pid_of slurmctld)" "$ctld_port"
check_listening slurmd "$(pid_of slurmd)" "$slurmd_port"
[ -z "$(listening "$(pid_of munged)")" ] || fail "munged listens on an IP socket: $(listening "$(pid_of munged)")"

shared=$dir/shared
mkdir -p "$shared" "$dir/jobs"
# (a) A 4-task array: each task writes what Slurm tells it about the array.
cat >"$dir/jobs/array.sh" <<'EOF'
#!/bin/bash
env | grep '^SLURM' | sort >"$1/array.$SLURM_ARRAY_TASK_ID.env"
echo "$SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT $SLURM_ARRAY_TASK_MIN $SLURM_ARRAY_TASK_MAX" >"$1/array.$SLURM_ARRAY_TASK_ID"
EOF
# (b) Runs only once every task of the array succeeded, and finds all four files.
cat >"$dir/jobs/after.sh" <<'EOF'
#!/bin/bash
for i in 0 1 2 3; do [ -s "$1/array.$i" ] || exit 1; done
echo "$SLURM_JOB_DEPENDENCY" >"$1/after"
EOF
# (c) A 3-task step (overcommitted: the node may have fewer CPUs). The tasks wait until the batch
# script has seen srun's listening sockets, so srun is caught while it listens.
cat >"$dir/jobs/step.sh" <<'EOF'
#!/bin/bash
shared=$1
srun --overcommit -n 3 bash -c '
  env | grep "^SLURM" | sort >"$0/step.$SLURM_PROCID.env"
  echo "$SLURM_PROCID $SLURM_NTASKS" >"$0/step.$SLURM_PROCID"
  for i in $(seq 200); do [ -e "$0/step.go" ] && exit 0; sleep 0.05; done
  exit 1' "$shared" &
srun_pid=$!
env | grep "^SLURM" | sort >"$shared/step.batch.env"
for i in $(seq 200); do [ -e "$shared/step.0" ] && [ -e "$shared/step.1" ] && [ -e "$shared/step.2" ] && break; sleep 0.05; done
ss -Htulnp | awk -v p="pid=$srun_pid," 'index($0, p) { print $1, $5 }' | sort -u >"$shared/srun.listening"
touch "$shared/step.go"
wait "$srun_pid"
EOF
submit() { sbatch --parsable --chdir="$dir" --output="$dir/jobs/%x-%A_%a.out" "$@"; }
t1=$(now_ms)
arr=$(submit --job-name=array --array=0-3 "$dir/jobs/array.sh" "$shared") || fail "sbatch --array=0-3 failed"
after=$(submit --job-name=after --dependency="afterok:$arr" "$dir/jobs/after.sh" "$shared") ||
  fail "sbatch --dependency=afterok:$arr failed"
step=$(submit --job-name=step --ntasks=3 --overcommit "$dir/jobs/step.sh" "$shared") || fail "sbatch --ntasks=3 failed"

states=$(slurm_wait_job "$arr" 40) || fail "array job $arr did not finish"
want=$(printf '%s_%s COMPLETED 0:0\n' "$arr" 0 "$arr" 1 "$arr" 2 "$arr" 3)
[ "$states" = "$want" ] || fail "array job states: $(echo "$states" | tr '\n' ' ')"
for i in 0 1 2 3; do
  [ "$(cat "$shared/array.$i" 2>/dev/null)" = "$i 4 0 3" ] ||
    fail "array task $i wrote '$(cat "$shared/array.$i" 2>/dev/null)', wanted '$i 4 0 3' (ID COUNT MIN MAX)"
  grep -qx "SLURM_ARRAY_JOB_ID=$arr" "$shared/array.$i.env" || fail "array task $i: SLURM_ARRAY_JOB_ID is not $arr"
  # An array task is also task 0 of its own job, with no task count: the array's variables win.
  grep -qx "SLURM_PROCID=0" "$shared/array.$i.env" || fail "array task $i: SLURM_PROCID is not 0"
  ! grep -q "^SLURM_NTASKS=" "$shared/array.$i.env" || fail "array task $i: SLURM_NTASKS is set"
done
states=$(slurm_wait_job "$after" 40) || fail "dependent job $after did not finish"
[ "$states" = "$after COMPLETED 0:0" ] || fail "dependent job: $states (it checks the array's four files)"
[ -s "$shared/after" ] || fail "dependent job wrote nothing"
states=$(slurm_wait_job "$step" 40) || fail "step job $step did not finish"
[ "$states" = "$step COMPLETED 0:0" ] || fail "step job: $states"
for i in 0 1 2; do
  [ "$(cat "$shared/step.$i" 2>/dev/null)" = "$i 3" ] ||
    fail "step task $i wrote '$(cat "$shared/step.$i" 2>/dev/null)', wanted '$i 3' (PROCID NTASKS)"
  grep -qx "SLURM_STEP_ID=0" "$shared/step.$i.env" || fail "step task $i: SLURM_STEP_ID is not 0"
done
# The batch script around srun sees SLURM_PROCID=0 and SLURM_NTASKS=3 too, but no SLURM_STEP_ID:
# only inside a step do SLURM_PROCID/SLURM_NTASKS name one task of several.
if ! grep -qx "SLURM_NTASKS=3" "$shared/step.batch.env" || ! grep -qx "SLURM_PROCID=0" "$shared/step.batch.env" ||
  grep -q "^SLURM_STEP_ID=" "$shared/step.batch.env"; then
  fail "step job's batch script: not SLURM_NTASKS=3, SLURM_PROCID=0 and no SLURM_STEP_ID"
fi
[ -s "$shared/srun.listening" ] || fail "srun's listening sockets not caught"
! grep -v '^tcp 127\.0\.0\.1:[0-9]*$' "$shared/srun.listening" >/dev/null ||
  fail "srun listens beyond 127.0.0.1: $(tr '\n' ' ' <"$shared/srun.listening")"
jobs_ms=$(($(now_ms) - t1))
if [ -n "${KVZ_SLURM_ENV_OUT:-}" ]; then # what Slurm set, for whoever wants to read it
  cp "$shared"/*.env "$KVZ_SLURM_ENV_OUT"/
fi

t2=$(now_ms)
slurm_cluster_stop
stop_ms=$(($(now_ms) - t2))
[ -z "${SLURM_CONF:-}" ] || fail "SLURM_CONF still set after the stop"
while read -r name pid start; do
  [ "$(_slurm_cluster_starttime "$pid" 2>/dev/null)" != "$start" ] || fail "$name (pid $pid) still runs after the stop"
done <"$dir/run/pids"
# Nothing else of the cluster either: no process left whose environment names its slurm.conf
# (the daemons, slurmstepd and job tasks all carry it).
left=""
for e in /proc/[0-9]*/environ; do
  if grep -qzx "SLURM_CONF=$dir/slurm.conf" "$e" 2>/dev/null; then
    p=${e#/proc/}
    left+=" ${p%/environ}($(tr '\0' ' ' <"/proc/${p%/environ}/cmdline" 2>/dev/null))"
  fi
done
[ -z "$left" ] || fail "processes of the cluster left after the stop:$left"
echo "slurm cluster_test: OK (start ${start_ms} ms, jobs ${jobs_ms} ms, stop ${stop_ms} ms; ports $ctld_port/$slurmd_port)"
