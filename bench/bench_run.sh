#!/bin/sh
# bench_run.sh - wall time of `parlearn run` per mode: 4 processes, 3d on
# 8, started by parlearn through mpirun (MPI start-up included, as a
# learner waits for it). Prints the best of three runs per mode and the
# step time parlearn-run measured in that run. Not part of `make check`.
#
# Usage: bench_run.sh PATH-TO-PARLEARN
set -u
parlearn=${1:?usage: bench_run.sh PATH-TO-PARLEARN}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-bench-run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1

# now_ms: wall clock in milliseconds.
now_ms() {
	date +%s%N | cut -c1-13
}

echo "bench_run: wall time of parlearn run, best of 3 (step: as measured)"
for mode in single dp tp pp fsdp 3d; do
	case $mode in
	single) np=1 ;;
	3d) np=8 ;;
	*) np=4 ;;
	esac
	best=
	for i in 1 2 3; do
		t0=$(now_ms)
		"$parlearn" run --mode "$mode" --np "$np" >"$tmp/out" 2>&1 </dev/null ||
			{ echo "bench_run: $mode failed:" >&2; cat "$tmp/out" >&2; exit 1; }
		t=$(($(now_ms) - t0))
		if [ -z "$best" ] || [ "$t" -lt "$best" ]; then
			best=$t
			step=$(sed -n 's/^step \([0-9.]* ms\) measured.*/\1/p' "$tmp/out")
		fi
	done
	printf '  %-6s on %d processes: %6d ms wall, step %s\n' \
		"$mode" "$np" "$best" "${step:-?}"
done
