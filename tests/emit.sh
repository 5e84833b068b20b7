#!/bin/sh
# plan --emit (issue 28 item 1): every target round-trips (the emitted file
# is read back with the format's own reader and gives the layout planned),
# every emitted name is checked against the framework's pinned source
# (tests/data/frameworks, by tests/emit_check.py), the search's row is the
# one emitted, a layout the framework cannot say is refused with the
# reason, and -o never follows a planted link.
set -u

PARLEARN=${PARLEARN:-${top_builddir:-.}/parlearn}
SRC=${srcdir:-.}
CHECK="python3 $SRC/tests/emit_check.py"
FW=$SRC/tests/data/frameworks
T=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-emit.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
export HOME="$T" XDG_DATA_HOME="$T/data" LC_ALL=C
unset PARLEARN_CONTENT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
. "$SRC/tests/testlib.sh"

command -v python3 >/dev/null || fail "python3 is needed (tomllib, json)"

# has JSON WANT: every key of WANT (a JSON object) is in JSON, equal.
has() {
	python3 -c 'import json,sys
got, want = json.loads(sys.argv[1]), json.loads(sys.argv[2])
bad = {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
sys.exit("read back %s, want %s: %s" % (got, want, bad) if bad else 0)' "$1" "$2"
}

n=0
# emits KIND WANT PLAN-ARGS...: emit, read back, compare, check names.
emits() {
	kind=$1 want=$2
	shift 2
	n=$((n + 1))
	f=$T/out.$n.$kind
	"$PARLEARN" plan "$@" --emit "$kind" -o "$f" 2>"$T/err" ||
		fail "--emit $kind $*: $(cat "$T/err")"
	[ -s "$T/err" ] && fail "--emit $kind $*: said $(cat "$T/err")"
	got=$($CHECK layout "$kind" "$f") || fail "cannot read back $f"
	has "$got" "$want" || fail "--emit $kind $*"
	$CHECK names "$kind" "$f" "$FW" || fail "names in --emit $kind $*"
}

L70="--model llama3-70b --gpu h100-80gb --gpus 64"
# FSDP with TP and SP: torchtitan, Megatron-FSDP, a Slurm job of 8 nodes
A="$L70 --dp 16 --tp 4 --pp 1 --zero 3 --seq-parallel --micro-batch 1"
emits torchtitan '{"dp":16,"tp":4,"pp":1,"zero":3,"micro_batch":1,"global_batch":512,"seq":8192}' $A
emits megatron '{"tp":4,"pp":1,"zero":3,"micro_batch":1,"global_batch":512,"seq_parallel":true}' $A
emits sbatch '{"nodes":8,"gpus_per_node":8,"torchrun":[8,8],"framework":"megatron"}' $A
# PP interleaved with the distributed optimizer and full recompute
B="$L70 --dp 2 --tp 8 --pp 4 --schedule interleaved --virtual-stages 5 --zero 1 --seq-parallel --micro-batch 1 --recompute full"
emits megatron '{"tp":8,"pp":4,"v":5,"zero":1,"micro_batch":1,"recompute":"full"}' $B
# ... which torchtitan cannot say (no ZeRO-1), so sbatch launches Megatron
emits sbatch '{"framework":"megatron","nodes":8}' $B
# torchtitan with PP: the step's batch per DP rank, micro-batches of b
C="$L70 --dp 4 --tp 4 --pp 4 --schedule 1f1b --zero 3 --seq-parallel --micro-batch 2"
emits torchtitan '{"dp":4,"tp":4,"pp":4,"micro_batch":2,"global_batch":512,"zero":3}' $C
# DualPipeV: torchtitan's name (its job_config names it), 2 stages a GPU
emits torchtitan '{"dp":4,"tp":4,"pp":4}' $L70 --dp 4 --tp 4 --pp 4 \
	--schedule dualpipev --zero 3 --seq-parallel --micro-batch 1
grep -q '^pipeline_parallel_schedule = "DualPipeV"$' "$T/out.$n.torchtitan" ||
	fail "DualPipeV not named"
grep -q '^pipeline_parallel_layers_per_stage = 10$' "$T/out.$n.torchtitan" ||
	fail "DualPipeV: not 80 layers in 8 stages"
grep -q "DualPipeV" "$SRC/tests/data/frameworks/torchtitan-v0.2.2-job_config.py" ||
	fail "torchtitan v0.2.2 does not name DualPipeV"
# plain data parallelism, ZeRO 2 and HSDP for DeepSpeed and torchtitan
D="--model llama3-8b --gpu h100-80gb --gpus 16 --dp 16 --tp 1 --pp 1 --micro-batch 2"
emits deepspeed '{"dp":16,"tp":1,"zero":2,"micro_batch":2,"global_batch":512}' $D --zero 2
emits torchtitan '{"dp":16,"zero":2,"micro_batch":2}' $D --zero 2
emits torchtitan '{"dp":16,"zero":0}' $D --zero 0
emits deepspeed '{"dp":16,"zero":3}' $D --zero 3 --hsdp
grep -q '"mics_shard_size": 8' "$T/out.$n.deepspeed" || fail "HSDP is not MiCS over a node"
emits sbatch '{"nodes":2,"gpus_per_node":8,"framework":"megatron"}' $D --zero 1
emits sbatch '{"framework":"torchtitan"}' $D --zero 3 --framework pytorch
emits sbatch '{"framework":"deepspeed","nodes":2}' $D --zero 2 --framework deepspeed
# context parallelism and FP8
emits megatron '{"cp":2,"tp":2}' --model llama3-8b --gpu h100-80gb --gpus 16 \
	--dp 4 --tp 2 --pp 1 --cp 2 --seq-parallel --zero 1
grep -qx -- '--cp-comm-type p2p' "$T/out.$n.megatron" || fail "CP ring is not p2p"
emits torchtitan '{"zero":3}' $D --zero 3 --precision fp8 --fp8-recipe rowwise
grep -qx 'recipe_name = "rowwise"' "$T/out.$n.torchtitan" || fail "no rowwise recipe"
# a mixture of experts: EP and its router in Megatron's flags
E="--model qwen3-30b-a3b --gpu h100-80gb --gpus 16 --dp 16 --tp 1 --pp 1 --ep 8 --zero 1"
emits megatron '{"ep":8,"zero":1}' $E
grep -qx -- '--num-experts 128' "$T/out.$n.megatron" || fail "no --num-experts"
grep -qx -- '--moe-router-topk 8' "$T/out.$n.megatron" || fail "no --moe-router-topk"
emits torchtitan '{"ep":8,"zero":3}' $E --zero 3 --framework pytorch
# DeepSeek-V3: MLA, the dense first layers, MTP on the last of 16 stages
# (62 pipeline layers: 3 on the first, 2 decoder layers and MTP on the last)
V="--model deepseek-v3 --gpu h100-80gb --gpus 2048 --dp 16 --tp 8 --pp 16 --ep 16 --zero 1 --seq-parallel --mtp 1"
emits megatron '{"tp":8,"pp":16,"ep":16,"zero":1}' $V
for want in --multi-latent-attention '--kv-lora-rank 512' '--qk-pos-emb-head-dim 64' \
	'--moe-layer-freq ([0]*3+[1]*58)' '--mtp-num-layers 1' \
	'--decoder-first-pipeline-num-layers 3' '--decoder-last-pipeline-num-layers 2'; do
	grep -qxF -- "$want" "$T/out.$n.megatron" || fail "DeepSeek-V3 lacks $want"
done
emits sbatch '{"framework":"megatron","nodes":256}' $V
grep -qx 'set -f' "$T/out.$n.sbatch" || fail "the layer list would be globbed"

# The search's rows: row 1 by default, --row N the N-th, as --json ranks them.
"$PARLEARN" plan $L70 --json >"$T/search.json" || fail "plan --json"
for row in 1 2; do
	want=$(python3 -c 'import json,sys
c = json.load(open(sys.argv[1]))["candidates"][int(sys.argv[2]) - 1]["layout"]
print(json.dumps({k: c[k] for k in ("tp", "pp", "zero", "micro_batch")}))' \
	"$T/search.json" $row) || fail "no row $row in plan --json"
	emits megatron "$want" $L70 --row $row
done

# What a target cannot say is refused: one line with the reason, exit 1.
refused() {
	want=$1
	shift
	"$PARLEARN" plan "$@" -o "$T/refused" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 1 ] || fail "exit $rc, not 1: $*"
	[ -e "$T/refused" ] && fail "wrote a file: $*"
	grep -qF -- "$want" "$T/err" || fail "$*: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "$*: not one line: $(cat "$T/err")"
}
refused "pipeline stages are set in the model code" $L70 --dp 4 --tp 4 --pp 4 \
	--schedule 1f1b --zero 1 --micro-batch 1 --emit deepspeed
refused "no ZeRO-1" $B --emit torchtitan
refused "no model definition" --model gpt3-175b --gpus 64 --dp 8 --tp 8 \
	--pp 1 --zero 1 --seq-parallel --emit torchtitan
refused "expert parallelism is set in the model code" $E --zero 1 --emit deepspeed
refused "sliding-window" --model gpt-oss-120b --gpus 64 --dp 64 --tp 1 --pp 1 \
	--ep 8 --zero 1 --emit megatron
refused "multi-token prediction" $V --zero 3 --pp 1 --dp 256 --emit torchtitan
refused "unknown target 'nemo'" $A --emit nemo
refused "do not go together" $A --emit megatron --json
refused "-o needs --emit" $A
refused "ranked" $L70 --emit megatron --row 99999

# -o never follows a planted link, and leaves the target as it was.
echo keep >"$T/victim"
ln -s "$T/victim" "$T/link"
"$PARLEARN" plan $A --emit megatron -o "$T/link" 2>"$T/err" &&
	fail "-o followed a symbolic link"
[ "$(cat "$T/victim")" = keep ] || fail "the link's target changed"
grep -q "link" "$T/err" || fail "no reason for the refused link: $(cat "$T/err")"

# The checker is not a rubber stamp: a wrong name or choice fails it.
sed 's/^--bf16$/--bfloat16/' "$T/out.2.megatron" >"$T/bad"
$CHECK names megatron "$T/bad" "$FW" >/dev/null && fail "checker took --bfloat16"
sed 's/^mode = "selective"/mode = "partial"/' "$T/out.1.torchtitan" >"$T/bad"
$CHECK names torchtitan "$T/bad" "$FW" >/dev/null && fail "checker took mode partial"

# The batch script is valid shell, Slurm knows its options, and torchrun
# parses its launch line.
bash -n "$T/out.3.sbatch" || fail "the batch script is not valid bash"
if part_needs sbatch "sbatch options"; then
	# sbatch reads a configuration even for --help: a minimal one
	printf 'ClusterName=parlearn\nSlurmctldHost=localhost\n' >"$T/slurm.conf"
	SLURM_CONF=$T/slurm.conf sbatch --help >"$T/sbatch.help" 2>&1
	for o in $(sed -n 's/^#SBATCH \(--[a-z-]*\).*/\1/p' "$T/out.3.sbatch"); do
		grep -q -- " $o[=[ ]" "$T/sbatch.help" || fail "sbatch has no $o"
	done
fi
PY=${PYTHON:-python3}
"$PY" -c 'import torch' 2>/dev/null || PY=/usr/bin/python3
if "$PY" -c 'import torch.distributed.run' 2>/dev/null; then
	launch=$(sed -n 's/^launch=(torchrun \(.*\))$/\1/p' "$T/out.3.sbatch")
	[ -n "$launch" ] || fail "no torchrun line"
	"$PY" -c 'import shlex, sys
from torch.distributed.run import get_args_parser
a = get_args_parser().parse_args(shlex.split(sys.argv[1]) + ["train.py"])
assert (a.nnodes, int(a.nproc_per_node)) == ("8", 8), a' \
		"$(echo "$launch" | sed 's/\$SLURM_JOB_ID/1/; s/\$head_node/n1/')" ||
		fail "torchrun does not parse: $launch"
else
	part_skip "torchrun's parser" "python3-torch is not installed"
fi
test_done
