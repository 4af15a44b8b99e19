#!/usr/bin/env bash
# A private one-node Slurm cluster on 127.0.0.1 for tests and for trying the sweep's Slurm path
# (docs/sweeps.md): munged, slurmctld and slurmd run as root with every file under DIR.
#
#   local_cluster.sh start DIR [--owner PID]   configure and start; prints the SLURM_CONF to export
#   local_cluster.sh stop DIR                  cancel every job, stop every daemon by its pid
#
# Nothing is written outside DIR: munged gets its own key, socket, pid, seed and log files there,
# and Slurm finds the socket through AuthInfo, so the system's /etc/munge and /etc/slurm are
# neither read nor changed. Ports are free ports on 127.0.0.1 chosen at start. The daemons run in
# the foreground (-D/-F) in their own session, so the pids recorded in DIR/pids are exactly the
# daemons' pids. With --owner PID a watchdog (also in DIR/pids) stops the cluster when PID exits,
# even if PID was killed with SIGKILL and could not run its own cleanup.
#
# Every daemon started here carries HIFSIM_LOCAL_CLUSTER=DIR in its environment, and so does a job
# when its submitter sets it (sbatch exports the submitter's environment); slurmstepd keeps
# DIR/log/slurmd.log open. `stop` finds stragglers by those marks and kills them by pid, never by
# name, so the processes of any other cluster are never touched.
# Exit status of `stop`: 0 when nothing of the cluster is left running.
set -euo pipefail

script=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")  # absolute: start leaves the caller's folder
die() { echo "local_cluster: $*" >&2; exit 1; }
usage() { sed -n '2,8p' "$script" >&2; exit 2; }

