#!/usr/bin/env bash
# A private single-node Slurm (munged, slurmctld, slurmd on localhost) in DIR, for the Slurm tests.
#   slurm-cluster.sh start DIR   generates DIR/slurm.conf and a munge key, starts the daemons, waits
#                                until sinfo shows the node idle; on failure prints the logs, stops
#                                whatever it started and exits 1.
#   slurm-cluster.sh stop DIR    cancels every job, stops the daemons (pid files in DIR), waits for them.
# Clients then need SLURM_CONF=DIR/slurm.conf. Runs as root (slurmd must); munged runs as `munge`.
# Every daemon's output goes to files in DIR, so the caller's pipes close when this script ends.
set -euo pipefail
action=$1 dir=$(realpath "$2")
export SLURM_CONF=$dir/slurm.conf

pids() { cat "$dir"/run/*.pid 2>/dev/null || true; }
# A daemon that has exited but whose parent (init, after it detached) has not reaped it is gone too.
alive() { [ -e "/proc/$1" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }

stop() {
  echo "$(date +%s.%N) stop" >&2
  if [ -f "$SLURM_CONF" ] && [ -f "$dir/run/slurmctld.pid" ]; then
    timeout 5 scancel --full --quiet --user=root 2>/dev/null || true
    # Jobs end (their steps' processes are signalled) before the daemons go.
    for _ in $(seq 100); do
      [ -z "$(timeout 5 squeue --noheader --user=root 2>/dev/null)" ] && break
      sleep 0.1
    done
  fi
  echo "$(date +%s.%N) jobs gone" >&2
  local all
  all=$(pids)
  for pid in $all; do kill "$pid" 2>/dev/null || true; done
  # They are throwaway daemons: a short grace for a clean exit, then SIGKILL.
  for _ in $(seq 30); do
    local alive=""
    for pid in $all; do alive "$pid" && alive=1; done
    [ -z "$alive" ] && break
    sleep 0.1
  done
  echo "$(date +%s.%N) daemons asked" >&2
  for pid in $all; do
    if alive "$pid"; then
      echo "$(date +%s.%N) killing $(cat "/proc/$pid/comm" 2>/dev/null) ($pid)" >&2
      kill -9 "$pid" 2>/dev/null || true
    fi
  done
  for pid in $all; do
    for _ in $(seq 50); do alive "$pid" || break; sleep 0.02; done
  done
  # A step daemon whose job outlived the wait (started by our slurmd: it has our SLURM_CONF).
  local proc comm
  for proc in /proc/[0-9]*; do
    { read -r comm <"$proc/comm"; } 2>/dev/null || continue
    [ "$comm" = slurmstepd ] || continue
    if grep -qzx "SLURM_CONF=$SLURM_CONF" "$proc/environ" 2>/dev/null; then
      kill -9 "${proc#/proc/}" 2>/dev/null || true
    fi
  done
  rm -f "$dir"/run/*.pid
  echo "$(date +%s.%N) stopped" >&2
}

fail() {
  echo "slurm-cluster.sh: $*" >&2
  for log in "$dir"/log/*.log; do
    [ -f "$log" ] && { echo "--- $log" >&2; tail -n 20 "$log" >&2; }
  done
  stop
  exit 1
}

free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

start() {
  for tool in munged slurmctld slurmd sinfo sbatch; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (scripts/setup installs slurm-wlm and munge)"
  done
  [ "$(id -u)" -eq 0 ] || fail "slurmd must run as root"
  id munge >/dev/null 2>&1 || fail "no munge user (the munge package creates it)"
  mkdir -p "$dir"/{run,log,state,spool,munge}
  chmod 755 "$dir"
  # munged checks that only its user can reach its key, socket and logs.
  head -c 1024 /dev/urandom >"$dir/munge/munge.key"
  chmod 711 "$dir/munge"
  chmod 400 "$dir/munge/munge.key"
  chown -R munge:munge "$dir/munge"
  local socket=$dir/munge/munge.socket
  runuser -u munge -- munged --socket="$socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" \
    </dev/null >>"$dir/log/munged-start.log" 2>&1 || fail "munged did not start"
  cp "$dir/munge/munged.pid" "$dir/run/munged.pid"
  local cpus ctld_port slurmd_port
  cpus=$(nproc)
  ctld_port=$(free_port)
  slurmd_port=$(free_port)
  cat >"$SLURM_CONF" <<EOF
ClusterName=hfrtest
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
KillWait=10
SchedulerParameters=sched_min_interval=0
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=hfr Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  slurmctld -i </dev/null >>"$dir/log/slurmctld-start.log" 2>&1 || fail "slurmctld did not start"
  slurmd -N localhost </dev/null >>"$dir/log/slurmd-start.log" 2>&1 || fail "slurmd did not start"
  for _ in $(seq 300); do
    state=$(sinfo --noheader --nodes=localhost --format=%t 2>/dev/null || true)
    [ "$state" = idle ] && return 0
    sleep 0.1
  done
  fail "the node never became idle (sinfo: ${state:-no answer})"
}

case $action in
start) start ;;
stop) stop ;;
*)
  echo "usage: slurm-cluster.sh start|stop DIR" >&2
  exit 64
  ;;
esac
