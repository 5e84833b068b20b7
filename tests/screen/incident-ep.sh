#!/bin/sh
# Drop 16's incident in the TUI: the EP knob shows for Mixtral and steps
# by powers of two. Dropping EP (EP 1 at TP 8) is refused by the floor;
# EP 8 inside a node (TP 1, DP following to 64) passes with the cause
# committed and the step time predicted.
. "${top_srcdir:-.}/tests/screen/lib.sh"

screen_start 100 40
screen_wait "Phase 1"
open_incident 16 "Mixtral slowed by EP across nodes"
reason 1 8.75
screen_keys Tab
screen_wait "Memory/GPU"
knob "Expert parallel" 8 || fail "EP should start at 8"
# The cursor starts on TP; EP is the last knob, nine up round the top.
screen_keys k k k k k k k k k
screen_keys Left Left Left
wait_until 10 knob "Expert parallel" 1 || fail "EP should be 1"
screen_keys Tab
screen_keys c
screen_wait "Check: not yet"
screen_lacks "Check: PASSED"
screen_keys Tab
screen_wait "Memory/GPU"
screen_keys Right Right Right
wait_until 10 knob "Expert parallel" 8 || fail "EP should be back at 8"
# Down round the top to TP; TP 1 takes DP to 64, EP 8 stays.
screen_keys j j j j j j j j j
screen_keys Left Left Left
wait_until 10 knob "TP degree" 1 || fail "TP should be 1"
knob "DP degree" 64 || fail "DP should be 64"
knob "Expert parallel" 8 || fail "EP should stay 8"
incident_pass_and_leave 16 drop-16 ep-across-nodes
test_done
