# shellcheck shell=bash
# A single-node Slurm cluster for tests, started and stopped by the test itself (tests/slurm/README.md).
# Source it, then:
#   slurm_cluster_start DIR    munged, slurmctld and slurmd with all their state in DIR (an empty
#                              temp dir); exports SLURM_CONF for sbatch/srun/squeue/scontrol; puts
#                              slurm_cluster_stop in the EXIT trap; returns once the node is idle
#   slurm_wait_job JOBID SECS  waits until the job (every task of an array) is in a final state,
#                              prints "ID STATE EXITCODE" a record; 1 on timeout, 2 for no such job
#   slurm_cluster_stop         cancels the jobs still queued, stops exactly the daemons it started
#   slurm_cluster_logs         the tail of each daemon's log, on stderr (for a failing test)
# Rules: every daemon binds to and is addressed by 127.0.0.1 only, on ports free at start; nothing
# is written outside DIR; only the PIDs started here are ever signalled.
# Debian's slurm-wlm and munge (Slurm 22.05), as root. Call slurm_cluster_start from the test's own
# shell (not in $(...) or a pipeline): the daemons are its children. Safe under `set -euo pipefail`:
# the functions return nonzero with one line on stderr rather than exit.

SLURM_CLUSTER_DIR=""
SLURM_CLUSTER_NODE=kvz0
SLURM_CLUSTER_PIDS=() # "name:pid:starttime", in start order

_slurm_cluster_err() { echo "slurm cluster: $*" >&2; }

# The kernel's start time of PID (field 22 of /proc/PID/stat), so a recycled PID is never taken
# for ours; nothing for a zombie (exited, not yet reaped).
_slurm_cluster_starttime() {
  local stat IFS=$' \t\n'
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) } # past "pid (comm) "
  # shellcheck disable=SC2086
  set -- $stat
  [ "$1" != Z ] || return 1
  echo "${20}"
}

