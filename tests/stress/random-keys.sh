#!/bin/sh
# random-keys.sh - random key presses and terminal resizes over parlearn's
# screens, for a sanitizer build (./configure --enable-sanitizers). Not
# part of make check: a bounded soak run by hand.
#
#	cd BUILDDIR && top_srcdir=SRCDIR sh SRCDIR/tests/stress/random-keys.sh [SECONDS] [SEED]
#
# Each session starts parlearn in tmux (tests/screen/lib.sh) from one entry
# point (home, review, the lab's host dashboard and student screen), sends
# keys drawn at random (moves, Enter, Tab, letters, digits, now and then
# Esc or q) and resizes the pane between 10x4 and 220x70, until parlearn
# leaves or the session's time is up; then it quits with Esc and q. Fails
# when parlearn does not exit 0, cannot be quit, or a sanitizer wrote a
# report (ASan/UBSan log_path files). Default: 150 s in all, seed = PID.
set -u
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/screen/lib.sh"

total=${1:-150}
seed=${2:-$$}
logs="$SCREEN_TMP/san"
mkdir -p "$logs"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:log_path=$logs/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$logs/ubsan"
lab="$SCREEN_TMP/lab"
"$PARLEARN" --profile host lab host "$lab" \
	--script "$top_srcdir/labs/two-hour-intro.json" --no-dashboard \
	>/dev/null || fail "cannot create the lab"

keys="j k h l Up Down Left Right PageUp PageDown Home End Enter Enter Enter
Tab BTab Space BSpace a b c n p r s t x y ? 1 2 3 4 5 0 + - [ ] < > / ."
set -f
set -- $keys
set +f
nkeys=$#

# rnd N: sets R to a number in 0..N-1 (Park and Miller's minimal
# standard generator; the shell's arithmetic is 64-bit).
rnd_state=$((seed % 2147483646 + 1))
rnd() {
	rnd_state=$((rnd_state * 16807 % 2147483647))
	R=$((rnd_state % $1))
}

check_logs() {
	for f in "$logs"/*; do
		[ -e "$f" ] || continue
		cat "$f" >&2
		fail "sanitizer report in $f (seed $seed)"
	done
}

quit_session() {
	n=0
	while [ ! -f "$SCREEN_STATUS" ] && [ $n -lt 15 ]; do
		screen_keys Escape
		sleep 0.2
		screen_keys Escape q
		wait_until 2 file_ready "$SCREEN_STATUS" && break
		n=$((n + 1))
	done
	[ -f "$SCREEN_STATUS" ] || fail "cannot quit parlearn with Esc and q (seed $seed)"
}

start=$(date +%s)
sessions=0 presses=0 resizes=0
entries="home review host join"
while [ $(($(date +%s) - start)) -lt "$total" ]; do
	for entry in $entries; do
		case $entry in
		home) screen_start 80 24 ;;
		review) screen_start 80 24 review ;;
		host) screen_start 100 30 lab host "$lab" --script \
			"$top_srcdir/labs/two-hour-intro.json" ;;
		join) screen_start 80 24 lab join "$lab" ;;
		esac
		sessions=$((sessions + 1))
		until=$(($(date +%s) + total / 8 + 1))
		while [ ! -f "$SCREEN_STATUS" ] && [ "$(date +%s)" -lt "$until" ]; do
			rnd 100
			r=$R
			if [ "$r" -lt 5 ]; then
				rnd 211
				c=$((10 + R))
				rnd 67
				screen_resize "$c" $((4 + R))
				resizes=$((resizes + 1))
			elif [ "$r" -lt 7 ]; then
				screen_keys Escape
			elif [ "$r" -lt 8 ]; then
				screen_keys q
			else
				rnd "$nkeys"
				i=$((R + 1))
				eval "k=\${$i}"
				screen_keys "$k"
			fi
			presses=$((presses + 1))
			[ $((presses % 25)) -eq 0 ] && check_logs
		done
		quit_session
		status=$(cat "$SCREEN_STATUS")
		[ "$status" = 0 ] || fail "parlearn $entry exited $status (seed $seed)"
		check_logs
	done
done
echo "random-keys: $sessions sessions, $presses keys, $resizes resizes, seed $seed, no sanitizer report"
test_done
