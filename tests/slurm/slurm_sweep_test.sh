#!/usr/bin/env bash
# A sweep through a real Slurm cluster (docs/reliability.md, docs/sweep.md "On a cluster").
#
# Starts munged, slurmctld and slurmd as a one-node cluster on localhost (proctrack/linuxproc,
# task/none, no cgroups, no accounting), all state in a temporary directory and on private ports;
# submits the job-array script of docs/sweep.md exactly as the document prints it; kills task 2
# while it runs (scancel) and requeues it (scontrol requeue), so it finishes with --resume; then
# checks that `tenet merge` of the three outputs is byte-identical to a single-machine run.
# Every daemon it started is stopped on exit.
#
# Usage: tests/slurm/slurm_sweep_test.sh TENET_BINARY SOURCE_DIR
# Exit 0: passed; 77: skipped (Slurm / munge not installed, or not root); else failed.
set -euo pipefail
tenet=$(realpath "${1:?usage: slurm_sweep_test.sh TENET_BINARY SOURCE_DIR}")
source_dir=$(realpath "${2:?usage: slurm_sweep_test.sh TENET_BINARY SOURCE_DIR}")

for tool in slurmctld slurmd munged sbatch squeue scancel scontrol; do
  if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
    echo "SKIP: $tool is not installed (Debian packages slurm-wlm and munge; scripts/setup.sh)"
    exit 77
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: the Slurm test starts slurmd, which needs root"
  exit 77
fi
export PATH=/usr/sbin:$PATH

work=$(mktemp -d "${TMPDIR:-/tmp}/tenet-slurm.XXXXXX")
pids=()
cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ $status -ne 0 ] && [ -d "$work" ]; then
    echo "--- logs (test failed) ---"
    tail -n 30 "$work"/*.log "$work"/run/*.log 2>/dev/null || true
  fi
  rm -rf "$work"
  exit $status
}
trap cleanup EXIT
trap 'exit 1' INT TERM

fail() { echo "FAIL: $*"; exit 1; }

# Waits up to $1 seconds for the command "${@:2}" to succeed.
wait_for() {
  local seconds=$1; shift
  for _ in $(seq $((seconds * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  return 1
}

# Free TCP ports for slurmctld and slurmd (private, so a site's Slurm is never touched).
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_port() {
  local p
  for p in $(seq "$1" $(($1 + 200))); do port_free "$p" && { echo "$p"; return; }; done
  fail "no free port from $1"
}
ctld_port=$(pick_port 26817)
slurmd_port=$(pick_port $((ctld_port + 1)))

# --- munge ------------------------------------------------------------------------------------
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/run"
chmod 700 "$work/munge"
head -c 1024 /dev/urandom > "$work/munge/munge.key"
chmod 600 "$work/munge/munge.key"
munged --force --foreground --key-file="$work/munge/munge.key" \
  --socket="$work/munge/munge.socket" --pid-file="$work/munge/munged.pid" \
  --log-file="$work/munged.log" --seed-file="$work/munge/munge.seed" >/dev/null 2>&1 &
pids+=($!)
wait_for 10 test -S "$work/munge/munge.socket" || fail "munged did not start"

# --- slurm ------------------------------------------------------------------------------------
cat > "$work/slurm.conf" <<CONF
ClusterName=tenet-test
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
# cred_expire: a requeued job waits this long before it may start again (default 120 s).
AuthInfo=socket=$work/munge/munge.socket,cred_expire=5
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
JobRequeue=1
SchedulerParameters=sched_interval=1
NodeName=localhost NodeAddr=127.0.0.1 CPUs=6 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >/dev/null 2>&1 &
pids+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" >/dev/null 2>&1 &
pids+=($!)
wait_for 30 sh -c 'sinfo -h -N -o "%T" | grep -Eq "^(idle|mixed|allocated)"' ||
  fail "the node did not come up: $(sinfo -N 2>&1)"
echo "cluster up: slurmctld :$ctld_port, slurmd :$slurmd_port"

# --- the job array of docs/sweep.md -----------------------------------------------------------
# The script is the first bash block after the "On a cluster" heading, as printed.
awk '/^### On a cluster/ {s = 1} s && /^```bash$/ {b = 1; next} b && /^```$/ {exit} b {print}' \
  "$source_dir/docs/sweep.md" > "$work/run/sweep-array.sh"
grep -q 'tenet sweep' "$work/run/sweep-array.sh" || fail "no job script found in docs/sweep.md"
cp "$source_dir/tests/slurm/sweep.json" "$work/run/sweep.json"
cp -r "$source_dir/workloads/models" "$work/models"
mkdir -p "$work/bin"
ln -s "$tenet" "$work/bin/tenet"
export PATH=$work/bin:$PATH
cd "$work/run"

job=$(sbatch --parsable sweep-array.sh) || fail "sbatch failed"
job=${job%%;*}
echo "submitted job array $job"

# Kill task 2 once it has written some rows but is not done, then requeue it.
rows() { [ -f "$1" ] && echo $(($(wc -l < "$1") - 1)) || echo 0; }
points_per_shard=$(( ($("$tenet" sweep --spec sweep.json --out "$work/count.csv" --limit 0 --progress none 2>&1 | sed -n "s/^sweep: \([0-9]*\) points.*/\1/p") + 2) / 3 ))
[ "$points_per_shard" -gt 10 ] || fail "the test sweep is too small ($points_per_shard points per shard)"
wait_for 120 sh -c "[ -f results.2.csv ] && [ \$(wc -l < results.2.csv) -gt 3 ]" ||
  fail "task 2 did not start writing: $(squeue 2>&1)"
before=$(rows results.2.csv)
[ "$before" -lt "$points_per_shard" ] || fail "task 2 finished before it could be cancelled; make tests/slurm/sweep.json larger"
scancel --signal=KILL --full "${job}_2"
wait_for 30 sh -c "scontrol show job ${job}_2 | grep -Eq 'JobState=(CANCELLED|FAILED)'" ||
  fail "task 2 was not cancelled: $(scontrol show job "${job}_2")"
killed_at=$(rows results.2.csv)
echo "task 2 cancelled after $killed_at of $points_per_shard rows"
[ "$killed_at" -lt "$points_per_shard" ] || fail "task 2 completed before the kill took effect"
scontrol requeue "${job}_2" || fail "scontrol requeue failed"

wait_for 600 sh -c "[ -z \"\$(squeue -h -j $job)\" ]" || fail "the array did not finish: $(squeue 2>&1)"
for i in 1 2 3; do
  state=$(scontrol show job "${job}_$i" | grep -o 'JobState=[A-Z]*')
  [ "$state" = JobState=COMPLETED ] || fail "task $i ended in $state: $(cat tenet-sweep-*_$i.log 2>/dev/null)"
done
grep -q 'already present' tenet-sweep-*_2.log || fail "task 2's log shows no resumed run"
grep -h 'already present' tenet-sweep-*_2.log

# --- merge equals a single-machine run --------------------------------------------------------
tenet merge results.*.csv --out results.csv
tenet sweep --spec sweep.json --out single.csv --progress none --threads 2
cmp results.csv single.csv || fail "merge of the shards differs from the single-machine run"
echo "PASS: $(rows results.csv) rows, shards merged equal the single-machine run (task 2 killed at row $killed_at and resumed)"