_slurm_cluster_alive() { # name:pid:starttime
  local pid=${1#*:}
  local start=${pid#*:}
  pid=${pid%%:*}
  [ "$(_slurm_cluster_starttime "$pid" 2>/dev/null)" = "$start" ]
}

# A TCP port in 20000-31999 (below Linux's ephemeral range, 32768 up) that no socket uses, nor the
# next one: slurmctld's and slurmd's ports are PORT and PORT+1.
_slurm_cluster_free_ports() {
  local used p i
  used=$(ss -Htan | awk '{ n = split($4, a, ":"); print a[n] }' | sort -u)
  for i in $(seq 1 200); do
    p=$((20000 + (RANDOM * 32768 + RANDOM) % 11999))
    if ! grep -qx -e "$p" -e "$((p + 1))" <<<"$used"; then
      echo "$p"
      return 0
    fi
  done
  return 1
}

slurm_cluster_logs() {
  local d f
  for d in munged slurmctld slurmd; do
    f=$SLURM_CLUSTER_DIR/log/$d.log
    [ -s "$f" ] || f=$SLURM_CLUSTER_DIR/log/$d.out # what it said before it opened its log
    [ -s "$f" ] || continue
    echo "--- tail of $f" >&2
    tail -n 20 "$f" >&2
  done
}

_slurm_cluster_spawned() { # name pid: record a daemon this shell just started
  local start
  start=$(_slurm_cluster_starttime "$2") || {
    _slurm_cluster_err "$1 (pid $2) exited at once"
    return 1
  }
  SLURM_CLUSTER_PIDS+=("$1:$2:$start")
  echo "$1 $2 $start" >>"$SLURM_CLUSTER_DIR/run/pids"
}

# Wait up to $1 seconds (0.1 s steps) for the command after it to succeed; give up at once when a
# daemon started here has exited.
_slurm_cluster_until() {
  local steps=$(($1 * 10)) entry
  shift
  while ! "$@" >/dev/null 2>&1; do
    for entry in "${SLURM_CLUSTER_PIDS[@]}"; do
      _slurm_cluster_alive "$entry" || {
        _slurm_cluster_err "${entry%%:*} exited"
        return 1
      }
    done
    steps=$((steps - 1))
    [ "$steps" -gt 0 ] || return 1
    sleep 0.1
  done
}

# A Slurm command, given up after 20 s: a client retries an unreachable slurmctld for about 18 s.
_slurm_cli() { timeout 20 "$@"; }

_slurm_cluster_node_idle() {
  [ "$(_slurm_cli sinfo -h -n "$SLURM_CLUSTER_NODE" -o %T 2>/dev/null)" = idle ]
}

_slurm_cluster_no_jobs() { # nothing pending, running or completing
  local out
  out=$(_slurm_cli squeue -h -o %i 2>/dev/null) || return 1
  [ -z "$out" ]
}

_slurm_cluster_ctld_alive() { # true unless this shell started a slurmctld that has exited
  local entry
  for entry in "${SLURM_CLUSTER_PIDS[@]}"; do
    [ "${entry%%:*}" != slurmctld ] || _slurm_cluster_alive "$entry" || return 1
  done
}

# slurm_cluster_stop first, then whatever EXIT trap the caller had set.
_slurm_cluster_add_exit_trap() {
  local prev words
  prev=$(trap -p EXIT)
  if [ -n "$prev" ]; then
    eval "words=(${prev})" # trap -- 'COMMAND' EXIT
    case ${words[2]} in *slurm_cluster_stop*) return 0 ;; esac
    # shellcheck disable=SC2064
    trap "slurm_cluster_stop; ${words[2]}" EXIT
  else
    trap slurm_cluster_stop EXIT
  fi
}

_slurm_cluster_abort() { # message: a start that failed half-way
  _slurm_cluster_err "$*"
  slurm_cluster_logs
  slurm_cluster_stop
  return 1
}

# Before anything starts: root, the commands, and a host name that resolves to loopback only.
_slurm_cluster_preflight() {
  local b host addrs a
  [ "$(id -u)" = 0 ] || {
    _slurm_cluster_err "needs root (SlurmUser=root)"
    return 1
  }
  for b in munged mungekey slurmctld slurmd sinfo squeue scontrol scancel ss getent timeout; do
    command -v "$b" >/dev/null || {
      _slurm_cluster_err "$b not found: apt-get install slurm-wlm munge"
      return 1
    }
  done
  # NoInAddrAny/NoCtldInAddrAny make the Slurm daemons and srun bind to the address this host's
  # name resolves to instead of 0.0.0.0: that must be loopback and nothing else.
  host=$(hostname)
  addrs=$(getent ahostsv4 "$host" | awk '{ print $1 }' | sort -u)
  [ -n "$addrs" ] || {
    _slurm_cluster_err "host name $host does not resolve, and Slurm binds to its address"
    return 1
  }
  for a in $addrs; do
    case $a in
    127.*) ;;
    *)
      _slurm_cluster_err "host name $host resolves to $a, not loopback, and Slurm would bind to it"
      return 1
      ;;
    esac
  done
}

