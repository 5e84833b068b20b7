#!/bin/sh
# Mastery needs recall on a later day (issue 22), in the real binary, on
# tests/data/mastery-course: one drop with two numeric questions and two
# cards. Both questions right the first time make the drop done at 100%,
# not mastered; reviewing its cards the same day changes nothing; two
# days later (faketime), once both cards are recalled, the home screen
# and `parlearn list --json` say mastered.
. "${top_srcdir:-.}/tests/screen/lib.sh"

content="$top_srcdir/tests/data/mastery-course"
part_needs faketime "the review on a later day" || test_done
list_json() {
	HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data" TZ=UTC \
		${SCREEN_WRAP:-} "$PARLEARN" --profile tester --content "$content" \
		list --json | tr -d ' \t\n'
}

screen_start 80 24 --content "$content"
screen_wait "Phase 1"
screen_keys j Enter
screen_wait "Your answer: _ GB"
screen_keys Tab 1 0 8 Enter
screen_wait "Right: the cost model gives 107.8 GB"
screen_keys Tab 1 3 . 5 Enter
screen_wait "Right: the cost model gives 13.48 GB"
screen_wait "Drop done, score 100%. Review its cards on a later day"
screen_lacks "Drop mastered"
screen_keys q
screen_wait "Course complete."
screen_capture | grep "Two sums of model state" | grep -qE "done +100%" ||
	fail "the drop should be done at 100%, not mastered"

# The same day: a review of one card is no retrieval "later".
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
# The day starts 12 hours from now, so that the 10-minute learning step
# stays today's (at 03:55 it would cross the default 4 am rollover).
hour=$(date +%H)
HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data" "$PARLEARN" \
	--profile tester --content "$content" \
	review --rollover $(( (${hour#0} + 12) % 24 )) >/dev/null ||
	fail "setting the rollover failed"
screen_start 80 24 --content "$content" review
screen_wait "new 2  learning 0  due 0"
screen_keys Space 3
screen_wait "new 1  learning 1  due 0"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0 (review)"
list_json | grep -q '"status":"done"' || fail "same day: still done"

# Two days later: both cards recalled (Good until the session is done).
# faketime preloads its library: a sanitizer build must be told that is
# fine (ASan wants to come first).
SCREEN_WRAP="env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 faketime -f +2d"
screen_start 80 24 --content "$content" review
screen_wait "Space show answer"
front_or_done() {
	screen_capture | grep -qE "Session done\.|Space show answer"
}
i=0
while ! screen_capture | grep -q "Session done." && [ $i -lt 8 ]; do
	screen_keys Space
	screen_wait "3 good"
	screen_keys 3
	wait_until 10 front_or_done || fail "no next card or end"
	i=$((i + 1))
done
screen_wait "Session done."
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0 (review, later)"
json=$(list_json) || fail "list --json failed"
echo "$json" | grep -q '"status":"mastered"' || fail "later day: mastered: $json"
echo "$json" | grep -q '"cards":2,"cards_recalled_later":2' ||
	fail "both cards recalled later: $json"
screen_start 80 24 --content "$content"
screen_wait "Course complete."
screen_capture | grep "Two sums of model state" | grep -qE "mastered +100%" ||
	fail "the home screen should say mastered"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0 (home)"
test_done
