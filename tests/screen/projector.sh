#!/bin/sh
# Projector mode (--projector) on every screen: the playground shows the
# knob and its key figures in block digits (the engine's numbers, the same
# as 'parlearn plan'), in normal-size text when the terminal is too small;
# the reader shows one block per page and the arrows step through them,
# to the end of the drop, which marks it read; the animation player draws
# the bubble in block digits; q leaves with status 0. Review, the lab
# dashboard and a student's lab screen take the same option.
. "${top_srcdir:-.}/tests/screen/lib.sh"

# big_render TEXT: the rows of TEXT in the block digits of ui_big_number
# (3x5 cells per character, one blank column between), trailing blanks cut.
big_render() {
	printf '%s\n' "$1" | awk -v full="█" '
	BEGIN {
		f["0"] = "#### ## ## ####"; f["1"] = "  #  #  #  #  #"
		f["2"] = "###  #####  ###"; f["3"] = "###  ####  ####"
		f["4"] = "# ## ####  #  #"; f["5"] = "####  ###  ####"
		f["6"] = "####  #### ####"; f["7"] = "###  #  #  #  #"
		f["8"] = "#### ##### ####"; f["9"] = "#### ####  ####"
		f["."] = "             # "; f["/"] = "  #  # # #  #  "
		f["%"] = "# #  # # #  # #"
	}
	{
		for (r = 0; r < 5; r++) {
			line = ""
			for (i = 1; i <= length($0); i++) {
				g = f[substr($0, i, 1)]
				for (k = 1; k <= 3; k++)
					line = line (substr(g, r * 3 + k, 1) == "#" ? full : " ")
				if (i < length($0))
					line = line " "
			}
			sub(/ +$/, "", line)
			print line
		}
	}'
}

# big_shown TEXT: TEXT is on the screen in block digits (five rows in a row).
big_shown() {
	big_render "$1" >"$SCREEN_TMP/big"
	screen_capture >"$SCREEN_TMP/cap"
	awk 'NR == FNR { want[FNR - 1] = $0; next }
	{ line[FNR] = $0 }
	END {
		for (i = 1; i <= FNR; i++) {
			ok = 1
			for (r = 0; r < 5 && ok; r++)
				if (index(line[i + r], want[r]) == 0)
					ok = 0
			if (ok)
				exit 0
		}
		exit 1
	}' "$SCREEN_TMP/big" "$SCREEN_TMP/cap"
}

