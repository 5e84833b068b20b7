#!/bin/sh
# Context parallelism in the player at 80x24: each GPU's box names the
# two load-balanced chunks of positions it holds, the figures line the
# activations a GPU holds at most against one device's (a quarter);
# stepping into a layer's attention shows the K/V blocks going round the
# ring (G0 to G1 ... G3 to G0) beside the attention they feed, with their
# bytes, and the ring's closing link G0-G3 among the links.
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
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "trace --from did not exit 0"

exit 0
