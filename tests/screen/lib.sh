# lib.sh - shared by the screen tests: drive the real parlearn binary in a
# private tmux server and look at what the terminal shows (tmux regress/ style).
#
# Each test sources this file, calls screen_start, sends keys with
# screen_keys, waits for text with screen_wait (never a fixed sleep), and
# asserts with screen_has / screen_lacks, or compares the whole screen with
# a golden file (screen_golden). It ends with test_done (exit 77 if a part
# was skipped). Cleanup runs from a trap.
#
# Golden files: tests/screen/golden/NAME.txt is the whole pane as
# `tmux capture-pane -p` prints it. After an intended change of a screen,
# regenerate them and review the diff:
#	UPDATE_GOLDEN=1 make check TESTS=tests/screen/golden.sh
#	git diff tests/screen/golden/

set -u

PARLEARN=${PARLEARN:-${top_builddir:-.}/parlearn}
top_srcdir=${top_srcdir:-.}
GOLDEN_DIR="$top_srcdir/tests/screen/golden"

fail() {
	echo "FAIL: $*" >&2
	echo "--- screen ---" >&2
	screen_capture >&2
	exit 1
}

. "$top_srcdir/tests/testlib.sh"

if ! command -v tmux >/dev/null 2>&1; then
	if [ "${CI:-}" = true ]; then
		echo "FAIL: tmux is required under CI" >&2
		exit 1
	fi
	echo "SKIP: tmux not installed" >&2
	exit 77
fi

SCREEN_TMP=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-screen.XXXXXX")
SCREEN_RUN=0
SCREEN_SOCK="parlearn-test-$$-0"
SCREEN_STATUS="$SCREEN_TMP/exit-status"

screen_cleanup() {
	n=0
	while [ $n -le $SCREEN_RUN ]; do
		tmux -L "parlearn-test-$$-$n" kill-server >/dev/null 2>&1
		n=$((n + 1))
	done
	rm -rf "$SCREEN_TMP"
}
trap screen_cleanup EXIT INT TERM

# pane_start SOCK COLS ROWS COMMAND: a private tmux server on socket SOCK
# running COMMAND in one detached COLS x ROWS pane that stays on screen,
# unchanged, after COMMAND ends (remain-on-exit is set before the pane
# exists; an empty remain-on-exit-format, tmux 3.3 and later, keeps the
# "Pane is dead" line from scrolling it).
pane_start() {
	tmux -L "$1" -f /dev/null set-option -g remain-on-exit on \; \
		set-option -g remain-on-exit-format '' \; \
		new-session -d -x "$2" -y "$3" "$4" 2>/dev/null ||
		tmux -L "$1" -f /dev/null set-option -g remain-on-exit on \; \
		new-session -d -x "$2" -y "$3" "$4"
}

# screen_start COLS ROWS [ARGS...]: run parlearn in a detached pane; its
# exit status is written to $SCREEN_STATUS and `stty -a` to
# $SCREEN_TMP/stty-after when it ends. The environment is fixed so that
# screens are the same on every machine: HOME and XDG_DATA_HOME (so the
# database) under $SCREEN_TMP, profile "tester", C.UTF-8 (or
# $SCREEN_LOCALE), xterm-256color, UTC, no LINES/COLUMNS. $SCREEN_WRAP, if
# set, is put before the binary (a clock: "faketime -f +2d").
screen_start() {
	cols=$1 rows=$2
	shift 2
	# A fresh tmux server each time: restarting one on the same socket races.
	tmux -L "$SCREEN_SOCK" kill-server >/dev/null 2>&1
	SCREEN_RUN=$((SCREEN_RUN + 1))
	SCREEN_SOCK="parlearn-test-$$-$SCREEN_RUN"
	rm -f "$SCREEN_STATUS" "$SCREEN_TMP/stty-after" "$SCREEN_TMP/shell-pid"
	mkdir -p "$SCREEN_TMP/home" "$SCREEN_TMP/data"
	cat >"$SCREEN_TMP/run.sh" <<RUN
#!/bin/sh
export HOME='$SCREEN_TMP/home' XDG_DATA_HOME='$SCREEN_TMP/data'
export LC_ALL='${SCREEN_LOCALE:-C.UTF-8}' TERM='${SCREEN_TERM:-xterm-256color}'
export TZ=UTC
unset PARLEARN_CONTENT NO_COLOR LANGUAGE LINES COLUMNS
stty sane
trap 'true' INT
echo \$\$ > '$SCREEN_TMP/shell-pid'
${SCREEN_WRAP:-} '$PARLEARN' --profile tester $*
echo \$? > '$SCREEN_STATUS.tmp'
stty -a > '$SCREEN_TMP/stty-after' 2>&1
mv '$SCREEN_STATUS.tmp' '$SCREEN_STATUS'
RUN
	chmod +x "$SCREEN_TMP/run.sh"
	pane_start "$SCREEN_SOCK" "$cols" "$rows" "$SCREEN_TMP/run.sh" ||
		fail "cannot start tmux"
}

