#!/bin/sh
# A run step's grade rests on what the file can show (issue 23, item 7):
# `lab submit --run` recomputes the simulator's run of the file's layout
# and refuses what it cannot produce. The two forgeries of the issue, a
# `parlearn trace --json` timeline with a "measured" block copied in and a
# real run.json edited to "loss": 123, are refused with a one-line reason
# the student sees on submitting and the instructor in `lab status` and
# `lab report`; a refused file counts as a wrong answer. A genuine trace
# still replays and is told it is no measured run (nothing recorded); a
# genuine run is graded right.
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-lab-forged.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C

fail() { echo "FAIL: $*" >&2; exit 1; }
. "$top_srcdir/tests/mpi-lib.sh"
mpi_needed

lab="$tmp/lab"
"$PARLEARN" lab host "$lab" --script "$top_srcdir/labs/real-run.json" \
	--no-dashboard >/dev/null || fail "lab host"
"$PARLEARN" lab step "$lab" 2 >/dev/null || fail "lab step"

# The step's run, and the simulator's timeline of the same layout.
timeout 60 "$PARLEARN" run --mode dp --np 4 --timeout 20 -o "$tmp/run.json" \
	>"$tmp/run.out" 2>&1 </dev/null || fail "parlearn run: $(cat "$tmp/run.out")"
"$PARLEARN" trace --mode dp --gpus 4 --json >"$tmp/trace.json" || fail "trace"

# submit FILE: `lab submit --run FILE` for step 2 as student s1; its
# exit status in $rc, stdout in $tmp/sub.out, stderr $tmp/sub.err.
submit() {
	"$PARLEARN" --profile s1 lab submit "$lab" --step 2 --run "$1" \
		>"$tmp/sub.out" 2>"$tmp/sub.err"
	rc=$?
}

# 1. The trace with the run's "measured" block pasted in after "schema".
awk 'NR == FNR {
		if ($0 ~ /^\t"measured":/) m = 1
		if (m) block = block $0 "\n"
		if (m && $0 ~ /^\t},$/) m = 0
		next
	}
	{ print }
	/^\t"schema":/ { printf "%s", block }' \
	"$tmp/run.json" "$tmp/trace.json" >"$tmp/forged-trace.json"
grep -q '"host_of_rank"' "$tmp/forged-trace.json" || fail "forging the trace"
submit "$tmp/forged-trace.json"
[ "$rc" = 2 ] || fail "a trace with a copied measured block: exit $rc: $(cat "$tmp/sub.out")"
grep -q 'forged-trace.json: measured: a parlearn trace document carries no "measured" block' \
	"$tmp/sub.err" || fail "forged trace: $(cat "$tmp/sub.err")"
[ "$(wc -l <"$tmp/sub.err")" = 1 ] || fail "not one line: $(cat "$tmp/sub.err")"
"$PARLEARN" lab status "$lab" >"$tmp/st.out" || fail "lab status"
grep -q "^refused: $(id -un)@s1, step 2: measured: a parlearn trace document" \
	"$tmp/st.out" || fail "status does not say: $(cat "$tmp/st.out")"

# 2. A real run edited to "loss": 123 (the top-level loss, not the
#    simulator's).
sed '0,/^\t"loss":/s/^\t"loss":\t[^,]*,/\t"loss":\t123,/' "$tmp/run.json" \
	>"$tmp/forged-loss.json"
grep -q '^	"loss":	123,' "$tmp/forged-loss.json" || fail "forging the loss"
submit "$tmp/forged-loss.json"
[ "$rc" = 2 ] || fail "loss 123: exit $rc: $(cat "$tmp/sub.out")"
grep -q 'forged-loss.json: loss: 123 is not the loss of dp on 4 GPUs: the simulator computes 7\.84' \
	"$tmp/sub.err" || fail "forged loss: $(cat "$tmp/sub.err")"
"$PARLEARN" lab status "$lab" --json >"$tmp/st.json" || fail "lab status --json"
grep -q '"reason":	"loss: 123 is not the loss of dp on 4 GPUs' "$tmp/st.json" ||
	fail "status --json: $(cat "$tmp/st.json")"

# 3. A genuine trace: it replays, and is no measured run (nothing
#    recorded for it).
"$PARLEARN" trace --from "$tmp/trace.json" --json >/dev/null 2>"$tmp/tr.err" ||
	fail "trace --from the trace: $(cat "$tmp/tr.err")"
submit "$tmp/trace.json"
[ "$rc" = 2 ] || fail "a trace passed for a run: exit $rc"
grep -q 'not a measured run' "$tmp/sub.err" || fail "trace: $(cat "$tmp/sub.err")"

# 4. The genuine run: right, after two wrong (refused) tries.
"$PARLEARN" trace --from "$tmp/run.json" --json >/dev/null 2>"$tmp/tr.err" ||
	fail "trace --from the run: $(cat "$tmp/tr.err")"
submit "$tmp/run.json"
[ "$rc" = 0 ] || fail "the genuine run: exit $rc: $(cat "$tmp/sub.err")"
grep -q '^step 2: dp on 4 processes on 1 host; .*: right$' "$tmp/sub.out" ||
	fail "genuine run: $(cat "$tmp/sub.out")"

# The report: 3 attempts (two refused), the latest right, not earned;
# the refusal's reason in the last column and in the JSON.
"$PARLEARN" lab report "$lab" --format csv -o "$tmp/report.csv" ||
	fail "lab report"
grep -q ',2,"Run data parallelism on 4 processes",run,run,3,0,1,,,,right,,0,0,0,,,,,,"loss: 123 is not the loss of dp on 4 GPUs' \
	"$tmp/report.csv" || fail "report csv: $(cat "$tmp/report.csv")"
head -1 "$tmp/report.csv" | grep -q ',mean_attempts,refused$' ||
	fail "csv header: $(head -1 "$tmp/report.csv")"
"$PARLEARN" lab report "$lab" --format json -o "$tmp/report.json" ||
	fail "lab report json"
grep -q '"refused":	"loss: 123 is not the loss' "$tmp/report.json" ||
	fail "report json: $(cat "$tmp/report.json")"
exit 0
