#!/bin/sh
# A step measured by `parlearn run` in the player (`parlearn trace --from`):
# labelled as measured on its processes, with CPU times on one machine
# said on screen; its settings stay fixed; x puts the simulator's run of
# the same layout beside it; a cp run with TP names its degrees. And a
# lab's run step on the student screen:
# the command to launch, and the run handed in from a shell marked right
# within a second.
. "${top_srcdir:-.}/tests/screen/lib.sh"
. "$top_srcdir/tests/mpi-lib.sh"
mpi_needed

run=$SCREEN_TMP/pp.json
timeout 60 "$PARLEARN" run --mode pp --np 4 --timeout 20 -o "$run" \
	>"$SCREEN_TMP/run.out" 2>&1 </dev/null ||
	fail "parlearn run: $(cat "$SCREEN_TMP/run.out")"

screen_start 100 34 trace --from "$run"
screen_wait "Measured on 4 processes: pp, 1f1b, m=8"
screen_has "Measured on 4 processes with Open MPI"
screen_has "CPU times on one machine"
screen_has "27.3% by (p-1)/(v*m+p-1)"
screen_keys Space
screen_wait "paused 1x"
# The settings of a measured run cannot be turned.
screen_keys g
screen_wait "a measured run keeps its settings"
screen_has "Measured on 4 processes: pp"
# Beside the simulator's run of the same config, each on its own scale.
screen_keys x
screen_wait "simulated on H100s: step"
screen_has "measured on 4 processes: step"
screen_keys x q
[ "$(screen_exit_status)" = 0 ] || fail "trace --from did not exit 0"

# At 80x24 the caption gets two lines: the cut one ends in an ellipsis,
# and a run measured without per-link bytes does not claim one device.
tp=$SCREEN_TMP/tp.json
timeout 60 "$PARLEARN" run --mode tp --np 4 --timeout 20 -o "$tp" \
	>"$SCREEN_TMP/run.out" 2>&1 </dev/null ||
	fail "parlearn run tp: $(cat "$SCREEN_TMP/run.out")"
screen_start 80 24 trace --from "$tp"
screen_wait "Measured on 4 processes: tp"
screen_keys Space
screen_wait "paused 1x"
screen_capture | grep -q "x puts the…$" ||
	fail "the cut caption should end in an ellipsis"
screen_has "bytes per link: none recorded; the total moved is below"
screen_lacks "one device, nothing to send"
screen_keys q

# CP with TP measured on 4 processes: the header gives the degrees, the
# boxes TP's heads and CP's chunks.
cptp=$SCREEN_TMP/cptp.json
timeout 60 "$PARLEARN" run --mode cp --tp 2 --np 4 --timeout 20 -o "$cptp" \
	>"$SCREEN_TMP/run.out" 2>&1 </dev/null ||
	fail "parlearn run cp --tp 2: $(cat "$SCREEN_TMP/run.out")"
screen_start 80 24 trace --from "$cptp"
screen_wait "Measured on 4 processes: cp = dp 1 x tp 2 x pp 1 x cp 2"
screen_capture | grep -q "heads 0-1 .*heads 2-3 .*heads 0-1 .*heads 2-3" ||
	fail "TP ranks should alternate heads 0-1, 2-3"
screen_capture | grep -q "positions 0-1.*positions 0-1.*positions 2-3.*positions 2-3" ||
	fail "a TP pair should hold one CP rank's two chunks"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "trace --from cp did not exit 0"

# A lab's run step, on the student's screen.
lab=$SCREEN_TMP/lab
"$PARLEARN" --profile tester lab host "$lab" --script \
	"$top_srcdir/labs/real-run.json" --no-dashboard >/dev/null ||
	fail "lab host"
"$PARLEARN" lab step "$lab" 2 >/dev/null || fail "lab step"
timeout 60 "$PARLEARN" run --mode dp --np 4 --timeout 20 \
	-o "$SCREEN_TMP/dp.json" >"$SCREEN_TMP/run.out" 2>&1 </dev/null ||
	fail "parlearn run dp: $(cat "$SCREEN_TMP/run.out")"
screen_start 100 30 lab join "$lab"
screen_wait "Step 2: Run data parallelism on 4 processes"
screen_has "parlearn run --mode dp --np 4 -o run.json"
screen_has "parlearn lab submit $lab --step 2 --run run.json"
screen_has "· run, answers equal one device's"
HOME=$SCREEN_TMP/home XDG_DATA_HOME=$SCREEN_TMP/data "$PARLEARN" \
	--profile tester lab submit "$lab" --step 2 --run "$SCREEN_TMP/dp.json" \
	>/dev/null || fail "lab submit --run"
screen_wait "✓ run, answers equal one device's"
screen_keys q q
test_done