[[ $# -ge 2 ]] || usage
cmd=$1
dir=$2
shift 2

# pid of every process of this cluster except this script and its ancestors (a shell that
# exported the marker by hand is not a straggler): the environment holds our marker (daemons,
# jobs), or a file descriptor or the working folder is under DIR (slurmstepd starts with an empty
# environment but keeps DIR/log/slurmd.log open).
cluster_pids() {
  local a=$$ mine=" $BASHPID " p
  while [[ $a -gt 1 ]]; do
    mine+="$a "
    a=$(awk '/^PPid:/ {print $2}' "/proc/$a/status" 2>/dev/null || echo 0)
  done
  {
    grep -lzxF -- "HIFSIM_LOCAL_CLUSTER=$dir" /proc/[0-9]*/environ 2>/dev/null || true
    find /proc/[0-9]*/cwd /proc/[0-9]*/fd -maxdepth 1 -lname "$dir/*" 2>/dev/null || true
  } | cut -d/ -f3 | sort -un | while read -r p; do
    [[ $mine == *" $p "* ]] || echo "$p"
  done
}

# Waits up to $2 seconds for pid $1 to exit.
wait_gone() {
  local pid=$1 t=$(( $2 * 10 ))
  while kill -0 "$pid" 2>/dev/null && ((t-- > 0)); do sleep 0.1; done
  ! kill -0 "$pid" 2>/dev/null
}

stop_pid() {  # TERM, then KILL after $3 seconds (default 10)
  local pid=$1 name=$2 grace=${3:-10}
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  if ! wait_gone "$pid" "$grace"; then
    echo "local_cluster: $name (pid $pid) ignored SIGTERM for $grace s: SIGKILL" >&2
    kill -KILL "$pid" 2>/dev/null || true
    wait_gone "$pid" 5 || true
  fi
}

stop_cluster() {
  [[ -f $dir/slurm.conf ]] || die "$dir/slurm.conf: not a cluster folder"
  export SLURM_CONF=$dir/slurm.conf
  unset HIFSIM_LOCAL_CLUSTER  # our own helpers (tr, grep, sleep) must not look like stragglers
  local slurmctld_pid="" watchdog_pid=""
  [[ -f $dir/pids/slurmctld ]] && slurmctld_pid=$(<"$dir/pids/slurmctld")
  [[ -f $dir/pids/watchdog ]] && watchdog_pid=$(<"$dir/pids/watchdog")
  # The watchdog first (unless it is the one running this stop): the cluster is being stopped.
  if [[ -n $watchdog_pid && $watchdog_pid != "${WATCHDOG_SELF:-}" ]]; then
    kill -TERM "$watchdog_pid" 2>/dev/null || true
  fi
  # Jobs first, while the controller can still cancel them; bounded.
  if [[ -n $slurmctld_pid ]] && kill -0 "$slurmctld_pid" 2>/dev/null; then
    local jobs t0=$SECONDS
    if timeout 10 scancel --user="$(id -un)" 2>/dev/null; then
      while ((SECONDS - t0 < 20)); do
        jobs=$(timeout 5 squeue -h -t all -o '%i %T' 2>/dev/null | grep -vE 'COMPLETED|CANCELLED|FAILED|TIMEOUT|OUT_OF_MEMORY|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE' || true)
        [[ -z $jobs ]] && break
        sleep 0.2
      done
    fi
  fi
  local name
  for name in slurmd slurmctld munged; do
    [[ -f $dir/pids/$name ]] && stop_pid "$(<"$dir/pids/$name")" "$name"
  done
  # Stragglers (a slurmstepd or a job whose slurmd is gone), by their marks (cluster_pids).
  local p left=()
  for p in $(cluster_pids); do
    stop_pid "$p" "$({ tr '\0' ' ' <"/proc/$p/cmdline"; } 2>/dev/null || echo '?')" 3
  done
  for p in $(cluster_pids); do left+=("$p"); done
  if ((${#left[@]})); then
    echo "local_cluster: still running after stop: ${left[*]}" >&2
    return 1
  fi
  echo "local_cluster: stopped ($dir)"
}

free_ports() {  # two free TCP ports on 127.0.0.1
  python3 - <<'EOF'
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])
EOF
}

start_cluster() {
  local owner=""
  while [[ $# -gt 0 ]]; do
    case $1 in
      --owner) owner=$2; shift 2 ;;
      *) usage ;;
    esac
  done
  [[ $(id -u) -eq 0 ]] || die "needs root (slurmd starts jobs as their user; munged checks its files' owners)"
  local tool
  for tool in munged mungekey slurmctld slurmd sbatch squeue scancel sinfo; do
    command -v "$tool" >/dev/null || die "'$tool' is not installed (bash scripts/setup.sh --slurm installs slurm-wlm and munge)"
  done
  [[ ! -e $dir || -z $(ls -A "$dir") ]] || die "$dir exists and is not empty"
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  # munged insists that everyone can traverse to its socket and that only root can read the key.
  chmod 755 "$dir"
  mkdir -p "$dir/munge" "$dir/munge-key" "$dir/state" "$dir/spool" "$dir/log" "$dir/pids"
  chmod 755 "$dir/munge"
  chmod 700 "$dir/munge-key"
  mungekey --create --keyfile="$dir/munge-key/munge.key" >/dev/null
  local ports ctld_port slurmd_port
  ports=$(free_ports)
  read -r ctld_port slurmd_port <<<"$ports"
  : >"$dir/plugstack.conf"  # not the system's /etc/slurm/plugstack.conf
  cat >"$dir/slurm.conf" <<EOF
# A private one-node cluster written by scripts/slurm/local_cluster.sh; every path is under $dir.
ClusterName=hifsim-local
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/log/slurmctld.pid
SlurmdPidFile=$dir/log/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
PlugStackConfig=$dir/plugstack.conf
# No cgroups, no accounting daemon: what a container or CI machine can run.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# Finished jobs stay visible to squeue/scontrol for 5 minutes (the test reads their states).
MinJobAge=300
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf HIFSIM_LOCAL_CLUSTER=$dir
  # The daemons work in DIR/log, not in the caller's folder (which may be a source tree): nothing
  # they leave in their working folder (a core file, a stray output) lands outside DIR.
  cd "$dir/log"
  # setsid: the daemons are not in the caller's process group, so a terminal's Ctrl-C reaches the
  # caller's cleanup instead of killing the daemons half-way.
  setsid munged -F --socket="$dir/munge/munge.socket" --key-file="$dir/munge-key/munge.key" \
    --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge-key/munged.seed" \
    --log-file="$dir/log/munged.log" </dev/null >"$dir/log/munged.out" 2>&1 &
  echo $! >"$dir/pids/munged"
  local t
  for t in $(seq 100); do [[ -S $dir/munge/munge.socket ]] && break; sleep 0.1; done
  [[ -S $dir/munge/munge.socket ]] || { cat "$dir/log/munged.out" "$dir/log/munged.log" >&2 2>/dev/null; stop_cluster >&2 || true; die "munged did not start"; }
  setsid slurmctld -D -f "$dir/slurm.conf" </dev/null >"$dir/log/slurmctld.out" 2>&1 &
  echo $! >"$dir/pids/slurmctld"
  setsid slurmd -D -f "$dir/slurm.conf" -N localhost </dev/null >"$dir/log/slurmd.out" 2>&1 &
  echo $! >"$dir/pids/slurmd"
  if [[ -n $owner ]]; then
    # The watchdog: polls the owner once a second; stops the cluster when it is gone.
    # It works in / and holds no file under DIR (and lacks the marker), so it is never taken for a
    # straggler.
    (cd / && exec env -u HIFSIM_LOCAL_CLUSTER setsid bash -c 'while kill -0 "$1" 2>/dev/null && [[ -e "$2/slurm.conf" ]]; do sleep 1; done
                    [[ -e "$2/pids/stopped" ]] || WATCHDOG_SELF=$$ bash "$3" stop "$2" >>"$2/log/watchdog.out" 2>&1' \
      watchdog "$owner" "$dir" "$script" </dev/null >/dev/null 2>&1) &
    echo $! >"$dir/pids/watchdog"
  fi
  # Ready when the node is idle (registered with the controller); bounded to 60 s.
  local state=""
  for t in $(seq 120); do
    state=$(sinfo -h -n localhost -o %T 2>/dev/null || true)
    [[ $state == idle ]] && break
    sleep 0.5
  done
  if [[ $state != idle ]]; then
    echo "local_cluster: the node is not idle after 60 s (state '${state:-none}'); logs:" >&2
    tail -n 20 "$dir"/log/*.log "$dir"/log/*.out >&2 2>/dev/null || true
    stop_cluster >&2 || true
    die "the cluster did not start"
  fi
  echo "local_cluster: up ($(nproc) CPUs, slurmctld port $ctld_port); export SLURM_CONF=$dir/slurm.conf"
}

case $cmd in
  start) start_cluster "$@" ;;
  stop)
    dir=$(cd "$dir" 2>/dev/null && pwd) || die "$2: no such folder"
    rc=0
    stop_cluster || rc=$?
    touch "$dir/pids/stopped" 2>/dev/null || true
    exit $rc ;;
  *) usage ;;
esac
