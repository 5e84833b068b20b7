#!/bin/sh
# Nothing untrusted reaches a terminal raw (issue 15, item 1). Every path
# that prints text someone else chose is run with OSC 52 (set the
# clipboard), OSC 0 (set the title), CSI 2J (clear the screen) and CSI 6n
# (make the terminal type into our input); the raw bytes written to stdout
# and stderr must hold no ESC, BEL or C1 CSI, and the text must be shown
# ("^[") rather than dropped.
set -u

PARLEARN=${PARLEARN:-${top_builddir:-.}/parlearn}
top_srcdir=${top_srcdir:-.}
T=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-esc.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

. "$top_srcdir/tests/testlib.sh"

export HOME="$T/home" XDG_DATA_HOME="$T/data" LC_ALL=C.UTF-8
unset PARLEARN_CONTENT
mkdir -p "$HOME"
src=$(cd "$top_srcdir" && pwd)

ESC=$(printf '\033')
BEL=$(printf '\007')
OSC52="${ESC}]52;c;cHduZWQ=${BEL}"
OSC0="${ESC}]0;pwned${BEL}"
CLS="${ESC}[2J"
DSR="${ESC}[6n"
ALL="$OSC52$OSC0$CLS$DSR"
n=0

# clean FILE WHAT [hidden]: no raw ESC, BEL or C1 CSI; the payload is
# visible unless the message need not show it.
clean() {
	n=$((n + 1))
	LC_ALL=C grep -q "$ESC" "$1" && fail "$2: raw ESC written: $(od -c "$1" | head -5)"
	LC_ALL=C grep -q "$BEL" "$1" && fail "$2: raw BEL written"
	LC_ALL=C grep -q "$(printf '\302\233')" "$1" && fail "$2: raw C1 CSI written"
	[ "${3:-}" = hidden ] || grep -qF '^[' "$1" ||
		fail "$2: the escape is not shown as ^[: $(cat "$1")"
}

# 1. File names in a course directory: start-up warnings, list,
#    check-content.
C="$T/course"
mkdir -p "$C"
cp -R "$src/lessons" "$src/flashcards" "$src/labs" "$C/"
printf '{ broken' >"$C/lessons/1-three-axes/$ALL.json"
"$PARLEARN" --content "$C" list >"$T/list.out" 2>"$T/list.err"
clean "$T/list.err" "list warning"
"$PARLEARN" --content "$C" </dev/null >"$T/tui.out" 2>"$T/tui.err"
clean "$T/tui.err" "start-up warning"
"$PARLEARN" check-content "$C" >"$T/cc.out" 2>"$T/cc.err"
clean "$T/cc.err" "check-content file name"
rm "$C/lessons/1-three-axes/$ALL.json"

# 2. Values echoed in errors: a lesson's engine model, a scenario's
#    start.gpu, a lab script's step kind.
# The first engine block's model, and the gpu of the scenario's start.
f="$C/lessons/3-cost-models/12-bubble-35.json"
awk -v m="m$ALL" -v g="g$ALL" '
	!dm && /"model": "/ { sub(/"model": "[^"]*"/, "\"model\": \"" m "\""); dm = 1 }
	/"start": \{/ { st = 1 }
	st && !dg && /"gpu": "/ { sub(/"gpu": "[^"]*"/, "\"gpu\": \"" g "\""); dg = 1 }
	{ print }' "$f" >"$T/l.json" && mv "$T/l.json" "$f"
"$PARLEARN" check-content "$C" >"$T/cc2.out" 2>"$T/cc2.err"
[ $? -eq 2 ] || fail "check-content accepted a bad model"
clean "$T/cc2.err" "engine model / start.gpu"
grep -q 'm^\[\]52' "$T/cc2.err" || fail "engine model not named: $(cat "$T/cc2.err")"
grep -q 'g^\[\]52' "$T/cc2.err" || fail "start.gpu not named: $(cat "$T/cc2.err")"
printf '{"title": "t", "steps": [{"kind": "%s", "drop": "drop-01", "minutes": 5}]}\n' \
	"$ALL" >"$T/kind.json"
"$PARLEARN" lab host "$T/lab0" --script "$T/kind.json" --no-dashboard \
	>"$T/kind.out" 2>"$T/kind.err"
[ $? -eq 2 ] || fail "lab host accepted a bad step kind"
clean "$T/kind.err" "lab step kind"

# A GPU's name in a hardware file given to plan, in its headline.
sed "0,/\"name\": \"v100-32gb\"/s//\"name\": \"v100\\\\u001b]0;pwned\\\\u0007\\\\u001b[2J\\\\u001b[6n\"/" \
	"$src/data/gpus.json" >"$T/hw.json"
