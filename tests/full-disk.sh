#!/bin/sh
# An export onto a full disk (issue 23, item 17): `deck export -o` and
# `export -o` fail with the reason (exit 2, "No space left on device"),
# leave the file they were to replace as it was and the database as it
# was (sqlite3 .dump before and after), even for a profile the database
# does not have yet; with the database on the full disk too, the error is
# the output's, not the database's. A successful `deck export` records
# nothing either: it only reads. The disk is a 256 KB tmpfs (root only).
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
T=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-full.XXXXXX")
FULL="$T/full"
mounted=
cleanup() {
	[ -n "$mounted" ] && umount "$FULL"
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
export HOME="$T/home" XDG_DATA_HOME="$T/data" LC_ALL=C
unset PARLEARN_CONTENT

fail() { echo "FAIL: $*" >&2; exit 1; }
. "$top_srcdir/tests/testlib.sh"

# run STATUS CMD...: stdout in $T/out, stderr in $T/err.
run() {
	want=$1
	shift
	"$@" >"$T/out" 2>"$T/err" </dev/null
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, want $want: $(cat "$T/err")"
}

# enospc WHAT: stderr is one line naming the output and ENOSPC.
enospc() {
	[ "$(wc -l <"$T/err")" -eq 1 ] &&
		grep -q "$FULL/out.txt: No space left on device" "$T/err" ||
		fail "$1: $(cat "$T/err")"
}

# unchanged WHAT: out.txt is as it was, no temporary file is left, the
# database dumps as before.
unchanged() {
	[ "$(cat "$FULL/out.txt")" = older ] || fail "$1 changed out.txt"
	ls -a "$FULL" | grep -q '\.tmp$' && fail "$1 left $(ls -a "$FULL")"
	sqlite3 "$DB" .dump >"$T/after.sql" || fail "$1: sqlite3 .dump"
	cmp -s "$T/before.sql" "$T/after.sql" ||
		fail "$1 changed the database: $(diff "$T/before.sql" "$T/after.sql")"
}

if [ "$(id -u)" != 0 ]; then
	part_skip "full disk" "mounting a tmpfs needs root"
	test_done
fi
part_needs sqlite3 "full disk" || test_done
mkdir -p "$HOME" "$T/db" "$FULL"
mount -t tmpfs -o size=256k tmpfs "$FULL" ||
	fail "cannot mount a tmpfs on $FULL"
mounted=1

# A learner with a deck of her own, and her progress.
DB="$T/db/progress.db"
printf '#separator:tab\nfront one\tback one\nfront two\tback two\n' >"$T/mine.txt"
run 0 "$PARLEARN" --db "$DB" --profile ada deck import "$T/mine.txt" --name mine
run 0 "$PARLEARN" --db "$DB" --profile ada export -o "$T/ada.json"
sqlite3 "$DB" .dump >"$T/before.sql" || fail "sqlite3 .dump"

# Fill the disk, keeping a file to be replaced.
echo older >"$FULL/out.txt"
dd if=/dev/zero of="$FULL/fill" bs=4096 2>/dev/null
[ "$(df -P "$FULL" | awk 'NR == 2 { print $4 }')" = 0 ] ||
	fail "the tmpfs is not full: $(df -P "$FULL")"

# 1. The database elsewhere: each export fails on its output alone.
run 2 "$PARLEARN" --db "$DB" --profile newbie deck export phase-1 \
	-o "$FULL/out.txt"
enospc "deck export phase-1 (a new profile)"
unchanged "deck export phase-1 (a new profile)"
run 2 "$PARLEARN" --db "$DB" --profile ada deck export mine -o "$FULL/out.txt"
enospc "deck export mine"
unchanged "deck export mine"
run 2 "$PARLEARN" --db "$DB" --profile ada export -o "$FULL/out.txt"
enospc "export"
unchanged "export"
run 2 "$PARLEARN" --db "$DB" --profile ada export --format csv \
	-o "$FULL/out.txt"
enospc "export --format csv"
unchanged "export --format csv"

# 2. The database on the full disk too (copied there before it filled):
#    a course deck needs nothing from it, so the error is the output's.
rm "$FULL/fill"
cp "$DB" "$FULL/progress.db"
cp "$FULL/progress.db" "$T/copy.db"
dd if=/dev/zero of="$FULL/fill" bs=4096 2>/dev/null
run 2 "$PARLEARN" --db "$FULL/progress.db" --profile ada deck export phase-1 \
	-o "$FULL/out.txt"
enospc "deck export phase-1 (the database on the full disk)"
cmp -s "$FULL/progress.db" "$T/copy.db" ||
	fail "deck export changed the database on the full disk"
[ "$(cat "$FULL/out.txt")" = older ] || fail "out.txt changed"

# 3. With room again, the exports succeed and still record nothing: no
#    profile is created by a deck export.
rm "$FULL/fill"
run 0 "$PARLEARN" --db "$DB" --profile newbie deck export phase-1 \
	-o "$FULL/out.txt"
grep -q '^#deck:parlearn::phase-1$' "$FULL/out.txt" ||
	fail "deck export wrote: $(head -5 "$FULL/out.txt")"
echo older >"$FULL/out.txt"
unchanged "a successful deck export"
run 0 "$PARLEARN" --db "$DB" --profile ada deck export mine -o "$FULL/out.txt"
[ "$(grep -c 'front' "$FULL/out.txt")" = 2 ] ||
	fail "deck export mine wrote: $(cat "$FULL/out.txt")"
echo older >"$FULL/out.txt"
unchanged "a successful deck export mine"
# A profile or database that does not exist has no decks; neither is made.
run 2 "$PARLEARN" --db "$DB" --profile newbie deck export mine
grep -q "no deck called 'mine'" "$T/err" || fail "newbie's mine: $(cat "$T/err")"
unchanged "deck export of another's deck"
run 2 "$PARLEARN" --db "$T/db/none.db" deck export mine
[ -e "$T/db/none.db" ] && fail "deck export created a database"
test_done