# pane_capture SOCK: the whole pane of the server on SOCK, as text.
pane_capture() {
	tmux -L "$1" capture-pane -p 2>/dev/null
}

screen_capture() {
	pane_capture "$SCREEN_SOCK"
}

screen_keys() {
	tmux -L "$SCREEN_SOCK" send-keys "$@"
}

screen_resize() {
	tmux -L "$SCREEN_SOCK" resize-window -x "$1" -y "$2" 2>/dev/null ||
		tmux -L "$SCREEN_SOCK" resize-pane -x "$1" -y "$2"
}

# pane_shows SOCK TEXT: TEXT is on the pane now.
pane_shows() {
	pane_capture "$1" | grep -qF -- "$2"
}

pane_lacks() {
	! pane_shows "$1" "$2"
}

# screen_wait TEXT [SECONDS]: wait until TEXT is on the screen.
screen_wait() {
	wait_until "${2:-10}" pane_shows "$SCREEN_SOCK" "$1" ||
		fail "timed out waiting for: $1"
}

# screen_wait_gone TEXT [SECONDS]
screen_wait_gone() {
	wait_until "${2:-10}" pane_lacks "$SCREEN_SOCK" "$1" ||
		fail "still on screen: $1"
}

# pane_sized SOCK COLS ROWS: the pane is COLS x ROWS and the program has
# drawn that size (its last row, the status line, is not blank: a resize
# adds blank rows below the old frame until the program redraws).
pane_sized() {
	[ "$(tmux -L "$1" display-message -p '#{pane_width}x#{pane_height}' \
		2>/dev/null)" = "$2x$3" ] &&
		pane_capture "$1" | tail -n 1 | grep -q '[^ ]'
}

# pane_resized SOCK COLS ROWS: pane_sized, asking tmux again for the size
# while the pane has another (under load a resize can be lost).
pane_resized() {
	pane_sized "$@" && return 0
	[ "$(tmux -L "$1" display-message -p '#{pane_width}x#{pane_height}' \
		2>/dev/null)" = "$2x$3" ] || screen_resize "$2" "$3"
	return 1
}

# screen_resize_wait COLS ROWS [SECONDS]: resize, then wait until parlearn
# has drawn the new size.
screen_resize_wait() {
	screen_resize "$1" "$2"
	wait_until "${3:-10}" pane_resized "$SCREEN_SOCK" "$1" "$2" ||
		fail "not redrawn at $1x$2 in time ($(tmux -L "$SCREEN_SOCK" \
		    display-message -p '#{pane_width}x#{pane_height}' \
		    2>/dev/null), last line '$(pane_capture "$SCREEN_SOCK" |
		    tail -n 1)')"
}

# screen_line TEXT TEXT2: a line of the screen holds TEXT and TEXT2.
screen_line() {
	screen_capture | grep -F -- "$1" | grep -qF -- "$2"
}

# screen_wait_line TEXT TEXT2 [SECONDS]: wait until a line holds both.
screen_wait_line() {
	wait_until "${3:-10}" screen_line "$1" "$2" ||
		fail "timed out waiting for a line with: $1 ... $2"
}

# screen_count_is TEXT N: N lines of the screen hold TEXT.
screen_count_is() {
	[ "$(screen_capture | grep -cF -- "$1")" -eq "$2" ]
}

# screen_wait_count TEXT N [SECONDS]: wait until N lines hold TEXT.
screen_wait_count() {
	wait_until "${3:-10}" screen_count_is "$1" "$2" ||
		fail "not $2 line(s) with: $1 ($(screen_capture | grep -cF -- "$1"))"
}

screen_has() {
	screen_capture | grep -qF -- "$1" || fail "not on screen: $1"
}

screen_lacks() {
	screen_capture | grep -qF -- "$1" && fail "unexpectedly on screen: $1"
	return 0
}

# screen_exit_status [SECONDS]: wait for parlearn to end, print its status
# (the stty file is written first, so it is there too), or "timeout".
screen_exit_status() {
	if wait_until "${1:-10}" file_ready "$SCREEN_STATUS"; then
		cat "$SCREEN_STATUS"
	else
		echo timeout
	fi
}

# PID of this test's parlearn (a child of its wrapper shell).
screen_find_pid() {
	file_ready "$SCREEN_TMP/shell-pid" || return 1
	SCREEN_PID=$(pgrep -P "$(cat "$SCREEN_TMP/shell-pid")" -x parlearn |
		head -n 1)
	[ -n "$SCREEN_PID" ]
}

screen_pid() {
	wait_until 5 screen_find_pid || return 1
	echo "$SCREEN_PID"
}

# The progress database the test's parlearn writes.
screen_db() {
	echo "$SCREEN_TMP/data/parlearn/progress.db"
}

# screen_matches FILE: the whole screen is FILE, line for line (the
# capture is kept in $SCREEN_TMP/golden-got for the diff).
screen_matches() {
	screen_capture >"$SCREEN_TMP/golden-got"
	cmp -s "$1" "$SCREEN_TMP/golden-got"
}