grep -q 'v100\\u001b' "$T/hw.json" || fail "the hostile hardware file was not made"
# Refused where it is read (exit 2, the file and the key named), and the
# refusal itself shows no raw control byte.
"$PARLEARN" plan --hardware "$T/hw.json" --gpu "$(printf 'v100%s' "$OSC0$CLS$DSR")" \
	--model llama2-7b --gpus 8 --tp 8 --pp 1 --dp 1 >"$T/hw.out" 2>"$T/hw.err"
[ $? -eq 2 ] || fail "plan --hardware took a GPU name with control characters"
grep -q 'without control characters' "$T/hw.err" ||
	fail "plan --hardware: $(cat "$T/hw.err")"
clean "$T/hw.err" "plan --hardware GPU name" hidden
[ -s "$T/hw.out" ] && fail "plan --hardware printed results"

# 3. A student's result file name in the drop box, printed by the
#    instructor's lab status and lab report (here the host plants them).
LAB="$T/lab"
"$PARLEARN" lab host "$LAB" --script "$src/labs/short-check.json" \
	--no-dashboard >/dev/null 2>&1 || fail "lab host"
printf '{}' >"$LAB/results/$ALL@p.json"
printf '{}' >"$LAB/results/x$ALL.json"
"$PARLEARN" lab status "$LAB" >"$T/st.out" 2>"$T/st.err"
clean "$T/st.err" "lab status result name"
"$PARLEARN" lab report "$LAB" >"$T/rp.out" 2>"$T/rp.err"
clean "$T/rp.err" "lab report result name"

# ... and on the dashboard, where curses itself shows C0 controls as "^["
# but sends a bidi override (U+202E), a C1 CSI and bytes that are not UTF-8
# on as they are. The raw bytes the terminal is sent are read with script.
rm -f "$LAB/results/"*
BIDI=$(printf '\342\200\256') C1=$(printf '\302\233') BAD=$(printf '\377')
printf '{}' >"$LAB/results/x${BIDI}y${C1}z${BAD}w$CLS$BEL@p.json"
if part_needs script "the dashboard's raw output"; then
	mkfifo "$T/keys"
	TERM=xterm-256color script -qfec "stty cols 120 rows 30; '$PARLEARN' lab host '$LAB' --script '$src/labs/short-check.json'" \
		"$T/dash.raw" <"$T/keys" >/dev/null 2>&1 &
	dash=$!
	exec 3>"$T/keys"
	wait_until 10 grep -q 'skipped' "$T/dash.raw" ||
		fail "the dashboard shows no skipped file: $(od -c "$T/dash.raw" | tail -20)"
	printf q >&3
	exec 3>&-
	wait "$dash" || fail "the dashboard did not end with 0"
	n=$((n + 1))
	for b in "$BIDI" "$C1" "$BAD"; do
		LC_ALL=C grep -q "$b" "$T/dash.raw" &&
			fail "dashboard: raw $(printf '%s' "$b" | od -An -tx1) sent: $(LC_ALL=C grep -ao 'skipped.\{0,90\}' "$T/dash.raw" | od -c)"
	done
	grep -qF 'x\u202ey\u009bz\xffw^[[2J^G@p.json' "$T/dash.raw" ||
		fail "dashboard: the name is not shown as text: $(LC_ALL=C grep -ao 'skipped.\{0,90\}' "$T/dash.raw" | od -c)"
fi

# ... and inside a result file: a profile (named in the file name too, as
# submit names it) and an answer id (lab_id_valid) with a C1 CSI and a
# bidi override are refused as the file is read, so that no --json
# document, which cJSON escapes only below U+0020, carries them.
rm -f "$LAB/results/"*
"$PARLEARN" --profile s1 lab submit "$LAB" --step 1 --question q1 --correct 1 \
	>/dev/null 2>&1 || fail "lab submit"
u=$(id -un)
[ -f "$LAB/results/$u@s1.json" ] || fail "no result file: $(ls "$LAB/results")"
sed 's/"profile":"s1"/"profile":"s\\u009b[2J\\u202ex"/' "$LAB/results/$u@s1.json" \
	>"$LAB/results/$u@s%C2%9B%5B2J%E2%80%AEx.json"
sed 's/"profile":"s1"/"profile":"s2"/; s/"id":"q1"/"id":"q\\u009b[2J\\u202e1"/' \
	"$LAB/results/$u@s1.json" >"$LAB/results/$u@s2.json"
