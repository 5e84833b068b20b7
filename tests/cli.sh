#!/bin/sh
# The parlearn binary from the outside: --help, --version, exit codes, the
# content directory options, and refusing to start the TUI without a terminal.
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C
unset PARLEARN_CONTENT

fail() { echo "FAIL: $*" >&2; exit 1; }
. "$top_srcdir/tests/testlib.sh"

expect() { # expect STATUS CMD...
	want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, want $want: $(cat "$tmp/err")"
}

expect 0 "$PARLEARN" --help
grep -q '^Usage: parlearn \[OPTION\]' "$tmp/out" || fail "--help has no usage line"
grep -q 'check-content' "$tmp/out" || fail "--help does not list check-content"
expect 0 "$PARLEARN" --version
grep -q '^parlearn [0-9][0-9.]*$' "$tmp/out" || fail "--version: $(cat "$tmp/out")"
expect 1 "$PARLEARN" --bogus
grep -q "(try 'parlearn --help')" "$tmp/err" || fail "no hint after a bad option"
expect 1 "$PARLEARN" frobnicate
grep -q "unknown command 'frobnicate'" "$tmp/err" || fail "unknown command message"
expect 1 "$PARLEARN" --profile "" list
expect 0 "$PARLEARN" list --help

# The build tree finds the source tree's course.
expect 0 "$PARLEARN" list --json
grep -q '"drop-14"' "$tmp/out" || fail "list --json lacks drop-14"
[ -f "$tmp/data/parlearn/progress.db" ] || fail "database not created under XDG_DATA_HOME"
mode=$(stat -c %a "$tmp/data/parlearn/progress.db")
[ "$mode" = 600 ] || fail "database mode is $mode, want 600"

# --content and PARLEARN_CONTENT: a course with a broken drop.
mkdir -p "$tmp/c/lessons/1-a"
printf '{"title": "Mine", "phases": [{"number": 1, "title": "P"}]}' \
	>"$tmp/c/lessons/course.json"
printf '{"id": "d1", "phase": 1, "number": 1, "title": "Only", "minutes": 3,\n "blocks": [{"kind": "text", "text": "x"}]}' \
	>"$tmp/c/lessons/1-a/01.json"
expect 0 "$PARLEARN" --content "$tmp/c" check-content
expect 0 env PARLEARN_CONTENT="$tmp/c" "$PARLEARN" list
grep -q '^Mine$' "$tmp/out" || fail "PARLEARN_CONTENT not used"
printf '{"id": "d2", "phase": 1,\n "number": 2, "title": 5}' >"$tmp/c/lessons/1-a/02.json"
expect 2 "$PARLEARN" check-content "$tmp/c"
grep -q "^.*/02.json:2:24: title: must be a string$" "$tmp/err" || fail "check-content message: $(cat "$tmp/err")"
expect 0 "$PARLEARN" --content "$tmp/c" list
grep -q "warning: skipped .*02.json" "$tmp/err" || fail "no warning for the skipped drop"
printf '{"title": "Mine", "phases": [' >"$tmp/c/lessons/course.json"
expect 2 "$PARLEARN" --content "$tmp/c" list
grep -q "course.json:1:30: unexpected end of file in JSON" "$tmp/err" || fail "course.json error: $(cat "$tmp/err")"
expect 2 "$PARLEARN" --content "$tmp/nowhere" list

# --content and PARLEARN_CONTENT cover data/, the GPU and model catalogs:
# a course's own catalog changes what plan sees; a course without data/
# uses the installed one; a catalog missing from data/ is named.
plan="plan --model llama2-70b --gpu h100-80gb --gpus 64 --dp 8 --tp 8 --pp 1"
mkdir -p "$tmp/c2/data"
cp "$top_srcdir/data/models.json" "$tmp/c2/data/"
sed 's/"memory_mib": 81559,/"memory_mib": 163118,/' "$top_srcdir/data/gpus.json" \
	>"$tmp/c2/data/gpus.json"
grep -q '"memory_mib": 163118' "$tmp/c2/data/gpus.json" || fail "gpus.json edit"
# shellcheck disable=SC2086
expect 0 "$PARLEARN" $plan
grep -q "GPU 85.52 GB" "$tmp/out" || fail "plan: $(grep GPU "$tmp/out")"
# shellcheck disable=SC2086
expect 0 "$PARLEARN" --content "$tmp/c2" $plan
grep -q "GPU 171.04 GB" "$tmp/out" ||
	fail "--content's data/gpus.json not used: $(grep GPU "$tmp/out")"
# shellcheck disable=SC2086
expect 0 env PARLEARN_CONTENT="$tmp/c2" "$PARLEARN" $plan
grep -q "GPU 171.04 GB" "$tmp/out" ||
	fail "PARLEARN_CONTENT's data/ not used: $(grep GPU "$tmp/out")"
