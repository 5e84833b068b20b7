#!/bin/sh
# The last leg of the loop (issue 28): a real step's torch.profiler traces
# (tests/data/torch-traces, DDP on 2 gloo processes) beside the engine's
# plan of the same layout, saved by `parlearn plan --json`: each row's
# measured figure is the trace's, each engine figure the plan's, the ratio
# theirs; a plan for another layout, not one layout, or not a plan is
# refused in one line naming the file and key (exit 2); --against without
# --from, or with --json, is a usage error; the plan's names are untrusted.
set -u

PARLEARN=${PARLEARN:-${top_builddir:-.}/parlearn}
SRC=${srcdir:-.}
D=$SRC/tests/data/torch-traces
T=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-against.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
export HOME="$T" XDG_DATA_HOME="$T/data" LC_ALL=C
unset PARLEARN_CONTENT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
. "$SRC/tests/testlib.sh"

R0=$D/ddp-2p-rank0.json
R1=$D/ddp-2p-rank1.json
plan() {
	"$PARLEARN" plan --model llama2-7b --gpus "$1" --dp "$1" --tp 1 --pp 1 \
		--zero 1 --json >"$2" || fail "plan $1"
}
plan 2 "$T/p2.json"
plan 4 "$T/p4.json"

"$PARLEARN" trace --from "$R0" "$R1" --against "$T/p2.json" >"$T/out" \
	2>"$T/err" || fail "against: $(cat "$T/err")"
"$PARLEARN" trace --from "$R0" "$R1" --json >"$T/trace.json" ||
	fail "trace --json"
grep -q "^Measured vs the engine's plan (llama2-7b on 2 h100-80gb):" "$T/out" ||
	fail "no heading: $(tail -9 "$T/out")"
PY=python3
"$PY" -c 'import json' 2>/dev/null || PY=/usr/bin/python3
"$PY" - "$T/out" "$T/p2.json" "$T/trace.json" <<'PY' || fail "rows: see above"
import json, sys
out = open(sys.argv[1]).read().splitlines()
plan, trace = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
rows = {l[2:24].strip(): l[24:].split() for l in out if l.startswith("  ")}
def val(cells):
    n, unit = float(cells[0]), cells[1]
    return n * {"us": 1e-6, "ms": 1e-3, "s": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}[unit]
step = rows["step"]
m, e = val(step[0:2]), val(step[2:4])
t = plan["time_s"]
assert abs(m - trace["step_time_s"]) <= 0.051e-3, (m, trace["step_time_s"])
assert abs(e - t["step"]) <= 0.006, (e, t["step"])
assert step[4] == "%.2fx" % (t["step"] / trace["step_time_s"]) or \
    abs(float(step[4][:-1]) - t["step"] / m) < 0.02 * float(step[4][:-1]), step
ev = trace["events"]
opt = sum(x["end_s"] - x["start_s"] for x in ev if x["kind"] == "optimizer") / 2
assert abs(val(rows["optimizer"][0:2]) - opt) <= 0.051e-3, (rows["optimizer"], opt)
assert abs(val(rows["optimizer"][2:4]) - t["optimizer"]) <= 0.051e-3 * 10
colls = [x for x in ev if x["kind"] == "all-reduce"]
assert rows["collectives a GPU"][0] == "%d" % (len(colls) / 2), rows["collectives a GPU"]
assert rows["collectives a GPU"][1] == "%d" % plan["network"]["dp_collectives"]
PY

# a plan of another layout, a search, or no plan: one line, exit 2
"$PARLEARN" trace --from "$R0" "$R1" --against "$T/p4.json" >/dev/null \
	2>"$T/err"
[ $? -eq 2 ] || fail "a 4-GPU plan against 2 ranks: not exit 2"
grep -qx "parlearn: trace: $T/p4.json: gpus: the plan is for 4 GPUs, the trace has 2 ranks" \
	"$T/err" || fail "4 GPUs: $(cat "$T/err")"
"$PARLEARN" plan --model llama2-7b --gpus 2 --json >"$T/search.json" ||
	fail "search"
"$PARLEARN" trace --from "$R0" "$R1" --against "$T/search.json" >/dev/null \
	2>"$T/err"
[ $? -eq 2 ] && grep -q "search.json: schema: a search, not one layout" \
	"$T/err" || fail "a search: $(cat "$T/err")"
"$PARLEARN" trace --from "$R0" "$R1" --against "$R0" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "rank0.json: schema: not a parlearn.plan/1 document" \
	"$T/err" || fail "a trace as plan: $(cat "$T/err")"
# usage errors, exit 1
"$PARLEARN" trace --against "$T/p2.json" >/dev/null 2>"$T/err"
[ $? -eq 1 ] && grep -q "against needs --from" "$T/err" ||
	fail "--against alone: $(cat "$T/err")"
"$PARLEARN" trace --from "$R0" "$R1" --against "$T/p2.json" --json \
	>/dev/null 2>"$T/err"
[ $? -eq 1 ] || fail "--against with --json: not a usage error"
# the plan's names are untrusted: an escape reaches no terminal
sed 's/"llama2-7b"/"evil\\u001b]0;x\\u0007"/' "$T/p2.json" >"$T/evil.json"
"$PARLEARN" trace --from "$R0" "$R1" --against "$T/evil.json" >"$T/out" \
	2>&1 || fail "evil: $(cat "$T/out")"
grep -q "evil" "$T/out" || fail "the model name is gone"
if LC_ALL=C grep -q "$(printf '\033')" "$T/out"; then
	fail "an escape from the plan reached the terminal"
fi
test_done