slurm_cluster_start() {
  local dir=${1:?slurm_cluster_start DIR}
  local timeout=${SLURM_CLUSTER_TIMEOUT:-60}
  local port node_line
  if [ -n "$SLURM_CLUSTER_DIR" ]; then
    _slurm_cluster_err "already started in $SLURM_CLUSTER_DIR"
    return 1
  fi
  _slurm_cluster_preflight || return 1
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || return 1
  # Unix socket paths (munged's, slurmstepd's in the spool dir) are limited to 107 bytes.
  if [ ${#dir} -gt 64 ]; then
    _slurm_cluster_err "$dir: path longer than 64 bytes, too long for the daemons' sockets"
    return 1
  fi
  if [ -n "$(ls -A "$dir")" ]; then
    _slurm_cluster_err "$dir is not empty"
    return 1
  fi
  port=$(_slurm_cluster_free_ports) || {
    _slurm_cluster_err "no free TCP port pair found"
    return 1
  }
  # The node as slurmd sees the hardware, so it is never drained for a mismatch.
  node_line=$(slurmd -C | sed -n '1s/^NodeName=[^ ]* //p')
  [ -n "$node_line" ] || {
    _slurm_cluster_err "slurmd -C printed no node line"
    return 1
  }
  SLURM_CLUSTER_DIR=$dir
  SLURM_CLUSTER_PIDS=()
  _slurm_cluster_add_exit_trap
  # munged wants its socket's directory and every parent searchable by all; the key stays private.
  {
    chmod 0755 "$dir" &&
      mkdir "$dir"/{munge,munge-socket,state,spool,log,run} &&
      chmod 0700 "$dir/munge" "$dir/state" "$dir/spool" &&
      : >"$dir/run/pids"
  } || {
    _slurm_cluster_abort "cannot lay out $dir"
    return 1
  }

  { mungekey --create --keyfile="$dir/munge/munge.key" && chmod 0400 "$dir/munge/munge.key"; } || {
    _slurm_cluster_abort "mungekey failed"
    return 1
  }
  munged --foreground --key-file="$dir/munge/munge.key" --socket="$dir/munge-socket/munge.socket" \
    --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed" --origin=127.0.0.1 </dev/null >>"$dir/log/munged.out" 2>&1 &
  { _slurm_cluster_spawned munged $! && _slurm_cluster_until 10 test -S "$dir/munge-socket/munge.socket"; } || {
    _slurm_cluster_abort "munged did not start"
    return 1
  }

  export SLURM_CONF=$dir/slurm.conf
  cat >"$SLURM_CONF" <<EOF
# Written by tests/slurm/cluster.sh: a throwaway single-node cluster on 127.0.0.1.
ClusterName=kvz
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge-socket/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MailProg=/bin/true
# Schedule as soon as a job is submitted or ends (default: at most every 3 s), and cancel a job
# whose dependency can never be met (an afterok on a failed job) instead of leaving it pending.
SchedulerParameters=batch_sched_delay=0
DependencyParameters=kill_invalid_depend
NodeName=$SLURM_CLUSTER_NODE NodeAddr=127.0.0.1 $node_line State=UNKNOWN
PartitionName=debug Nodes=$SLURM_CLUSTER_NODE Default=YES MaxTime=INFINITE State=UP
EOF

  slurmctld -D </dev/null >>"$dir/log/slurmctld.out" 2>&1 &
  { _slurm_cluster_spawned slurmctld $! && _slurm_cluster_until "$timeout" _slurm_cli scontrol ping; } || {
    _slurm_cluster_abort "slurmctld did not answer within $timeout s"
    return 1
  }
  slurmd -D -N "$SLURM_CLUSTER_NODE" </dev/null >>"$dir/log/slurmd.out" 2>&1 &
  { _slurm_cluster_spawned slurmd $! && _slurm_cluster_until "$timeout" _slurm_cluster_node_idle; } || {
    _slurm_cluster_abort "slurmd: node $SLURM_CLUSTER_NODE not idle within $timeout s:" \
      "$(_slurm_cli sinfo -h -N -o '%N %T %E' 2>&1 | head -n 3)"
    return 1
  }
}

# Final states only; PENDING, RUNNING, COMPLETING, CONFIGURING, SUSPENDED, REQUEUED... are not.
_slurm_final_state() {
  case $1 in
  COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | PREEMPTED | BOOT_FAIL | DEADLINE | OUT_OF_MEMORY) return 0 ;;
  *) return 1 ;;
  esac
}

