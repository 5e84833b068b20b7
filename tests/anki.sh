#!/bin/sh
# Anki both ways through the real binary. The exports follow Anki's
# documented text import (docs.ankiweb.net, Importing > Text Files > File
# Headers): header lines only at the top, no '#' at the start of a note's
# line, one stable GUID per note so that two notes with one front stay two;
# imports read Anki's own exports (GUID, note type, deck and tags columns,
# HTML); export -> import -> export gives the same file, a second import
# adds nothing, and a file without a front and a back is refused.
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-anki.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C
unset PARLEARN_CONTENT

fail() { echo "FAIL: $*" >&2; exit 1; }
tab=$(printf '\t')

# run STATUS CMD...: stdout in $tmp/out, stderr in $tmp/err.
run() {
	want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, want $want: $(cat "$tmp/err")"
}

# 1. Every course deck, as Anki reads it.
: >"$tmp/all-notes"
for d in phase-1 phase-2 phase-3 phase-4 phase-5; do
	run 0 "$PARLEARN" deck export "$d" -o "$tmp/$d.txt"
	f="$tmp/$d.txt"
	printf '#separator:tab\n#html:true\n#notetype:Basic\n#deck:parlearn::%s\n#guid column:1\n#deck column:2\n#tags column:5\n' \
		"$d" >"$tmp/want-head"
	head -7 "$f" | cmp -s - "$tmp/want-head" || fail "$d: header: $(head -7 "$f")"
	grep -q '^#columns' "$f" && fail "$d: a #columns line (Back empty in other languages)"
	tail -n +8 "$f" >"$tmp/notes"
	grep -q '^#' "$tmp/notes" && fail "$d: a note line starts with '#' (Anki drops it)"
	awk -F '\t' -v d="$d" 'NF != 5 { print "line " NR + 7 ": " NF " fields"; exit 1 }
		$2 != "parlearn::" d { print "deck " $2; exit 1 }
		$5 !~ /^parlearn / { print "tags " $5; exit 1 }' "$tmp/notes" ||
		fail "$d: not five fields per note"
	cat "$tmp/notes" >>"$tmp/all-notes"
done
# As many notes as the course has cards; one GUID per note, so Anki keeps
# them all, though two fronts are the same.
run 0 "$PARLEARN" deck list
cards=$(awk '$3 == "cards" || $3 == "card" { n += $2 } END { print n }' "$tmp/out")
n=$(wc -l <"$tmp/all-notes")
[ "$n" -eq "$cards" ] && [ "$n" -gt 80 ] || fail "$n notes exported, the course has $cards cards"
[ "$(cut -f1 "$tmp/all-notes" | sort -u | wc -l)" -eq "$n" ] || fail "GUIDs repeat"
dup=$(cut -f3 "$tmp/all-notes" | sort | uniq -d | head -1)
[ -n "$dup" ] || fail "the course no longer repeats a front; the test lost its case"
[ "$(grep -F "$tab$dup$tab" "$tmp/all-notes" | cut -f1 | sort -u | wc -l)" -eq 2 ] ||
	fail "the repeated front has not two GUIDs"

# 2. Export -> import -> export: the same notes; a second import adds nothing.
run 0 "$PARLEARN" deck import "$tmp/phase-1.txt" --name copy
p1=$(($(wc -l <"$tmp/phase-1.txt") - 7))
grep -q ": $p1 notes: $p1 added, 0 updated, 0 already there$" "$tmp/out" ||
	fail "import: $(cat "$tmp/out")"
run 0 "$PARLEARN" deck import "$tmp/phase-1.txt" --name copy
grep -q ": $p1 notes: 0 added, 0 updated, $p1 already there$" "$tmp/out" ||
	fail "second import: $(cat "$tmp/out")"
run 0 "$PARLEARN" deck export copy -o "$tmp/copy.txt"
sed 's/parlearn::copy/parlearn::phase-1/' "$tmp/copy.txt" | cmp -s - "$tmp/phase-1.txt" ||
	fail "export of the imported copy differs: $(diff "$tmp/phase-1.txt" "$tmp/copy.txt" | head -5)"
