#!/bin/sh
# The man page against the program it documents: every option that any
# command's --help prints (run through the real binary), a section for every
# command of its table, every key of every screen's key table, and every
# environment variable the code reads. groff must format it without a
# warning.
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-man.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C
unset PARLEARN_CONTENT

fail() { echo "FAIL: $*" >&2; exit 1; }
. "$top_srcdir/tests/testlib.sh"

page="$top_srcdir/doc/parlearn.1"
# The page's words: font escapes gone, \- read as -, comments dropped.
sed -e '/^\.\\"/d' -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\(mu/x/g' \
	"$page" >"$tmp/plain"

# The commands, from the binary's own table (hidden ones are not listed).
commands=$("$PARLEARN" complete -- "") || fail "parlearn complete"
[ -n "$commands" ] || fail "no commands listed"
missing=
n_opts=0
for c in "" $commands; do
	if [ -z "$c" ]; then
		"$PARLEARN" --help >"$tmp/help" 2>&1 || fail "parlearn --help"
	else
		"$PARLEARN" "$c" --help >"$tmp/help" 2>&1 ||
			fail "parlearn $c --help exited $?"
		grep -q "^\.SS \"\{0,1\}$c\( \|\"\|$\)" "$tmp/plain" ||
			missing="$missing
  command '$c' has no .SS section"
	fi
	# Every option word: -x or --name after a space, bracket or start.
	for opt in $(grep -oE -- '(^|[^[:alnum:]-])--?[[:alpha:]][[:alnum:]-]*' \
	    "$tmp/help" | sed 's/^[^-]*//' | sort -u); do
		n_opts=$((n_opts + 1))
		grep -qE -- "(^|[^[:alnum:]-])$opt([^[:alnum:]-]|\$)" "$tmp/plain" ||
			missing="$missing
  ${c:-parlearn}: $opt"
	done
done
[ -z "$missing" ] || fail "the man page lacks:$missing"
[ "$n_opts" -gt 60 ] || fail "only $n_opts options read from the help texts"

# The key labels of the screens' tables and the tags (.TP then .B LABEL)
# of KEYS are the same set: none missing, none stale.
sed -n '/^\.SH KEYS/,/^\.SH /p' "$tmp/plain" | awk '/^\.TP/ { tag = 1; next }
	tag && /^\.B / { sub(/^\.B +/, ""); print } { tag = 0 }' |
	sed -e 's/^"\(.*\)"$/\1/' | sort -u >"$tmp/keys"
{
	grep -ho '{ N_("[^"]*"), N_(' "$top_srcdir"/src/tui/*.c |
		sed 's/^{ N_("\(.*\)"), N_($/\1/'
	# The player's knobs, from the simulator's table: "gG" is "g, G".
	grep -ho 'KNOB([A-Z_]*, "[^"]*"' "$top_srcdir/src/core/sim/sim_keys.c" |
		sed 's/.*"\(.*\)"$/\1/' |
		awk 'length($0) == 2 { print substr($0, 1, 1) ", " substr($0, 2, 1); next } { print }'
} | sort -u >"$tmp/labels"
[ "$(wc -l <"$tmp/labels")" -gt 30 ] || fail "too few key labels read"
while IFS= read -r label; do
	grep -Fxq -- "$label" "$tmp/keys" || missing="$missing
  key '$label'"
done <"$tmp/labels"
while IFS= read -r tag; do
	grep -Fxq -- "$tag" "$tmp/labels" || missing="$missing
  key '$tag' is in no screen's key table"
done <"$tmp/keys"
[ -z "$missing" ] || fail "the man page's KEYS and the key tables differ:$missing"

# Every environment variable the code reads.
sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$tmp/plain" >"$tmp/env"
for v in $(grep -rhoE 'getenv\("[A-Z_]+"\)' "$top_srcdir/src" |
    sed 's/getenv("\(.*\)")/\1/' | sort -u) LANG LC_ALL TERM; do
	grep -qw -- "$v" "$tmp/env" || missing="$missing
  environment variable $v"
done
[ -z "$missing" ] || fail "the man page's ENVIRONMENT lacks:$missing"
for s in NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS KEYS '"JSON OUTPUT"' \
    ENVIRONMENT FILES '"EXIT STATUS"' '"SEE ALSO"'; do
	grep -q "^\.SH $s\$" "$page" || fail "no section $s"
done

# It formats without a warning.
if part_needs groff "groff warnings"; then
	groff -man -ww -z "$page" >"$tmp/groff" 2>&1 || fail "groff failed"
	[ ! -s "$tmp/groff" ] || fail "groff: $(cat "$tmp/groff")"
fi
echo "man.sh: $n_opts options, $(wc -l <"$tmp/labels") key labels checked"
test_done
