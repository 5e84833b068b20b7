#!/bin/sh
# `parlearn run` on real MPI processes, one machine, --oversubscribe:
# every mode on 4 ranks (3d on 8, cp also on 2, as DP 2 x CP 4 on 8 and
# with TP 2 inside CP on 4 and 8; pp and 3d also under ZB-H1 and DualPipe) ends the step with the loss, gradients
# and updated parameters of one device to 1e-9, and with the ordered
# reductions bit for bit those of the simulator's run of the same layout;
# its events move the bytes the simulator's do; with --reduce mpi the
# library's own order still agrees to 1e-9. Started by mpirun itself,
# `parlearn run` joins the job. -o writes like every other -o (no link
# followed, nothing but a regular file replaced), and results that cannot
# be written (a full disk, stdout closed, a reader gone) fail the run.
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-mpi-modes.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C

fail() { echo "FAIL: $*" >&2; exit 1; }
. "$top_srcdir/tests/mpi-lib.sh"
mpi_needed

# check NAME NP EXACT: the run's JSON in $tmp/NAME.json against one
# device (1e-9) and, if EXACT, the simulator bit for bit.
check() {
	j="$tmp/$1.json"
	[ "$(jval processes "$j")" = "$2" ] || fail "$1: not $2 processes"
	[ "$(jval one_host "$j")" = true ] || fail "$1: not all on one host"
	for k in max_loss_error max_grad_error max_param_error; do
		v=$(jval "$k" "$j")
		at_most "$v" 1e-9 || fail "$1: $k is $v, more than 1e-9"
	done
	if [ "$3" = 1 ]; then
		[ "$(jval bit_for_bit "$j")" = true ] ||
			fail "$1: not bit for bit with the simulator: $(grep -A5 '"simulator"' "$j")"
	else
		v=$(jval max_param_diff "$j")
		at_most "$v" 1e-9 || fail "$1: $v from the simulator"
	fi
	[ "$(count_kind forward "$j")" -gt 0 ] || fail "$1: no forward events"
	[ "$(count_kind optimizer "$j")" = "$2" ] ||
		fail "$1: want one optimizer step per rank"
}

