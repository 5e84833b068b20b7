#!/bin/sh
# The home screen lists the 5 phases and all 17 drops with their status,
# the continue entry, and the review and playground entries (below the
# fold at 100x30: G scrolls to them).
. "${top_srcdir:-.}/tests/screen/lib.sh"

screen_start 100 30
screen_wait "Phase 1"
# Each line is waited for (at once when it is there): a frame may reach
# the terminal in pieces.
for t in \
	"Three different things people call 'parallel'" \
	"Same model, different examples, sum the gradients" \
	"Cut the matmul, not the batch" \
	"Stack the layers across machines" \
	"One forward pass under pure data parallelism" \
	"Activations crossing the fabric every layer" \
	"Microbatches filling the pipeline" \
	"Stack DP, TP, and PP on the same eight GPUs" \
	"Counting bytes per GPU under each regime" \
	"Your 13B training run just crashed at step 4,000" \
	"Your throughput dropped 40% after moving to a bigger cluster" \
	"Your pipeline has a 35% bubble and you can't increase M" \
	"Choose (DP, TP, PP) for a 30B model on 32 GPUs" \
	"Defend a (DP, TP, PP) tuple for a 70B model on 64 GPUs" \
	"Long context: when activations outgrow TP" \
	"Sparse models: experts and expert parallelism" \
	"Phase 2  Tracing Four GPUs, Three Ways" \
	"Phase 3  Cost Models and When OOM Hits" \
	"Phase 4  Sizing a 70B Cluster" \
	"Phase 5  Going Further" \
	"Start: 1. Three different things" \
	"profile: tester" \
	"0/4" \
	"0/5" \
	"j/k move  Enter open  c continue  B cards  ? keys  q quit"
do
	screen_wait "$t"
done
[ "$(screen_capture | grep -c ' new')" -ge 17 ] || fail "17 drops should be new"

# The minutes are the estimate `parlearn list` prints (core/course/duration),
# not typed ones: each drop's on its line, the course's on the Start line.
list=$(HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data" \
	"$PARLEARN" --profile tester list --json | tr -d ' \t\n') ||
	fail "list --json failed"
total=$(echo "$list" | sed -n 's/.*"minutes":\([0-9]*\),"minutes_left".*/\1/p')
[ -n "$total" ] && [ "$total" -ge 120 ] ||
	fail "the course should take hours, not '$total' minutes"
if [ $((total % 60)) = 0 ]; then
	left="$((total / 60)) h left"
else
	left="$((total / 60)) h $((total % 60)) min left"
fi
screen_capture | grep "Start: 1\." | grep -qF "$left" ||
	fail "the Start line should end with '$left'"
for n in 1 7 12 14 15; do
	mins=$(echo "$list" | grep -o "\"number\":$n,\"title\":\"[^\"]*\",\"minutes\":[0-9]*" |
		sed 's/.*://')
	[ -n "$mins" ] || fail "no minutes for drop $n in list --json"
	screen_capture | grep -E "^ +$n  " | grep -qF " $mins min " ||
		fail "drop $n should show $mins min"
done

# The entry above the last opens the playground: wait for what only the
# playground shows (its title is also the home screen's entry).
screen_keys G
screen_wait "Cost-model playground"
screen_wait "Animations: the toy model on simulated GPUs"
screen_wait "Flashcard review"
screen_keys k Enter
screen_wait "Memory/GPU, GB (1e9 B)"
screen_has "Cost-model playground"
screen_lacks "Phase 1"
screen_keys q
screen_wait "Phase 5  Going Further"
screen_wait_gone "Memory/GPU"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# ASCII in a non-UTF-8 locale: no box-drawing characters at all.
SCREEN_LOCALE=C
screen_start 100 30
screen_wait "Phase 1"
screen_wait "j/k move  Enter open"
screen_has "......"
screen_capture | LC_ALL=C grep -q "$(printf '\342')" && fail "non-ASCII in C locale"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
test_done
