#!/bin/sh
# bench_timeouts.sh - how long `parlearn run --timeout 3` takes to end a
# job whose rank 2 of 4 (tp) is stopped or killed: in a collective of the
# step, as MPI starts, as it finishes. Prints the median of three runs
# per case and the line the user saw. Not part of `make check`
# (tests/mpi-faults.sh holds the limits and the lines).
#
# Usage: bench_timeouts.sh PATH-TO-PARLEARN
set -u
parlearn=${1:?usage: bench_timeouts.sh PATH-TO-PARLEARN}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-bench-timeouts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C TMPDIR="$tmp"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1

now_ms() {
	date +%s%N | cut -c1-13
}

echo "bench_timeouts: parlearn run --mode tp --np 4 --timeout 3, rank 2 faulty, median of 3"
for f in stop:2 hang:2 stop-init:2 stop-finalize:2 die:2 die-init:2 \
    die-finalize:2; do
	: >"$tmp/times"
	for i in 1 2 3; do
		t0=$(now_ms)
		PARLEARN_RUN_FAULT=$f timeout 300 "$parlearn" run --mode tp \
			--np 4 --timeout 3 >/dev/null 2>"$tmp/err" </dev/null
		echo $(($(now_ms) - t0)) >>"$tmp/times"
	done
	printf '  %-16s %6d ms  %s\n' "$f" "$(sort -n "$tmp/times" | sed -n 2p)" \
		"$(head -n 1 "$tmp/err")"
done
