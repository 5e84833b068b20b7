#!/bin/sh
# A student on an emit step at 80x24 (issue 28 item 5): the layout in
# words and the targets, not a command to paste, each line whole; the
# submit line; the step's item named as a config, not a run.
. "${top_srcdir:-.}/tests/screen/lib.sh"

HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data" "$PARLEARN" lab host \
	"$SCREEN_TMP/lab" --script "$top_srcdir/labs/emit-config.json" \
	--no-dashboard >/dev/null || fail "lab host"
screen_start 80 24 --profile s1 lab join "$SCREEN_TMP/lab"
screen_wait "Write this layout as a launch config (torchtitan, megatron, sbatch):"
screen_has "llama3-8b on 16 h100-80gb"
screen_has "DP 4, TP 2, PP 2, CP 1, EP 1, ZeRO 1, micro-batch 1, global batch 512"
screen_has "parlearn lab submit $SCREEN_TMP/lab --step 1"
screen_has "config, states the layout"
screen_lacks "--tp 2"
screen_lacks "answers equal one device"
screen_lacks "…"
screen_keys q
test_done
