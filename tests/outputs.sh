#!/bin/sh
# Files in shared places (issue 15, item 3): -o never follows a planted
# link, never replaces or removes what is not a regular file it may
# replace, never leaves half a file; a full standard output is an error;
# the progress database is never a symlink, never another user's, 0600.
set -u

PARLEARN=${PARLEARN:-${top_builddir:-.}/parlearn}
top_srcdir=${top_srcdir:-.}
T=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-out.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

export HOME="$T/home" XDG_DATA_HOME="$T/data" LC_ALL=C
unset PARLEARN_CONTENT
mkdir -p "$HOME"
src=$(cd "$top_srcdir" && pwd)
LAB="$T/lab"
"$PARLEARN" lab host "$LAB" --script "$src/labs/short-check.json" \
	--no-dashboard >/dev/null 2>&1 || fail "lab host"
"$PARLEARN" --profile s1 lab submit "$LAB" --step 1 --question q1 --correct 1 ||
	fail "lab submit"

# 1. A full standard output is exit 2 with the reason, for every command
#    that prints.
if [ -w /dev/full ]; then
	for cmd in "list" "list --json" "check-content" "trace" "review --list" \
		"stats" "deck list" "deck export phase-1" "export" \
		"export --format csv" "lab status $LAB" "lab report $LAB" \
		"plan --help" "--help" "--version"; do
		# shellcheck disable=SC2086
		"$PARLEARN" $cmd >/dev/full 2>"$T/full.err"
		rc=$?
		[ $rc -eq 2 ] || fail "'$cmd' >/dev/full: exit $rc"
		grep -q "standard output: No space left on device" "$T/full.err" ||
			fail "'$cmd' >/dev/full: $(cat "$T/full.err")"
		[ "$(wc -l <"$T/full.err")" -eq 1 ] ||
			fail "'$cmd' >/dev/full said it more than once"
	done
elif [ "${CI:-}" = true ]; then
	fail "/dev/full is missing under CI"
fi

# 2. -o onto a planted symlink: refused, the link and its target intact.
echo "precious" >"$T/victim"
for cmd in "lab report $LAB" "export" "deck export phase-1"; do
	ln -s "$T/victim" "$T/link"
	# shellcheck disable=SC2086
	"$PARLEARN" $cmd -o "$T/link" >/dev/null 2>"$T/link.err" &&
		fail "'$cmd -o link' wrote through a symlink"
	[ -L "$T/link" ] || fail "'$cmd -o link' replaced the link"
	[ "$(cat "$T/victim")" = precious ] || fail "'$cmd -o link' changed the target"
	grep -q "symbolic link" "$T/link.err" || fail "'$cmd -o link': $(cat "$T/link.err")"
	rm "$T/link"
done

# 2b. -o /dev/null (a device) and -o /dev/stdout (a link) are refused,
#     and the man page and each command's --help say so and what to do.
for cmd in "lab report $LAB" "export" "deck export phase-1"; do
	for dev in /dev/null /dev/stdout; do
		# shellcheck disable=SC2086
		"$PARLEARN" $cmd -o "$dev" >/dev/null 2>"$T/dev.err" &&
			fail "'$cmd -o $dev' was written"
		grep -Eq "$dev: (not a regular file|is a symbolic link)" "$T/dev.err" ||
			fail "'$cmd -o $dev': $(cat "$T/dev.err")"
	done
done
for c in export deck lab; do
	"$PARLEARN" $c --help | tr -s ' \n' '  ' >"$T/help.txt"
	grep -q "/dev/stdout" "$T/help.txt" && grep -q "leave out -o" "$T/help.txt" ||
		fail "$c --help does not say that -o /dev/stdout is refused"
done
tr -s ' \n' '  ' <"$top_srcdir/doc/parlearn.1" >"$T/man.txt"
for want in "/dev/null" "/dev/stdout" "must be a regular file" "leave .B \\\\-o out"; do
	grep -q -- "$want" "$T/man.txt" ||
		fail "the man page does not say why -o refuses devices ($want)"
done

# 3. Never remove what it did not create: an unknown deck leaves an
#    existing file alone, a directory given as -o stays.
echo "keep" >"$T/old.tsv"
"$PARLEARN" deck export no-such-deck -o "$T/old.tsv" 2>/dev/null &&
	fail "an unknown deck exported"
