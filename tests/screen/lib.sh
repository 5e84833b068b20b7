# lib.sh - shared by the screen tests: drive the real parlearn binary in a
# private tmux server and look at what the terminal shows (tmux regress/ style).
#
# Each test sources this file, calls screen_start, sends keys with
# screen_keys, waits for text with screen_wait, and asserts with
# screen_has / screen_lacks. Cleanup runs from a trap.

set -u

PARLEARN=${PARLEARN:-${top_builddir:-.}/parlearn}
top_srcdir=${top_srcdir:-.}

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

fail() {
	echo "FAIL: $*" >&2
	echo "--- screen ---" >&2
	screen_capture >&2
	exit 1
}

# screen_start COLS ROWS [ARGS...]: run parlearn in a detached pane; its
# exit status is written to $SCREEN_STATUS when it ends.
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
export LC_ALL=\${SCREEN_LOCALE:-C.UTF-8} TERM=\${SCREEN_TERM:-xterm-256color}
unset PARLEARN_CONTENT NO_COLOR
stty sane
trap 'true' INT
echo \$\$ > '$SCREEN_TMP/shell-pid'
'$PARLEARN' --profile tester $* 
echo \$? > '$SCREEN_STATUS'
stty -a > '$SCREEN_TMP/stty-after' 2>&1
sleep 30
RUN
	chmod +x "$SCREEN_TMP/run.sh"
	tmux -L "$SCREEN_SOCK" -f /dev/null new-session -d -x "$cols" -y "$rows" \
		"SCREEN_LOCALE='${SCREEN_LOCALE:-C.UTF-8}' SCREEN_TERM='${SCREEN_TERM:-xterm-256color}' $SCREEN_TMP/run.sh" ||
		fail "cannot start tmux"
	tmux -L "$SCREEN_SOCK" set-option -g remain-on-exit on >/dev/null 2>&1
}

screen_capture() {
	tmux -L "$SCREEN_SOCK" capture-pane -p 2>/dev/null
}

screen_keys() {
	tmux -L "$SCREEN_SOCK" send-keys "$@"
}

screen_resize() {
	tmux -L "$SCREEN_SOCK" resize-window -x "$1" -y "$2" 2>/dev/null ||
		tmux -L "$SCREEN_SOCK" resize-pane -x "$1" -y "$2"
}

# screen_wait TEXT [SECONDS]: wait until TEXT is on the screen.
screen_wait() {
	i=0 limit=$(( ${2:-10} * 10 ))
	while [ $i -lt $limit ]; do
		screen_capture | grep -qF -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "timed out waiting for: $1"
}

# screen_wait_gone TEXT [SECONDS]
screen_wait_gone() {
	i=0 limit=$(( ${2:-10} * 10 ))
	while [ $i -lt $limit ]; do
		screen_capture | grep -qF -- "$1" || return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "still on screen: $1"
}

screen_has() {
	screen_capture | grep -qF -- "$1" || fail "not on screen: $1"
}

screen_lacks() {
	screen_capture | grep -qF -- "$1" && fail "unexpectedly on screen: $1"
	return 0
}

# screen_exit_status [SECONDS]: wait for parlearn to end, print its status.
screen_exit_status() {
	i=0 limit=$(( ${1:-10} * 10 ))
	while [ $i -lt $limit ]; do
		if [ -s "$SCREEN_STATUS" ]; then
			cat "$SCREEN_STATUS"
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	echo timeout
}

# PID of this test's parlearn (a child of its wrapper shell).
screen_pid() {
	i=0
	while [ $i -lt 50 ]; do
		if [ -s "$SCREEN_TMP/shell-pid" ]; then
			p=$(pgrep -P "$(cat "$SCREEN_TMP/shell-pid")" -x parlearn | head -n 1)
			[ -n "$p" ] && { echo "$p"; return 0; }
		fi
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# The progress database the test's parlearn writes.
screen_db() {
	echo "$SCREEN_TMP/data/parlearn/progress.db"
}
