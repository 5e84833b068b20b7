#!/bin/sh
# q, Ctrl-C and SIGTERM all leave with status 0 and a restored terminal.
. "${top_srcdir:-.}/tests/screen/lib.sh"

# The wrapper writes `stty -a` before the exit status, so once
# screen_exit_status has the status the stty file is complete.
check_restored() {
	file_ready "$SCREEN_TMP/stty-after" || fail "$1: no stty output"
	grep -q -- ' icanon' "$SCREEN_TMP/stty-after" || fail "$1: icanon not restored"
	grep -q -- ' echo' "$SCREEN_TMP/stty-after" || fail "$1: echo not restored"
}

restart() {
	screen_start 100 30
	screen_wait "j/k move  Enter open"
}

restart
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
check_restored q

restart
screen_keys C-c
[ "$(screen_exit_status)" = 0 ] || fail "Ctrl-C should exit 0"
check_restored Ctrl-C

restart
pid=$(screen_pid)
[ -n "$pid" ] || fail "cannot find the parlearn process"
kill -TERM "$pid"
[ "$(screen_exit_status)" = 0 ] || fail "SIGTERM should exit 0"
check_restored SIGTERM

# Idle means blocked on input: no CPU time used while waiting. The sleep
# is the measuring window, not a wait for something to happen.
restart
pid=$(screen_pid)
t1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
sleep 2
t2=$(awk '{print $14 + $15}' "/proc/$pid/stat")
[ $((t2 - t1)) -le 2 ] || fail "idle parlearn used $((t2 - t1)) ticks in 2 s"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
test_done
