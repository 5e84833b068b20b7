#!/bin/sh
# `parlearn run` refuses what cannot run before any process starts, with
# one line: exit 1 for a usage error (options that make no run at all),
# exit 2 for --np that does not fit the mode, a --np other than the
# launcher's, no MPI to run with. A stand-in mpirun shows how the parent
# hands on the job's results (every write checked) and what it says when
# mpirun fails (mpirun's own words, no log left behind). Needs no MPI:
# nothing here starts one.
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-mpi-usage.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C TMPDIR="$tmp"
unset OMPI_COMM_WORLD_SIZE OMPI_COMM_WORLD_RANK PMI_SIZE PMI_RANK \
	SLURM_STEP_ID SLURM_PROCID SLURM_STEP_NUM_TASKS PARLEARN_RUN_HELPER

fail() { echo "FAIL: $*" >&2; exit 1; }

# expect STATUS CMD...: exit status STATUS; stderr in $tmp/err.
expect() {
	want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, want $want: $(cat "$tmp/err")"
}

# one_line PATTERN: stderr is exactly one line and it matches PATTERN.
one_line() {
	[ "$(wc -l <"$tmp/err")" -eq 1 ] ||
		fail "want one line on stderr, got: $(cat "$tmp/err")"
	grep -q "$1" "$tmp/err" || fail "stderr lacks '$1': $(cat "$tmp/err")"
}

expect 0 "$PARLEARN" run --help
grep -q '^Usage: parlearn run' "$tmp/out" || fail "run --help has no usage line"
grep -q -- '--reduce ordered' "$tmp/out" || fail "run --help does not explain --reduce"

# Processes that do not fit the mode.
expect 2 "$PARLEARN" run --mode 3d --np 4
one_line '4 processes do not fit this run: 3d runs DP x TP x PP = 2 x 2 x 2'
expect 2 "$PARLEARN" run --mode tp --np 3
one_line 'does not divide the model.s 4 attention heads'
expect 2 "$PARLEARN" run --mode pp --np 3
one_line 'do not divide the model.s 4 layers'
# A schedule the toy does not run fits no size: a usage error, not the
# processes' fault.
expect 1 "$PARLEARN" run --mode pp --np 4 --schedule dualpipev
one_line 'the simulator does not run DualPipeV'
grep -q 'processes do not fit' "$tmp/err" && fail "blames the processes: $(cat "$tmp/err")"
# DualPipe with too few micro-batches fits no size of this layout.
expect 2 "$PARLEARN" run --mode pp --np 4 --schedule dualpipe --microbatches 4
one_line 'DualPipe needs an even number of stages'
expect 2 "$PARLEARN" run --mode single --np 2
one_line '2 processes do not fit mode single: it runs on 1'
expect 2 "$PARLEARN" run --mode dp --np 4 --microbatches 8
one_line 'do not divide the batch of 16 sequences'

# Usage errors are exit 1: options that make no run at any size.
expect 1 "$PARLEARN" run --mode xx
one_line "^parlearn: run: unknown mode 'xx' .*(try 'parlearn run --help')$"
expect 1 "$PARLEARN" run --schedule zz
one_line "unknown schedule 'zz'"
expect 1 "$PARLEARN" run --microbatches 100 --mode pp
one_line 'micro-batches must be between 1 and 16'
expect 1 "$PARLEARN" run --np 0
one_line "^parlearn: run: --np: '0' is not a whole number from 1 to 2147483647$"
# Trailing junk is refused, not read as 4.
expect 1 "$PARLEARN" run --np 4x
one_line "^parlearn: run: --np: '4x' is not a whole number from 1 to 2147483647$"
expect 1 "$PARLEARN" run --reduce fast
expect 1 "$PARLEARN" run --timeout 1,5
expect 1 "$PARLEARN" run --mode dp extra

# Started by a launcher with another count than --np.
OMPI_COMM_WORLD_SIZE=8 OMPI_COMM_WORLD_RANK=0 expect 2 "$PARLEARN" run --mode dp --np 4
one_line '\-\-np 4, but the launcher started 8 processes'
# Only rank 0 speaks.
OMPI_COMM_WORLD_SIZE=8 OMPI_COMM_WORLD_RANK=3 expect 2 "$PARLEARN" run --mode dp --np 4
[ -s "$tmp/err" ] && fail "rank 3 printed: $(cat "$tmp/err")"
# srun's tasks count (a batch script without a step is not a launch).
SLURM_STEP_ID=0 SLURM_PROCID=0 SLURM_STEP_NUM_TASKS=3 expect 2 "$PARLEARN" run --mode 3d
one_line '3 processes do not fit this run'

