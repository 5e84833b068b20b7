#!/bin/sh
# Conventions every command keeps, checked on the real binary for every
# command of its table: -h, --help and `parlearn help CMD` print the same
# help on stdout and exit 0; no help line is wider than 80 columns; a bad
# option, a missing option argument and an extra argument are each one
# line, "parlearn: CMD: message (try 'parlearn CMD --help')", exit 1.
# Then plan's explanations: an empty search, an unknown preset, what it
# assumed.
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-help.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C
unset PARLEARN_CONTENT

fail() { echo "FAIL: $*" >&2; exit 1; }

# run STATUS CMD...: stdout in $tmp/out, stderr in $tmp/err.
run() {
	want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, want $want: $(cat "$tmp/err")"
}

# one_line CMD REGEX: stderr is exactly one line matching REGEX.
one_line() {
	[ "$(wc -l <"$tmp/err")" -eq 1 ] ||
		fail "$1: not one line on stderr: $(cat "$tmp/err")"
	grep -Eq "$2" "$tmp/err" || fail "$1: $(cat "$tmp/err")"
}

# wide FILE: the lines of FILE wider than 80 columns.
wide() {
	awk '{ gsub(/\t/, "        "); if (length($0) > 80) print FILENAME ": " $0 }' "$1"
}

commands=$("$PARLEARN" complete -- "")
[ "$(echo "$commands" | wc -w)" -ge 12 ] || fail "commands: $commands"
run 0 "$PARLEARN" --help
cp "$tmp/out" "$tmp/global"
[ -z "$(wide "$tmp/global")" ] || fail "parlearn --help: $(wide "$tmp/global")"
run 0 "$PARLEARN" -h
cmp -s "$tmp/out" "$tmp/global" || fail "-h and --help differ"
run 0 "$PARLEARN" help
cmp -s "$tmp/out" "$tmp/global" || fail "parlearn help differs from --help"
for c in $commands; do
	grep -q "^  $c " "$tmp/global" || fail "parlearn --help does not list $c"
	run 0 "$PARLEARN" "$c" --help
	[ -s "$tmp/out" ] && [ ! -s "$tmp/err" ] || fail "$c --help: nothing on stdout"
	grep -q "^Usage: parlearn $c" "$tmp/out" || [ "$c" = help ] ||
		fail "$c --help has no usage line"
	cp "$tmp/out" "$tmp/help-$c"
	[ -z "$(wide "$tmp/help-$c")" ] || fail "too wide: $(wide "$tmp/help-$c")"
	run 0 "$PARLEARN" "$c" -h
	cmp -s "$tmp/out" "$tmp/help-$c" || fail "$c -h differs from $c --help"
	run 0 "$PARLEARN" help "$c"
	cmp -s "$tmp/out" "$tmp/help-$c" || fail "help $c differs from $c --help"
	[ "$c" = help ] && continue
	hint="\\(try 'parlearn $c( [a-z]+)? --help'\\)\$"
	run 1 "$PARLEARN" "$c" --bogus
	one_line "$c --bogus" "^parlearn: $c: unrecognized option '--bogus' $hint"
	run 1 "$PARLEARN" "$c" -Z
	one_line "$c -Z" "^parlearn: $c: unrecognized option '-Z' $hint"
done
# Sub-commands speak under their own name.
run 1 "$PARLEARN" lab status
one_line "lab status" "^parlearn: lab status: which directory\\? \\(try 'parlearn lab status --help'\\)$"
run 0 "$PARLEARN" lab status --help
cmp -s "$tmp/out" "$tmp/help-lab" || fail "lab status --help differs from lab --help"
run 1 "$PARLEARN" plan --gpus
one_line "plan --gpus" "^parlearn: plan: option '--gpus' requires an argument \\(try"
run 1 "$PARLEARN" list --json=yes
one_line "list --json=yes" "^parlearn: list: option '--json' does not take an argument"
run 1 "$PARLEARN" list extra
one_line "list extra" "^parlearn: list: unexpected argument 'extra' \\(try"
run 1 "$PARLEARN" help nothing
one_line "help nothing" "^parlearn: help: no command called 'nothing'"
run 1 "$PARLEARN" --bogus
one_line "--bogus" "^parlearn: unrecognized option '--bogus' \\(try 'parlearn --help'\\)$"
run 1 "$PARLEARN" frobnicate
one_line "frobnicate" "^parlearn: unknown command 'frobnicate' \\(try 'parlearn --help'\\)$"

# plan: an empty search says why, and where the nearest layouts are.
run 0 "$PARLEARN" plan --model llama2-70b --gpus 63
grep -q "^Global batch 1024 samples (the model's) x sequence 4096 tokens" "$tmp/out" ||
	fail "plan does not say what it assumed: $(cat "$tmp/out")"
grep -q "^No layout for 63 GPUs:$" "$tmp/out" || fail "no explanation: $(cat "$tmp/out")"
grep -q "^  - the global batch 1024 does not divide by DP 63," "$tmp/out" ||
	fail "no batch reason: $(cat "$tmp/out")"
grep -q "^Nearest GPU counts with layouts: --gpus [0-9]* or --gpus 64\\.$" "$tmp/out" ||
	fail "no nearest GPU counts: $(cat "$tmp/out")"
run 0 "$PARLEARN" plan --model llama2-70b --gpus 63 --json
grep -q '"code":	"batch_indivisible"' "$tmp/out" || fail "no reason code in JSON"
run 0 "$PARLEARN" plan --model llama2-7b --gpus 8 --dp 8 --tp 1 --pp 1 --global-batch 64 --seq 2048
grep -q "^Global batch 64 samples (--global-batch) x sequence 2048 tokens (--seq)" "$tmp/out" ||
	fail "plan one layout: $(cat "$tmp/out")"
run 1 "$PARLEARN" plan --model llama9
one_line "unknown model" "^parlearn: plan: --model: unknown model \"llama9\"; model presets: gpt3-175b, llama2-7b, .*llama2-70b"
run 1 "$PARLEARN" plan --gpu b300
one_line "unknown GPU" "^parlearn: plan: --gpu: unknown GPU \"b300\"; GPUs: v100-32gb, .*h100-80gb"
echo "help.sh: $(echo "$commands" | wc -w) commands checked"
exit 0
