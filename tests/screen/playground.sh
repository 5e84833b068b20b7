#!/bin/sh
# The cost-model playground from the home screen: TP changed with the arrow
# keys moves DP to keep the GPU count, the figures and the change column
# follow; an impossible combination shows the engine's reason; the ranked
# search opens with s and Enter applies a layout; the change column is
# measured from the previous setting or, after d, from the start; a knob
# at the end of its list says so; the narrow form works.
. "${top_srcdir:-.}/tests/screen/lib.sh"

screen_start 100 30
screen_wait "Phase 1"
screen_keys G k Enter
screen_wait "Memory/GPU, GB (1e9 B)"
screen_has "llama2-13b on 16 x h100-80gb"
screen_has "TP degree"
screen_has "Step time, s"
screen_has "tokens/s"
step0=$(screen_capture | grep -E '^ *[^ ].* step +[0-9.]+' | head -n 1)
[ -n "$step0" ] || fail "no step line"

# TP 2 -> 4 (TP is selected on opening): DP 4 -> 2, same 16 GPUs.
screen_keys Right
screen_wait "DP degree set to 2 to keep DP x TP x PP = GPUs."
screen_capture | grep "TP degree" | grep -q " 4 " || fail "TP should be 4"
screen_capture | grep "DP degree" | grep -q " 2 " || fail "DP should be 2"
step1=$(screen_capture | grep -E '^ *[^ ].* step +[0-9.]+' | head -n 1)
[ "$step0" != "$step1" ] || fail "step line did not change: $step1"
# Half the weights per GPU: the parameters row shows a negative change.
screen_capture | grep "parameters" | grep -qE -- '-[0-9]+\.[0-9]' ||
	fail "no negative change on the parameters row"

# GPUs 16 -> 24 makes DP 6, which 1,024 samples do not split into.
screen_keys k k k k k k Right
screen_wait "not a valid layout"
screen_keys Left
screen_wait_gone "not a valid layout"
screen_has "Memory/GPU"

# The ranked search, with tie-aware ranks and frameworks; apply the second
# layout; it now takes the second row's rank ("1=" when it ties with #1).
screen_keys s
screen_wait "fastest for llama2-13b on 16 x h100-80gb:"
screen_has "Your layout"
screen_has "Why #1:"
screen_has " # rank  DP  TP  PP"
screen_has "runs on: "
screen_capture | grep -qE "priced as (Megatron-LM|DeepSpeed|PyTorch FSDP2)" ||
	fail "the row does not say which framework it is priced as"
screen_capture | grep -qE "^ +1 +1=? .* (M|D|P)+ +[0-9.]+ *$" ||
	fail "row 1 shows no framework tags"
screen_keys j
screen_wait "Why #2:"
row2=$(screen_capture | grep -E '^ +2 +[0-9]+=? ' | head -n 1 |
	awk '{ print $2 }')
[ -n "$row2" ] || fail "no second row"
screen_keys Enter
screen_wait "Layout applied"
screen_has "Memory/GPU"
screen_keys s
screen_wait "Your layout ranks $row2 of"
screen_keys q
screen_wait_gone "Your layout ranks"
screen_wait "Memory/GPU"
screen_keys q
screen_wait "Phase 5  Going Further"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# A layout slower than every one the search keeps says so in true words:
# the engine keeps the 32 fastest and the table shows 10 of them.
screen_start 100 30
screen_wait "Phase 1"
screen_keys G k Enter
screen_wait "Memory/GPU, GB (1e9 B)"
screen_keys j j j Right
screen_wait "Recompute         full"
screen_keys j j j j Right
screen_wait "Attention         plain"
screen_keys s
screen_wait "Your layout is not among the 32 fastest the engine keeps (of "
screen_lacks "listed"
screen_keys q q q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# The change column: since the previous setting, or (d) since the start;
# the header says which. TP 2 -> 4 -> 8 quarters the weights per GPU: the
# parameters row changes by the last step against the previous setting and
# by the whole way against the start.
screen_start 100 30
screen_wait "Phase 1"
screen_keys G k Enter
screen_wait "Memory/GPU, GB (1e9 B)"
screen_has "vs prev"
start=$(screen_capture | grep "parameters" | awk '{ print $NF }')
screen_keys Right
screen_wait "DP degree set to 2"
screen_keys Right
screen_wait "DP degree set to 1"
screen_capture | grep "TP degree" | grep -q " 8 " || fail "TP should be 8"
row=$(screen_capture | grep "parameters")
prev=$(echo "$row" | awk '{ print $NF }')
screen_keys d
screen_wait "Change column: since the start. d: since the previous setting."
screen_wait "vs start"
screen_lacks "vs prev"
row=$(screen_capture | grep "parameters")
now=$(echo "$row" | awk '{ print $(NF-1) }')
since=$(echo "$row" | awk '{ print $NF }')
[ "$since" != "$prev" ] || fail "the change since the start is the last step's: $row"
awk -v s="$start" -v n="$now" -v d="$since" 'BEGIN {
	e = n - s - d; exit !(e < 0.11 && e > -0.11 && d < 0) }' ||
	fail "parameters: start $start, now $now, but the change is $since"
screen_capture | grep "Step time, s" | grep -q "vs start" ||
	fail "the step-time heading should say vs start too"
screen_keys d
screen_wait "Change column: since the previous setting. d: since the start."
screen_wait "vs prev"
screen_capture | grep "parameters" | awk '{ print $NF }' | grep -qx -- "$prev" ||
	fail "back to the previous setting, the change should be $prev again"

# A knob at the end of its list says so. Attention is the last knob:
# flash is its first value, plain its last.
screen_keys j j j j j j j
screen_keys Left
screen_wait "Attention: flash is the first value; there is none before it."
screen_keys Right
screen_wait_gone "is the first value"
screen_capture | grep "Attention" | grep -q "plain" || fail "attention should be plain"
screen_keys Right
screen_wait "Attention: plain is the last value; there is none after it."
screen_capture | grep "Attention" | grep -q "plain" || fail "attention moved"
screen_keys q q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# The smallest terminal: one knob line, figures below.
screen_start 50 14
screen_wait "Phase 1"
screen_keys G k Enter
screen_wait "TP degree: 2"
screen_has "Memory/GPU"
screen_keys Right
screen_wait "TP degree: 4"
screen_keys q q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
test_done
