#!/bin/sh
# The same scrolling keys on every screen that scrolls (ui_scroll_key):
# f, Space and PgDn a page on; b and PgUp a page back; g and Home to the
# top; G and End to the end. Checked on the home screen, the statistics,
# the card browser (the selection moves; the preview shows which card)
# and a flashcard too long for the window (once the answer shows, Space
# pages instead of showing it), under TERM=xterm-256color.
. "${top_srcdir:-.}/tests/screen/lib.sh"

run() {
	HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data" \
		"$PARLEARN" --profile tester "$@"
}

# scroll_check TOP END: TOP is on the screen and END is not. Every key of
# a page on hides TOP and every key of a page back shows it again; the end
# keys show END (and hide TOP), the top keys show TOP (and hide END).
scroll_check() {
	screen_wait "$1"
	screen_lacks "$2"
	for key in f Space NPage; do
		screen_keys "$key"
		screen_wait_gone "$1"
		screen_keys b
		screen_wait "$1"
	done
	screen_keys f
	screen_wait_gone "$1"
	screen_keys PPage
	screen_wait "$1"
	for key in G End; do
		screen_keys "$key"
		screen_wait "$2"
		screen_lacks "$1"
		for back in g Home; do
			screen_keys "$back"
			screen_wait "$1"
			screen_lacks "$2"
			screen_keys "$key"
			screen_wait "$2"
		done
		screen_keys g
		screen_wait "$1"
	done
}

# 40 cards in a deck of their own, and one with a long answer.
n=1
while [ $n -le 40 ]; do
	printf 'Front of card %02d\tBack of card %02d\n' $n $n
	n=$((n + 1))
done | run deck import - --name many >/dev/null || fail "import failed"
words=""
n=1
while [ $n -le 60 ]; do
	words="$words word$n"
	n=$((n + 1))
done
printf 'A card with a long answer\tFirst%s LASTWORD\n' "$words" |
	run deck import - --name long >/dev/null || fail "import failed"

screen_start 80 24
screen_wait "Phase 1"
# --- home ----------------------------------------------------------------
scroll_check "Start: 1." "Animations: the toy model on simulated GPUs"

# --- statistics ------------------------------------------------------------
screen_keys G k k Enter
screen_wait "Flashcard statistics"
scroll_check "Today's review" ">= 90 days"
screen_keys q
screen_wait_gone "Flashcard statistics"

# --- the card browser: the preview under the list is the selected card ----
screen_keys B
screen_wait "Card browser"
screen_wait "41 cards shown"
scroll_check "Back of card 01" "LASTWORD"
# A page is the list's height less one row: f from the first card selects
# the twelfth of a twelve-row list.
screen_keys g f
screen_wait "Back of card 12"
screen_keys q
screen_wait_gone "Card browser"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# --- a long flashcard, its answer shown ------------------------------------
screen_start 50 14 review --deck long
screen_wait "A card with a long answer"
screen_keys Space
screen_wait "1 again"
scroll_check "A card with a long answer" "LASTWORD"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
test_done