# No MPI to run with: how to get it, in one line.
PARLEARN_RUN_HELPER=/nonexistent/parlearn-run expect 2 "$PARLEARN" run --mode dp
one_line 'apt-get install openmpi-bin libopenmpi-dev'
# MPI built, but no launcher to start it with.
PARLEARN_RUN_HELPER=/bin/true PARLEARN_MPIRUN=/nonexistent/mpirun \
	expect 2 "$PARLEARN" run --mode dp
one_line 'no mpirun to start the processes with'

# A stand-in mpirun: prints its "results" on stdout (rank 0's, handed
# to the parent), or fails the way Open MPI does without ssh or rsh.
cat >"$tmp/mpirun" <<'EOF'
#!/bin/sh
if [ -n "${FAKE_DIE:-}" ]; then
	cat >&2 <<'EOT'
-------------------------------------------------------
Primary job  terminated normally, but 1 process returned
a non-zero exit code. Per user-direction, the job has been aborted.
-------------------------------------------------------
--------------------------------------------------------------------------
mpirun detected that one or more processes exited with non-zero status, thus causing
the job to be terminated. The first process to do so was:

  Process name: [[44223,1],2]
  Exit code:    137
--------------------------------------------------------------------------
EOT
	exit 137
fi
if [ -n "${FAKE_FAIL:-}" ]; then
	echo "-----------------------------------------------------" >&2
	echo "plm_rsh_agent: ssh : rsh could not be found" >&2
	echo "-----------------------------------------------------" >&2
	exit 243
fi
i=0
while [ $i -lt 3000 ]; do
	echo "result line $i of the step"
	i=$((i + 1))
done
EOF
chmod +x "$tmp/mpirun"
fake() {
	PARLEARN_RUN_HELPER=/bin/true PARLEARN_MPIRUN="$tmp/mpirun" "$@"
}
no_log_left() {
	ls "$tmp" | grep -q '^parlearn-run\.' &&
		fail "a log was left behind: $(ls "$tmp")"
	return 0
}
expect 0 fake "$PARLEARN" run --mode dp
[ "$(wc -l <"$tmp/out")" -eq 3000 ] || fail "results not handed on whole"
no_log_left
# Results that cannot be written are a failed run, said as such.
if [ -w /dev/full ]; then
	fake "$PARLEARN" run --mode dp >/dev/full 2>"$tmp/err" </dev/null
	rc=$?
	[ "$rc" = 2 ] || fail "stdout /dev/full: exit $rc, want 2"
	one_line '^parlearn: run: standard output: No space left on device$'
fi
fake "$PARLEARN" run --mode dp >&- 2>"$tmp/err" </dev/null
rc=$?
[ "$rc" = 2 ] || fail "stdout closed: exit $rc, want 2"
one_line '^parlearn: run: standard output: Bad file descriptor$'
# A reader that goes away is told, not a crash.
( fake "$PARLEARN" run --mode dp 2>"$tmp/err" </dev/null; echo $? >"$tmp/rc" ) |
	head -n 1 >/dev/null
[ "$(cat "$tmp/rc")" = 2 ] || fail "reader gone: exit $(cat "$tmp/rc"), want 2"
one_line '^parlearn: run: standard output: the reader went away'
# mpirun failing by itself: the cause it gave, and no log left behind.
FAKE_FAIL=1 expect 2 fake "$PARLEARN" run --mode dp
grep -q '^parlearn: run: the MPI job failed, mpirun exited with status 243$' \
	"$tmp/err" || fail "mpirun failed: $(cat "$tmp/err")"
grep -q '^  plm_rsh_agent: ssh : rsh could not be found$' "$tmp/err" ||
	fail "mpirun's cause not said: $(cat "$tmp/err")"
grep -q -- '-----' "$tmp/err" && fail "Open MPI's rules copied: $(cat "$tmp/err")"
no_log_left
# A rank killed before it joined the job: Open MPI says only that it was
# the first to exit non-zero, with 128 + the signal.
FAKE_DIE=1 expect 2 fake "$PARLEARN" run --mode dp
one_line '^parlearn: run: rank 2 died on signal 9 (Killed); mpirun stopped the others$'
no_log_left
exit 0
