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
screen_wait "fits:"
screen_keys Tab
screen_keys c
screen_wait "Check: PASSED"
screen_keys q
screen_wait "Drop 15:"
screen_keys q
screen_wait "Phase 1"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

if part_needs sqlite3 "database rows"; then
	rows=$(sqlite3 "$(screen_db)" "SELECT attempt, correct FROM answers WHERE drop_id = 'drop-15' AND question_id = 'scenario:oom-128k' ORDER BY id;")
	want="1|0
2|1"
	[ "$rows" = "$want" ] || fail "scenario attempts: $rows"
fi
test_done
