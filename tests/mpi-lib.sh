# mpi-lib.sh - what the MPI script tests share, sourced after fail() is
# defined: skip (exit 77) when parlearn was built without MPI, except under
# CI=true, where MPI must be there; let Open MPI run as root (CI) and
# oversubscribe the cores; read numbers out of the run's JSON.
#
# The tests run against the MPI parlearn-run was built with, started by
# the launcher configure found for it ($PL_MPIRUN); with PL_TEST_MPI=2
# (tests/mpi2-*.sh) against the second MPI configure found
# (tests/mpi2/parlearn-run, $PL_MPI2_RUN): Open MPI and MPICH both.

. "$top_srcdir/tests/testlib.sh"

# mpi_needed: 0 if parlearn-run and its launcher are there, else the test
# is skipped (under CI=true: failed). Sets MPIRUN (the launcher),
# MPIRUN_OPTS (what it needs to start more ranks than cores), MPI_FLAVOUR
# (openmpi, mpich, other) and MPI_HELPER (parlearn-run).
mpi_needed() {
	unset OMPI_COMM_WORLD_SIZE OMPI_COMM_WORLD_RANK PMI_SIZE PMI_RANK \
		PMI_FD MPI_LOCALNRANKS PMIX_RANK SLURM_MPI_TYPE \
		SLURM_STEP_ID SLURM_PROCID SLURM_STEP_NUM_TASKS \
		PARLEARN_RUN_HELPER PARLEARN_RUN_FAULT PARLEARN_MPIRUN
	if [ "${PL_TEST_MPI:-1}" = 2 ]; then
		MPI_HELPER=${top_builddir:-.}/tests/mpi2/parlearn-run
		MPIRUN=${PL_MPI2_RUN:-}
		MPI_FLAVOUR=${PL_MPI2_FLAVOUR:-}
		if [ ! -x "$MPI_HELPER" ] || [ -z "$MPIRUN" ]; then
			part_skip "MPI runs with a second MPI" "configure found no second MPI (Debian: apt-get install mpich libmpich-dev, then ./configure)"
			test_done
		fi
		# parlearn starts this build with this launcher.
		export PARLEARN_RUN_HELPER="$MPI_HELPER" PARLEARN_MPIRUN="$MPIRUN"
	else
		MPI_HELPER=${top_builddir:-.}/parlearn-run
		MPIRUN=${PL_MPIRUN:-mpirun}
		MPI_FLAVOUR=${PL_MPI_FLAVOUR:-openmpi}
		if [ ! -x "$MPI_HELPER" ]; then
			part_skip "MPI runs" "parlearn was built without MPI (Debian: apt-get install openmpi-bin libopenmpi-dev, then ./configure)"
			test_done
		fi
	fi
	part_needs "$MPIRUN" "MPI runs" || test_done
	MPIRUN_OPTS=
	if [ "$MPI_FLAVOUR" = openmpi ]; then
		MPIRUN_OPTS=--oversubscribe
	fi
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_MCA_rmaps_base_oversubscribe=1
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
