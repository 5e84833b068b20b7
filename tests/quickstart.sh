#!/bin/sh
# The README's quick start leaves a machine able to run every test CI runs
# (issue 23): its install line installs every package .ci/run installs and
# generates the de_DE.UTF-8 locale .ci/run generates, and its test command
# is the one .ci/run runs, so a user's `make check` is CI's.
set -u
top_srcdir=${top_srcdir:-.}
fail() { echo "FAIL: $*" >&2; exit 1; }

readme="$top_srcdir/README.md"
ci="$top_srcdir/.ci/run"
[ -f "$ci" ] || { echo "SKIP: no .ci/run (not a clone)" >&2; exit 77; }

# The quick start: from its heading to the next section.
quick=$(sed -n '/^## Quick start/,/^## /p' "$readme")
install=$(echo "$quick" | grep 'apt-get install') ||
	fail "the quick start has no apt-get install line"
[ "$(echo "$install" | wc -l)" -eq 1 ] || fail "more than one install line"

# .ci/run's packages: the words of packages="...".
pkgs=$(sed -n '/^packages="/,/"$/p' "$ci" | tr -d '"' | sed 's/^packages=//')
[ -n "$pkgs" ] || fail "no package list in .ci/run"
n=0
for p in $pkgs; do
	case " $install " in
	*" $p "*) n=$((n + 1)) ;;
	*) fail "the quick start does not install $p (.ci/run does)" ;;
	esac
done
[ "$n" -gt 10 ] || fail "only $n packages read from .ci/run"

# The locale CI generates, with sudo when not root.
grep -q 'localedef -i de_DE -f UTF-8 de_DE.UTF-8' "$ci" ||
	fail ".ci/run no longer generates de_DE.UTF-8: update this test"
case "$install" in
*'$(command -v sudo) localedef -i de_DE -f UTF-8 de_DE.UTF-8'*) ;;
*) fail "the quick start does not generate the de_DE.UTF-8 locale" ;;
esac
# Then it builds and starts parlearn.
case "$install" in
*"&& autoreconf -fi && ./configure && make && ./parlearn") ;;
*) fail "the install line should end by building and starting parlearn" ;;
esac

# The test command is CI's.
echo "$quick" | grep -qx 'autoreconf -fi && ./configure && make check' ||
	fail "the quick start's test command is not 'autoreconf -fi && ./configure && make check'"
grep -q '^autoreconf -fi && ./configure && make check' "$ci" ||
	fail ".ci/run does not run the README's test command"
exit 0