mkdir -p "$tmp/c3"
# shellcheck disable=SC2086
expect 0 "$PARLEARN" --content "$tmp/c3" $plan
grep -q "GPU 85.52 GB" "$tmp/out" || fail "no data/: $(grep GPU "$tmp/out")"
rm "$tmp/c2/data/models.json"
# shellcheck disable=SC2086
expect 2 "$PARLEARN" --content "$tmp/c2" $plan
grep -q "^parlearn: plan: $tmp/c2/data/models.json: No such file or directory$" \
	"$tmp/err" || fail "a missing catalog: $(cat "$tmp/err")"

# The interactive tutor needs a terminal, whichever way it is entered
# (tui_run says what to run instead); nothing is drawn on stdout.
expect 2 "$PARLEARN"
grep -q "^parlearn: standard input and output must be a terminal (try 'parlearn list')$" "$tmp/err" ||
	fail "no message without a terminal: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "output without a terminal: $(cat "$tmp/out")"
expect 2 "$PARLEARN" review
grep -q "^parlearn: review: standard input and output must be a terminal (try 'parlearn review --list')$" "$tmp/err" ||
	fail "review without a terminal: $(cat "$tmp/err")"
expect 2 "$PARLEARN" lab host "$tmp/lab" --script "$top_srcdir/labs/short-check.json"
grep -q "^parlearn: the dashboard needs a terminal (the lab is ready; try 'parlearn lab status')$" "$tmp/err" ||
	fail "lab host without a terminal: $(cat "$tmp/err")"
expect 2 "$PARLEARN" lab join "$tmp/lab"
grep -q "^parlearn: standard input and output must be a terminal$" "$tmp/err" ||
	fail "lab join without a terminal: $(cat "$tmp/err")"

# Issue 23: lab submit records only an item the step asks about (a
# question the step does not have was recorded, exit 0); any other is a
# usage error that says what the step asks about, and nothing is written.
expect 1 "$PARLEARN" --profile sub lab submit "$tmp/lab" --step 1 --question nosuch --correct 1
grep -q "^parlearn: lab submit: step 1 has no question nosuch; it asks about: --question q1, --question q2, " \
	"$tmp/err" || fail "a question the step lacks: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/err")" = 1 ] || fail "not one line: $(cat "$tmp/err")"
[ -e "$tmp/lab/results/$(id -un)@sub.json" ] && fail "a result was written"
expect 1 "$PARLEARN" --profile sub lab submit "$tmp/lab" --step 1 --scenario q1 --correct 1
grep -q "step 1 has no scenario q1" "$tmp/err" || fail "--scenario q1: $(cat "$tmp/err")"
printf '{}' >"$tmp/run.json"
expect 1 "$PARLEARN" --profile sub lab submit "$tmp/lab" --step 1 --run "$tmp/run.json"
grep -q "step 1 is not a run or emit step; it asks about: --question q1" "$tmp/err" ||
	fail "--run on a drop step: $(cat "$tmp/err")"
[ -e "$tmp/lab/results/$(id -un)@sub.json" ] && fail "a result was written"
expect 0 "$PARLEARN" --profile sub lab submit "$tmp/lab" --step 1 --question q2 --correct 1
expect 0 "$PARLEARN" lab step "$tmp/lab" 4
expect 1 "$PARLEARN" --profile sub lab submit "$tmp/lab" --step 4 --question q1 --correct 1
grep -q "step 4 has no question q1; it asks about: --scenario tp-across-nodes$" "$tmp/err" ||
	fail "a question on a scenario step: $(cat "$tmp/err")"
expect 0 "$PARLEARN" --profile sub lab submit "$tmp/lab" --step 4 --scenario tp-across-nodes --correct 0
expect 0 "$PARLEARN" lab status "$tmp/lab" --json
tr -d ' \n\t' <"$tmp/out" | grep -q '"students":1,' || fail "lab status: $(cat "$tmp/out")"

# Whole-number options: the whole argument is the number (core's
# pl_parse_long), refused in one line that gives the range. Before, lab
# submit read "--step 1x" as step 1 and "--step abc" as no step at all.
# whole CMD... -- OPT ARG MIN MAX: exit 1 and exactly that one-line error.
whole() {
	cmd=$1 opt=$2 arg=$3 lo=$4 hi=$5
	shift 5
	expect 1 "$PARLEARN" "$@"
	want="parlearn: $cmd: $opt: '$arg' is not a whole number from $lo to $hi (try 'parlearn $cmd --help')"
	[ "$(cat "$tmp/err")" = "$want" ] ||
		fail "$*: want \"$want\", got: $(cat "$tmp/err")"
}
whole "lab submit" --step abc 1 2147483647 \
	lab submit "$tmp/lab" --step abc --question q1 --correct 1
whole "lab submit" --step 1x 1 2147483647 \
	lab submit "$tmp/lab" --step 1x --question q1 --correct 1
