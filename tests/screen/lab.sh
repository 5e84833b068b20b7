#!/bin/sh
# A hosted lab in two terminals: the instructor's dashboard moves to the
# next step and the student's lab screen follows it; the student's visit
# shows up on the dashboard, graded (issue 22: first try, right after
# feedback, not earned, attempts, guessing); the projector view draws big
# figures; `lab report` has the grading's columns.
. "${top_srcdir:-.}/tests/screen/lib.sh"

STUDENT_SOCK="parlearn-test-$$-student"
lab_cleanup() {
	tmux -L "$STUDENT_SOCK" kill-server >/dev/null 2>&1
	screen_cleanup
}
trap lab_cleanup EXIT INT TERM

LAB="$SCREEN_TMP/lab"
script="$top_srcdir/labs/two-hour-intro.json"

student_capture() {
	pane_capture "$STUDENT_SOCK"
}

# student_wait TEXT: wait until the student's terminal shows TEXT.
student_wait() {
	wait_until 10 pane_shows "$STUDENT_SOCK" "$1" && return 0
	echo "--- student screen ---" >&2
	student_capture >&2
	fail "student: timed out waiting for: $1"
}

screen_start 80 24 lab host "$LAB" --script "$script"
screen_wait "Step 1 of 8: Three meanings of 'parallel'"
screen_wait "No student has joined yet: parlearn lab join $LAB"
screen_wait "Ask the room which of the three"

# The student joins from another terminal (same machine, own profile),
# having answered drop 1 before (imported here): q1 (single choice) right;
# q2 (numeric, two counting tries) wrong, then right after the feedback;
# q3 (multiple choice) with every option ticked, wrong. Joining copies
# those answers, as the grading reads them, into the lab. They are saved
# under the current grading rule ("rule": 2; without it import reads them
# as answers from before the rule, which earn on the first try only).
mkdir -p "$SCREEN_TMP/shome"
cat >"$SCREEN_TMP/pupil.json" <<JSON
{"format": "parlearn-profile", "version": 1,
 "profile": {"name": "pupil", "created": 1000},
 "drops": [], "settings": [],
 "answers": [
  {"drop": "drop-01", "question": "q1", "attempt": 1, "correct": 1,
   "response": "a", "seconds": 3, "answered": 1001, "rule": 2},
  {"drop": "drop-01", "question": "q2", "attempt": 1, "correct": 0,
   "response": "100", "seconds": 3, "answered": 1002, "rule": 2},
  {"drop": "drop-01", "question": "q2", "attempt": 2, "correct": 1,
   "response": "208", "seconds": 3, "answered": 1003, "rule": 2},
  {"drop": "drop-01", "question": "q3", "attempt": 1, "correct": 0,
   "response": "1,2,3,4,5", "seconds": 3, "answered": 1004, "rule": 2}]}
JSON
HOME="$SCREEN_TMP/shome" XDG_DATA_HOME="$SCREEN_TMP/sdata" \
	"$PARLEARN" import "$SCREEN_TMP/pupil.json" >/dev/null ||
	fail "import of the pupil's answers failed"
pane_start "$STUDENT_SOCK" 80 24 \
	"HOME='$SCREEN_TMP/shome' XDG_DATA_HOME='$SCREEN_TMP/sdata' LC_ALL=C.UTF-8 TERM=xterm-256color '$PARLEARN' --profile pupil lab join '$LAB'" ||
	fail "cannot start the student's tmux"
student_wait "Step 1: Three meanings of 'parallel'"
student_wait "Enter: open drop 1,"
student_wait "lab at step 1/8"

# The dashboard sees the student and their answers within a poll or two,
# one row per question: right, wrong, first try, after feedback, not
# earned, attempts, their mean, students flagged for guessing; q4 is
# self-graded (no "unearned"); a legend says what the short names mean.
# item_row ID RIGHT WRONG FIRST AFTER UNEARNED TRIES MEAN GUESS
item_row() {
	printf '%-12.12s %5d %5d %5d %8d %8s %5d %5s %5d' "$@"
}
screen_wait "@pupil"
screen_wait "item         right wrong first after-fb unearned tries  mean guess"
screen_wait "$(item_row q1 1 0 1 0 0 1 1.0 0)"
screen_has "$(item_row q2 1 0 0 1 0 2 2.0 0)"
screen_has "$(item_row q3 0 1 0 0 1 1 1.0 1)"
screen_has "$(item_row q4 0 0 0 0 - 0 0.0 0)"
screen_has "after-fb: right after feedback  guess: ticked all or followed"
screen_has "Most missed: step 1, q2"

