#!/bin/sh
# Drop 12's incident on a narrow terminal: the goal footer and the status
# line, too long for 60 columns, end with an ellipsis instead of stopping
# mid-word, and the incident pages with the keys every screen uses. Then
# an invalid layout (the interleaved schedule with 16 stages does not
# divide 80 layers) gives the engine's reason once: once on the figures
# panel, and once in the check's verdict, not once per goal criterion.
. "${top_srcdir:-.}/tests/screen/lib.sh"

title="A 35% bubble with m pinned at 28"
reason="must divide the layers"

open_drop12_incident "$title"
# The check needs the diagnosis (option 3 is the cause) and a prediction.
reason 3 0.2

# --- 60 columns: the footer and the status line end with "…" ------------
screen_resize_wait 60 20
# "Goal (all must hold):" is on the 80-column screen too: wait for the
# redraw at 60 columns (its footer ends with the ellipsis), then look.
footer_cut() {
	case "$(screen_capture | tail -n 2 | head -n 1)" in *…) return 0 ;; esac
	return 1
}
wait_until 10 footer_cut
screen_wait "Status: not passed yet"
foot=$(screen_capture | tail -n 2 | head -n 1)
case "$foot" in
" Goal: fits in GPU memory; pipeline bubble at most"*…) ;;
*) fail "the goal footer should be cut with an ellipsis: '$foot'" ;;
esac
status=$(screen_capture | tail -n 1)
case "$status" in
" e cause  p predict  c check  j/k"*…) ;;
*) fail "the status line should be cut with an ellipsis: '$status'" ;;
esac

# The incident is longer than the panel: the scrolling keys of every
# screen page through it.
for key in f Space NPage; do
	screen_keys "$key"
	screen_wait_gone "Status: not passed yet"
	screen_keys b
	screen_wait "Status: not passed yet"
done
for key in G End; do
	screen_keys "$key"
	screen_wait "A hint opens after each failed check."
	screen_wait_gone "Status: not passed yet"
	screen_keys PPage
	screen_wait_gone "A hint opens after each failed check."
	screen_keys "$key"
	screen_wait "A hint opens after each failed check."
	screen_keys Home
	screen_wait "Status: not passed yet"
	screen_wait_gone "A hint opens after each failed check."
done

# --- an invalid layout: the reason once ----------------------------------
# Figures, TP selected; Schedule is five knobs down.
screen_keys Tab
screen_wait "Memory/GPU"
screen_keys j j j j j
screen_wait "Schedule: 1f1b"
screen_keys Right
screen_wait "This combination is not a valid layout:"
screen_wait_count "$reason" 1
screen_wait "DP 2 x TP 1 x PP 16 = 32 GPUs, as it should be."
screen_keys c
# The goal has four criteria now (the floor against the start): the
# verdict is below the fold at 20 rows.
# Every assertion waits with a deadline: the redraw at 40 rows may come
# after the check's, which under a loaded -j2 suite took more than the
# usual 10 s (seen as a blank last line at 60x40), so 30 s here.
screen_resize_wait 60 40 30
screen_wait "Check: not yet"
screen_wait "no goal was checked"
screen_wait "not a valid layout, so no goal was checked: PP (times"
# The check gives the reason once, not per criterion; one verdict line.
screen_wait_count "$reason" 1
screen_wait_count "no goal was checked" 1
screen_wait_gone "not evaluated"
# The failed check opened hint 1; its wrapped lines start under its text
# (column 6), not under its number (column 3).
screen_keys G
screen_wait "Hints:"
hint=$(screen_capture | awk '/^ Hints:$/ { on = 1; next }
	on && /^   / { print; next } { on = 0 }')
[ "$(echo "$hint" | wc -l)" -gt 1 ] || fail "hint 1 should wrap: $hint"
echo "$hint" | head -n 1 | grep -q '^   1\. [^ ]' ||
	fail "hint 1 should start at column 3: $hint"
echo "$hint" | sed 1d | grep -qv '^      [^ ]' &&
	fail "hint 1's continuation lines should start at column 6: $hint"
screen_keys q
screen_wait "Drop 12:"
screen_keys q
# Home, now 40 rows tall, shows the whole course from the top again.
screen_wait "Phase 1"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
test_done
