#!/bin/sh
# Context parallelism in the player at 80x24: each GPU's box names the
# two load-balanced chunks of positions it holds, the figures line the
# activations a GPU holds at most against one device's (a quarter);
# stepping into a layer's attention shows the K/V blocks going round the
# ring (G0 to G1 ... G3 to G0) beside the attention they feed, with their
# bytes, and the ring's closing link G0-G3 among the links. The knobs
# step to DP 2 x CP 4 and TP 2 x CP 4 on 8 GPUs (header, boxes, ring
# links), and x compares CP with and without TP: bytes and memory.
. "${top_srcdir:-.}/tests/screen/lib.sh"

json=$SCREEN_TMP/cp.json
"$PARLEARN" trace --mode cp --gpus 4 --json >"$json" || fail "trace cp"

screen_start 80 24 trace --from "$json"
screen_wait "Animation: cp, 4 GPUs"
screen_has "positions 0 and 7"
screen_has "positions 3 and 4"
# What CP saves: each GPU's activations against one device's.
screen_has "activations: at most 305.2 kB a GPU, one GPU alone 1.22 MB (0.25)"
# Back to the start and paused (r restarts, Right pauses and steps),
# then step on into layer 1's attention until its K/V blocks are on
# their way.
screen_keys r Right
screen_wait "paused 1x"
i=0
until screen_capture | grep -qF "send K/V L1, mb 0: G0→G1"; do
	i=$((i + 1))
	[ "$i" -le 30 ] || fail "no K/V send in layer 1's attention"
	screen_keys Right
	sleep 0.2
done
screen_has "send K/V L1, mb 0: G3→G0"
screen_has "fwd L1 attn, mb 0"
# One K/V block: 2 x 32 rows x 16 values x 8 bytes.
screen_capture | grep -F "send K/V L1, mb 0: G1→G2" | grep -qF "8.2 kB" ||
	fail "a K/V send should carry 8.2 kB"
screen_capture | grep -F "bytes per link: G0-G1" | grep -qF "G0-G3" ||
	fail "the ring closes: G3 sends to G0"

# The knobs reach CP x DP and CP x TP: g to 8 GPUs (6 would leave a
# batch of 16 to 3 replicas) gives DP 2 x CP 4; t puts TP 2 inside each
# CP rank, and the header says the degrees.
screen_keys g
screen_wait "Animation: cp, 8 GPUs = dp 2 x tp 1 x pp 1 x cp 4"
screen_keys t
screen_wait "Animation: cp, 8 GPUs = dp 1 x tp 2 x pp 1 x cp 4"
screen_has "t TP 2"
# TP innermost: G0 and G1 split the heads of CP rank 0's chunks, G2 and
# G3 those of CP rank 1.
screen_capture | grep -q "h0-1   │ │h2-3   │ │h0-1" ||
	fail "TP ranks should alternate heads 0-1, 2-3"
screen_capture | grep -q "p0,7   │ │p0,7   │ │p1,6   │ │p1,6" ||
	fail "a TP pair should hold one CP rank's chunks"
# The ring runs between GPUs of the same TP rank: G0 to G2, not G1.
screen_capture | grep -F "bytes per link:" | grep -qF "G0-G2" ||
	fail "the K/V ring should link G0 and G2"
screen_has "= all-reduce"
# Compare: the same 8 GPUs without TP (DP 2 x CP 4), stacked at 80x24
# with the bytes each moves and the most a GPU holds.
screen_keys x
screen_wait "TP 1, overlap on: step"
screen_capture | grep -F "TP 2, overlap on: step" | grep -q "MB moved, G0 holds at most" ||
	fail "compare should give TP 2's bytes and memory"
screen_capture | grep -F "TP 1, overlap on: step" | grep -q "MB moved, G0 holds at most" ||
	fail "compare should give TP 1's bytes and memory"
screen_keys x
screen_wait_gone "TP 1, overlap on: step"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "trace --from did not exit 0"

exit 0
