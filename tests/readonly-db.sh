#!/bin/sh
# Issue 23, item 15: the commands that only read (list, stats, deck list,
# review --list, export) work on a progress database that cannot be
# written: its directory read-only ("attempt to write a readonly
# database" before, even for list), the file read-only, or the whole
# filesystem mounted read-only. They read it as it is (no journal mode
# set, no profile created, nothing written); a database that needs a
# migration is refused with that reason; a command that writes fails
# with the system's reason.
#
# Root ignores permission bits, so as root the permission cases run as
# the user nobody (runuser), and the read-only filesystem is a tmpfs
# remounted read-only.
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-rodb.XXXXXX")
MNT=
cleanup() {
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	chmod -R u+w "$tmp" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
export LC_ALL=C
unset PARLEARN_CONTENT

fail() { echo "FAIL: $*" >&2; exit 1; }
. "$top_srcdir/tests/testlib.sh"

src=$(cd "$top_srcdir" && pwd)
bin=$(cd "$(dirname "$PARLEARN")" && pwd)/$(basename "$PARLEARN")
chmod 755 "$tmp"
printf 'Own front\tOwn back\n' >"$tmp/deck.tsv"
chmod 644 "$tmp/deck.tsv"

# as DATA CMD...: parlearn with XDG_DATA_HOME=DATA, as nobody when root
# (so permission bits count); stdout in $tmp/out, stderr in $tmp/err,
# the exit status in $rc.
as() {
	data=$1
	shift
	if [ "$(id -u)" = 0 ]; then
		runuser -u nobody -- env HOME="$tmp" XDG_DATA_HOME="$data" \
			LC_ALL=C "$bin" --content "$src" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	else
		env HOME="$tmp" XDG_DATA_HOME="$data" "$bin" --content "$src" \
			"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	fi
	rc=$?
}

# reads DATA WHAT: every read-only command works on DATA's database and
# leaves it as it was.
reads() {
	db="$1/parlearn/progress.db"
	sum=$(cksum <"$db")
	as "$1" --profile a list
	[ "$rc" = 0 ] || fail "$2: list exit $rc: $(cat "$tmp/err")"
	grep -q 'drop-01\|Phase 1' "$tmp/out" || fail "$2: list: $(head -3 "$tmp/out")"
	as "$1" --profile a list --json
	[ "$rc" = 0 ] || fail "$2: list --json exit $rc: $(cat "$tmp/err")"
	as "$1" --profile a stats
	[ "$rc" = 0 ] || fail "$2: stats exit $rc: $(cat "$tmp/err")"
	as "$1" --profile a deck list
	[ "$rc" = 0 ] || fail "$2: deck list exit $rc: $(cat "$tmp/err")"
	grep -q '^mine ' "$tmp/out" || fail "$2: deck list lacks the own deck: $(cat "$tmp/out")"
	as "$1" --profile a review --list --all
	[ "$rc" = 0 ] || fail "$2: review --list exit $rc: $(cat "$tmp/err")"
	grep -q 'Own front' "$tmp/out" || fail "$2: review --list: $(cat "$tmp/out")"
	as "$1" --profile a export
	[ "$rc" = 0 ] || fail "$2: export exit $rc: $(cat "$tmp/err")"
	grep -q 'Own front' "$tmp/out" || fail "$2: export lacks the own card"
	# A profile the database lacks reads as empty; none is created.
	as "$1" --profile newcomer list
	[ "$rc" = 0 ] || fail "$2: list for a new profile exit $rc: $(cat "$tmp/err")"
	[ "$(cksum <"$db")" = "$sum" ] || fail "$2: the database changed"
	[ -s "$db-wal" ] && fail "$2: a write-ahead log was written"
	# A command that writes says why it cannot.
	as "$1" --profile a deck import "$tmp/deck.tsv" --name other
	[ "$rc" = 2 ] || fail "$2: deck import exit $rc"
	grep -q 'readonly\|Read-only\|Permission denied' "$tmp/err" ||
		fail "$2: deck import: $(cat "$tmp/err")"
}

# make DATA: a database under DATA with a profile, an own deck and the
# course's cards, owned by whoever `as` runs as.
make_db() {
	mkdir -p "$1"
	[ "$(id -u)" = 0 ] && chown nobody "$1"
	as "$1" --profile a deck import "$tmp/deck.tsv" --name mine
	[ "$rc" = 0 ] || fail "deck import: $(cat "$tmp/err")"
	as "$1" --profile a list
	[ "$rc" = 0 ] || fail "list: $(cat "$tmp/err")"
}

if [ "$(id -u)" = 0 ] && ! id nobody >/dev/null 2>&1; then
	part_skip "read-only database" "as root this test needs the user nobody"
	test_done
fi

# 1. A directory the owner cannot write (the issue's case).
make_db "$tmp/d1"
chmod 500 "$tmp/d1/parlearn"
reads "$tmp/d1" "read-only directory"
# ... and a database that needs a migration is refused, saying so.
if part_needs sqlite3 "read-only database needing a migration"; then
	chmod 700 "$tmp/d1/parlearn"
	sqlite3 "$tmp/d1/parlearn/progress.db" 'PRAGMA user_version = 5;' ||
		fail "sqlite3"
	chmod 500 "$tmp/d1/parlearn"
	as "$tmp/d1" --profile a list
	[ "$rc" = 2 ] || fail "an old read-only database: exit $rc"
	grep -q "progress.db: the database is at schema version 5 and needs upgrading to 6, which needs write access, but it or its directory is read-only$" \
		"$tmp/err" || fail "migration message: $(cat "$tmp/err")"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "not one line: $(cat "$tmp/err")"
fi

# 2. A read-only database file in a writable directory.
make_db "$tmp/d2"
chmod 400 "$tmp/d2/parlearn/progress.db"
reads "$tmp/d2" "read-only file"

# 3. A filesystem mounted read-only (root only).
if [ "$(id -u)" != 0 ]; then
	part_skip "read-only filesystem" "mounting a tmpfs needs root"
elif part_needs mount "read-only filesystem"; then
	MNT="$tmp/mnt"
	mkdir "$MNT"
	mount -t tmpfs -o size=16m,mode=755 tmpfs "$MNT" || fail "mount tmpfs"
	make_db "$MNT/d3"
	mount -o remount,ro "$MNT" || fail "remount ro"
	reads "$MNT/d3" "read-only filesystem"
fi
test_done