# run NAME NP ARGS... [-- RUNARGS...]: `parlearn run ARGS --np NP
# RUNARGS`, and its bytes against `parlearn trace ARGS --gpus NP`.
run() {
	name=$1 np=$2
	shift 2
	sim=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do sim="$sim $1"; shift; done
	[ $# -gt 0 ] && shift
	# shellcheck disable=SC2086
	timeout 60 "$PARLEARN" run $sim --np "$np" --timeout 20 --json "$@" \
		>"$tmp/$name.json" 2>"$tmp/$name.err" </dev/null ||
		fail "$name: exit $?: $(cat "$tmp/$name.err")"
	# shellcheck disable=SC2086
	"$PARLEARN" trace $sim --gpus "$np" --json >"$tmp/$name.sim.json" ||
		fail "$name: trace"
	[ "$(jval bytes_moved "$tmp/$name.json")" = \
	    "$(jval bytes_moved "$tmp/$name.sim.json")" ] ||
		fail "$name: bytes $(jval bytes_moved "$tmp/$name.json"), simulator $(jval bytes_moved "$tmp/$name.sim.json")"
}

run dp 4 --mode dp
check dp 4 1
[ "$(grep -c '"overlap":[[:space:]]*true' "$tmp/dp.json")" -gt 0 ] ||
	fail "dp: no bucket overlapped with backward"
[ "$(jval loss "$tmp/dp.json")" = "$(jval loss "$tmp/dp.sim.json")" ] ||
	fail "dp: loss differs from the simulator's"

run tp 4 --mode tp
check tp 4 1
[ "$(count_kind all-reduce "$tmp/tp.json")" -eq $((4 * 4 * 4)) ] ||
	fail "tp: want 4 all-reduces per layer on each of 4 ranks"

run pp 4 --mode pp
check pp 4 1
# 8 micro-batches, 3 boundaries, both ways: 48 sends and 48 receives.
[ "$(count_kind send "$tmp/pp.json")" = 48 ] || fail "pp: want 48 sends"
[ "$(count_kind receive "$tmp/pp.json")" = 48 ] || fail "pp: want 48 receives"

run fsdp 4 --mode fsdp
check fsdp 4 1
[ "$(count_kind reduce-scatter "$tmp/fsdp.json")" -gt 0 ] ||
	fail "fsdp: no reduce-scatter"

run 3d 8 --mode 3d
check 3d 8 1

run tp-sp 4 --mode tp --sequence-parallel
check tp-sp 4 1

run pp-interleaved 2 --mode pp --schedule interleaved
check pp-interleaved 2 1

# Zero bubble: the W passes run on the ranks the simulator runs them on.
run pp-zb 4 --mode pp --schedule zb-h1
check pp-zb 4 1
[ "$(grep -c '"part":[[:space:]]*"weights"' "$tmp/pp-zb.json")" = \
    "$(grep -c '"part":[[:space:]]*"weights"' "$tmp/pp-zb.sim.json")" ] ||
	fail "pp-zb: W passes differ from the simulator's"
[ "$(grep -c '"part":[[:space:]]*"weights"' "$tmp/pp-zb.json")" -gt 0 ] ||
	fail "pp-zb: no W pass"
# DualPipe: two directions, each rank two stages, mirrors summed; alone on
# 4 and 2 ranks and inside the 3D layout's DP x TP on 8.
run pp-dualpipe 4 --mode pp --schedule dualpipe
check pp-dualpipe 4 1
run pp-dualpipe-2 2 --mode pp --schedule dualpipe --microbatches 4
check pp-dualpipe-2 2 1
run 3d-dualpipe 8 --mode 3d --schedule dualpipe --microbatches 4
check 3d-dualpipe 8 1

run fsdp-no-overlap 4 --mode fsdp --no-overlap --microbatches 2
check fsdp-no-overlap 4 1

# Context parallelism: the K/V ring with MPI sends, to one device within
# 1e-12. Per layer and rank 3 K/V sends forward, 3 backward and 4 dK/dV
# sends: 4 layers x 4 ranks x 10 = 160 sends and as many receives. The
# measured timeline replays (trace --from prints its chart off a tty).
run cp 4 --mode cp
check cp 4 1
for k in max_loss_error max_grad_error max_param_error; do
	v=$(jval "$k" "$tmp/cp.json")
	at_most "$v" 1e-12 || fail "cp: $k is $v, more than 1e-12"
done
[ "$(count_kind send "$tmp/cp.json")" = 160 ] || fail "cp: want 160 sends"
[ "$(count_kind receive "$tmp/cp.json")" = 160 ] ||
	fail "cp: want 160 receives"
[ "$(jval cp "$tmp/cp.json")" = 4 ] || fail "cp: want cp 4 in the JSON"
"$PARLEARN" trace --from "$tmp/cp.json" >"$tmp/cp.chart" 2>&1 ||
	fail "cp: trace --from: $(cat "$tmp/cp.chart")"
grep -q '^G3 ' "$tmp/cp.chart" || fail "cp: no row for G3: $(cat "$tmp/cp.chart")"

run cp-2 2 --mode cp --no-overlap
check cp-2 2 1

# CP 4 with DP 2 on 8 ranks: gradients summed over all 8.
run cp-dp 8 --mode cp
check cp-dp 8 1
[ "$(jval dp "$tmp/cp-dp.json")" = 2 ] || fail "cp-dp: want dp 2"

# CP with TP inside each CP rank: TP 2 x CP 4 on 8 ranks, TP 2 x CP 2 on
# 4. TP's 4 all-reduces per layer run on every rank beside the ring's
# sends (8 x 4 x 4 = 128), plus one gradient bucket per layer (32); the
# ring links ranks of one TP rank (G0 to G2), so each rank still sends
# 3 + 3 + 4 blocks per layer: 8 x 4 x 10 = 320.
run cp-tp 8 --mode cp --tp 2
check cp-tp 8 1
[ "$(jval tp "$tmp/cp-tp.json")" = 2 ] || fail "cp-tp: want tp 2"
[ "$(jval cp "$tmp/cp-tp.json")" = 4 ] || fail "cp-tp: want cp 4"
[ "$(count_kind all-reduce "$tmp/cp-tp.json")" = 160 ] ||
	fail "cp-tp: want 160 all-reduces"
[ "$(count_kind send "$tmp/cp-tp.json")" = 320 ] ||
	fail "cp-tp: want 320 sends"
"$PARLEARN" trace --from "$tmp/cp-tp.json" >"$tmp/cp-tp.chart" 2>&1 ||
	fail "cp-tp: trace --from: $(cat "$tmp/cp-tp.chart")"
grep -q 'cp on 8 GPUs (dp 1 x tp 2 x pp 1 x cp 4)' "$tmp/cp-tp.chart" ||
	fail "cp-tp: replay lost the degrees: $(cat "$tmp/cp-tp.chart")"
run cp-tp-4 4 --mode cp --tp 2 --no-overlap
check cp-tp-4 4 1

# A lab's run step: the dp run is right for step 2 of labs/real-run.json;
# a pp run is not the run the step asks for.
lab="$tmp/lab"
"$PARLEARN" lab host "$lab" --script "$top_srcdir/labs/real-run.json" \
	--no-dashboard >/dev/null || fail "lab host"
"$PARLEARN" lab step "$lab" 2 >/dev/null || fail "lab step"
"$PARLEARN" lab submit "$lab" --step 2 --run "$tmp/pp.json" \
	>"$tmp/sub.out" 2>"$tmp/sub.err" && fail "a pp run passed for a dp step"
grep -q 'a run of pp on 4 processes; the step asks for: dp' "$tmp/sub.err" ||
	fail "lab submit pp: $(cat "$tmp/sub.err")"
"$PARLEARN" lab submit "$lab" --step 2 --run "$tmp/dp.json" >"$tmp/sub.out" ||
	fail "lab submit --run"
grep -q '^step 2: dp on 4 processes on 1 host; .*: right$' "$tmp/sub.out" ||
	fail "lab submit: $(cat "$tmp/sub.out")"
"$PARLEARN" lab report "$lab" --format csv >"$tmp/report.csv" || fail "lab report"
# Then the grading's columns: first try right, not after feedback, earned,
# no guess flags; and the class row of the run.
grep -q ',2,"Run data parallelism on 4 processes",run,run,1,1,1,,,,right,,1,0,1,,,,,,$' \
	"$tmp/report.csv" || fail "lab report: $(cat "$tmp/report.csv")"
grep -q '^,,2,"Run data parallelism on 4 processes",class,run,1,,,1,0,,run,,1,0,1,,1,0,0,1.00,$' \
	"$tmp/report.csv" || fail "lab report's class row: $(cat "$tmp/report.csv")"

# The library's own reduction order: equal to rounding, not to the bit.
run dp-mpi 4 --mode dp --microbatches 2 -- --reduce mpi
check dp-mpi 4 0

# Started by mpirun: every rank runs `parlearn run`, which joins the job.
# shellcheck disable=SC2086
timeout 60 "$MPIRUN" -np 4 $MPIRUN_OPTS "$PARLEARN" run --mode tp \
	--timeout 20 -o "$tmp/joined.json" >"$tmp/joined.out" 2>&1 </dev/null ||
	fail "mpirun -np 4 parlearn run: $(cat "$tmp/joined.out")"
check joined 4 1
grep -q 'largest difference from the simulator: loss 0, gradients 0, parameters 0 (bit for bit)' \
	"$tmp/joined.out" || fail "joined: summary: $(cat "$tmp/joined.out")"
[ "$(grep -c '^parlearn run: tp on 4 processes' "$tmp/joined.out")" = 1 ] ||
	fail "joined: want one summary (rank 0's): $(cat "$tmp/joined.out")"

# out NAME WANT ARGS...: `parlearn run --mode dp --np 2 ARGS`, stdout in
# $tmp/NAME.out, stderr $tmp/NAME.err; exit WANT.
out() {
	name=$1 want=$2
	shift 2
	timeout 60 "$PARLEARN" run --mode dp --np 2 --timeout 20 "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
	rc=$?
	[ "$rc" = "$want" ] || fail "$name: exit $rc, want $want: $(cat "$tmp/$name.err")"
}
# -o never writes through a planted link, nor into a FIFO.
echo victim >"$tmp/victim.txt"
ln -s victim.txt "$tmp/link.json"
out link 2 -o "$tmp/link.json"
[ "$(cat "$tmp/victim.txt")" = victim ] || fail "link: wrote through the link"
grep -q 'link.json: is a symbolic link; not writing through it' "$tmp/link.err" ||
	fail "link: $(cat "$tmp/link.err")"
mkfifo "$tmp/fifo.json"
t0=$(date +%s)
out fifo 2 -o "$tmp/fifo.json"
# (A run that opened the FIFO would block until timeout's 60 s; MPI's own
# start took 6-11 s under a slow resolver, more under the sanitizers.)
[ $(($(date +%s) - t0)) -le 40 ] || fail "fifo: waited on the FIFO"
grep -q 'fifo.json: not a regular file; not replacing it' "$tmp/fifo.err" ||
	fail "fifo: $(cat "$tmp/fifo.err")"
# An existing file is replaced whole, keeping its mode.
echo old >"$tmp/keep.json"
chmod 600 "$tmp/keep.json"
out keep 0 -o "$tmp/keep.json"
[ "$(jval processes "$tmp/keep.json")" = 2 ] || fail "keep: not replaced"
ls -l "$tmp/keep.json" | grep -q '^-rw-------' || fail "keep: mode changed"
ls -a "$tmp" | grep -q 'parlearn-.*\.tmp$' && fail "keep: temporary file left"
# Started by mpirun, rank 0 writes -o the same way.
# shellcheck disable=SC2086
timeout 60 "$MPIRUN" -np 2 $MPIRUN_OPTS "$PARLEARN" run --mode dp \
	--timeout 20 -o "$tmp/link.json" >"$tmp/joinlink.out" 2>&1 </dev/null &&
	fail "joined: -o through a link succeeded"
[ "$(cat "$tmp/victim.txt")" = victim ] || fail "joined: wrote through the link"
# own_err FILE: parlearn's own messages in FILE, without the summary of
# suppressed leaks that LeakSanitizer adds in a sanitizer build (the MPI
# library's, see src/run/run_lsan.c).
own_err() {
	sed '/^-*$/d; /^Suppressions used:$/d; /^ *count  *bytes template$/d;
	    /^ *[0-9][0-9]*  *[0-9][0-9]* /d' "$1"
}

# Results that cannot be written fail the run, with the reason.
if [ -w /dev/full ]; then
	for j in "" --json; do
		# shellcheck disable=SC2086
		timeout 60 "$PARLEARN" run --mode tp --np 4 --timeout 20 $j \
			>/dev/full 2>"$tmp/full.err" </dev/null
		rc=$?
		[ "$rc" = 2 ] || fail "/dev/full $j: exit $rc, want 2"
		grep -q '^parlearn: run: standard output: No space left on device$' \
			"$tmp/full.err" || fail "/dev/full $j: $(cat "$tmp/full.err")"
	done
fi
timeout 60 "$PARLEARN" run --mode dp --np 2 --timeout 20 >&- \
	2>"$tmp/closed.err" </dev/null
rc=$?
[ "$rc" = 2 ] || fail "stdout closed: exit $rc, want 2"
[ "$(own_err "$tmp/closed.err")" = \
    "parlearn: run: standard output: Bad file descriptor" ] ||
	fail "stdout closed: $(cat "$tmp/closed.err")"
( timeout 60 "$PARLEARN" run --mode dp --np 2 --timeout 20 --json \
	2>"$tmp/head.err" </dev/null; echo $? >"$tmp/head.rc" ) | true
# (true has left long before the step ends.)
[ "$(cat "$tmp/head.rc")" = 2 ] || fail "reader gone: exit $(cat "$tmp/head.rc")"
[ "$(own_err "$tmp/head.err")" = \
    "parlearn: run: standard output: the reader went away before the results were written" ] ||
	fail "reader gone: $(cat "$tmp/head.err")"
test_done