rm "$LAB/results/$u@s1.json"
for f in status:--json report:--format=json report:--format=csv status:; do
	"$PARLEARN" lab "${f%%:*}" "$LAB" ${f#*:} >"$T/lj.out" 2>"$T/lj.err"
	n=$((n + 1))
	for b in "$BIDI" "$C1"; do
		LC_ALL=C grep -q "$b" "$T/lj.out" "$T/lj.err" &&
			fail "lab $f: a raw $(printf '%s' "$b" | od -An -tx1): $(cat "$T/lj.out" "$T/lj.err")"
	done
	grep -q 'must be a short printable name' "$T/lj.err" ||
		fail "lab $f: the hostile profile was not refused: $(cat "$T/lj.err")"
	grep -q 'a bad or repeated id' "$T/lj.err" ||
		fail "lab $f: the hostile id was not refused: $(cat "$T/lj.err")"
done

# 4. Text stored by import and deck import: refused on the way in, with
#    the name shown safely.
printf 'front\tback\n' >"$T/d.tsv"
"$PARLEARN" deck import "$T/d.tsv" --name "d$ALL" >"$T/di.out" 2>"$T/di.err"
[ $? -eq 2 ] || fail "deck import took a name with escapes"
clean "$T/di.err" "deck import --name"
printf '{"format": "parlearn-profile", "version": 1, "profile": {"name": "p%s", "created": 1}, "drops": [], "answers": [], "settings": []}\n' \
	"$(printf '%s' "$ALL" | sed 's/\033/\\u001b/g; s/\007/\\u0007/g')" >"$T/p.json"
"$PARLEARN" import "$T/p.json" >"$T/im.out" 2>"$T/im.err"
[ $? -eq 2 ] || fail "import took a profile name with escapes"
clean "$T/im.err" "import profile name" hidden
grep -q 'profile.name' "$T/im.err" || fail "import refusal names no path: $(cat "$T/im.err")"
"$PARLEARN" import --as "q$ALL" "$T/p.json" >"$T/im2.out" 2>"$T/im2.err"
[ $? -ne 0 ] || fail "import --as took a name with escapes"
clean "$T/im2.err" "import --as" hidden

# A measured step's library, from a file replayed with trace --from.
"$PARLEARN" trace --json --gpus 2 --mode pp >"$T/t.json" || fail "trace --json"
sed 's/"schema":.*/&\
"measured": {"processes": 2, "hosts": 1, "library": "x\\u001b]0;pwned\\u0007\\u001b[2J\\u001b[6n"},/' \
	"$T/t.json" >"$T/th.json"
grep -q '"library"' "$T/th.json" || fail "the hostile trace was not made"
"$PARLEARN" trace --from "$T/th.json" </dev/null >"$T/tf.out" 2>"$T/tf.err" ||
	fail "trace --from: $(cat "$T/tf.err")"
clean "$T/tf.out" "trace --from measured library"

# ... and text that is in a database already (written by an older
# parlearn) is shown safely by deck list and export --format csv.
if command -v sqlite3 >/dev/null 2>&1; then
	"$PARLEARN" deck import "$T/d.tsv" --name plain >/dev/null ||
		fail "deck import"
	db="$XDG_DATA_HOME/parlearn/progress.db"
	sqlite3 "$db" "UPDATE user_cards SET deck = 'd' || char(27) || ']52;c;cHduZWQ=' || char(7) || char(27) || '[2J' || char(27) || '[6n';
		INSERT INTO settings (profile_id, key, value) SELECT id, 'k' || char(27) || ']0;x' || char(7), '=1+' || char(27) || '[6n' FROM profiles;" ||
		fail "sqlite3"
	"$PARLEARN" deck list >"$T/dl.out" 2>"$T/dl.err"
	clean "$T/dl.out" "deck list"
	sqlite3 "$db" "UPDATE user_cards SET front = 'f' || char(27) || ']0;t' || char(7);" ||
		fail "sqlite3"
	"$PARLEARN" deck export "$(printf 'd\033]52;c;cHduZWQ=\007\033[2J\033[6n')" \
		>"$T/dx.out" 2>"$T/dx.err" || fail "deck export of a stored deck"
	clean "$T/dx.out" "deck export"
	"$PARLEARN" review --list --all >"$T/rv.out" 2>"$T/rv.err"
	clean "$T/rv.out" "review --list"
	"$PARLEARN" export --format csv >"$T/csv.out" 2>"$T/csv.err"
	clean "$T/csv.out" "export --format csv"
	grep -q "\"'=1+^\[\[6n\"" "$T/csv.out" || fail "formula not defused: $(cat "$T/csv.out")"
elif [ "${CI:-}" = true ]; then
	fail "sqlite3 is missing under CI"
else
	echo "SKIP: sqlite3 missing; stored-text part not run" >&2
	exit 77
fi
# An error that quotes an argument stays on one line, its newline shown.
"$PARLEARN" plan --gpus 8 --model "$(printf 'evil\nname')" >"$T/nl.out" 2>"$T/nl.err"
[ $? -ne 0 ] || fail "plan took an unknown model"
[ "$(wc -l <"$T/nl.err")" -eq 1 ] || fail "error not on one line: $(cat "$T/nl.err")"
grep -qF 'evil^Jname' "$T/nl.err" || fail "newline not shown: $(cat "$T/nl.err")"
n=$((n + 1))
echo "ok: $n paths print escapes as text"
test_done
