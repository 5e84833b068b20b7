#!/bin/sh
# Arguments are range-checked before anything is computed with them
# (issue 15, item 6): a billion microbatches overflowed a product in the
# simulator, and a bandwidth of 1e-300 GB/s gave step times of 1e300 s.
# Each is refused in one line that gives the allowed range.
set -u

PARLEARN=${PARLEARN:-${top_builddir:-.}/parlearn}
T=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-ranges.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
export HOME="$T" XDG_DATA_HOME="$T/data" LC_ALL=C
unset PARLEARN_CONTENT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# refused WANT ARGS...: a non-zero exit, one line on stderr holding WANT,
# nothing on stdout.
refused() {
	want=$1
	shift
	"$PARLEARN" "$@" >"$T/out" 2>"$T/err" && fail "accepted: $*"
	[ -s "$T/out" ] && fail "printed results for: $*: $(head -3 "$T/out")"
	grep -qF -- "$want" "$T/err" || fail "$*: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "$*: not one line: $(cat "$T/err")"
}

refused "between 1 and 16" trace --mode dp --microbatches 1000000000
refused "between 1 and 16" trace --mode pp --microbatches 2147483647
refused "between 1 and 4" trace --mode pp --schedule interleaved --virtual-stages 1000000000
refused "must be between 0.001 and 1e+06" plan --model llama2-7b --gpus 8 --intra-bw 1e-300
refused "must be between 0.001 and 1e+06" plan --model llama2-7b --gpus 8 --inter-bw 1e12
refused "must be between 0.001 and 1e+06" plan --model llama2-7b --gpus 8 --tp 1 --pp 1 \
	--dp 8 --inter-bw 1e-300
# A mixture of experts needs its router's top-k and its experts' width.
refused "top_k from 1 to the experts (8)" plan --model llama3-8b --gpus 8 --experts 8
refused "top_k from 1 to the experts (8)" plan --model llama3-8b --gpus 8 \
	--experts 8 --top-k 9 --expert-ffn 14336
refused "need experts" plan --model llama3-8b --gpus 8 --top-k 2
refused "must be between 0 and 4096" plan --model mixtral-8x7b --gpus 8 --experts 5000
refused "has none" plan --model llama3-8b --dp 8 --tp 1 --pp 1 --ep 2
refused "Megatron-LM does not run this layout (it runs on: PyTorch FSDP2)" \
	plan --model mixtral-8x7b --dp 8 --tp 1 --pp 1 --ep 8 --zero 3 \
	--framework megatron
refused "does not divide the 8 experts" plan --model mixtral-8x7b --dp 16 \
	--tp 1 --pp 1 --ep 16
refused "must divide TP / ETP x DP x CP (2)" plan --model mixtral-8x7b --dp 2 --tp 4 \
	--pp 1 --ep 4
"$PARLEARN" plan --model llama3-8b --gpus 8 --experts 8 --top-k 2 \
	--expert-ffn 14336 >/dev/null || fail "a custom mixture of experts"
"$PARLEARN" trace --mode pp --microbatches 16 >/dev/null || fail "16 microbatches"
"$PARLEARN" plan --model llama2-7b --gpus 8 --intra-bw 0.001 >/dev/null ||
	fail "the lowest bandwidth in range"
# ZB-H1 and DualPipe (costmodel_sched.c): the stages and micro-batches
# they need, and no framework runs them (framework.c).
refused "DualPipe needs an even PP of 2 or more (PP is 3)" plan \
	--model llama3-70b --gpus 48 --dp 2 --tp 8 --pp 3 --schedule dualpipe
refused "at least 2 x PP = 8 (there are 6)" plan --model llama3-70b \
	--gpus 64 --dp 2 --tp 8 --pp 4 --schedule dualpipe --global-batch 12
refused "at least 2 x PP = 8 (there are 9)" plan --model llama3-70b \
	--gpus 64 --dp 2 --tp 8 --pp 4 --schedule dualpipe --global-batch 18
refused "ZB-H1 needs PP >= 2 (PP is 1)" plan --model llama3-8b --gpus 8 \
	--dp 8 --tp 1 --pp 1 --schedule zb-h1
refused "Megatron-LM does not run this layout: the zb-h1 schedule" plan \
	--model llama3-70b --gpus 64 --dp 2 --tp 8 --pp 4 --schedule zb-h1 \
	--framework megatron
echo ok
