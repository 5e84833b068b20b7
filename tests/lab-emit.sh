#!/bin/sh
# An emit step (issue 28, item 5): each student writes the step's layout
# as a launch config with `plan --emit` and hands it in with `lab submit
# --run FILE`. The file is read back (core/engine/emit_read.c): a right
# config is graded right; one stating another TP is refused with the file,
# line and flag (exit 2), recorded wrong with the reason that `lab status`
# and `lab report` show; garbage is refused and nothing is recorded; a
# target the step does not allow is wrong.
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-lab-emit.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C

fail() { echo "FAIL: $*" >&2; exit 1; }

script="$top_srcdir/labs/emit-config.json"
lab="$tmp/lab"
"$PARLEARN" lab host "$lab" --script "$script" --no-dashboard >/dev/null ||
	fail "lab host"

# The step's layout, as the student screen prints the command.
"$PARLEARN" plan --model llama3-8b --gpu h100-80gb --gpus 16 --dp 4 --tp 2 \
	--pp 2 --cp 1 --zero 1 --micro-batch 1 --global-batch 512 \
	--emit megatron -o "$tmp/good.txt" || fail "plan --emit"
sed 's/^--tensor-model-parallel-size 2$/--tensor-model-parallel-size 4/' \
	"$tmp/good.txt" >"$tmp/bad.txt"
cmp -s "$tmp/good.txt" "$tmp/bad.txt" && fail "sed did not change TP"
# DeepSpeed's JSON cannot state PP: a DP-only layout is what it can write
"$PARLEARN" plan --model llama3-8b --gpu h100-80gb --gpus 16 --dp 16 --tp 1 \
	--pp 1 --zero 1 --micro-batch 1 --global-batch 512 \
	--emit deepspeed -o "$tmp/ds.json" || fail "plan --emit deepspeed"
printf 'garbage\n' >"$tmp/junk.txt"

submit() {	# PROFILE FILE: status in $rc
	"$PARLEARN" --profile "$1" lab submit "$lab" --step 1 --run "$2" \
		>"$tmp/sub.out" 2>"$tmp/sub.err"
	rc=$?
}

submit s1 "$tmp/good.txt"
[ "$rc" -eq 0 ] || fail "good config: rc $rc: $(cat "$tmp/sub.err")"
grep -q "right" "$tmp/sub.out" || fail "good: $(cat "$tmp/sub.out")"

submit s2 "$tmp/bad.txt"
[ "$rc" -eq 2 ] || fail "bad config: rc $rc"
grep -q 'bad.txt:4:.*--tensor-model-parallel-size is 4, the step.s layout has TP 2' \
	"$tmp/sub.err" || fail "bad config reason: $(cat "$tmp/sub.err")"

submit s3 "$tmp/junk.txt"
[ "$rc" -eq 2 ] || fail "garbage: rc $rc"
grep -q 'junk.txt:1:.*not a torchtitan' "$tmp/sub.err" ||
	fail "garbage reason: $(cat "$tmp/sub.err")"

# DeepSpeed is not among this step's targets.
submit s4 "$tmp/ds.json"
[ "$rc" -eq 2 ] || fail "deepspeed target: rc $rc"
grep -q 'a deepspeed config; this step asks for another' \
	"$tmp/sub.err" || fail "target: $(cat "$tmp/sub.err")"

"$PARLEARN" lab status "$lab" >"$tmp/st.out" || fail "lab status"
grep -q 'refused: .*s2, step 1: --tensor-model-parallel-size is 4' \
	"$tmp/st.out" || fail "status: $(cat "$tmp/st.out")"
grep -q 's3' "$tmp/st.out" && fail "garbage was recorded: $(cat "$tmp/st.out")"

"$PARLEARN" lab report "$lab" --format csv -o "$tmp/r.csv" || fail "report"
grep -q '^"[^"]*","s1",1,"[^"]*",run,run,1,1,1,,,,right,' "$tmp/r.csv" ||
	fail "report s1: $(cat "$tmp/r.csv")"
grep -q '^"[^"]*","s2",1,"[^"]*",run,run,1,0,0,,,,wrong,.*tensor-model-parallel-size is 4' \
	"$tmp/r.csv" || fail "report s2: $(cat "$tmp/r.csv")"
exit 0
