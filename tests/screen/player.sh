#!/bin/sh
# The animation player: from the home entry it waits, paused, on pipeline
# parallelism (Gantt chart, bubble, moving cursor), pauses without using
# the CPU, lets the learner turn the run's settings (mode, GPUs, schedule)
# (on to ZB-H1 with its W passes and DualPipe with two stages a GPU)
# and compare with 1F1B, stacked at 80x24 and side by side at
# 200x60 (back to stacked when the terminal narrows); DP shows a different
# slice of the batch on every GPU and its gradient buckets in the transfer
# lane; 3d in ASCII; EP x PP under DualPipe hides part of its
# all-to-alls, against 1F1B which hides none; from the reader, Enter on
# drop 4's first animation block plays it at once.
. "${top_srcdir:-.}/tests/screen/lib.sh"

# The column of the cursor mark under the Gantt chart.
cursor_col() {
	screen_capture | grep ' t = ' | head -n 1 | awk '{ print index($0, "^") }'
}

# The "t = X of" time shown.
shown_time() {
	screen_capture | sed -n 's/.* t = \([0-9.]*\) of.*/\1/p' | head -n 1
}

# The cursor is right of column $1.
cursor_past() {
	[ "$(cursor_col)" -gt "$1" ]
}

# The shown time is the same as at the previous call (wait_until polls
# every 0.1 s, in which a playing clock moves on by several tenths of a
# millisecond).
last_time=
time_stable() {
	st=$(shown_time)
	[ -n "$st" ] && [ "$st" = "$last_time" ] && return 0
	last_time=$st
	return 1
}

# The line holding $1 also holds $2 (side by side).
same_line() {
	screen_capture | grep -F -- "$1" | grep -qF -- "$2"
}

# No line holds both $1 and $2, and both are on screen (stacked).
stacked() {
	screen_capture | grep -qF -- "$1" && screen_capture | grep -qF -- "$2" &&
		! same_line "$1" "$2"
}

