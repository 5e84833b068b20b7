#!/bin/sh
# A real PyTorch step beside the engine's plan at 80x24 (issue 28): trace
# --from the torch.profiler traces of 2 gloo ranks with --against the plan
# `parlearn plan --json` saved for the same layout; the caption says x
# shows the plan, x puts the table of measured and engine figures on
# screen, x again goes back to the step.
. "${top_srcdir:-.}/tests/screen/lib.sh"

D=$top_srcdir/tests/data/torch-traces
"$PARLEARN" plan --model llama2-7b --gpus 2 --dp 2 --tp 1 --pp 1 --zero 1 \
	--json >"$SCREEN_TMP/plan.json" || fail "plan"
screen_start 80 24 trace --from "$D/ddp-2p-rank0.json" "$D/ddp-2p-rank1.json" \
	--against "$SCREEN_TMP/plan.json"
screen_wait "Measured on 2 processes: dp"
screen_wait "x: the engine's plan beside it."
screen_keys x
screen_wait "Measured on 2 ranks vs the engine's plan: llama2-7b, 2 h100-80gb"
screen_has "measured       engine     engine/m"
screen_capture | grep -Eq "^  step +[0-9.]+ ms +[0-9.]+ s +[0-9.]+x *$" ||
	fail "no step row: $(screen_capture | grep step)"
screen_has "forward + backward"
screen_has "collectives a GPU"
screen_lacks "…"
screen_keys x
screen_wait_gone "engine/m"
screen_wait "forward, all laye"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "trace --from --against did not exit 0"
test_done
