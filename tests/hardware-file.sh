#!/bin/sh
# --hardware FILE (issue 25, item 5): a user's own GPU, node and network in
# data/gpus.json's form prices exactly as the same catalog entry does, and
# a bad file is refused in one line at FILE:LINE:COL with exit 2.
set -u

PARLEARN=${PARLEARN:-${top_builddir:-.}/parlearn}
T=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-hwfile.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
export HOME="$T" XDG_DATA_HOME="$T/data" LC_ALL=C
unset PARLEARN_CONTENT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# h100 NAME: data/gpus.json's H100 entry under another name, one line a key.
h100() {
	cat <<JSON
{
  "name": "$1", "label": "my H100",
  "memory_mib": 81559, "peak_tflops": 989.4, "fp32_tflops": 67,
  "hbm_gbps": 3350, "nvlink_gbps": 450, "inter_gbps": 50,
  "intra_latency_us": 3.4, "inter_latency_us": 14, "gemm_efficiency": 0.68,
  "flash2_ratio": 0.52, "nvlink_efficiency": 0.82, "nvls_gbps": 480
}
JSON
}

PLAN="plan --model llama2-7b --gpus 16 --tp 2 --pp 1 --dp 8 --zero 1 --json"
# The figures a priced plan gives, without the names that differ.
figures() {
	sed -E 's/"(gpu|hardware|label|name)":[[:space:]]*"[^"]*"//g' "$1"
}

h100 mine >"$T/one.json"
$PARLEARN $PLAN --gpu h100-80gb >"$T/cat.out" || fail "catalog H100"
$PARLEARN $PLAN --hardware "$T/one.json" >"$T/own.out" ||
	fail "one-entry file: $(cat "$T/own.out")"
grep -q '"step_s"\|step' "$T/own.out" || fail "no step time: $(head -c 300 "$T/own.out")"
[ "$(figures "$T/cat.out")" = "$(figures "$T/own.out")" ] ||
	fail "one-entry file prices differently from h100-80gb"

# The gpus.json form: --gpu picks an entry of the file.
{
	echo '{"gpus": ['
	h100 other | sed 's/"peak_tflops": 989.4/"peak_tflops": 100/'
	echo ','
	h100 mine
	echo ']}'
} >"$T/list.json"
$PARLEARN $PLAN --hardware "$T/list.json" --gpu mine >"$T/list.out" ||
	fail "list file: $(cat "$T/list.out")"
[ "$(figures "$T/cat.out")" = "$(figures "$T/list.out")" ] ||
	fail "list file's entry prices differently from h100-80gb"
$PARLEARN $PLAN --hardware "$T/list.json" --gpu other >"$T/slow.out" ||
	fail "list file, other entry"
[ "$(figures "$T/cat.out")" != "$(figures "$T/slow.out")" ] ||
	fail "a 100-TFLOP/s entry priced as an H100"

# bad NAME LINE COL WANT ARGS...: exit 2, one line "FILE:LINE:COL: ..."
# holding WANT, nothing on stdout.
bad() {
	f="$T/$1.json"
	pos="$f:$2:$3: "
	want=$4
	shift 4
	$PARLEARN $PLAN --hardware "$f" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || fail "$f: exit $rc, not 2: $(cat "$T/err")"
	[ -s "$T/out" ] && fail "$f: printed results"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "$f: not one line: $(cat "$T/err")"
	grep -qF -- "$pos" "$T/err" || fail "$f: no $pos: $(cat "$T/err")"
	grep -qF -- "$want" "$T/err" || fail "$f: no \"$want\": $(cat "$T/err")"
}

h100 x | grep -v hbm_gbps >"$T/missing.json"
bad missing 1 1 "hbm_gbps"
h100 x | sed 's/"nvlink_gbps": 450/"nvlink_gbps": "fast"/' >"$T/type.json"
bad type 4 36 "nvlink_gbps"
h100 x | sed 's/"inter_gbps": 50/"inter_gbps": -50/' >"$T/negative.json"
bad negative 4 55 "inter_gbps"
# a C1 CSI in a name: --json would carry it raw (cJSON escapes C0 only)
h100 'h\u009bx' >"$T/csi.json"
bad csi 2 11 "without control characters" --json
h100 x | sed 's/"fp32_tflops": 67,/"fp32_tflops": 67/' >"$T/syntax.json"
bad syntax 4 3 "JSON syntax error"
{ echo '{"gpus": ['; h100 a; echo ','; h100 b; echo ']}'; } >"$T/two.json"
bad two 1 10 "name one with --gpu"
bad two 1 10 "no GPU named" --gpu c
[ -s "$T/none.json" ] && fail "none.json exists"
$PARLEARN $PLAN --hardware "$T/none.json" >/dev/null 2>"$T/err"
[ $? = 2 ] || fail "a missing file: not exit 2"
grep -qF "$T/none.json" "$T/err" || fail "a missing file unnamed"
echo ok
