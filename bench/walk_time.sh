#!/bin/sh
# walk_time.sh - walk the whole course in the real binary, in tmux, and
# time every animation as it plays: each drop is opened from the home
# screen, Tab marks its interactive blocks in turn, and an animation block
# is opened with Enter; the time from Enter until the player's title says
# "paused" (the step has played to its end at the default speed) is that
# animation's play time. Prints one line per animation, then each drop's
# count and the course's total, for lessons/README.md ("How long a drop
# takes"), next to the estimate core/course/duration makes of the same
# plays. Not part of `make check`: it takes the animations' real time.
#
# Usage: walk_time.sh PATH-TO-PARLEARN [CONTENT-DIR]
set -u
parlearn=${1:?usage: walk_time.sh PATH-TO-PARLEARN [CONTENT-DIR]}
content=${2:-.}
command -v tmux >/dev/null 2>&1 || { echo "walk_time: no tmux" >&2; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-walk.XXXXXX")
sock="parlearn-walk-$$"
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home" "$tmp/data"

now_ms() {
	date +%s%N | cut -c1-13
}

cap() {
	tmux -L "$sock" capture-pane -p 2>/dev/null
}

keys() {
	tmux -L "$sock" send-keys "$@"
}

# wait_for TEXT SECONDS: poll every 20 ms; 0 once TEXT is on the pane.
wait_for() {
	wf_n=$(($2 * 50))
	while [ $wf_n -gt 0 ]; do
		cap | grep -qF -- "$1" && return 0
		sleep 0.02
		wf_n=$((wf_n - 1))
	done
	return 1
}

tmux -L "$sock" -f /dev/null new-session -d -x 100 -y 30 \
	"HOME='$tmp/home' XDG_DATA_HOME='$tmp/data' LC_ALL=C.UTF-8 \
	TERM=xterm-256color '$parlearn' --content '$content' --profile walker"
wait_for "Phase 1" 10 || { echo "walk_time: no home screen" >&2; exit 1; }

total_ms=0
count=0
for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
	keys g
	i=0
	while [ $i -lt $n ]; do
		keys j
		i=$((i + 1))
	done
	keys Enter
	wait_for "Drop $n:" 10 || { echo "walk_time: drop $n did not open" >&2; exit 1; }
	seen=0
	# The reader opens with a question marked: Shift-Tab back to the
	# first interactive block, then Tab through them all.
	i=0
	while [ $i -lt 20 ]; do
		keys BTab
		i=$((i + 1))
		sleep 0.2
		cap | grep -qF "No more questions that way" && break
	done
	tabs=0
	while [ $tabs -lt 20 ]; do
		# Enter only on a marked animation (the marker is the arrow).
		if cap | grep -qF "$(printf '\342\226\266') Animation: press Enter"; then
			start=$(now_ms)
			keys Enter
			wait_for "playing 1x" 5 || { echo "walk_time: drop $n: no player" >&2; exit 1; }
			wait_for "paused 1x" 60 || { echo "walk_time: drop $n: never paused" >&2; exit 1; }
			ms=$(( $(now_ms) - start ))
			seen=$((seen + 1))
			count=$((count + 1))
			total_ms=$((total_ms + ms))
			printf 'drop %2d  animation %d  %d.%03d s\n' "$n" "$seen" \
				$((ms / 1000)) $((ms % 1000))
			keys q
			wait_for "Drop $n:" 10
			sleep 0.3
		fi
		keys Tab
		tabs=$((tabs + 1))
		sleep 0.3
		# Past the last block Tab says so.
		cap | grep -qF "No more questions that way" && break
	done
	keys q
	wait_for "Phase 1" 10 || { echo "walk_time: no way home from drop $n" >&2; exit 1; }
done
keys q
printf 'animations %d, played in %d.%03d s\n' "$count" $((total_ms / 1000)) \
	$((total_ms % 1000))
