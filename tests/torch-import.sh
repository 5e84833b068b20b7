#!/bin/sh
# trace --from reads real PyTorch steps (issue 28 item 2): the
# torch.profiler traces of DDP on 2 and 4 gloo processes
# (tests/data/torch-traces, made by examples/pytorch/ddp.py) become the
# player's devices, one a rank, with their forward, backward, optimizer and
# each collective, the ranks' clocks aligned on the collectives; Kineto's
# form ({"traceEvents": ...}, NCCL's names, message sizes) reads the same;
# what is not one step's traces is refused in one line.
set -u

PARLEARN=${PARLEARN:-${top_builddir:-.}/parlearn}
SRC=${srcdir:-.}
D=$SRC/tests/data/torch-traces
T=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-torchimp.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
export HOME="$T" XDG_DATA_HOME="$T/data" LC_ALL=C
unset PARLEARN_CONTENT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
. "$SRC/tests/testlib.sh"

# check N JSON: N devices, each with one forward, backward and optimizer
# and the 5 all-reduces of the step (4 buckets and DDP's map of used
# parameters), each collective ending within 10 % of the step on every rank (gloo marks
# its end on a worker thread a few ms apart).
check() {
	python3 - "$@" <<'PY' || fail "the imported step of $1 ranks: see above"
import json, sys
n, d = int(sys.argv[1]), json.load(open(sys.argv[2]))
assert d["schema"] == "parlearn.trace/1" and d["mode"] == "dp", d["schema"]
assert d["gpus"] == n and d["measured"]["by"] == "torch.profiler", d["measured"]
ev, step = d["events"], d["step_time_s"]
for dev in range(n):
    kinds = [e["kind"] for e in ev if e["device"] == dev]
    for k in ("forward", "backward", "optimizer"):
        assert kinds.count(k) == 1, (dev, k, kinds.count(k))
    assert kinds.count("all-reduce") == 5, (dev, kinds.count("all-reduce"))
ends = {}
for e in ev:
    if e["kind"] == "all-reduce":
        ends.setdefault(e["collective"], []).append(e["end_s"])
assert sorted(ends) == list(range(5)), sorted(ends)
for k, v in ends.items():
    assert len(v) == n and max(v) - min(v) < 0.10 * step, (k, v, step)
# the buckets start while backward still runs, on every rank
for dev in range(n):
    bwd = [e for e in ev if e["device"] == dev and e["kind"] == "backward"][0]
    first = min(e["start_s"] for e in ev if e["device"] == dev and e["kind"] == "all-reduce")
    assert first < bwd["end_s"], (dev, first, bwd["end_s"])
PY
}

"$PARLEARN" trace --from "$D/ddp-2p-rank0.json" "$D/ddp-2p-rank1.json" --json \
	>"$T/2.json" 2>"$T/err" || fail "2 ranks: $(cat "$T/err")"
check 2 "$T/2.json"
"$PARLEARN" trace --json --from "$D"/ddp-4p-rank0.json "$D"/ddp-4p-rank1.json \
	"$D"/ddp-4p-rank2.json "$D"/ddp-4p-rank3.json >"$T/4.json" 2>"$T/err" ||
	fail "4 ranks: $(cat "$T/err")"
check 4 "$T/4.json"
# the document is parlearn.trace/1 as its schema says
PY=python3
"$PY" -c 'import jsonschema' 2>/dev/null || PY=/usr/bin/python3
if "$PY" -c 'import jsonschema' 2>/dev/null; then
	"$PY" -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
		"$T/4.json" "$SRC/schema/trace.json" || fail "4.json breaks schema/trace.json"
else
	part_skip "schema" "python3-jsonschema is not installed"
fi
# as text: said to be PyTorch's, no loss claimed
"$PARLEARN" trace --from "$D/ddp-2p-rank0.json" "$D/ddp-2p-rank1.json" \
	>"$T/2.txt" 2>&1 || fail "text"
grep -q "^measured by PyTorch on 2 processes (torch.profiler, gloo)" "$T/2.txt" ||
	fail "not labelled: $(head -2 "$T/2.txt")"
grep -q "^loss" "$T/2.txt" && fail "a loss claimed for a profiler trace"
grep -q "^G1  |" "$T/2.txt" || fail "no G1 row"

# The library named in a saved step reaches the terminal made safe.
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["measured"]["library"] = "gloo\u001b[2J"
json.dump(d, open(sys.argv[2], "w"))' "$T/2.json" "$T/esc.json"
"$PARLEARN" trace --from "$T/esc.json" >"$T/esc.txt" 2>&1 || fail "saved step"
grep -q "gloo^\[\[2J" "$T/esc.txt" || fail "escape not shown as text: $(head -1 "$T/esc.txt")"
grep -q "$(printf '\033')" "$T/esc.txt" && fail "a raw escape reached the terminal"

# Kineto's form: an object, NCCL's names, message sizes in the args.
python3 - "$D/ddp-2p-rank0.json" "$D/ddp-2p-rank1.json" "$T" <<'PY' || fail "making Kineto traces"
import json, sys
for i, f in enumerate(sys.argv[1:3]):
    ev = json.load(open(f))
    for e in ev:
        if e["name"] == "gloo:all_reduce":
            e["name"] = "nccl:all_reduce"
            e["args"] = {"In msg nelems": 6496, "dtype": "Float"}
    json.dump({"schemaVersion": 1, "traceEvents": ev},
              open("%s/k%d.json" % (sys.argv[3], i), "w"))
PY
"$PARLEARN" trace --from "$T/k0.json" "$T/k1.json" --json >"$T/k.json" 2>"$T/err" ||
	fail "Kineto form: $(cat "$T/err")"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
b = [e["bytes"] for e in d["events"] if e["kind"] == "all-reduce"]
assert len(b) == 10 and all(x == 25984 for x in b), b
assert d["measured"]["library"] == "torch.profiler, NCCL", d["measured"]' "$T/k.json" ||
	fail "Kineto bytes or library"

# Refused in one line, exit 2.
bad() {
	want=$1
	shift
	"$PARLEARN" trace --from "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] || fail "exit $rc, not 2: $*"
	grep -qF -- "$want" "$T/err" || fail "$*: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "$*: not one line: $(cat "$T/err")"
}
python3 -c 'import json, sys
ev = json.load(open(sys.argv[1])); i = [e["name"] for e in ev].index("gloo:all_reduce")
json.dump(ev[:i] + ev[i + 1:], open(sys.argv[2], "w"))' "$D/ddp-2p-rank1.json" "$T/less.json"
bad "4 collectives in the step where" "$D/ddp-2p-rank0.json" "$T/less.json"
bad "3 ranks' traces" "$D/ddp-4p-rank0.json" "$D/ddp-4p-rank1.json" "$D/ddp-4p-rank2.json"
python3 -c 'import json, sys
ev = [e for e in json.load(open(sys.argv[1])) if e["name"] not in ("forward", "backward",
      "DistributedDataParallel.forward") and not e["name"].startswith("autograd::")]
json.dump(ev, open(sys.argv[2], "w"))' "$D/ddp-2p-rank0.json" "$T/nofwd.json"
bad "nofwd.json:1:1: no forward and backward" "$T/nofwd.json"
bad "one file" "$T/2.json" "$D/ddp-2p-rank1.json"
bad "missing.json" "$T/missing.json"
test_done