# The course's own decks are not for imports.
run 2 "$PARLEARN" deck import "$tmp/phase-2.txt"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "not one line: $(cat "$tmp/err")"
grep -q "^parlearn: deck: .*phase-2.txt:8:1: deck \"phase-2\" is the course's" "$tmp/err" ||
	fail "course deck: $(cat "$tmp/err")"

# 3. What Anki exports: GUID, note type and deck columns, HTML, tags.
printf '%s\n' '#separator:tab' '#html:true' '#guid column:1' \
	'#notetype column:2' '#deck column:3' '#tags column:6' >"$tmp/anki.txt"
printf 'ykDb?Q`1q2\tBasic\tPhysics::Waves\tWhat is <b>c</b>?\t<div>3e8 m/s</div><div>in vacuum</div>\tphysics speed\n' >>"$tmp/anki.txt"
printf '"j6,D}1#9"\tBasic\tPhysics::Waves\t#1 &lt;rule&gt;\tno &amp; never\t\n' >>"$tmp/anki.txt"
run 0 "$PARLEARN" deck import "$tmp/anki.txt"
grep -q ": 2 notes: 2 added" "$tmp/out" || fail "anki import: $(cat "$tmp/out")"
run 0 "$PARLEARN" review --list --all --json --deck Physics::Waves
grep -q '"front":	"What is c?"' "$tmp/out" || fail "front is not the Front field: $(cat "$tmp/out")"
grep -q '"back":	"3e8 m/s\\nin vacuum"' "$tmp/out" || fail "HTML not made text"
grep -q '"front":	"#1 <rule>"' "$tmp/out" || fail "entities or '#' lost"
grep -q '"front":	"ykDb' "$tmp/out" && fail "a GUID became a front"
run 0 "$PARLEARN" deck export Physics::Waves -o "$tmp/w1.txt"
grep -q "^ykDb?Q\`1q2${tab}parlearn::Physics::Waves${tab}What is c?${tab}3e8 m/s<br>in vacuum${tab}physics speed\$" "$tmp/w1.txt" ||
	fail "GUID, tags or HTML not kept: $(cat "$tmp/w1.txt")"
grep -q "^j6,D}1#9${tab}.*${tab}\"#1 &lt;rule&gt;\"${tab}" "$tmp/w1.txt" ||
	fail "leading '#' not quoted: $(cat "$tmp/w1.txt")"
# Into another profile and out again: the same file.
run 0 "$PARLEARN" --profile other deck import "$tmp/w1.txt"
run 0 "$PARLEARN" --profile other deck export Physics::Waves -o "$tmp/w2.txt"
cmp -s "$tmp/w1.txt" "$tmp/w2.txt" || fail "round trip: $(diff "$tmp/w1.txt" "$tmp/w2.txt")"
# An edited note (same GUID) updates its card; from standard input.
sed 's/no &amp; never/always/' "$tmp/anki.txt" >"$tmp/edited.txt"
"$PARLEARN" deck import - <"$tmp/edited.txt" >"$tmp/out" 2>"$tmp/err" ||
	fail "import from stdin: $(cat "$tmp/err")"
grep -q "^-: 2 notes: 0 added, 1 updated, 1 already there$" "$tmp/out" ||
	fail "edited import: $(cat "$tmp/out")"

# 4. Refused, one line, exit 2: no front and back, no deck.
printf '#separator:tab\n#guid column:1\n#deck column:2\ng1\tmine\tonly a front\n' >"$tmp/one.txt"
run 2 "$PARLEARN" deck import "$tmp/one.txt"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "not one line: $(cat "$tmp/err")"
grep -q "one.txt:4:1: a note needs a front and a back; this line has 1 field" "$tmp/err" ||
	fail "no front/back: $(cat "$tmp/err")"
printf 'front\tback\n' >"$tmp/nodeck.txt"
run 2 "$PARLEARN" deck import "$tmp/nodeck.txt"
grep -q "nodeck.txt:1:1: the note names no deck .*--name NAME" "$tmp/err" ||
	fail "no deck: $(cat "$tmp/err")"
run 0 "$PARLEARN" deck import "$tmp/nodeck.txt" --name plain
run 0 "$PARLEARN" deck list
grep -q "^Physics::Waves  *2 cards  (yours)$" "$tmp/out" || fail "deck list: $(cat "$tmp/out")"
echo "anki.sh: all checks passed"
exit 0
