#!/bin/sh
# What other processes say reaches the terminal as text (issue 23 audit):
# `parlearn run` shows what mpirun and the ranks wrote to stderr after a
# good run, and names the host MPI reports. A launcher that writes ESC [ 2 J,
# a BEL, a C1 CSI and a byte that is not UTF-8, and a host whose name holds
# them (set in a private UTS namespace; Open MPI refuses such a name, MPICH
# takes it), must leave no raw control byte in the output, shown as text;
# in --json too.
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-mpi-esc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C.UTF-8 TMPDIR="$tmp"

fail() { echo "FAIL: $*" >&2; exit 1; }
. "$top_srcdir/tests/mpi-lib.sh"
mpi_needed

# clean FILE WHAT: no raw ESC, BEL, C1 CSI or 0xff, and the text shown.
clean() {
	LC_ALL=C grep -q "$(printf '\033')" "$1" && fail "$2: raw ESC: $(od -c "$1" | head -5)"
	LC_ALL=C grep -q "$(printf '\007')" "$1" && fail "$2: raw BEL"
	LC_ALL=C grep -q "$(printf '\302\233')" "$1" && fail "$2: raw C1 CSI"
	LC_ALL=C grep -q "$(printf '\377')" "$1" && fail "$2: raw 0xff"
	grep -qF 'h^[[2J^G\u009bx\xffz' "$1" || fail "$2: not shown as text: $(cat "$1")"
}

# 1. A launcher (here a wrapper around the real one) that speaks on
#    stderr: its words are copied after the results, made safe.
cat >"$tmp/mpirun" <<EOF
#!/bin/sh
printf 'h\\033[2J\\007\\302\\233x\\377z\\n' >&2
exec "$MPIRUN" "\$@"
EOF
chmod +x "$tmp/mpirun"
PARLEARN_MPIRUN="$tmp/mpirun" timeout 60 "$PARLEARN" run --mode dp --np 2 \
	--timeout 20 >"$tmp/log.out" 2>"$tmp/log.err" </dev/null ||
	fail "run with a talking launcher: $(cat "$tmp/log.err")"
clean "$tmp/log.err" "mpirun's log"

# 2. A host name with the same bytes, under MPICH (either of the two), in
#    the text and in --json.
helper= launcher=
if [ "$MPI_FLAVOUR" = mpich ]; then
	helper=$MPI_HELPER launcher=$MPIRUN
elif [ "${PL_MPI2_FLAVOUR:-}" = mpich ] &&
    [ -x "$top_builddir/tests/mpi2/parlearn-run" ]; then
	helper=$top_builddir/tests/mpi2/parlearn-run launcher=$PL_MPI2_RUN
fi
if [ -z "$helper" ]; then
	part_skip "a hostile host name" "no MPICH build (Debian: apt-get install mpich libmpich-dev, then ./configure)"
	test_done
fi
if [ "$(id -u)" != 0 ] || ! unshare -u true >/dev/null 2>&1; then
	part_skip "a hostile host name" "needs root and unshare for a private host name"
	test_done
fi
part_needs python3 "a hostile host name" || test_done
# on_host NAME [OPTION]...: parlearn run on the hostile host into NAME.out
# and NAME.err.
on_host() {
	oh=$1
	shift
	unshare -u python3 -c '
import os, socket, sys
socket.sethostname(b"h\x1b[2J\x07\xc2\x9bx\xffz")
os.execvp(sys.argv[1], sys.argv[1:])' env PARLEARN_RUN_HELPER="$helper" \
		PARLEARN_MPIRUN="$launcher" timeout 60 "$PARLEARN" run "$@" \
		--mode dp --np 2 --timeout 20 >"$tmp/$oh.out" 2>"$tmp/$oh.err" \
		</dev/null || fail "run $* on a hostile host: $(cat "$tmp/$oh.err")"
}
on_host host
grep -q 'all on one host' "$tmp/host.out" || fail "no host line: $(cat "$tmp/host.out")"
clean "$tmp/host.out" "the host name"
# ... and in --json, where cJSON escapes C0 controls but not the rest.
on_host hj --json
for b in "$(printf '\302\233')" "$(printf '\377')"; do
	LC_ALL=C grep -q "$b" "$tmp/hj.out" &&
		fail "run --json: a raw control byte: $(grep -a host_of_rank "$tmp/hj.out" | od -c)"
done
grep -qF '"h^[[2J^G\\u009bx\\xffz"' "$tmp/hj.out" ||
	fail "run --json: the host is not shown as text: $(grep -a -A1 host_of_rank "$tmp/hj.out")"
test_done
