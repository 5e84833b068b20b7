#!/bin/sh
# A full disk (issue 23, item 1), parlearn run's side (tests/full-disk.sh
# holds export and deck export with the database on the full disk too):
# -o onto a filesystem with no room left
# is exit 2 with one line naming the file and the reason, keeps the good
# file that was there byte for byte, and leaves no temporary file behind:
# parlearn run -o (rank 0 writes it, through the writer every -o uses),
# export -o and deck export -o (their database on another filesystem). A
# tmpfs of 1 MiB, filled up, is the full disk: mounting it needs root
# (skipped without, except under CI=true, where it must run).
set -u
PARLEARN=${PARLEARN:-${top_builddir:-.}/parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-full-disk.XXXXXX")
mnt="$tmp/mnt"
mounted=
cleanup() {
	[ -n "$mounted" ] && umount "$mnt"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C TMPDIR="$tmp"
unset PARLEARN_CONTENT

fail() { echo "FAIL: $*" >&2; exit 1; }
. "$top_srcdir/tests/testlib.sh"

if [ "$(id -u)" != 0 ]; then
	part_skip "a full disk" "mounting a tmpfs needs root"
	test_done
fi
mkdir "$mnt"
if ! mount -t tmpfs -o size=1m,mode=0700 tmpfs "$mnt" 2>"$tmp/mount.err"
then
	part_skip "a full disk" "mount -t tmpfs failed: $(cat "$tmp/mount.err")"
	test_done
fi
mounted=1

# MPI runs, as tests/mpi-lib.sh sets them up (not sourced: it would end
# the whole test without MPI, and the other commands need none).
mpi=
if [ ! -x "${top_builddir:-.}/parlearn-run" ]; then
	part_skip "run -o" "parlearn was built without MPI"
elif part_needs mpirun "run -o"; then
	mpi=1
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_MCA_rmaps_base_oversubscribe=1
	unset OMPI_COMM_WORLD_SIZE OMPI_COMM_WORLD_RANK PMI_SIZE PMI_RANK \
		SLURM_STEP_ID SLURM_PROCID SLURM_STEP_NUM_TASKS \
		PARLEARN_RUN_HELPER PARLEARN_RUN_FAULT PARLEARN_MPIRUN
fi

# Good files, written while there is room; copies kept off the mount.
"$PARLEARN" list >/dev/null || fail "list"
"$PARLEARN" export -o "$mnt/e.json" || fail "export -o"
"$PARLEARN" deck export phase-1 -o "$mnt/d.tsv" || fail "deck export -o"
files="d.tsv e.json"
if [ -n "$mpi" ]; then
	timeout 60 "$PARLEARN" run --mode dp --np 2 --timeout 20 \
		-o "$mnt/r.json" >/dev/null </dev/null || fail "run -o"
	files="$files r.json"
fi
for f in $files; do
	[ -s "$mnt/$f" ] || fail "$f: empty"
	cp "$mnt/$f" "$tmp/good.$f"
done

# Fill it: nothing more fits.
cat /dev/zero >"$mnt/fill" 2>/dev/null
[ "$(df -P "$mnt" | awk 'NR == 2 { print $4 }')" = 0 ] ||
	fail "the tmpfs is not full: $(df -P "$mnt")"
listing=$(ls -A "$mnt")

# full NAME FILE CMD...: CMD writes FILE on the full disk: exit 2, one
# line naming FILE and ENOSPC, FILE as it was, nothing else left.
full() {
	name=$1 file=$2
	shift 2
	"$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
	rc=$?
	[ "$rc" = 2 ] || fail "$name: exit $rc, want 2: $(cat "$tmp/$name.err")"
	[ "$(wc -l <"$tmp/$name.err")" -eq 1 ] ||
		fail "$name: want one line, got: $(cat "$tmp/$name.err")"
	grep -q "$mnt/$file: No space left on device\$" "$tmp/$name.err" ||
		fail "$name: $(cat "$tmp/$name.err")"
	cmp -s "$mnt/$file" "$tmp/good.$file" ||
		fail "$name: $file changed ($(wc -c <"$mnt/$file") bytes)"
	[ "$(ls -A "$mnt")" = "$listing" ] ||
		fail "$name: left behind: $(ls -A "$mnt")"
}

[ -n "$mpi" ] && full run r.json timeout 60 "$PARLEARN" run --mode dp \
	--np 2 --timeout 20 -o "$mnt/r.json"
full export e.json "$PARLEARN" export -o "$mnt/e.json"
full deck-export d.tsv "$PARLEARN" deck export phase-1 -o "$mnt/d.tsv"
test_done
