#!/bin/sh
# Drop 15's incident passes with the fix its solution leads with: CP 4 in
# place of DP 4 (the sequence, the batch and TP locked), with the cause
# committed and the step time predicted as the unfixed one, which the
# ring's hidden traffic keeps it at. Full recomputation, the costlier fix,
# is refused the same prediction.
. "${top_srcdir:-.}/tests/screen/lib.sh"

screen_start 100 40
screen_wait "Phase 1"
open_incident 15 "OOM at 128K tokens"
reason 1 12.9
screen_keys Tab
screen_wait "Memory/GPU"
# Full recomputation fits but costs a third more compute: the step time
# of the unfixed layout is no longer within the prediction's 10%.
screen_keys j j j j Right
wait_until 10 knob "Recompute" full || fail "recompute should be full"
screen_keys Tab
screen_keys c
screen_wait "Check: not yet"
screen_lacks "Check: PASSED"
screen_keys Tab
screen_wait "Memory/GPU"
screen_keys Left
wait_until 10 knob "Recompute" selective || fail "recompute: selective"
# CP 4: DP follows to 1.
screen_keys k k Right Right
wait_until 10 knob "CP degree" 4 || fail "CP should be 4"
knob "DP degree" 1 || fail "DP should be 1"
incident_pass_and_leave 15 drop-15 oom-128k
test_done