# screen_settled: two captures 0.3 s apart are the same (UPDATE_GOLDEN).
screen_settled() {
	screen_capture >"$SCREEN_TMP/settle-a"
	sleep 0.3
	screen_capture >"$SCREEN_TMP/settle-b"
	cmp -s "$SCREEN_TMP/settle-a" "$SCREEN_TMP/settle-b"
}

# screen_golden NAME: the whole screen equals tests/screen/golden/NAME.txt.
# It waits up to 10 s for the match, so a frame still being drawn is not a
# failure, then shows the difference. With UPDATE_GOLDEN=1 it writes the
# file instead, from a screen that has stopped changing.
screen_golden() {
	want="$GOLDEN_DIR/$1.txt"
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		wait_until 10 screen_settled || fail "screen never settled for $1"
		cp "$SCREEN_TMP/settle-b" "$want" || fail "cannot write $want"
		echo "golden: wrote $want" >&2
		return 0
	fi
	[ -f "$want" ] || fail "no golden file $want (UPDATE_GOLDEN=1 makes it)"
	wait_until 10 screen_matches "$want" && return 0
	diff -u "$want" "$SCREEN_TMP/golden-got" >&2
	fail "the screen differs from golden/$1.txt; if the change is meant," \
		"UPDATE_GOLDEN=1 make check TESTS=tests/screen/golden.sh"
}

# open_drop12_incident TITLE: start parlearn at 100x14, so the last page of
# drop 12 holds only its reveal question and the incident; mark the
# question (Shift-Tab from the incident) and grade it, then Enter on the
# incident TITLE (scenario.sh, scenario-cut.sh).
open_drop12_incident() {
	screen_start 100 14
	screen_wait "Phase 1"
	screen_keys g
	n=0
	while [ $n -lt 12 ]; do screen_keys j; n=$((n + 1)); done
	screen_keys Enter
	screen_wait "Drop 12:"
	screen_keys G
	screen_wait "$1"
	screen_keys BTab
	screen_wait "then press r to reveal"
	screen_keys r
	screen_wait "How did you do"
	screen_keys 3
	screen_wait "You got it."
	screen_keys G
	screen_wait "Press Enter to open this incident"
	screen_keys Enter
	screen_wait "Scenario: $1"
}

# screen_changed BEFORE: the screen is no longer BEFORE.
screen_changed() {
	[ "$(screen_capture)" != "$1" ]
}

# marked TEXT: the reader's marker is on a line holding TEXT.
marked() {
	screen_capture | grep -q "^▶ .*$1"
}

# to_block TEXT: Tab in the reader until the block starting with TEXT is
# marked.
to_block() {
	i=0
	until marked "$1"; do
		[ $i -lt 12 ] || fail "no block marked with: $1"
		before=$(screen_capture)
		screen_keys Tab
		wait_until 5 screen_changed "$before" ||
			fail "Tab did not move the marker"
		i=$((i + 1))
	done
}

# reason OPTION PREDICTION: in an incident, commit diagnosis OPTION (e,
# then its digit), go back to the brief and type PREDICTION (p ... Enter).
reason() {
	screen_keys e
	screen_wait "Press the number of the cause"
	screen_keys "$1"
	screen_wait "Diagnosis committed"
	screen_keys q
	screen_wait "Status: "
	screen_keys p
	screen_wait "Prediction: _"
	screen_keys -l "$2"
	screen_wait "Prediction: $2_"
	screen_keys Enter
	screen_wait_gone "Prediction: $2_"
}

# open_incident N TITLE: from the home screen, drop N's incident.
open_incident() {
	screen_keys g
	k=0
	while [ $k -lt "$1" ]; do screen_keys j; k=$((k + 1)); done
	screen_keys Enter
	screen_wait "Drop $1:"
	screen_keys G
	screen_wait "Press Enter to open this incident"
	to_block "$2"
	screen_keys Enter
	screen_wait "Status: not passed yet"
}

# knob NAME VALUE: the knob NAME shows VALUE.
knob() {
	screen_capture | grep -qE "^ $1 +$2 "
}

# incident_pass_and_leave N DROP SCENARIO: from the playground of drop N's
# incident, check (it must pass), back out to the home screen and quit;
# then the database holds a failed first attempt and a passed second.
incident_pass_and_leave() {
	screen_wait "fits:"
	screen_keys Tab
	screen_keys c
	screen_wait "Check: PASSED"
	screen_keys q
	screen_wait "Drop $1:"
	screen_keys q
	screen_wait "Phase 1"
	screen_keys q
	[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
	if part_needs sqlite3 "database rows"; then
		rows=$(sqlite3 "$(screen_db)" "SELECT attempt, correct FROM answers WHERE drop_id = '$2' AND question_id = 'scenario:$3' ORDER BY id;")
		[ "$rows" = "1|0
2|1" ] || fail "scenario attempts: $rows"
	fi
}
