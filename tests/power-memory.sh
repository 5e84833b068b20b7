#!/bin/sh
# --power-limit W and --gpu-memory GiB on any GPU (issue 25, item 5).
# A cap below the GPU's TDP (gpus.json's tdp_w) lowers the sustained clock
# as the cap's cube root (dynamic power ~ C V^2 f with V ~ f: see
# hw_power_clock), so a product-bound term takes (TDP/cap)^(1/3) longer;
# at or above the TDP nothing changes. --gpu-memory replaces the HBM size.
set -u

PARLEARN=${PARLEARN:-${top_builddir:-.}/parlearn}
T=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-power.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
export HOME="$T" XDG_DATA_HOME="$T/data" LC_ALL=C
unset PARLEARN_CONTENT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

PLAN="plan --model llama2-7b --gpus 16 --tp 2 --pp 1 --dp 8 --zero 1 --json"
# field FILE KEY: the first number KEY holds in a plan's JSON.
field() {
	sed -n "s/.*\"$2\":[[:space:]]*\([-0-9.e+]*\).*/\1/p" "$1" | head -1
}

$PARLEARN $PLAN >"$T/full" || fail "plan"
$PARLEARN $PLAN --power-limit 350 >"$T/half" || fail "--power-limit 350"
$PARLEARN $PLAN --power-limit 700 >"$T/tdp" || fail "--power-limit 700"
$PARLEARN $PLAN --power-limit 900 >"$T/over" || fail "--power-limit 900"

a=$(field "$T/full" matmuls) b=$(field "$T/half" matmuls)
[ -n "$a" ] && [ -n "$b" ] || fail "no matmuls time"
# H100 SXM's 700 W (NVIDIA datasheet; Llama 3 paper 3.3.1) halved: 2^(1/3).
awk -v a="$a" -v b="$b" 'BEGIN { r = b / a; want = exp(log(2) / 3);
	exit !(r > want * 0.99 && r < want * 1.01) }' ||
	fail "matmuls at 350 W: $b s against $a s at 700 W, want x 1.26"
cmp -s "$T/full" "$T/tdp" || fail "a cap at the TDP changed the plan"
cmp -s "$T/full" "$T/over" || fail "a cap above the TDP changed the plan"
[ "$(field "$T/full" gpu_memory_bytes)" = "$(field "$T/half" gpu_memory_bytes)" ] ||
	fail "a power cap changed the memory"

$PARLEARN $PLAN --gpu-memory 96 >"$T/mem" || fail "--gpu-memory 96"
[ "$(field "$T/mem" gpu_memory_bytes)" = 103079215104 ] ||
	fail "--gpu-memory 96: $(field "$T/mem" gpu_memory_bytes) bytes"
[ "$(field "$T/full" step)" = "$(field "$T/mem" step)" ] ||
	fail "more memory changed a fitting plan's step time"

# A GPU whose TDP is unknown cannot be capped.
cat >"$T/gpu.json" <<JSON
{ "name": "x", "label": "x", "memory_mib": 81559, "peak_tflops": 989.4,
  "fp32_tflops": 67, "hbm_gbps": 3350, "nvlink_gbps": 450, "inter_gbps": 50,
  "intra_latency_us": 3.4, "inter_latency_us": 14, "gemm_efficiency": 0.68 }
JSON
$PARLEARN $PLAN --hardware "$T/gpu.json" --power-limit 350 >"$T/out" 2>"$T/err" &&
	fail "capped a GPU without a TDP"
grep -qF "TDP" "$T/err" || fail "no reason: $(cat "$T/err")"
echo ok
