#!/bin/sh
# The launcher matches the MPI parlearn-run was built with (issue 23, item
# 8). configure pairs each MPI it builds with (the build's, and the second
# one make check tests) with that MPI's own launcher. A launcher of
# another MPI starts N processes that each see a world of 1: parlearn-run
# says so in one line naming the likely cause and exits 2, instead of N
# separate runs that all succeed; so does a process started alone with
# --np N. Only the launcher's rank 0 speaks.
set -u
# The --timeout is a minute: where the host's name must wait on the
# resolver, an MPI started alone took over 20 s to come up in a fresh
# Debian root (1-2 s otherwise); a good run ends in seconds either way.
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-mpi-world.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C TMPDIR="$tmp"

fail() { echo "FAIL: $*" >&2; exit 1; }
. "$top_srcdir/tests/mpi-lib.sh"
mpi_needed
run1=$MPIRUN flavour1=$MPI_FLAVOUR helper1=$MPI_HELPER

# signature FLAVOUR: what that MPI's launcher says in --version.
signature() {
	case $1 in
	openmpi) echo 'Open MPI|OpenRTE' ;;
	mpich) echo 'HYDRA' ;;
	*) echo . ;;
	esac
}
# name FLAVOUR: how parlearn-run names that MPI.
name() {
	case $1 in
	openmpi) echo 'Open MPI [0-9]' ;;
	mpich) echo 'MPICH [0-9]' ;;
	*) echo '' ;;
	esac
}

# one_line FILE PATTERN: exactly one line of parlearn's, matching.
one_line() {
	[ "$(grep -c '^parlearn: run: ' "$1")" = 1 ] ||
		fail "want one line of parlearn's, got: $(cat "$1")"
	grep -q "$2" "$1" || fail "no '$2' in: $(cat "$1")"
}

"$run1" --version </dev/null 2>&1 | grep -E "$(signature "$flavour1")" >/dev/null ||
	fail "configure's launcher $run1 is not $flavour1's: $("$run1" --version 2>&1)"

# Started alone, asked for 4: not a run of 1.
"$helper1" --mode tp --np 4 --timeout 60 \
	>"$tmp/alone.out" 2>"$tmp/alone.err" </dev/null
rc=$?
[ "$rc" = 2 ] || fail "alone: exit $rc, want 2: $(cat "$tmp/alone.err")"
one_line "$tmp/alone.err" \
	'^parlearn: run: --np 4, but this process was not started by an MPI launcher'
[ -s "$tmp/alone.out" ] && fail "alone: results: $(cat "$tmp/alone.out")"

# The second MPI, when configure found one (CI: always).
if [ -z "${PL_MPI2_FLAVOUR:-}" ] || [ -z "${PL_MPI2_RUN:-}" ] ||
    [ ! -x "$top_builddir/tests/mpi2/parlearn-run" ]; then
	part_skip "a launcher of another MPI" "configure found no second MPI (Debian: apt-get install mpich libmpich-dev)"
	test_done
fi
run2=$PL_MPI2_RUN flavour2=$PL_MPI2_FLAVOUR
helper2=$top_builddir/tests/mpi2/parlearn-run
"$run2" --version </dev/null 2>&1 | grep -E "$(signature "$flavour2")" >/dev/null ||
	fail "configure's second launcher $run2 is not $flavour2's: $("$run2" --version 2>&1)"

# cross NAME HELPER LAUNCHER FLAVOUR: `parlearn run` starting HELPER (of
# MPI FLAVOUR) with another MPI's LAUNCHER: exit 2, one line, no results.
cross() {
	PARLEARN_RUN_HELPER=$2 PARLEARN_MPIRUN=$3 timeout 180 "$PARLEARN" run \
		--mode tp --timeout 60 --json >"$tmp/$1.out" 2>"$tmp/$1.err" \
		</dev/null
	rc=$?
	[ "$rc" = 2 ] || fail "$1: exit $rc, want 2: $(cat "$tmp/$1.err")"
	one_line "$tmp/$1.err" "^parlearn: run: 4 processes were started, but $(name "$4").*, the MPI of parlearn-run, sees each alone: the launcher is another MPI's"
	[ -s "$tmp/$1.out" ] && fail "$1: results: $(cat "$tmp/$1.out")"
	return 0
}
cross "$flavour2-by-$flavour1" "$helper2" "$run1" "$flavour2"
cross "$flavour1-by-$flavour2" "$helper1" "$run2" "$flavour1"

# Started by the other MPI's launcher directly (`mpirun -np 4 parlearn
# run`, each rank joins): one line among the launcher's own.
# shellcheck disable=SC2086
PARLEARN_RUN_HELPER=$helper2 timeout 180 "$run1" -np 4 $MPIRUN_OPTS "$PARLEARN" run \
	--mode tp --timeout 60 >"$tmp/join.out" 2>"$tmp/join.err" </dev/null &&
	fail "joined by another MPI's launcher: exit 0: $(cat "$tmp/join.out")"
cat "$tmp/join.out" >>"$tmp/join.err"
one_line "$tmp/join.err" "sees each alone: the launcher is another MPI's"
grep -q '^parlearn run: ' "$tmp/join.err" &&
	fail "joined: a run of 1 reported: $(cat "$tmp/join.err")"

# The second build alone, asked for 4.
"$helper2" --mode tp --np 4 --timeout 60 >"$tmp/alone2.out" \
	2>"$tmp/alone2.err" </dev/null
rc=$?
[ "$rc" = 2 ] || fail "alone ($flavour2): exit $rc, want 2: $(cat "$tmp/alone2.err")"
one_line "$tmp/alone2.err" '^parlearn: run: --np 4, but this process was not started'
test_done