whole trace --gpus 4x 1 2147483647 trace --gpus 4x
whole trace --microbatches 99999999999999999999 1 2147483647 \
	trace --microbatches 99999999999999999999
whole stats --width 80.0 40 200 stats --width 80.0
whole review --rollover 24 0 23 review --rollover 24
whole srs --max-interval 1e3 1 36500 srs replay --ratings good --max-interval 1e3
whole srs --card-id -1 0 1000000000 srs replay --ratings good --card-id -1
expect 1 "$PARLEARN" lab step "$tmp/lab" 1x
grep -q "a step from 1 to [0-9]*, 'next' or 'prev'" "$tmp/err" ||
	fail "lab step 1x: $(cat "$tmp/err")"

# Issue 23: an explicit --db creates no directories (it made
# DIR/no/such/ and exited 0); the default path's directories still are.
expect 2 "$PARLEARN" --db "$tmp/no/such/x.db" list
grep -q "^parlearn: list: $tmp/no/such: no such directory" "$tmp/err" ||
	fail "--db in a missing directory: $(cat "$tmp/err")"
[ -e "$tmp/no" ] && fail "--db created $tmp/no"
expect 2 "$PARLEARN" --db "$tmp/no/such/x.db" export
[ -e "$tmp/no" ] && fail "--db export created $tmp/no"
mkdir "$tmp/no"
expect 0 "$PARLEARN" --db "$tmp/no/x.db" list
[ -f "$tmp/no/x.db" ] || fail "--db in an existing directory: no database"
expect 0 env XDG_DATA_HOME="$tmp/xdg2" "$PARLEARN" list
[ -f "$tmp/xdg2/parlearn/progress.db" ] ||
	fail "the default path's directories were not created"

# A database from a newer parlearn is refused and left alone.
expect 0 "$PARLEARN" --db "$tmp/new.db" list
if part_needs sqlite3 "newer database refused"; then
	sqlite3 "$tmp/new.db" 'PRAGMA user_version = 99;'
	sum=$(cksum <"$tmp/new.db")
	expect 2 "$PARLEARN" --db "$tmp/new.db" list
	grep -q "schema version 99" "$tmp/err" || fail "newer schema message"
	[ "$(cksum <"$tmp/new.db")" = "$sum" ] || fail "newer database was modified"
fi
# review --list: a card's front in at most 60 columns, "..." where it was
# cut (it was cut at byte 60, mid-word and without a mark).
printf '%s\t%s\n' "Short front?" "A back." \
	"Which of the four links carries the pipeline's activations between stage 1 and stage 2?" \
	"G1-G2." >"$tmp/long.tsv"
expect 0 "$PARLEARN" --profile lister deck import "$tmp/long.tsv" --name long
expect 0 "$PARLEARN" --profile lister review --list --all
tail -n +2 "$tmp/out" | LC_ALL=C awk 'length(substr($0, 72)) > 60 { bad = 1 }
	END { exit bad }' || fail "review --list: a front wider than 60 columns"
tail -n +2 "$tmp/out" | grep -q '[^ ]\.\.\.$' ||
	fail "review --list: no cut front ends with ..."
tail -n +2 "$tmp/out" | LC_ALL=C awk 'length(substr($0, 72)) == 60 &&
	!/\.\.\.$/ { bad = 1 } END { exit bad }' ||
	fail "review --list: a front cut without ..."
# Issue 23: deck list --json (it was refused) lists the course's decks and
# the learner's own; review --list --deck NOSUCH is bad data as deck export
# NOSUCH is (it exited 0).
expect 0 "$PARLEARN" --profile lister deck list --json
tr -d ' \n\t' <"$tmp/out" | grep -q '^{"schema":"parlearn.deck-list/1"' ||
	fail "deck list --json: $(head -c 300 "$tmp/out")"
tr -d ' \n\t' <"$tmp/out" | grep -q '{"id":"long","title":null,"cards":2,"own":true}' ||
	fail "deck list --json lacks the imported deck: $(cat "$tmp/out")"
expect 1 "$PARLEARN" deck export long --json
expect 2 "$PARLEARN" --profile lister deck export NOSUCH
expect 2 "$PARLEARN" --profile lister review --list --deck NOSUCH
grep -q "^parlearn: review: no deck called 'NOSUCH' (see 'parlearn deck list')$" "$tmp/err" ||
	fail "review --list --deck NOSUCH: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "review --list --deck NOSUCH printed: $(cat "$tmp/out")"
expect 2 "$PARLEARN" --profile lister review --list --json --deck NOSUCH
expect 0 "$PARLEARN" --profile lister review --list --deck long
grep -q 'Short front' "$tmp/out" || fail "review --list --deck long: $(cat "$tmp/out")"
echo "cli.sh: all checks passed"
test_done
