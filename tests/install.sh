#!/bin/sh
# An installed parlearn neither depends on nor reveals where it was built
# (issue 23, item 12): `make install DESTDIR=...` puts no path of the
# source or build tree in any installed file (the binaries' strings and
# debug information included) and no parlearn-uninstalled mark; run from
# elsewhere with the build tree hidden (a private mount namespace: the
# install bound over its prefix, empty tmpfs over the trees; root only),
# it reads its course, catalogs and translations where it was installed.
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
T=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-install.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
export LC_ALL=C
unset PARLEARN_CONTENT

fail() { echo "FAIL: $*" >&2; exit 1; }
. "$top_srcdir/tests/testlib.sh"

src=$(cd "$top_srcdir" && pwd -P)
build=$(cd "$top_builddir" && pwd -P)
var() { # var NAME: a make variable of the build tree
	sed -n "s|^$1 = ||p" "$build/Makefile" | head -1
}
prefix=$(var prefix)
[ -n "$prefix" ] || fail "no prefix in $build/Makefile"

# 1. Install into a staging directory, as a package build does.
DEST="$T/dest"
(
	unset MAKEFLAGS MFLAGS MAKELEVEL
	cd "$build" && ${MAKE:-make} install DESTDIR="$DEST"
) >"$T/install.log" 2>&1 || fail "make install: $(tail -20 "$T/install.log")"
bin="$DEST$prefix/bin/parlearn"
[ -x "$bin" ] || fail "no $bin: $(ls -R "$DEST" | head -30)"

# 2. No installed file names the trees, and no uninstalled mark went in.
for dir in "$src" "$build"; do
	hits=$(grep -rlaF "$dir" "$DEST")
	[ -z "$hits" ] || fail "installed files name $dir: $hits"
done
find "$DEST" -name parlearn-uninstalled | grep -q . &&
	fail "the uninstalled mark was installed"
part_needs strings "strings of the binaries" && for f in $(find "$DEST" -type f -perm -u+x); do
	strings -a "$f" >"$T/strings" || fail "strings $f"
	grep -F -e "$src" -e "$build" "$T/strings" &&
		fail "$f names the build: $(grep -F -e "$src" -e "$build" "$T/strings")"
done

# 3. Run it with the trees hidden, from another directory.
if [ "$(id -u)" != 0 ]; then
	part_skip "installed run" "a private mount namespace needs root"
	test_done
fi
case $prefix in
/ | /usr | /bin | /lib*)
	part_skip "installed run" "prefix $prefix holds the system itself"
	test_done ;;
esac
[ -d "$prefix" ] || {
	part_skip "installed run" "prefix $prefix does not exist here"
	test_done
}
case $T in
"$src"/* | "$build"/*)
	part_skip "installed run" "TMPDIR is inside the tree to hide"
	test_done ;;
esac
part_needs unshare "installed run" || test_done
cat >"$T/run.sh" <<EOF
set -e
mount --bind "$DEST$prefix" "$prefix"
mount -t tmpfs tmpfs "$build"
[ "$src" = "$build" ] || mount -t tmpfs tmpfs "$src"
[ ! -e "$src/lessons" ] || { echo "the source tree is not hidden"; exit 3; }
cd /
export HOME="$T/home" XDG_DATA_HOME="$T/data"
"$prefix/bin/parlearn" --version >"$T/version.out"
"$prefix/bin/parlearn" list --json >"$T/list.out"
"$prefix/bin/parlearn" plan --model llama2-70b --gpus 64 --dp 8 --tp 8 \
	--pp 1 >"$T/plan.out"
"$prefix/bin/parlearn" check-content >"$T/check.out"
if locale -a | grep -qix 'de_DE\.utf-\?8'; then
	LC_ALL=de_DE.UTF-8 "$prefix/bin/parlearn" --help >"$T/de.out"
fi
EOF
mkdir -p "$T/home"
unshare -m --propagation private sh "$T/run.sh" >"$T/run.log" 2>&1 ||
	fail "the installed parlearn, build tree hidden: $(cat "$T/run.log")"
grep -q "^parlearn [0-9]" "$T/version.out" || fail "--version: $(cat "$T/version.out")"
grep -q '"drop-14"' "$T/list.out" || fail "list --json: $(head -c 300 "$T/list.out")"
grep -q "on 64 x " "$T/plan.out" || fail "plan: $(head -5 "$T/plan.out")"
grep -q " 0 problems$" "$T/check.out" || fail "check-content: $(cat "$T/check.out")"
if [ -f "$T/de.out" ]; then
	grep -q "^Aufruf: parlearn" "$T/de.out" ||
		fail "the installed translations are not used: $(head -3 "$T/de.out")"
else
	part_skip "installed translations" "no de_DE.UTF-8 locale"
fi
test_done
