#!/bin/sh
# The animation player: from the home entry it plays pipeline parallelism
# (Gantt chart, bubble, moving cursor), pauses without using the CPU,
# moves to another mode with Tab and goes back with q; from the reader,
# Enter on drop 4's first animation block plays that block's configuration.
. "${top_srcdir:-.}/tests/screen/lib.sh"

# The column of the cursor mark under the Gantt chart.
cursor_col() {
	screen_capture | grep ' t = ' | head -n 1 | awk '{ print index($0, "^") }'
}

# The "t = X of" time shown.
shown_time() {
	screen_capture | sed -n 's/.* t = \([0-9.]*\) of.*/\1/p' | head -n 1
}

# CPU ticks (user + system) the process has used.
cpu_ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}

screen_start 80 24
screen_wait "Phase 1"
screen_keys G Enter
screen_wait "Animation: pp, 4 GPUs, 1f1b, m=8"
screen_has "paused 1x"
screen_has "t = 0.0 of"
screen_has "bubble: 38.8% measured, 27.3% by the formula (p-1)/(v*m+p-1)"
screen_has "max gradient error vs single"
screen_has "stage 3"
# Idle time is drawn as bubble in the Gantt rows.
screen_capture | grep '^G3 ' | grep -q '▒' || fail "no bubble in G3's row"
screen_has "▒ bubble"
c0=$(cursor_col)

screen_keys Space
screen_wait "playing 1x"
sleep 1.5
screen_wait_gone "t = 0.0 of"
c1=$(cursor_col)
[ "$c1" -gt "$c0" ] || fail "cursor did not move: $c0 -> $c1"
screen_has "bytes per link: G0-G1"

# Pause: the clock stops and the process sleeps in getch.
screen_keys Space
screen_wait "paused 1x"
sleep 0.3
t1=$(shown_time)
pid=$(screen_pid) || fail "no parlearn process"
k1=$(cpu_ticks "$pid")
sleep 1
t2=$(shown_time)
k2=$(cpu_ticks "$pid")
[ "$t1" = "$t2" ] || fail "time moved while paused: $t1 -> $t2"
[ $((k2 - k1)) -le 2 ] || fail "paused player used $((k2 - k1)) CPU ticks in 1 s"

# Step one event forward, then Tab to the next mode.
screen_keys Right
screen_wait_gone "t = $t1 of"
screen_keys Tab
screen_wait "Animation: fsdp, 4 GPUs"
screen_has "shard 4 of 4"
screen_has "< all-gather"
screen_keys q
screen_wait "Animations: the toy model on simulated GPUs"
screen_lacks "Animation: fsdp"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# 3d on 8 devices in an ASCII locale.
SCREEN_LOCALE=C screen_start 80 24
screen_wait "Phase 1"
screen_keys G Enter
screen_wait "Animation: pp"
screen_keys Tab Tab
screen_wait "Animation: 3d, 8 GPUs = dp 2 x tp 2 x pp 2"
screen_has "L1c8-15"
screen_has "G7  "
screen_capture | grep '^G2 ' | grep -q '\.' || fail "no ASCII bubble in G2's row"
screen_lacks "▒"
screen_has ". bubble"
screen_keys q q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# From the reader: drop 4's first animation block.
screen_start 100 30
screen_wait "Phase 1"
screen_keys j j j j Enter
screen_wait "Drop 4: Stack the layers across machines"
screen_keys Space Space
screen_wait "Animation: press Enter to play it."
screen_keys Enter
screen_wait "Animation: pp, 4 GPUs, gpipe, m=1"
screen_has "No microbatching"
screen_has "75.0% by (p-1)/(v*m+p-1), compute only"
screen_keys Space
screen_wait_gone "t = 0.0 of"
screen_keys q
screen_wait "Drop 4: Stack the layers across machines"
screen_keys q q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
exit 0
