#!/bin/sh
# Behaviour kept: every command of tests/data/golden-json/cases prints the
# same bytes as when the set was recorded (the engine's plan and search, the
# simulator's trace, --json and text). A refactoring that moves the layout,
# the axes or the options must not change one byte. The sums are SHA-256 of
# each output (stdout, then stderr); to see a difference, run the case's command with the build of
# the commit that recorded it and diff. GOLDEN_RECORD=1 writes the sums anew
# (only when a change of output is intended, and said in its commit).
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
dir=$top_srcdir/tests/data/golden-json
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C COLUMNS=80
unset PARLEARN_CONTENT

fail() { echo "FAIL: $*" >&2; exit 1; }

: >"$tmp/sums"
n=0
bad=0
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	name=${line%%:*}
	args=${line#*: }
	# shellcheck disable=SC2086
	"$PARLEARN" $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	# What a refused command says counts too.
	echo "-- stderr --" >>"$tmp/out"
	cat "$tmp/err" >>"$tmp/out"
	sum=$(sha256sum <"$tmp/out" | cut -d' ' -f1)
	echo "$sum $rc $name" >>"$tmp/sums"
	n=$((n + 1))
	if [ -z "${GOLDEN_RECORD:-}" ]; then
		want=$(awk -v n="$name" '$3 == n { print $1 " " $2 }' "$dir/sums")
		if [ -z "$want" ]; then
			echo "FAIL: $name has no recorded sum" >&2
			bad=$((bad + 1))
		elif [ "$want" != "$sum $rc" ]; then
			echo "FAIL: $name: parlearn $args" >&2
			echo "  recorded $want, now $sum $rc" >&2
			head -c 300 "$tmp/err" >&2
			bad=$((bad + 1))
		fi
	fi
done <"$dir/cases"

if [ -n "${GOLDEN_RECORD:-}" ]; then
	cp "$tmp/sums" "$dir/sums" || fail "cannot write $dir/sums"
	echo "recorded $n outputs"
	exit 0
fi
[ "$n" -ge 70 ] || fail "only $n cases were read from $dir/cases"
[ "$bad" -eq 0 ] || fail "$bad of $n outputs changed"
echo "all $n outputs as recorded"
