#!/bin/sh
# `parlearn run` refuses what cannot run before any process starts, with
# one line and exit 2: --np that does not fit the mode, a --np other than
# the launcher's, no MPI to run with. Needs no MPI: nothing here starts one.
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-mpi-usage.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C
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
expect 2 "$PARLEARN" run --mode single --np 2
one_line '2 processes do not fit mode single: it runs on 1'
expect 2 "$PARLEARN" run --mode dp --np 4 --microbatches 8
one_line 'do not divide the batch of 16 sequences'

# Usage errors are exit 1.
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
exit 0
