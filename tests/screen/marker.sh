#!/bin/sh
# The marker never moves by itself (issue 22). Drop 8 at 80x24, paged down
# until its first question is marked with the next two on the screen too:
# `2 Enter 1 Enter Tab 1 0 4 Enter`. The right answer leaves the first
# question marked, Tab marks the numeric question just below it, and 104
# goes into that one. Before, the right answer moved the marker on by
# itself, Tab went one further and the digits ticked options 1 and 4 of
# the third question, which Enter then graded.
. "${top_srcdir:-.}/tests/screen/lib.sh"

screen_start 80 24
screen_wait "Phase 1"
screen_keys g
n=0
while [ $n -lt 8 ]; do screen_keys j; n=$((n + 1)); done
screen_keys Enter
screen_wait "Drop 8: Stack DP, TP, and PP"

# Page down until the first question is marked.
i=0
until marked "The 8 ranks above"; do
	[ $i -lt 12 ] || fail "paging never marked the first question"
	before=$(screen_capture)
	screen_keys f
	wait_until 5 screen_changed "$before" || fail "f did not page down"
	i=$((i + 1))
done
screen_has "Your answer: _ GB"
screen_has "Which statements about t·p·d = n are true?"

screen_keys 2
screen_wait "(*) 2) The TP pairs"
screen_keys Enter
screen_wait "Not this one."
screen_keys 1
screen_wait "(*) 1) The DP pairs"
screen_keys Enter
screen_wait "Right."
# The marker stays on the question just answered.
marked "\(The 8 ranks above\|innermost, then PP\)" ||
	fail "the right answer should leave the first question marked"
screen_keys Tab
wait_until 5 marked "Llama 2 13B (13.0 B parameters)" ||
	fail "Tab should mark the numeric question right below"
screen_keys 1 0 4
screen_wait "Your answer: 104_ GB"
screen_lacks "[x]"
before=$(screen_capture)
screen_keys Enter
wait_until 5 screen_changed "$before" || fail "Enter did not check 104"
marked "Llama 2 13B (13.0 B parameters)" ||
	fail "the numeric question should stay marked"
screen_lacks "[x]"
screen_keys q
screen_wait "Continue where I left off"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

if part_needs sqlite3 "database rows"; then
	rows=$(sqlite3 "$(screen_db)" "SELECT question_id, attempt, correct, response FROM answers WHERE drop_id = 'drop-08' ORDER BY id;")
	want="q1|1|0|2
q1|2|1|1
q2|1|0|104"
	[ "$rows" = "$want" ] || fail "answers in the database: $rows"
fi
test_done
