#!/bin/sh
# Numeric answers in the forms a learner types (issue 14), on
# tests/data/numeric-course: one drop asking two bubble fractions of a
# 4-stage GPipe pipeline, 3/11 and 3/35 by the cost model. "27%" is
# accepted for 3/11; for 3/35 a percentage typed bare (8.6) is a format
# slip (issue 22): it is refused with a note, counts no try and is not
# saved, and "3/35" is then right on the first try. The database keeps
# "0.27" and "0.0857143" with '.'. Under de_DE.UTF-8 the decimal comma is
# accepted too.
. "${top_srcdir:-.}/tests/screen/lib.sh"

# open_drop: from the home screen, the course's one drop in the reader.
open_drop() {
	screen_wait "Phase 1"
	screen_keys g j Enter
	screen_wait "Drop 1: Idle shares as fractions"
}

screen_start 100 30 --content "$top_srcdir/tests/data/numeric-course"
open_drop
to_block "Llama 2 13B on 4 GPUs as a 4-stage GPipe"
screen_wait "A fraction of 1: 0.62, 62% and 31/50 are all accepted."
screen_keys 2 7 %
screen_wait "Your answer: 27%_ of the step"
screen_keys Enter
screen_wait "Right: the cost model gives 0.2727 of the step, 27.3% (you said 0.27)."

to_block "The same pipeline with 32 micro-batches"
screen_keys 8 . 6 Enter
screen_wait "A fraction lies between 0 and 1: write 0.27 or 27%. This try does not count."
screen_lacks "the cost model gives 0.0857"
screen_lacks "Not yet"
screen_keys BSpace BSpace BSpace 3 / 3 5
screen_wait "Your answer: 3/35_ of the step"
screen_keys Enter
screen_wait "Right: the cost model gives 0.08571 of the step, 8.6% (you said 0.08571)."
screen_keys q
# Both right on the first counted try: done at 100%; mastered waits for
# its cards to be recalled on a later day.
screen_wait "Course complete. Enter shows the summary."
screen_capture | grep "Idle shares as fractions" | grep -qE "done +100%" ||
	fail "the drop should be done at 100%"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

if part_needs sqlite3 "database rows"; then
	rows=$(sqlite3 "$(screen_db)" "SELECT question_id, attempt, correct, response FROM answers WHERE drop_id = 'forms-01' ORDER BY id;")
	want="eight|1|1|0.27
thirty-two|1|1|0.0857143"
	[ "$rows" = "$want" ] || fail "answers in the database: $rows"
fi

# German: the answer box takes the decimal comma.
if locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
	SCREEN_LOCALE=de_DE.UTF-8
	rm -rf "$SCREEN_TMP/data"
	screen_start 100 30 --content "$top_srcdir/tests/data/numeric-course"
	open_drop
	to_block "Llama 2 13B on 4 GPUs as a 4-stage GPipe"
	screen_keys 0 , 2 7 2 7 Enter
	screen_wait "(du hast 0,2727 gesagt)."
	screen_keys q q
	[ "$(screen_exit_status)" = 0 ] || fail "q q should exit 0"
else
	part_skip "decimal comma" "the de_DE.UTF-8 locale is not installed"
fi
test_done
