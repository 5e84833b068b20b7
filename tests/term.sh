#!/bin/sh
# An unset, unknown or dumb TERM (issue 15, item 6): parlearn prints one
# line that says what to do and exits 2, where ncurses' initscr would exit
# 1 by itself. Run on a real pseudo-terminal with script(1).
set -u

PARLEARN=${PARLEARN:-${top_builddir:-.}/parlearn}
if ! command -v script >/dev/null 2>&1; then
	if [ "${CI:-}" = true ]; then
		echo "FAIL: script(1) is required under CI" >&2
		exit 1
	fi
	echo "SKIP: script(1) not installed" >&2
	exit 77
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-term.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# run NAME TERM-SETTING ARGS: parlearn on a pty; output in $T/NAME.
run() {
	name=$1 setting=$2
	shift 2
	script -qec "env $setting HOME='$T' XDG_DATA_HOME='$T/data' LC_ALL=C \
		'$PARLEARN' $*; echo \"rc=\$?\"" /dev/null </dev/null |
		tr -d '\r' >"$T/$name"
}

for case in "unset:-u TERM:TERM is not set" \
	"empty:TERM=:TERM is not set" \
	"unknown:TERM=no-such-terminal-xyz:\"no-such-terminal-xyz\" is unknown" \
	"dumb:TERM=dumb:\"dumb\" cannot move the cursor"; do
	name=${case%%:*}
	rest=${case#*:}
	setting=${rest%%:*}
	want=${rest#*:}
	for args in "" "review"; do
		run "$name" "$setting" "$args"
		grep -q '^rc=2$' "$T/$name" || fail "$name TERM, '$args': $(cat "$T/$name")"
		grep -qF "$want" "$T/$name" || fail "$name TERM, '$args': $(cat "$T/$name")"
		[ "$(grep -c . "$T/$name")" = 2 ] ||
			fail "$name TERM, '$args': not one line: $(cat "$T/$name")"
		LC_ALL=C grep -q "$(printf '\033')" "$T/$name" &&
			fail "$name TERM, '$args': escape sequences written"
	done
done
echo ok
