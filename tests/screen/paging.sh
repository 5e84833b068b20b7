#!/bin/sh
# Every scrolling screen pages with f, Space and PgDn, back with b and
# PgUp, and jumps with g/G and Home/End: the statistics, the home screen
# and a flashcard too long for the window. The home screen keeps to 96
# columns on a wide terminal (a drop's status next to its title) and cuts
# a long title with an ellipsis at 80x24.
. "${top_srcdir:-.}/tests/screen/lib.sh"

# TERM as tmux sets it for its panes, so Home and End arrive as the
# terminfo entry says (tmux sends \E[1~ and \E[4~).
SCREEN_TERM=screen

run() {
	HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data" \
		"$PARLEARN" --profile tester "$@"
}

# --- home at 80x24: ellipsis, pages, ends --------------------------------
screen_start 80 24
screen_wait "Phase 1"
screen_has "Your throughput dropped 40% after moving to …"
screen_has "Your pipeline has a 35% bubble and you can't…"
screen_lacks "Animations: the toy model"
for key in f Space NPage; do
	screen_keys "$key"
	screen_wait "Pipeline schedules: zero bubble and DualPipe"
	screen_lacks "Start: 1."
	screen_keys b
	screen_wait "Start: 1."
	screen_lacks "Animations: the toy model"
done
screen_keys End
screen_wait "Animations: the toy model on simulated GPUs"
screen_keys Home
screen_wait "Start: 1."
screen_keys G
screen_wait "Animations: the toy model on simulated GPUs"
screen_keys g
screen_wait "Start: 1."
screen_keys NPage
screen_wait "Pipeline schedules: zero bubble and DualPipe"
screen_keys PPage
screen_wait "Start: 1."

# --- statistics at 80x24 (longer than the window) ------------------------
screen_keys j Enter
screen_wait "Drop 1:"
screen_keys q
screen_wait "Phase 1"
screen_keys G k k Enter
screen_wait "Flashcard statistics"
screen_has "Today's review"
screen_lacks "True retention"
for key in G End; do
	screen_keys "$key"
	screen_wait "True retention"
	screen_has ">= 90 days"
	screen_lacks "Today's review"
	screen_keys g
	screen_wait "Today's review"
done
for key in f Space NPage; do
	screen_keys "$key"
	screen_wait_gone "Today's review"
	screen_keys b
	screen_wait "Today's review"
done
screen_keys End PPage
screen_wait_gone ">= 90 days"
screen_keys Home
screen_wait "Today's review"
screen_keys q q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# --- home on a wide terminal: status next to the titles ------------------
screen_start 200 30
screen_wait "Phase 1"
row=$(screen_capture | grep "Same model, different examples, sum the gradients")
col=$(echo "$row" | awk '{ print index($0, " new") }')
[ "$col" -gt 50 ] && [ "$col" -le 96 ] ||
	fail "drop status at column $col, not next to its title: $row"
col=$(screen_capture | head -n 1 | awk '{ print index($0, "profile: tester") }')
[ "$col" -gt 0 ] && [ "$col" -le 96 ] || fail "profile at column $col"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# --- a flashcard longer than the window scrolls --------------------------
words=""
n=1
while [ $n -le 60 ]; do
	words="$words word$n"
	n=$((n + 1))
done
printf 'A card with a long answer\tFirst%s LASTWORD\n' "$words" |
	run deck import - --name long >/dev/null || fail "import failed"
screen_start 50 14 review --deck long
screen_wait "A card with a long answer"
screen_keys Space
screen_wait "1 again"
screen_has "(more: j)"
screen_has "First"
screen_lacks "LASTWORD"
# The deck's name, then the front scroll off.
screen_keys j j
screen_wait_gone "A card with a long answer"
screen_keys G
screen_wait "LASTWORD"
screen_lacks "(more: j)"
screen_keys g
screen_wait "A card with a long answer"
screen_keys f
screen_wait_gone "A card with a long answer"
screen_keys b
screen_wait "A card with a long answer"
screen_keys End
screen_wait "LASTWORD"
screen_has "1 again"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
exit 0
