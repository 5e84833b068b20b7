#!/bin/sh
# `parlearn run` under Slurm, the way labs/README.md shows it, on a private
# single-node Slurm: its own slurm.conf, state and logs in a temporary
# directory, slurmctld and slurmd on free localhost ports, its own munged
# with its own key and socket; every daemon is stopped at the end, however
# the test ends. srun with the PMI the build's MPI speaks (--mpi=pmix for
# Open MPI, --mpi=pmi2 for MPICH) gives mpirun's result bit for bit; srun
# with --mpi=none (Slurm's default) or with a PMI the MPI does not speak
# fails with one line of parlearn's naming the --mpi= to use, and exit 2.
# Both MPIs when configure found a second one (tests/mpi2/parlearn-run).
# KEEP=1 keeps the temporary directory (configuration, logs, runs).
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-slurm.XXXXXX")
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C

ctld_pid='' slurmd_pid='' munge_pid=''

# What the daemons said, for a failure.
show_logs() {
	for f in "$tmp"/log/*; do
		[ -f "$f" ] || continue
		echo "--- $f (last 15 lines)" >&2
		tail -n 15 "$f" >&2
	done
}
fail() {
	echo "FAIL: $*" >&2
	show_logs
	exit 1
}

# stop PID: TERM, then KILL if it has not ended within 10 s.
stop() {
	[ -n "$1" ] || return 0
	kill -TERM "$1" 2>/dev/null || return 0
	wait_until 10 gone "$1" || kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
gone() {
	! kill -0 "$1" 2>/dev/null
}
no_jobs() {
	[ -z "$(timeout 5 squeue -h 2>/dev/null)" ]
}
cleanup() {
	if [ -n "$ctld_pid" ]; then
		timeout 10 scancel --full --user="$(id -un)" 2>/dev/null
		wait_until 10 no_jobs
	fi
	stop "$slurmd_pid"
	stop "$ctld_pid"
	stop "$munge_pid"
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE

. "$top_srcdir/tests/mpi-lib.sh"
mpi_needed
PATH=$PATH:/usr/sbin:/sbin	# the daemons, for a PATH without them
for t in slurmctld slurmd srun sinfo squeue scancel munged python3; do
	part_needs "$t" "Slurm (Debian: apt-get install slurm-wlm munge)" ||
		test_done
done
if [ "$(id -u)" != 0 ]; then
	part_skip "Slurm" "slurmd runs the tasks as root here: run as root"
	test_done
fi
# Only this test's Slurm; none of an enclosing job's variables.
for v in $(env | sed -n 's/^\(SLURM_[A-Z_]*\)=.*/\1/p'); do
	unset "$v"
done
export SLURM_CONF="$tmp/slurm.conf"

# --- the private Slurm ------------------------------------------------------
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log"
chmod 711 "$tmp" "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge/key"
munged -F --key-file="$tmp/munge/key" --socket="$tmp/munge/socket" \
	--pid-file="$tmp/munge/pid" --seed-file="$tmp/munge/seed" \
	>"$tmp/log/munged.log" 2>&1 &
munge_pid=$!
wait_until 10 test -S "$tmp/munge/socket" || fail "munged did not start"

# Two free ports on localhost (the kernel's choice; closed again at once).
# shellcheck disable=SC2046
set -- $(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
[ $# = 2 ] || fail "no free ports"
# More CPUs than the machine has (config_overrides): 4 tasks on 2 cores.
# TmpFS and FirstJobId keep the PMIx plugin's directories (named by job
# id, under TmpFS) apart from those of another Slurm test running at once.
cpus=$(nproc)
[ "$cpus" -ge 8 ] || cpus=8
cat >"$SLURM_CONF" <<EOF
ClusterName=parlearn-test
SlurmctldHost=localhost
SlurmctldPort=$1
SlurmdPort=$2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/socket
StateSaveLocation=$tmp/state
TmpFS=$tmp
FirstJobId=$(($$ % 100000 * 100 + 1))
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
PlugStackConfig=/dev/null
NodeName=localhost CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=10 State=UP
EOF
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
ctld_pid=$!
slurmd -D -N localhost -f "$SLURM_CONF" >"$tmp/log/slurmd.out" 2>&1 &
slurmd_pid=$!
# Every Slurm client call is bounded: with a slurmd that did not start (no
# cgroup file system, say) sinfo blocked for many minutes, not 30 s.
node_idle() {
	kill -0 "$slurmd_pid" 2>/dev/null ||
		fail "slurmd stopped: $(tail -n 3 "$tmp/log/slurmd.out")"
	[ "$(timeout 5 sinfo -h -n localhost -o %T 2>/dev/null)" = idle ]
}
idle_by=$(($(date +%s) + 30))	# wall clock: a call may take its 5 s
until node_idle; do
	[ "$(date +%s)" -lt "$idle_by" ] ||
		fail "the node is not idle after 30 s: $(timeout 5 sinfo 2>&1)"
	sleep 0.2
done
timeout 30 srun --mpi=list >"$tmp/mpi-list" 2>&1 ||
	fail "srun --mpi=list: $(cat "$tmp/mpi-list")"

# --- the runs ---------------------------------------------------------------
# result FILE: what must be the same bit for bit in a run's JSON: the
# layout, the loss and every difference (a float's repr round-trips).
result() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
r = {k: d[k] for k in ("mode", "gpus", "dp", "tp", "pp", "loss",
    "max_loss_error", "max_grad_error", "max_param_error", "bytes_moved",
    "simulator")}
r["processes"] = d["measured"]["processes"]
print(json.dumps(r, sort_keys=True))' "$1"
}

# The reference: parlearn starting the launcher itself.
timeout 60 "$PARLEARN" run --mode tp --np 4 --timeout 20 -o "$tmp/mpirun.json" \
	>"$tmp/mpirun.out" 2>&1 </dev/null ||
	fail "parlearn run (mpirun): $(cat "$tmp/mpirun.out")"
want=$(result "$tmp/mpirun.json") || fail "mpirun.json: not a run"

# srun_run NAME MPI: labs/README.md's line on one node, 4 tasks.
srun_run() {
	timeout 60 srun -N 1 --ntasks-per-node 4 --mpi="$2" "$PARLEARN" run \
		--mode tp --timeout 20 -o "$tmp/$1.json" >"$tmp/$1.out" \
		2>"$tmp/$1.err" </dev/null
}

# slurm_mpi NAME FLAVOUR: the runs with the parlearn-run of that MPI.
slurm_mpi() {
	case $2 in
	openmpi) good=pmix bad= ;;
	mpich) good=pmi2 bad=pmix ;;
	*) part_skip "Slurm with $2" "which PMI it speaks is not known"
	   return ;;
	esac
	grep -qx "[[:space:]]*$good" "$tmp/mpi-list" ||
		fail "$1: this Slurm has no --mpi=$good: $(cat "$tmp/mpi-list")"
	srun_run "$1-$good" "$good" ||
		fail "$1: srun --mpi=$good: exit $?: $(cat "$tmp/$1-$good.err")"
	grep -q '^parlearn run: tp on 4 processes' "$tmp/$1-$good.out" ||
		fail "$1: srun --mpi=$good: $(cat "$tmp/$1-$good.out")"
	got=$(result "$tmp/$1-$good.json") || fail "$1-$good.json: not a run"
	[ "$got" = "$want" ] ||
		fail "$1: srun --mpi=$good differs from mpirun: $got, want $want"
	# Slurm's default, and the PMI the MPI does not speak: one line.
	for m in none $bad; do
		srun_run "$1-$m" "$m"
		rc=$?
		[ "$rc" = 2 ] || fail "$1: srun --mpi=$m: exit $rc, want 2: $(cat "$tmp/$1-$m.err")"
		[ "$(grep -c '^parlearn: run: ' "$tmp/$1-$m.err")" = 1 ] ||
			fail "$1: srun --mpi=$m: want one line: $(cat "$tmp/$1-$m.err")"
		grep -q "^parlearn: run: srun started 4 tasks with --mpi=$m.*: run srun --mpi=$good " \
			"$tmp/$1-$m.err" ||
			fail "$1: srun --mpi=$m: $(cat "$tmp/$1-$m.err")"
		grep -q 'MPI_Init\|OPAL ERROR' "$tmp/$1-$m.err" &&
			fail "$1: srun --mpi=$m: the MPI's own abort: $(cat "$tmp/$1-$m.err")"
		[ -s "$tmp/$1-$m.out" ] && fail "$1: srun --mpi=$m: results: $(cat "$tmp/$1-$m.out")"
		[ -e "$tmp/$1-$m.json" ] && fail "$1: srun --mpi=$m wrote a run"
	done
	return 0
}

slurm_mpi main "$MPI_FLAVOUR"
if [ -n "${PL_MPI2_FLAVOUR:-}" ] && [ -x "$top_builddir/tests/mpi2/parlearn-run" ]; then
	export PARLEARN_RUN_HELPER="$top_builddir/tests/mpi2/parlearn-run"
	slurm_mpi mpi2 "$PL_MPI2_FLAVOUR"
	unset PARLEARN_RUN_HELPER
else
	part_skip "Slurm with a second MPI" "configure found none (Debian: apt-get install mpich libmpich-dev)"
fi
test_done
