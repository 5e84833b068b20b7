#!/bin/sh
# `parlearn run --mode ep` on real MPI processes (MPI_Alltoallv dispatch
# and combine in each EP group): on 4 and 8 ranks, EP alone, with expert
# data parallelism (DP), with PP under 1F1B, with a shared expert and an
# imbalanced router, with PP under DualPipe and ZB-H1, the step ends with one device's loss, gradients and
# updated parameters to 1e-9, bit for bit with the simulator's run of the
# same layout, moving the simulator's bytes; the dispatch and combine
# events carry their expert and tokens, and the run replays in trace.
# Under DualPipe a rank computes one pass of a pair while the other's
# all-to-all is in flight (MPI_Ialltoallv); under 1F1B it never does.
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-mpi-ep.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C

fail() { echo "FAIL: $*" >&2; exit 1; }
. "$top_srcdir/tests/mpi-lib.sh"
mpi_needed

# run NAME NP ARGS...: `parlearn run --mode ep ARGS --np NP` against one
# device (1e-9), the simulator (bit for bit) and its bytes.
run() {
	name=$1 np=$2
	shift 2
	j="$tmp/$name.json"
	timeout 60 "$PARLEARN" run --mode ep "$@" --np "$np" --timeout 20 \
		--json >"$j" 2>"$tmp/$name.err" </dev/null ||
		fail "$name: exit $?: $(cat "$tmp/$name.err")"
	"$PARLEARN" trace --mode ep "$@" --gpus "$np" --json \
		>"$tmp/$name.sim.json" || fail "$name: trace"
	[ "$(jval processes "$j")" = "$np" ] || fail "$name: not $np processes"
	for k in max_loss_error max_grad_error max_param_error; do
		v=$(jval "$k" "$j")
		at_most "$v" 1e-9 || fail "$name: $k is $v, more than 1e-9"
	done
	[ "$(jval bit_for_bit "$j")" = true ] ||
		fail "$name: not bit for bit with the simulator: $(grep -A5 '"simulator"' "$j")"
	[ "$(jval bytes_moved "$j")" = "$(jval bytes_moved "$tmp/$name.sim.json")" ] ||
		fail "$name: bytes $(jval bytes_moved "$j"), simulator $(jval bytes_moved "$tmp/$name.sim.json")"
	[ "$(jval moe "$j")" -gt 0 ] || fail "$name: no moe in the JSON"
	[ "$(grep -c '"carries":[[:space:]]*"dispatch"' "$j")" -gt 0 ] ||
		fail "$name: no dispatch events"
	[ "$(grep -c '"carries":[[:space:]]*"combine"' "$j")" -gt 0 ] ||
		fail "$name: no combine events"
	[ "$(count_kind optimizer "$j")" = "$np" ] ||
		fail "$name: want one optimizer step per rank"
}

# EP 4: 8 experts, 2 a rank, top-2.
run ep4 4
[ "$(jval ep "$tmp/ep4.json")" = 4 ] || fail "ep4: want ep 4"
# The events are the simulator's: as many sends, and expert/tokens on them.
[ "$(count_kind send "$tmp/ep4.json")" = "$(count_kind send "$tmp/ep4.sim.json")" ] ||
	fail "ep4: sends differ from the simulator's"
grep -q '"tokens":[[:space:]]*[1-9]' "$tmp/ep4.json" || fail "ep4: no tokens"
"$PARLEARN" trace --from "$tmp/ep4.json" >"$tmp/ep4.chart" 2>&1 ||
	fail "ep4: trace --from: $(cat "$tmp/ep4.chart")"
grep -q '^G3 ' "$tmp/ep4.chart" || fail "ep4: no row for G3"

# EP 2 x EDP 2 on 4, without overlap.
run ep2-edp 4 --ep 2 --moe 4 --no-overlap
# EP 4 x EDP 2 on 8.
run ep4-edp 8 --ep 4
# PP 2 x EP 4 on 8 under 1F1B.
run pp2-ep4 8 --pp 2
[ "$(jval pp "$tmp/pp2-ep4.json")" = 2 ] || fail "pp2-ep4: want pp 2"
# PP 2 x EP 2 x EDP 2, a shared expert and a skewed router.
run pp2-ep2 8 --pp 2 --ep 2 --moe 4 --shared-expert --router-bias 3

# PP under DualPipe: EP 2 on 4; EP 2 x EDP 2 on 8 (with DP); PP 4 x EP 2
# on 8; and PP 2 x EP 4 on 8 under ZB-H1.
run pp2-dualpipe 4 --pp 2 --schedule dualpipe
run pp2-ep2-dualpipe 8 --pp 2 --ep 2 --schedule dualpipe
run pp4-dualpipe 8 --pp 4 --schedule dualpipe --microbatches 8
run pp2-zb 8 --pp 2 --schedule zb-h1

# DualPipe's pairs hide some of the all-to-all time under the other
# pass's compute; 1F1B (pp2-ep4) waits out every one before computing.
for n in pp2-dualpipe pp2-ep2-dualpipe pp4-dualpipe; do
	h=$(jval all_to_all_hidden_s "$tmp/$n.json")
	[ -n "$h" ] && ! at_most "$h" 0 ||
		fail "$n: no all-to-all time under compute ($h s)"
done
h=$(jval all_to_all_hidden_s "$tmp/pp2-ep4.json")
at_most "$h" 0 || fail "pp2-ep4: 1F1B computes during an all-to-all ($h s)"

# PP 2 x EP 2 on 4, interleaved: 2 chunks a rank.
run pp2-int 4 --pp 2 --schedule interleaved
[ "$(jval virtual_stages "$tmp/pp2-int.json")" = 2 ] ||
	fail "pp2-int: want 2 chunks a rank"

# A bad layout: one line, no ranks started.
"$PARLEARN" run --mode ep --np 4 --ep 3 >"$tmp/bad.out" 2>"$tmp/bad.err" &&
	fail "ep 3 of 8 experts ran"
[ "$(wc -l <"$tmp/bad.err")" -eq 1 ] || fail "bad: $(cat "$tmp/bad.err")"
grep -q 'ep 3 does not divide the 8 experts' "$tmp/bad.err" ||
	fail "bad: $(cat "$tmp/bad.err")"
test_done
