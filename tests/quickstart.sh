#!/bin/sh
# The README's quick start leaves a machine able to run what CI runs
# (issue 23, item 21): its install line names every package .ci/run
# installs, and it generates the de_DE.UTF-8 locale the number tests read,
# so a learner's `make check` skips nothing CI would run.
set -u
top_srcdir=${top_srcdir:-.}
fail() { echo "FAIL: $*" >&2; exit 1; }

line=$(grep -m 1 'apt-get install' "$top_srcdir/README.md") ||
	fail "README.md has no install line"
ci=$(sed -n '/^packages="/,/"$/p' "$top_srcdir/.ci/run" | tr -d '"' |
	sed 's/^packages=//' | tr ' \t' '\n\n' | sed '/^$/d')
[ -n "$ci" ] || fail ".ci/run lists no packages"
for p in $ci; do
	echo " $line " | grep -q "[ ]$p[ ]" ||
		fail "the README's install line lacks $p, which CI installs"
done
echo "$line" | grep -q 'localedef -i de_DE -f UTF-8 de_DE.UTF-8' ||
	fail "the README's quick start does not generate de_DE.UTF-8"
grep -q 'localedef -i de_DE -f UTF-8 de_DE.UTF-8' "$top_srcdir/.ci/run" ||
	fail ".ci/run does not generate de_DE.UTF-8 as the README does"
exit 0
