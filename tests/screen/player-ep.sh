#!/bin/sh
# Expert parallelism in the player at 80x24: stepping into layer 1's MLP
# shows the dispatch all-to-all, each send naming how many tokens of
# which expert go to which GPU, with its bytes, and the links carry the
# all-to-all bytes; e/E step the EP ranks, b skews the router to expert
# 0, and x compares the router even and skewed: the skewed step is the
# slower, its GPU 0 the straggler.
. "${top_srcdir:-.}/tests/screen/lib.sh"

json=$SCREEN_TMP/ep.json
"$PARLEARN" trace --mode ep --gpus 4 --json >"$json" || fail "trace ep"

screen_start 80 24 trace --from "$json"
screen_wait "Animation: ep, 4 GPUs"
# Each GPU's box names the experts it holds: 8 experts, 2 a GPU.
screen_has "L1-L4 experts 0-1"
screen_has "L1-L4 experts 6-7"
screen_keys r Right
screen_wait "paused 1x"
i=0
until screen_capture | grep -qF "dispatch L1, mb 0:"; do
	i=$((i + 1))
	[ "$i" -le 40 ] || fail "no dispatch in layer 1's MLP"
	screen_keys Right
	sleep 0.2
done
screen_capture | grep -F "dispatch L1, mb 0:" | grep -q "tokens of expert [0-7], G[0-3]→G[0-3]" ||
	fail "a dispatch should name its tokens, expert and GPUs"
screen_capture | grep -qF "bytes per link: G0-G1" ||
	fail "the all-to-all's bytes per link"
# The knobs: EP 4 down to EP 2, the router skewed, and the comparison
# with the router even.
screen_has "e EP 4"
screen_keys E
screen_wait "e EP 2"
screen_keys b
screen_wait "b router skewed"
screen_keys x
screen_wait "router even: step"
screen_has "router skewed: step"
screen_keys x
screen_wait_gone "router even: step"
# d puts the EP groups inside 2 pipeline stages: DP 2 x PP 2, EP 2.
screen_keys d
screen_wait "d PP 2"
screen_has "e EP 2"
screen_has "s 1f1b"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "trace --from did not exit 0"
test_done
