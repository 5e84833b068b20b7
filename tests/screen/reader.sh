#!/bin/sh
# Opening a drop shows its text and marks it started; reading to the end
# marks it done; quitting inside a drop and starting again returns there.
. "${top_srcdir:-.}/tests/screen/lib.sh"

drop1=$(ls "$top_srcdir"/lessons/1-*/01-*.json)
first_words=$(sed -n 's/.*"text": *"\([A-Za-z]* [A-Za-z]* [A-Za-z]*\).*/\1/p' "$drop1" | head -n 1)
[ -n "$first_words" ] || fail "cannot read the first words of $drop1"

screen_start 100 30
screen_wait "Phase 1"
screen_keys j Enter
screen_wait "Drop 1: Three different things people call 'parallel'"
screen_has "$first_words"
screen_has "lines 1-"
screen_has "block 1/"
screen_keys q
screen_wait "Continue where I left off: 1."
screen_capture | grep "Three different things" | grep -q "started" ||
	fail "drop 1 should be started"

# Read drop 1 to its end: done.
screen_keys g j Enter
screen_wait "Drop 1:"
screen_keys G
screen_wait "Drop complete"
screen_keys q
screen_wait "Continue where I left off: 2."
screen_capture | grep "Three different things" | grep -q "done" ||
	fail "drop 1 should be done"
screen_has "1/4"

# Open drop 3, page down, quit with Ctrl-C from inside the reader.
screen_keys g j j Enter
screen_wait "Drop 2:"
screen_keys n
screen_wait "Drop 3: Cut the matmul, not the batch"
screen_keys C-c
[ "$(screen_exit_status)" = 0 ] || fail "Ctrl-C should exit 0"

# The database holds it: list --json from the same profile.
export HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data"
json=$("$PARLEARN" --profile tester list --json) || fail "list failed"
echo "$json" | tr -d ' \t\n' | grep -q '"id":"drop-01","number":1,"title":"[^"]*","minutes":6,"status":"done"' ||
	fail "drop-01 not done in the database: $json"
echo "$json" | tr -d ' \t\n' | grep -q '"id":"drop-03","number":3,"title":"[^"]*","minutes":7,"status":"started"' ||
	fail "drop-03 not started in the database"

# Starting again returns to drop 3.
screen_start 100 30
screen_wait "Drop 3: Cut the matmul, not the batch"
screen_keys q
screen_wait "Continue where I left off: 3."
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
exit 0
