#!/bin/sh
# The end-of-course summary (issue 14), on tests/data/reader-course (one
# drop, two numeric questions). S on the home screen opens it at any time;
# once every drop is done, "Course complete" on the home screen opens it
# with Enter. Its figures are the store's: drops done and mastered, the
# score, questions answered and right the first time, each drop's line.
. "${top_srcdir:-.}/tests/screen/lib.sh"

screen_start 80 24 --content "$top_srcdir/tests/data/reader-course"
screen_wait "Phase 1"
screen_keys S
screen_wait "Course summary"
screen_has "Course not complete yet."
screen_has "Drops done: 0 of 1, 0 of them mastered; 0 read but not done."
screen_has "Questions: 0 of 2 answered, 0 right the first time, 0 right after"
screen_keys q
screen_wait "Start: 1."

# Answer both questions right the first time: the drop is done at 100%
# (mastered waits for its cards on a later day: tests/screen/mastery.sh).
screen_keys j Enter
screen_wait "Your answer: _ GB"
screen_keys Tab 1 0 8 Enter
screen_wait "Right: the cost model gives 107.8 GB"
screen_keys Tab
screen_keys 1 3 . 5 Enter
screen_wait "Right: the cost model gives 13.48 GB"
screen_wait "Drop done, score 100%."
screen_keys q
screen_wait "Course complete. Enter shows the summary."
screen_keys g Enter
screen_wait "Course summary"
screen_has "Course complete."
screen_has "Drops done: 1 of 1, 0 of them mastered; 0 read but not done."
screen_has "Score: 100% (2 of 2 items earned"
screen_has "Questions: 2 of 2 answered, 2 right the first time, 0 right after"
screen_has "Incidents: 0 of 0 passed."
screen_has "Phase 1  Answers stay put: 1 of 1 done, 0 mastered"
screen_capture | grep "Two sums of model state" | grep -qE "done +100%  2/2 earned" ||
	fail "the drop's line should say done, 100%, 2/2"
screen_keys q
screen_wait "Course complete."
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# The shipped course: every phase has its line, phase 5 included.
screen_start 80 24
screen_wait "Phase 1"
screen_keys S
screen_wait "Course summary"
screen_has "Drops done: 0 of 17"
screen_keys G
screen_wait "Phase 5  Going Further: 0 of 3 done, 0 mastered"
screen_keys q q
[ "$(screen_exit_status)" = 0 ] || fail "q q should exit 0"
test_done
