# mpi-lib.sh - what the MPI script tests share, sourced after fail() is
# defined: skip (exit 77) when parlearn was built without MPI, except under
# CI=true, where MPI must be there; let Open MPI run as root (CI) and
# oversubscribe the cores; read numbers out of the run's JSON.

. "$top_srcdir/tests/testlib.sh"

# mpi_needed: 0 if parlearn-run and mpirun are there, else the test is
# skipped (under CI=true: failed).
mpi_needed() {
	if [ ! -x "${top_builddir:-.}/parlearn-run" ]; then
		part_skip "MPI runs" "parlearn was built without MPI (Debian: apt-get install openmpi-bin libopenmpi-dev, then ./configure)"
		test_done
	fi
	part_needs mpirun "MPI runs" || test_done
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_MCA_rmaps_base_oversubscribe=1
	unset OMPI_COMM_WORLD_SIZE OMPI_COMM_WORLD_RANK PMI_SIZE PMI_RANK \
		SLURM_STEP_ID SLURM_PROCID SLURM_STEP_NUM_TASKS \
		PARLEARN_RUN_HELPER PARLEARN_RUN_FAULT PARLEARN_MPIRUN
}

# jval KEY FILE: the first value of "KEY" in a JSON file printed by cJSON.
jval() {
	sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\\([^,]*\\),\\{0,1\\}\$/\\1/p" "$2" |
		head -n 1
}

# at_most X LIMIT: the number X is <= LIMIT.
at_most() {
	awk -v x="$1" -v l="$2" 'BEGIN { exit !(x != "" && x + 0 <= l + 0) }'
}

# count_kind KIND FILE: events of that kind.
count_kind() {
	grep -c "\"kind\":[[:space:]]*\"$1\"" "$2"
}