[ "$(cat "$T/old.tsv")" = keep ] || fail "deck export removed or changed a file it did not write"
mkdir "$T/adir"
"$PARLEARN" deck export phase-1 -o "$T/adir" 2>/dev/null && fail "exported onto a directory"
[ -d "$T/adir" ] || fail "deck export removed a directory"
ls -a "$T" | grep -q '\.tmp$' && fail "temporary files left: $(ls -a "$T")"

# 4. A write that fails half way (file size limit, as on a full disk):
#    exit 2 with the reason, nothing half-written left, an older file
#    kept. lab report opens no database, so only its output meets the
#    limit.
for i in 2 3 4 5 6; do
	"$PARLEARN" --profile "s$i" lab submit "$LAB" --step 1 --question q1 \
		--correct 0 || fail "lab submit s$i"
done
"$PARLEARN" lab report "$LAB" --format json -o "$T/full.json" || fail "lab report -o"
[ "$(wc -c <"$T/full.json")" -gt 4096 ] || fail "the report is too small to test"
echo "older" >"$T/report.json"
(
	trap '' XFSZ
	ulimit -f 4
	exec "$PARLEARN" lab report "$LAB" --format json -o "$T/report.json"
) 2>"$T/fsz.err"
rc=$?
[ $rc -eq 2 ] || fail "lab report past the size limit: exit $rc"
grep -q "File too large" "$T/fsz.err" || fail "lab report past the limit: $(cat "$T/fsz.err")"
[ "$(cat "$T/report.json")" = older ] || fail "a partial report replaced the file"
ls -a "$T" | grep -q '\.tmp$' && fail "temporary files left: $(ls -a "$T")"
rm "$T/report.json"
(
	trap '' XFSZ
	ulimit -f 4
	exec "$PARLEARN" lab report "$LAB" --format json -o "$T/report.json"
) 2>/dev/null
[ -e "$T/report.json" ] && fail "a partial report was left"
"$PARLEARN" deck export phase-1 -o "$T/r.tsv" || fail "deck export -o"
grep -q '^#deck:.*phase-1$' "$T/r.tsv" || fail "deck export wrote: $(head -3 "$T/r.tsv")"

# 5. The progress database: a symlink is refused and its target left
#    alone; a new one is 0600 whatever the umask; a wider one is narrowed.
mkdir -p "$T/db"
echo "not yours" >"$T/other.db"
ln -s "$T/other.db" "$T/db/progress.db"
"$PARLEARN" --db "$T/db/progress.db" list >/dev/null 2>"$T/db.err" &&
	fail "opened a symlinked database"
grep -q "symbolic link" "$T/db.err" || fail "symlinked db: $(cat "$T/db.err")"
[ "$(cat "$T/other.db")" = "not yours" ] || fail "the link's target was changed"
rm "$T/db/progress.db"
(umask 0 && "$PARLEARN" --db "$T/db/progress.db" list >/dev/null) ||
	fail "a new database"
[ "$(stat -c %a "$T/db/progress.db")" = 600 ] ||
	fail "new database mode $(stat -c %a "$T/db/progress.db")"
chmod 644 "$T/db/progress.db"
"$PARLEARN" --db "$T/db/progress.db" list >/dev/null || fail "reopen"
[ "$(stat -c %a "$T/db/progress.db")" = 600 ] ||
	fail "a 0644 database stayed $(stat -c %a "$T/db/progress.db")"

# ... and a data directory or database another user owns is refused.
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$T/theirs"
	chown 1:1 "$T/theirs"
	"$PARLEARN" --db "$T/theirs/progress.db" list >/dev/null 2>"$T/own.err" &&
		fail "kept progress in another user's directory"
	grep -q "owned by uid 1" "$T/own.err" || fail "other's dir: $(cat "$T/own.err")"
	cp "$T/db/progress.db" "$T/db/theirs.db"
	chown 1:1 "$T/db/theirs.db"
	"$PARLEARN" --db "$T/db/theirs.db" list >/dev/null 2>"$T/own2.err" &&
		fail "opened another user's database"
	grep -q "owned by uid 1" "$T/own2.err" || fail "other's db: $(cat "$T/own2.err")"
elif [ "${CI:-}" = true ]; then
	fail "CI must run as root for the ownership checks"
else
	echo "SKIP: ownership checks need root" >&2
	exit 77
fi
echo "ok"
