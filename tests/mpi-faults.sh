#!/bin/sh
# A rank that dies or hangs in the middle of `parlearn run` ends the whole
# job in bounded time: one line naming what happened, exit 2, and no
# process of the job left behind. PARLEARN_RUN_FAULT (parlearn.1) makes
# rank R kill itself (die:R) or stop answering (hang:R) as it starts its
# first backward pass (stop-init:R, stop-finalize:R: stops as MPI starts
# or finishes). A failed run leaves no log behind, and mpirun
# failing by itself is told with its own words.
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-mpi-faults.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C TMPDIR="$tmp"

fail() { echo "FAIL: $*" >&2; exit 1; }
. "$top_srcdir/tests/mpi-lib.sh"
mpi_needed

# The job's processes: parlearn-run with this test's output file.
job_left() {
	ps -eo args | grep "parlearn-run.*$tmp/$1.json" | grep -v grep
}
job_gone() {
	[ -z "$(job_left "$1")" ]
}

# fault NAME FAULT MODE TIMEOUT LIMIT: run with the fault; it must end
# within LIMIT seconds, exit 2, print one line; and leave no process.
fault() {
	t0=$(date +%s)
	PARLEARN_RUN_FAULT=$2 timeout 60 "$PARLEARN" run --mode "$3" \
		--timeout "$4" -o "$tmp/$1.json" >"$tmp/$1.out" 2>"$tmp/$1.err" \
		</dev/null
	rc=$?
	t1=$(date +%s)
	[ "$rc" = 2 ] || fail "$1: exit $rc, want 2: $(cat "$tmp/$1.err")"
	[ $((t1 - t0)) -le "$5" ] || fail "$1: took $((t1 - t0)) s, limit $5"
	[ "$(wc -l <"$tmp/$1.err")" -eq 1 ] ||
		fail "$1: want one line, got: $(cat "$tmp/$1.err")"
	wait_until 10 job_gone "$1" || fail "$1: processes left: $(job_left "$1")"
	[ -s "$tmp/$1.json" ] && fail "$1: a failed run wrote its timeline"
	return 0
}

# Killed: mpirun sees the rank die and stops the others. Open MPI's
# names the rank; MPICH's Hydra only the process.
fault die die:2 dp 20 15
if [ "$MPI_FLAVOUR" = mpich ]; then
	want='^parlearn: run: a process (pid [0-9]*) died on signal 9'
else
	want='^parlearn: run: rank 2 died on signal 9'
fi
grep -q "$want" "$tmp/die.err" || fail "die: $(cat "$tmp/die.err")"

# Hung: its peers give up after --timeout and abort the job.
fault hang hang:1 tp 2 15
grep -q '^parlearn: run: rank [0-9]: waited 2 s for the .* another process has died or hung' \
	"$tmp/hang.err" || fail "hang: $(cat "$tmp/hang.err")"

# Stopped as MPI starts or finishes: --timeout bounds those waits too,
# and the parent's backstop is near it (was 90 s at --timeout 3).
for f in stop-init:1 stop-finalize:1; do
	t0=$(date +%s)
	PARLEARN_RUN_FAULT=$f timeout 60 "$PARLEARN" run --mode dp --np 2 \
		--timeout 3 -o "$tmp/$f.json" >"$tmp/edge.out" 2>"$tmp/edge.err" \
		</dev/null
	rc=$?
	t1=$(date +%s)
	[ "$rc" = 2 ] || fail "$f: exit $rc, want 2: $(cat "$tmp/edge.err")"
	[ $((t1 - t0)) -le 12 ] || fail "$f: took $((t1 - t0)) s, limit 12"
	grep -q '^parlearn: run: rank 0: .* MPI did not finish within 3 s' \
		"$tmp/edge.err" || fail "$f: $(cat "$tmp/edge.err")"
	wait_until 10 job_gone "$f" || fail "$f: processes left: $(job_left "$f")"
done

# A failed run cleans up after itself: no log left in $TMPDIR.
logs() { ls "$tmp" | grep '^parlearn-run\.'; }
[ -z "$(logs)" ] || fail "logs left behind: $(logs)"

# mpirun that cannot start (no ssh or rsh agent on this PATH) says why.
# (Hydra starts local processes without an agent: the run works.)
PATH=/nonexistent "$PARLEARN" run --mode dp --np 2 >"$tmp/path.out" \
	2>"$tmp/path.err" </dev/null
rc=$?
if [ "$MPI_FLAVOUR" = mpich ]; then
	[ "$rc" = 0 ] || fail "PATH, Hydra: exit $rc, want 0: $(cat "$tmp/path.err")"
else
	[ "$rc" = 2 ] || fail "PATH: exit $rc, want 2: $(cat "$tmp/path.err")"
	if ! grep -q 'no mpirun to start the processes with' "$tmp/path.err"; then
		grep -q '^parlearn: run: the MPI job failed, mpirun exited with status' \
			"$tmp/path.err" || fail "PATH: $(cat "$tmp/path.err")"
		[ "$(grep -c '^  [^ ]' "$tmp/path.err")" -ge 1 ] ||
			fail "PATH: mpirun's cause not said: $(cat "$tmp/path.err")"
		grep -q 'parlearn-run\.' "$tmp/path.err" &&
			fail "PATH: names a log: $(cat "$tmp/path.err")"
	fi
fi
[ -z "$(logs)" ] || fail "PATH: log left behind: $(logs)"
test_done
