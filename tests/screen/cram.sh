#!/bin/sh
# Cram from the TUI: c on the review screen starts a cram session over
# every card; its rating buttons show no interval (cram applies none);
# rating leaves every schedule as it was; the review screen's end page
# offers it too when nothing is due.
. "${top_srcdir:-.}/tests/screen/lib.sh"

run() {
	HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data" \
		"$PARLEARN" --profile tester "$@"
}
# The cards' states and absolute due times, not the relative "in 9m".
schedules() {
	run review --list --all | tail -n +2 |
		sed -E 's/ \((due, [^)]* ago|in [^)]*)\)//' | tr -s ' '
}

screen_start 100 30
screen_wait "Phase 1"
screen_keys j Enter
screen_wait "Drop 1:"
screen_keys q
screen_keys G	# the review entry is below the fold at 100x30
screen_wait "Flashcard review  (0 due, 0 learning, 7 new)"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# Rate two cards normally so some schedules exist, then cram.
screen_start 80 24 review
screen_wait "new 7  learning 0  due 0"
screen_has "c cram"
screen_keys Space
screen_wait "3 good 10m"
screen_keys 4 Space
screen_wait "3 good 10m"
screen_keys 1
screen_wait "new 5  learning 1  due 0"
before=$(schedules)
[ -n "$before" ] || fail "no schedules listed"

screen_keys c
screen_wait "Cram (schedules unchanged)"
screen_has "cram: 7 left"
screen_lacks "c cram"
screen_keys Space
screen_wait "1 again"
last=$(screen_capture | tail -n 1)
echo "$last" | grep -q "2 hard" || fail "buttons missing: $last"
echo "$last" | grep -q "4 easy" || fail "buttons missing: $last"
echo "$last" | grep -Eq '[0-9]+(s|m|h|d|mo|y)( |$)' &&
	fail "cram shows an interval it will not apply: $last"
screen_keys 4
screen_wait "cram: 6 left"
screen_keys Space 1
screen_wait "cram: 6 left"
screen_keys Space 3
screen_wait "cram: 5 left"
# Back to the review session, which is where it was.
screen_keys q
screen_wait "new 5  learning 1  due 0"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
after=$(schedules)
[ "$before" = "$after" ] || fail "cram changed a schedule:
$before
---
$after"

# Nothing left (no new cards allowed, the learning card graduated with
# Easy): the end page offers cram.
run review --new-per-day 0 >/dev/null || fail "setting the limit failed"
screen_start 80 24 review
screen_wait "new 0  learning 1  due 0"
screen_keys Space
screen_wait "4 easy"
screen_keys 4
screen_wait "Press c to cram"
screen_has "c cram  s statistics"
screen_keys c
screen_wait "cram: 7 left"
screen_keys q q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
exit 0
