#!/bin/sh
# Home and End work whatever the terminal type says, and a lone Esc still
# goes back. Under TERM=xterm-256color the terminfo entry has Home as \EOH,
# but tmux (like screen, the VT220 keypad and many terminals) sends \E[1~
# and \E[4~: parlearn binds the common sequences itself (src/tui/term.c),
# so End and Home reach the home screen and the statistics as KEY_END and
# KEY_HOME instead of an Esc that leaves the screen. Esc alone, with no
# sequence after it, goes back once the short ESCDELAY has passed.
. "${top_srcdir:-.}/tests/screen/lib.sh"

SCREEN_TERM=xterm-256color

# --- home at 80x24: End shows the last entries, Home the first ------------
screen_start 80 24
screen_wait "Phase 1"
screen_lacks "Animations: the toy model"
screen_keys End
screen_wait "Animations: the toy model on simulated GPUs"
screen_lacks "Start: 1."
screen_has "Phase 4"
screen_keys Home
screen_wait "Start: 1."
screen_lacks "Animations: the toy model"
# The selection went to the end and back: Enter opens the first entry.
screen_keys End Home Enter
screen_wait "Drop 1: Three different things people call 'parallel'"
# A lone Esc is "back", not the start of a key sequence.
screen_keys Escape
screen_wait "Continue where I left off: 1."

# --- statistics: End to the last page, Home back, Esc back --------------
screen_keys End k k Enter
screen_wait "Flashcard statistics"
screen_has "Today's review"
screen_lacks ">= 90 days"
screen_keys End
screen_wait ">= 90 days"
screen_lacks "Today's review"
screen_has "Flashcard statistics"
screen_keys Home
screen_wait "Today's review"
screen_lacks ">= 90 days"
screen_keys Escape
screen_wait "j/k move  Enter open  c continue"
screen_lacks "Flashcard statistics"
# Esc on the home screen leaves parlearn, as q does.
screen_keys Escape
[ "$(screen_exit_status)" = 0 ] || fail "Esc on the home screen should exit 0"
test_done
