#!/bin/sh
# Opening a drop shows its text and marks it started; reading to its end
# (End, G) marks it read, not done (issue 14): the reader says how many
# questions are left, the status line reaches block M/M, the home screen
# shows "read" and "continue" stays on it. Home and g go back to the top.
# n on the last drop says so. Quitting inside a drop and starting again
# returns to the drop and to the block that was on top.
. "${top_srcdir:-.}/tests/screen/lib.sh"

drop1=$(ls "$top_srcdir"/lessons/1-*/01-*.json)
first_words=$(sed -n 's/.*"text": *"\([A-Za-z]* [A-Za-z]* [A-Za-z]*\).*/\1/p' "$drop1" | head -n 1)
[ -n "$first_words" ] || fail "cannot read the first words of $drop1"
blocks=$(grep -c '"kind":' "$drop1")

# top_block: the N of "block N/M" on the reader's status line.
top_block() {
	screen_capture | sed -n 's/.*  block \([0-9]*\)\/[0-9]*  .*/\1/p' |
		head -n 1
}

# paged_down: the block on top is no longer the first.
paged_down() {
	b=$(top_block)
	[ -n "$b" ] && [ "$b" -gt 1 ]
}

screen_start 100 30
screen_wait "Phase 1"
screen_keys j Enter
screen_wait "Drop 1: Three different things people call 'parallel'"
screen_has "$first_words"
screen_has "lines 1-"
screen_has "block 1/$blocks"
screen_keys q
screen_wait "Continue where I left off: 1."
screen_capture | grep "Three different things" | grep -q "started" ||
	fail "drop 1 should be started"

# Read drop 1 to its end with End: read, not done; block M/M.
screen_keys g j Enter
screen_wait "Drop 1:"
screen_keys End
screen_wait "(100%)"
screen_wait "End of the drop, not done: 3 questions not yet right."
screen_has "block $blocks/$blocks"
screen_lacks "Drop complete"
# Home goes back to the top, G to the end again.
screen_keys Home
screen_wait "lines 1-"
screen_has "$first_words"
screen_keys G
screen_wait "block $blocks/$blocks"
screen_keys g
screen_wait "block 1/$blocks"
screen_keys q
screen_wait "Continue where I left off: 1."
screen_capture | grep "Three different things" | grep -q "read" ||
	fail "drop 1 should be read"
screen_has "0/4"

# n on the last drop says so, and stays.
screen_keys G
for k in 1 2 3 4; do screen_keys k; done
screen_keys Enter
screen_wait "Drop 17:"
screen_keys n
screen_wait "This is the last drop of the course"
screen_has "Drop 17:"
screen_keys q
screen_wait "17  Pipeline schedules: zero bubble and DualPipe"
# Home scrolls back up to the continue entry (below the fold at 100x30).
screen_keys g
screen_wait "Continue where I left off: 17."

# Open drop 3, page down, quit with Ctrl-C from inside the reader.
screen_keys g j j Enter
screen_wait "Drop 2:"
screen_keys n
screen_wait "Drop 3: Cut the matmul, not the batch"
screen_keys f
wait_until 10 paged_down || fail "drop 3 should be paged down"
top=$(top_block)
screen_keys C-c
[ "$(screen_exit_status)" = 0 ] || fail "Ctrl-C should exit 0"

# The database holds it: list --json from the same profile.
export HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data"
json=$("$PARLEARN" --profile tester list --json) || fail "list failed"
echo "$json" | tr -d ' \t\n' | grep -q '"id":"drop-01","number":1,"title":"[^"]*","minutes":[0-9]*,"status":"read"' ||
	fail "drop-01 should be read, not done, in the database: $json"
echo "$json" | tr -d ' \t\n' | grep -q '"id":"drop-03","number":3,"title":"[^"]*","minutes":[0-9]*,"status":"started"' ||
	fail "drop-03 not started in the database"

# Starting again returns to drop 3, on the block that was on top.
screen_start 100 30
screen_wait "Drop 3: Cut the matmul, not the batch"
screen_wait "block $top/"
screen_lacks "lines 1-"
screen_keys q
screen_wait "Continue where I left off: 3."
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
exit 0