# Next step on the dashboard; the student follows.
screen_keys Right
screen_wait "Step 2 of 8:"
student_wait "lab at step 2/8"
student_wait "Step 2:"
student_wait "Enter: open drop 2,"

# The student may look back but not ahead.
tmux -L "$STUDENT_SOCK" send-keys Left
student_wait "Step 1: Three meanings"
student_wait "You are looking back"
# '?' after the arrows: once its help shows, every arrow has been handled.
tmux -L "$STUDENT_SOCK" send-keys Right Right Right '?'
student_wait "Keys on this screen"
tmux -L "$STUDENT_SOCK" send-keys x
wait_until 10 pane_lacks "$STUDENT_SOCK" "Keys on this screen" ||
	fail "the student's help did not close"
student_wait "Step 2:"
student_capture | grep -q "Step 3:" && fail "the student went ahead of the lab"

# Inside step 2's drop the student answers q1 right: the dashboard shows it
# while the student is still reading, not only once they come back.
student_pos() {
	student_capture | grep -o 'lines [0-9]*-[0-9]* of [0-9]*' | head -n 1
}
student_moved() {
	[ "$(student_pos)" != "$1" ]
}
screen_wait "$(item_row q1 0 0 0 0 0 0 0.0 0)"
tmux -L "$STUDENT_SOCK" send-keys Enter
student_wait "Drop 2:"
i=0
until pane_shows "$STUDENT_SOCK" "Press a number to choose"; do
	i=$((i + 1))
	[ $i -le 30 ] || fail "student: no question in drop 2"
	pos=$(student_pos)
	tmux -L "$STUDENT_SOCK" send-keys f
	wait_until 10 student_moved "$pos" || fail "student: the page did not move"
done
tmux -L "$STUDENT_SOCK" send-keys 1 Enter
student_wait "Right"
screen_wait "$(item_row q1 1 0 1 0 0 1 1.0 0)"
pane_shows "$STUDENT_SOCK" "Drop 2:" || fail "the student left the drop"
tmux -L "$STUDENT_SOCK" send-keys q
student_wait "lab at step 2/8"

# q leads home, L back to the lab.
tmux -L "$STUDENT_SOCK" send-keys q
student_wait "L back to the lab"
tmux -L "$STUDENT_SOCK" send-keys L
student_wait "lab at step 2/8"

# The state file says step 2 (1 counting from 0), and the student is on it.
grep -q '"step":	1' "$LAB/state.json" || fail "state.json: $(cat "$LAB/state.json")"
screen_wait "on this step: 1"

# Projector view: the answered count in big block digits.
screen_keys v
screen_wait "███"
screen_has "answered"
screen_keys v
screen_wait_gone "███"
screen_has "Step 2 of 8:"

screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should leave the dashboard with 0"
tmux -L "$STUDENT_SOCK" send-keys q

# The class report: the columns from before, then the grading's; per
# student per question, then the class per question.
HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data" \
	"$PARLEARN" lab report "$LAB" --format csv >"$SCREEN_TMP/report.csv" ||
	fail "lab report failed"
report_has() {
	grep -qF -- "$1" "$SCREEN_TMP/report.csv" ||
		fail "lab report lacks: $1
$(cat "$SCREEN_TMP/report.csv")"
}
report_has "user,profile,step,step_title,row,item,attempts,first_correct,correct,right,wrong,scenarios_solved,status,tradeoff,first_try_right,right_after_feedback,earned,guess_flags,answered,not_earned,guessing,mean_attempts"
report_has ",question,q1,1,1,1,,,,right,,1,0,1,,,,,"
report_has ",question,q2,2,0,1,,,,right,,0,1,1,,,,,"
report_has ",question,q3,1,0,0,,,,wrong,,0,0,0,all-ticked,,,,"
report_has ",class,q2,2,,,1,0,,question,,0,1,1,,1,0,0,2.00"
report_has ",class,q3,1,,,0,1,,question,,0,0,0,,1,1,1,1.00"
report_has ",class,q4,0,,,0,0,,self-graded,,0,0,0,,0,,0,0.00"
HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data" \
	"$PARLEARN" lab report "$LAB" --format json >"$SCREEN_TMP/report.json" ||
	fail "lab report --format json failed"
grep -q '"all-ticked"' "$SCREEN_TMP/report.json" ||
	fail "the JSON report lacks the all-ticked flag"
test_done
