#!/bin/sh
# Small files with one job each: no C file under src/ is over 800 lines
# (issue 24; import.c once reached 906 before it was split).
set -u
top_srcdir=${top_srcdir:-.}
limit=800
big=$(find "$top_srcdir/src" -name '*.[ch]' -exec wc -l {} + |
	awk -v n="$limit" '$2 != "total" && $1 > n { print "  " $2 ": " $1 " lines" }')
n=$(find "$top_srcdir/src" -name '*.[ch]' | wc -l)
if [ "$n" -lt 100 ]; then
	echo "FAIL: only $n C files found under $top_srcdir/src" >&2
	exit 1
fi
if [ -n "$big" ]; then
	echo "FAIL: files over $limit lines:" >&2
	echo "$big" >&2
	exit 1
fi
echo "all $n C files under src/ have at most $limit lines"
