#!/bin/sh
# A real PyTorch step in the player (`trace --from` the torch.profiler traces
# of 4 gloo ranks, tests/data/torch-traces): labelled as PyTorch's own
# regions and collectives, each rank a device doing "forward, all layers"
# and then backward, the all-reduces on the net lane, no loss claimed, and
# x puts the simulator's dp run of the same width beside it.
. "${top_srcdir:-.}/tests/screen/lib.sh"

D=$top_srcdir/tests/data/torch-traces
screen_start 80 24 trace --from "$D/ddp-4p-rank0.json" "$D/ddp-4p-rank1.json" \
	"$D/ddp-4p-rank2.json" "$D/ddp-4p-rank3.json"
screen_wait "Measured on 4 processes: dp"
screen_has "with torch.profiler, gloo. PyTorch's own regions"
screen_wait "forward, all laye"
screen_has "a profiler trace: no loss"
screen_lacks "max gradient error"
screen_keys Space
screen_wait "paused 1x"
screen_capture | grep -q "^net .*=" || fail "no all-reduce on the net lane"
screen_keys x
screen_wait "simulated on H100s: step"
screen_keys x q
[ "$(screen_exit_status)" = 0 ] || fail "trace --from did not exit 0"
test_done
