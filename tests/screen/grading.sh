#!/bin/sh
# The exploits issue 22 found, tried on the real binary and each one
# failing now. Drop 1 on a fresh profile:
# - a single choice missed once is over: the right option is shown, the
#   next answer is right but earns nothing, and a mistake card is made;
# - a numeric miss names no size and no figure ("about 2.1e+02 times too
#   low" was enough to type the answer); after a second miss the figure is
#   shown, and typing it earns nothing;
# - ticking every option of a multiple choice is wrong and marks no option
#   ("Yes." beside each right one was enough to untick the others);
# - a reveal question graded "got it" is not part of the score;
# so drop 1 is done with 1 of 3 items earned (33%), not mastered.
# Drop 2: every question answered, the last one wrong: attempted, not done.
. "${top_srcdir:-.}/tests/screen/lib.sh"

run() {
	HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data" \
		"$PARLEARN" --profile tester "$@"
}

# The figure the reader shows once a numeric question is over.
figure() {
	screen_capture | tr '\n' ' ' | sed -n 's/.*Not quite: the cost model gives \([-0-9.e+]*\).*/\1/p' | head -n 1
}

# numeric_after_figure: miss twice with "1", then type the shown figure.
numeric_after_figure() {
	screen_keys 1 Enter
	screen_wait "Not yet"
	screen_lacks "times too"
	screen_lacks "you said 1."
	screen_keys Enter
	screen_wait "Not quite: the cost model gives"
	want=$(figure)
	[ -n "$want" ] || fail "no figure shown after the second miss"
	screen_keys BSpace
	screen_keys -l "$want"
	screen_keys Enter
	screen_wait "Right now, but after the figure was shown"
}

screen_start 100 40
screen_wait "Phase 1"
screen_keys j Enter
screen_wait "Drop 1:"

# Single choice: a miss ends its counting try; the right option shows.
to_block "Llama 2 7B needs about 108 GB"
screen_keys 2 Enter
screen_wait "Not this one."
screen_has "DP multiplies throughput"
screen_keys 1 Enter
screen_wait "Right."

# Numeric: no size, no direction, no figure before the second miss.
to_block "Use the 16-bytes-per-parameter rule"
numeric_after_figure

# Multiple choice: every option ticked is wrong and marks none of them.
to_block "Which statements about where each axis"
screen_keys 1 2 3 4 5 Enter
screen_wait "Not yet: at least one option you ticked is wrong."
screen_lacks "Yes. TP exchanges"
screen_lacks "Yes. A stage only sends"
screen_lacks "That describes TP."
# Unticking by knowledge (3 and 5 are wrong): right on the second try.
screen_keys 3 5 Enter
screen_wait "Right."

# The reveal question: graded by the learner, never scored.
to_block "Llama 3 405B was trained"
screen_keys r
screen_wait "How did you do?"
screen_keys 3
screen_wait "You got it."
screen_keys q
screen_wait "Phase 1"
screen_capture | grep "Three different things" | grep -qE "done +33%" ||
	fail "drop 1 should be done at 33% (1 of 3 items earned), not mastered"

# Drop 2: all answered, the last still wrong: attempted, not done.
screen_keys g j j Enter
screen_wait "Drop 2:"
to_block "Right after the gradient all-reduce"
screen_keys 1 Enter
screen_wait "Right."
to_block "Llama 2 7B trained with plain DP on 8 H200s"
numeric_after_figure
to_block "Same model, now on 16 H200s"
numeric_after_figure
to_block "You grow a DP job from 8 to 64 GPUs"
screen_keys 1 Enter
screen_wait "Right."
to_block "Llama 2 13B (about 208 GB"
screen_keys 1 Enter
screen_wait "One more try counts."
screen_keys 2 Enter
screen_wait "Not this set."
screen_keys q
screen_wait "Phase 1"
screen_capture | grep "Same model, different examples" | grep -q "attempted" ||
	fail "drop 2 should be attempted, not done"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

if part_needs sqlite3 "database rows"; then
	db=$(screen_db)
	cards=$(sqlite3 "$db" "SELECT card_id FROM user_cards ORDER BY card_id;")
	want="q:drop-01:q1
q:drop-01:q2
q:drop-01:q4
q:drop-02:q2
q:drop-02:q3
q:drop-02:q5"
	# q4 is no card: it was graded "got it".
	want=$(echo "$want" | grep -v 'q:drop-01:q4')
	[ "$cards" = "$want" ] || fail "mistake cards: $cards"
	rules=$(sqlite3 "$db" "SELECT DISTINCT rule FROM answers;")
	[ "$rules" = 2 ] || fail "answers saved under rule 2: $rules"
fi
list=$(run list --json | tr -d ' \t\n')
echo "$list" | grep -q '"id":"drop-01",[^}]*"status":"done","score":{"fraction":0.333[0-9]*,"items_earned":1,"items":3,' ||
	fail "drop-01 in list --json: $list"
echo "$list" | grep -q '"id":"drop-02",[^}]*"status":"attempted"' ||
	fail "drop-02 should be attempted in list --json"
test_done