# `scontrol -o show job` as one "ID STATE EXITCODE" line per record: an array's tasks as
# JOBID_TASK (the tasks not started yet as JOBID_[a-b]).
_slurm_job_states() {
  awk '{
      id = ""; arr = ""; task = ""; st = ""; ec = ""
      for (i = 1; i <= NF; i++) {
        split($i, kv, "=")
        if (kv[1] == "JobId") id = kv[2]
        else if (kv[1] == "ArrayJobId") arr = kv[2]
        else if (kv[1] == "ArrayTaskId") task = kv[2]
        else if (kv[1] == "JobState") st = kv[2]
        else if (kv[1] == "ExitCode") ec = substr($i, 10)
      }
      if (id == "") next  # a blank line between records (scontrol prints some)
      if (task != "") id = arr "_" (task ~ /[-,]/ ? "[" task "]" : task)
      print id, st, ec
    }' | sort -V
}

slurm_wait_job() {
  local job=${1:?slurm_wait_job JOBID TIMEOUT} timeout=${2:?slurm_wait_job JOBID TIMEOUT}
  local deadline=$((SECONDS + timeout)) out states s pending
  while :; do
    _slurm_cluster_ctld_alive || {
      _slurm_cluster_err "slurmctld is not running: job $job cannot finish"
      return 1
    }
    if ! out=$(_slurm_cli scontrol -o show job "$job" 2>&1); then
      case $out in
      *"Invalid job id"*)
        _slurm_cluster_err "no job $job"
        return 2
        ;;
      esac
      _slurm_cluster_err "job $job: scontrol failed: $(echo "${out:-timed out}" | head -n 1)"
      return 1
    fi
    states=$(echo "$out" | _slurm_job_states)
    pending=0
    [ -n "$states" ] || pending=1
    while read -r _ s _; do
      _slurm_final_state "$s" || pending=1
    done <<<"$states"
    if [ $pending = 0 ]; then
      echo "$states"
      return 0
    fi
    if [ $SECONDS -ge $deadline ]; then
      _slurm_cluster_err "job $job not finished within $timeout s: $(echo "${states:-unknown}" | tr '\n' ' ')"
      return 1
    fi
    sleep 0.2
  done
}

slurm_cluster_stop() {
  local entry name pid i n left
  [ -n "$SLURM_CLUSTER_DIR" ] || return 0
  # Jobs first, so that no slurmstepd or job outlives the cluster.
  for entry in "${SLURM_CLUSTER_PIDS[@]}"; do
    if [ "${entry%%:*}" != slurmctld ] || ! _slurm_cluster_alive "$entry"; then
      continue
    fi
    _slurm_cli scancel --full --quiet --user=root >/dev/null 2>&1 || true
    _slurm_cluster_until 10 _slurm_cluster_no_jobs || _slurm_cluster_err "jobs still listed 10 s after scancel"
  done
  # Then the daemons, last started first: SIGTERM, up to 15 s, then SIGKILL.
  for ((i = ${#SLURM_CLUSTER_PIDS[@]} - 1; i >= 0; i--)); do
    entry=${SLURM_CLUSTER_PIDS[$i]}
    name=${entry%%:*}
    pid=${entry#*:}
    pid=${pid%%:*}
    _slurm_cluster_alive "$entry" || continue
    kill -TERM "$pid" 2>/dev/null || true
    n=150
    while _slurm_cluster_alive "$entry" && [ $n -gt 0 ]; do
      sleep 0.1
      n=$((n - 1))
    done
    if _slurm_cluster_alive "$entry"; then
      _slurm_cluster_err "$name (pid $pid) still runs 15 s after SIGTERM: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
  done
  unset SLURM_CONF
  # Whatever outlived the daemons (a slurmstepd, a job, a command the caller started with
  # SLURM_CONF) names this cluster's slurm.conf in its environment: say so, signal none of it.
  left=$(grep -lzx "SLURM_CONF=$SLURM_CLUSTER_DIR/slurm.conf" /proc/[0-9]*/environ 2>/dev/null |
    cut -d/ -f3 | tr '\n' ' ') || true
  [ -z "$left" ] || _slurm_cluster_err "still running after the stop, with this cluster's SLURM_CONF: pids $left"
  SLURM_CLUSTER_DIR=""
  SLURM_CLUSTER_PIDS=()
  return 0
}