# The playground's default layout, from the CLI.
plan=$(HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data" \
	"$PARLEARN" plan --model llama2-13b --gpus 16 --dp 4 --tp 2 --pp 2 \
	--zero 1 --seq-parallel --json | tr -d ' \t\n') ||
	fail "parlearn plan failed"
num() {
	echo "$plan" | sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p" | head -n 1
}
mem=$(awk -v t="$(num total)" -v u="$(num usable_memory_bytes)" \
	'BEGIN { printf "%.1f/%.1f", t / 1e9, u / 1e9 }')
step=$(awk -v s="$(num step)" 'BEGIN { printf "%.2f", s }')
mfu=$(awk -v m="$(num mfu_fraction)" 'BEGIN { printf "%.0f%%", 100 * m }')
[ -n "$mem" ] && [ "$mem" != "0.0/0.0" ] || fail "no memory figure in: $plan"

screen_start 80 24 --projector
screen_wait "Phase 1"
screen_has "Enter open  ? keys  q quit"
screen_lacks "c continue"

# The playground: the selected knob, the key figures in block digits.
screen_keys G k Enter
screen_wait "GB per GPU / usable"
screen_has "TP degree: 2"
screen_has "s per step"
screen_has "MFU"
screen_has "Fits: "
screen_lacks "Memory/GPU, GB"
big_shown "$mem" || fail "memory $mem not in block digits"
big_shown "$step" || fail "step time $step not in block digits"
big_shown "$mfu" || fail "MFU $mfu not in block digits"
fits0=$(screen_capture | grep "Fits: ")
# Arrow keys still turn the knob; the figures follow.
screen_keys Right
screen_wait "TP degree: 4"
screen_wait "DP degree set to 2"
fits1=$(screen_capture | grep "Fits: ")
[ "$fits0" != "$fits1" ] || fail "memory did not change with TP: $fits1"
screen_keys Left
screen_wait "TP degree: 2"
# Too small for block digits: the same figures in normal-size text.
screen_resize 50 14
screen_wait "GB per GPU / usable: $mem"
screen_has "s per step: $step"
screen_has "MFU: $mfu"
screen_resize 80 24
screen_wait_gone "GB per GPU / usable:"
screen_wait "GB per GPU / usable"
screen_keys q
screen_wait "profile: tester"

# Drop 1, one block per page: the arrows step, no line counts.
screen_keys g j Enter
screen_wait "Drop 1:"
screen_wait "block 1/"
screen_lacks "lines 1-"
n=$(screen_capture | sed -n 's/.*block 1\/\([0-9]*\).*/\1/p' | head -n 1)
[ -n "$n" ] && [ "$n" -gt 2 ] || fail "no block count"
screen_keys Right
screen_wait "block 2/$n"
screen_keys Left
screen_wait "block 1/$n"
screen_keys Down
screen_wait "block 2/$n"
screen_keys Up
screen_wait "block 1/$n"
# Step to the last block, one wait per step, and past its end: block n/n
# shows with the note on its own line (issue 16), and the drop is read,
# not done: its questions have no answers (issue 14).
i=2
while [ $i -lt "$n" ]; do
	screen_keys Right
	screen_wait "block $i/$n"
	i=$((i + 1))
done
screen_keys Right
screen_wait "block $n/$n"
screen_wait "End of the drop, not done"
screen_has "block $n/$n"
screen_keys Right Right Right
screen_keys q
screen_wait "Continue where I left off: 1."

# The animation player: the bubble and the bytes moved in block digits.
screen_keys G Enter
screen_wait "bubble, measured"
screen_has "bubble by the formula"
screen_has "moved in the step"
screen_lacks "A-Z f"
# The normal-size line (too small for block digits) names the figure.
screen_resize 50 14
screen_wait "%, formula "
bubble=$(screen_capture | sed -n 's/.*bubble \([0-9.]*%\), formula.*/\1/p' |
	head -n 1)
[ -n "$bubble" ] || fail "no bubble figure at 50x14"
screen_resize 80 24
screen_wait "bubble, measured"
big_shown "$bubble" || fail "bubble $bubble not in block digits"

screen_keys q
screen_wait "profile: tester"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

export HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data"
json=$("$PARLEARN" --profile tester list --json) || fail "list failed"
echo "$json" | tr -d ' \t\n' | grep -q '"id":"drop-01","number":1,"title":"[^"]*","minutes":[0-9]*,"status":"read"' ||
	fail "stepping to the end of drop 1 should mark it read: $json"

# Every way into the screens takes --projector (tui_run's one start).
# Review: the card alone, without its deck line.
screen_start 80 24 --projector review
screen_wait "new 7  learning 0  due 0"
screen_wait "What does each of DP, TP and PP cut?"
screen_lacks "phase-1"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should leave review with 0"

# The lab dashboard opens in its projector view (big figures).
LAB="$SCREEN_TMP/lab"
screen_start 80 24 --projector lab host "$LAB" --script \
	"$top_srcdir/labs/two-hour-intro.json"
screen_wait "Step 1 of 8: Three meanings of 'parallel'"
screen_wait "on this step"
screen_has "███"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should leave the dashboard with 0"

# A student's terminal in projector mode: white on black everywhere, the
# background escape tmux keeps for each cell (\033[40m); not without it.
black=$(printf '\033\[40m')
for mode in --projector ""; do
	screen_start 80 24 $mode lab join "$LAB"
	screen_wait "lab at step 1/8"
	screen_wait "drop, about"
	if tmux -L "$SCREEN_SOCK" capture-pane -p -e | grep 'drop, about' |
		grep -q "$black"; then
		[ -n "$mode" ] || fail "black background without --projector"
	else
		[ -z "$mode" ] || fail "lab join --projector: not white on black"
	fi
	screen_keys q
	screen_wait "L back to the lab"
	screen_keys q
	[ "$(screen_exit_status)" = 0 ] || fail "q q should leave the lab with 0"
done
test_done