# A line holds $1 at least twice.
twice_on_a_line() {
	screen_capture | grep -F -- "$1" | awk -v s="$1" \
		'{ n = 0; l = $0; while ((i = index(l, s)) > 0) { n++; l = substr(l, i + length(s)) } if (n >= 2) f = 1 } END { exit !f }'
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
screen_has "27.3% by (p-1)/(v*m+p-1)"
screen_has "stage 3"
# Idle time is drawn as bubble in the Gantt rows; sends run in the lane.
screen_capture | grep '^G3 ' | grep -q '▒' || fail "no bubble in G3's row"
screen_capture | grep '^net ' | grep -q '~' || fail "no sends in the lane"
screen_has "▒ bubble"
c0=$(cursor_col)

screen_keys Space
screen_wait "playing 1x"
screen_wait_gone "t = 0.0 of"
wait_until 10 cursor_past "$c0" || fail "cursor did not move past column $c0"
screen_has "bytes per link: G0-G1"

# Pause: the clock stops and the process sleeps in getch. Once the shown
# time has stopped, a one-second window measures the CPU used while
# paused (the window is the measurement, not a synchronisation).
screen_keys Space
screen_wait "paused 1x"
wait_until 5 time_stable || fail "the time did not stop after pausing"
t1=$(shown_time)
pid=$(screen_pid) || fail "no parlearn process"
k1=$(cpu_ticks "$pid")
sleep 1
t2=$(shown_time)
k2=$(cpu_ticks "$pid")
[ "$t1" = "$t2" ] || fail "time moved while paused: $t1 -> $t2"
[ $((k2 - k1)) -le 2 ] || fail "paused player used $((k2 - k1)) CPU ticks in 1 s"

# Step one event forward: the clock goes to the next event's start, which
# may lie within 0.05 ms of the paused time (the same "t =" to one
# decimal), so what must change is the screen, and the time must not go
# back or start playing.
before=$(screen_capture)
screen_changed() {
	[ "$(screen_capture)" != "$before" ]
}
screen_keys Right
wait_until 10 screen_changed || fail "Right did not step to the next event"
screen_has "paused 1x"
awk -v a="$t1" -v b="$(shown_time)" 'BEGIN { exit !(b + 0 >= a + 0) }' ||
	fail "Right went back in time: $t1 -> $(shown_time)"
# Turn the schedule to zero bubble: the W passes drawn as /, each GPU's
# idle share in its box, ZB-H1's formula; compare with 1F1B.
screen_keys s
screen_wait "Animation: pp, 4 GPUs, zb-h1, m=8"
screen_has "by (p-1)(F+B-2W)"
screen_has "/ W grads"
screen_has "G3 idle"
screen_capture | grep '^G1 ' | grep -q '/' || fail "no W pass in G1's row"
screen_keys x
screen_wait "1f1b: step"
screen_has "zb-h1: step"
# At 80 columns the two runs stand one above the other.
stacked "zb-h1: step" "1f1b: step" || fail "compare at 80x24 is not stacked"
screen_has "holds at most"
screen_keys x
screen_wait_gone "1f1b: step"
# DualPipe next: every GPU holds two stages' layers; its own formula.
screen_keys s
screen_wait "Animation: pp, 4 GPUs, dualpipe, m=8"
screen_has "by (p/2-1)(F&B+B-3W)"
screen_has "L1 L4"
screen_has "stages 0 and 3"
# The toy does not run DualPipeV: on to GPipe.
screen_keys s
screen_wait "Animation: pp, 4 GPUs, gpipe, m=8"
# Fewer micro-batches, then back.
screen_keys M
screen_wait "Animation: pp, 4 GPUs, gpipe, m=4"
screen_keys m
screen_wait "Animation: pp, 4 GPUs, gpipe, m=8"

# Tab to ZeRO-3: each GPU holds a quarter and gathers the rest.
screen_keys Tab
screen_wait "Animation: fsdp, 4 GPUs"
screen_has "1/4 of L1-L4"
screen_has "< all-gather"
# Two more GPUs would not divide the batch: G goes down to 2.
screen_keys G
screen_wait "Animation: fsdp, 2 GPUs"

# On to DP (past 3d, cp, ep and single): every replica its own slice,
# buckets during backward.
screen_keys Tab
screen_wait "Animation: 3d"
screen_keys Tab
screen_wait "Animation: cp, 4 GPUs"
screen_keys Tab
screen_wait "Animation: ep, 4 GPUs"
screen_keys Tab Tab
screen_wait "Animation: dp, 4 GPUs"
screen_has "seqs 4-7"
screen_capture | grep '^G1 ' | grep -q 'BBB' || fail "G1 does not work on slice B"
screen_capture | grep '^G3 ' | grep -q 'DDD' || fail "G3 does not work on slice D"
screen_capture | grep '^net ' | grep -q '=' || fail "no gradient buckets in the lane"
# The wait for the last bucket is outside the compute window, so no bubble
# (the figure says 0.0%): it has its own glyph and legend entry.
screen_has "bubble: 0.0% measured"
screen_capture | grep '^G0 ' | grep -q '·\*' || fail "G0 does not wait before the optimizer"
screen_capture | grep '^G[0-9] ' | grep -q '▒' && fail "a DP row draws the wait as bubble"
screen_has "· waiting for a transfer"
# DP has no pipeline and no TP: its settings line shows neither the
# schedule nor sequence parallelism, but the overlap it does have.
screen_capture | grep -q ' s 1f1b ' && fail "DP shows the pipeline schedule"
screen_capture | grep -q ' p SP o' && fail "DP shows sequence parallelism"
screen_has "o overlap on"
screen_lacks "▒ bubble"
screen_keys x
screen_wait "overlap off: step"
screen_has "overlap on: step"
screen_keys q
screen_wait "Animations: the toy model on simulated GPUs"
screen_lacks "Animation: dp"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# Compare side by side at 200x60: each run its own Gantt, figures and
# memory; narrowed to 80x24 the same comparison stacks.
screen_start 200 60
screen_wait "Phase 1"
screen_keys G Enter
screen_wait "Animation: pp, 4 GPUs, 1f1b, m=8"
screen_keys x
screen_wait "gpipe: step"
same_line "1f1b: step" "gpipe: step" || fail "runs not side by side at 200x60"
twice_on_a_line "G0  " || fail "no two G0 rows side by side"
twice_on_a_line "G3  " || fail "no two G3 rows side by side"
twice_on_a_line "net " || fail "no two transfer lanes side by side"
twice_on_a_line "by (p-1)/(v*m+p-1)" || fail "no two bubble figures side by side"
twice_on_a_line "memory per GPU now" || fail "no two memory columns"
twice_on_a_line "moving now" || fail "no two transfer lists"
screen_has "▒ bubble"
# Both cursors move with the clock.
c0=$(cursor_col)
screen_keys Space
wait_until 10 cursor_past "$c0" || fail "cursors did not move side by side"
twice_on_a_line " t = " || fail "no two cursors"
screen_keys Space
screen_wait "paused 1x"
screen_resize 80 24
wait_until 10 stacked "1f1b: step" "gpipe: step" ||
	fail "compare did not stack at 80x24"
screen_resize 200 60
wait_until 10 same_line "1f1b: step" "gpipe: step" ||
	fail "compare did not go back side by side at 200x60"
screen_keys x
screen_wait_gone "gpipe: step"
# The player's own keys, as doc/parlearn.1 lists them.
screen_keys '?'
screen_wait "Keys on this screen"
# The knobs' lines come from the simulator's table (core/sim/sim_keys.c).
for k in "Tab, Shift-Tab" "g, G" "m, M" "s, S" "v, V" "+, -" \
	"next, previous mode (single ... ep)" "more, fewer GPUs" \
	"DP bucket, ZeRO-3 gather overlap on, off" \
	"compare (side by side from 160 columns)"; do
	screen_has "$k"
done
screen_keys '?'
screen_wait_gone "Keys on this screen"
screen_keys q q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# 3d on 8 devices in an ASCII locale.
SCREEN_LOCALE=C screen_start 80 24
screen_wait "Phase 1"
screen_keys G Enter
screen_wait "Animation: pp"
screen_keys Tab Tab
screen_wait "Animation: 3d, 8 GPUs = dp 2 x tp 2 x pp 2"
screen_has "q8-15"
screen_has "G7  "
screen_capture | grep '^G2 ' | grep -q '\.' || fail "no ASCII bubble in G2's row"
# Replica 1 works on micro-batches 8 to 15: letters from I.
screen_capture | grep '^G4 ' | grep -q 'I' || fail "G4 does not start at slice I"
screen_lacks "▒"
screen_has ". bubble"
screen_keys q q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# EP 2 x PP 2 under DualPipe at 120x40: a pair's passes interleave, so
# part of the all-to-all time runs under compute; 1F1B's runs under
# none. The compare says which schedule each run is.
screen_start 120 40
screen_wait "Phase 1"
screen_keys G Enter
screen_wait "Animation: pp, 4 GPUs, 1f1b, m=8"
screen_keys Tab Tab Tab Tab
screen_wait "Animation: ep, 4 GPUs"
screen_keys d
screen_wait "d PP 2"
screen_keys m m m
screen_wait "Animation: ep, 4 GPUs, 1f1b, m=8"
screen_has "all-to-alls 0% under compute"
screen_keys s s s
screen_wait "Animation: ep, 4 GPUs, dualpipe, m=8"
screen_has "all-to-alls 44% under compute"
screen_keys x
screen_wait "dualpipe: step"
screen_has "1f1b: step"
screen_keys q q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# From the reader: drop 4's first animation block plays at once.
screen_start 100 30
screen_wait "Phase 1"
screen_keys j j j j Enter
screen_wait "Drop 4: Stack the layers across machines"
screen_keys Space Space
screen_wait "Animation: press Enter to play it."
screen_keys Enter
screen_wait "Animation: pp, 4 GPUs, gpipe, m=1"
screen_has "playing 1x"
screen_has "No microbatching"
screen_has "75.0% by (p-1)/(v*m+p-1)"
screen_wait_gone "t = 0.0 of"
# Turning a setting leaves the block's run: its caption goes.
screen_keys m
screen_wait "Animation: pp, 4 GPUs, gpipe, m=2"
screen_lacks "No microbatching"
screen_keys q
screen_wait "Drop 4: Stack the layers across machines"
screen_keys q q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
exit 0
