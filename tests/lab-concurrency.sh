#!/bin/sh
# A hosted lab with 30 students submitting at once (processes, one profile
# each): every result arrives, none is lost, files are private, and a
# planted symlink or garbage file in the drop box is refused. Run as root
# with useradd, the same again with real Unix users, who must not be able
# to read, list or overwrite one another's results.
set -u

PARLEARN=${PARLEARN:-${top_builddir:-.}/parlearn}
top_srcdir=${top_srcdir:-.}
T=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-lab.XXXXXX")
USERS=""

cleanup() {
	for u in $USERS; do
		userdel -r "$u" >/dev/null 2>&1 || userdel "$u" >/dev/null 2>&1
	done
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
. "$top_srcdir/tests/testlib.sh"

export HOME="$T/home" XDG_DATA_HOME="$T/data" LC_ALL=C
unset PARLEARN_CONTENT
mkdir -p "$HOME"
chmod 755 "$T"
LAB="$T/lab"
me=$(id -un)

# check-content validates labs/*.json with located errors.
mkdir -p "$T/content/labs"
ln -s "$(cd "$top_srcdir" && pwd)/lessons" "$T/content/lessons"
printf '{\n  "title": "x",\n  "steps": [,]\n}\n' >"$T/content/labs/bad.json"
printf '{"title": "x", "steps": [{"kind": "drop", "drop": "drop-77", "minutes": 5}]}\n' \
	>"$T/content/labs/missing.json"
"$PARLEARN" check-content "$T/content" >"$T/cc.out" 2>"$T/cc.err" &&
	fail "check-content passed broken labs"
grep -q "labs/bad.json:3:13: " "$T/cc.err" || fail "check-content: $(cat "$T/cc.err")"
grep -q 'labs/missing.json: steps\[0\].drop: no drop with id "drop-77"' "$T/cc.err" ||
	fail "check-content: $(cat "$T/cc.err")"
grep -q "2 labs, 2 problems" "$T/cc.out" || fail "check-content: $(cat "$T/cc.out")"

"$PARLEARN" lab host "$LAB" --script "$top_srcdir/labs/short-check.json" \
	--no-dashboard >"$T/host.out" 2>&1 || fail "lab host: $(cat "$T/host.out")"
[ "$(stat -c %a "$LAB/results")" = 3733 ] || fail "drop box mode $(stat -c %a "$LAB/results")"

# Step 2 is ahead of the lab: refused.
"$PARLEARN" --profile early lab submit "$LAB" --step 2 --question q1 --correct 1 2>/dev/null &&
	fail "a student answered ahead of the lab"

# 30 students, three answers each, all at once.
i=1
while [ $i -le 30 ]; do
	(
		"$PARLEARN" --profile "s$i" lab submit "$LAB" --step 1 --question q1 --correct 1 &&
		"$PARLEARN" --profile "s$i" lab submit "$LAB" --step 1 --question q2 --correct $((i % 2)) &&
		"$PARLEARN" --profile "s$i" lab submit "$LAB" --step 1 --question q2 --correct 1
	) >"$T/s$i.log" 2>&1 || echo "s$i" >>"$T/failed" &
	i=$((i + 1))
done
wait
[ -s "$T/failed" ] && fail "submits failed: $(cat "$T/failed"): $(cat "$T/s1.log")"

n=$(ls "$LAB/results" | grep -c "^$me@s[0-9]*\.json$")
[ "$n" = 30 ] || fail "expected 30 result files, found $n"
for f in "$LAB"/results/*.json; do
	[ "$(stat -c %a "$f")" = 600 ] || fail "$f has mode $(stat -c %a "$f")"
done
ls -a "$LAB/results" | grep -q '\.tmp$' && fail "temp files left behind"

# Plant a symlink, garbage and a file under another student's name.
ln -s /etc/passwd "$LAB/results/$me@evil.json"
printf '{"user": "%s", "profile": ' "$me" >"$LAB/results/$me@junk.json"
printf 'not json at all' >"$LAB/results/stray.txt"

"$PARLEARN" lab status "$LAB" >"$T/status.out" 2>"$T/status.err" ||
	fail "lab status failed: $(cat "$T/status.err")"
grep -q '^30 students$' "$T/status.out" || fail "status: $(cat "$T/status.out")"
grep -q '^3 files skipped$' "$T/status.out" || fail "status: $(cat "$T/status.out")"
grep -q "evil.json: is a symbolic link; refused" "$T/status.err" ||
	fail "symlink not refused: $(cat "$T/status.err")"
grep -q "junk.json:1:" "$T/status.err" || fail "garbage not reported: $(cat "$T/status.err")"
grep -q "most missed: step 1, q2 (15 missed" "$T/status.out" ||
	fail "most missed: $(cat "$T/status.out")"

# The report: 30 students, 3 answers each, every second q2 right first.
"$PARLEARN" lab report "$LAB" --format json -o "$T/report.json" 2>/dev/null ||
	fail "lab report failed"
grep -q '"students":	30' "$T/report.json" || fail "report lacks 30 students"
n=$(grep -c '"first_correct"' "$T/report.json")
[ "$n" = 60 ] || fail "expected 60 answers (q1, q2 for 30), found $n"
"$PARLEARN" lab report "$LAB" --format csv -o "$T/report.csv" 2>/dev/null
n=$(grep -c ',question,q2,2,' "$T/report.csv")
[ "$n" = 30 ] || fail "expected 30 rows with two q2 attempts, found $n"

# Several Unix users, when we may create them (CI runs as root and must).
if [ "$(id -u)" != 0 ] || ! command -v useradd >/dev/null 2>&1 ||
	! command -v runuser >/dev/null 2>&1; then
	part_skip "multi-user part" "needs root, useradd and runuser"
	test_done
fi
k=1
while [ $k -le 5 ]; do
	u="plt$$s$k"
	useradd -M -N -s /bin/sh "$u" >/dev/null 2>&1 || break
	USERS="$USERS $u"
	k=$((k + 1))
done
if [ -z "$USERS" ]; then
	part_skip "multi-user part" "useradd failed"
	test_done
fi
bin=$(cd "$(dirname "$PARLEARN")" && pwd)/$(basename "$PARLEARN")
for u in $USERS; do
	runuser -u "$u" -- env HOME=/nonexistent XDG_DATA_HOME=/nonexistent \
		"$bin" --profile p lab submit "$LAB" --step 1 --question q1 --correct 1 \
		>"$T/$u.log" 2>&1 &
done
wait
set -- $USERS
a=$1 b=$2
for u in $USERS; do
	f="$LAB/results/$u@p.json"
	[ -f "$f" ] || fail "$u's result is missing: $(cat "$T/$u.log")"
	[ "$(stat -c %U "$f")" = "$u" ] || fail "$f is not owned by $u"
done
runuser -u "$b" -- cat "$LAB/results/$a@p.json" >/dev/null 2>&1 &&
	fail "$b can read $a's result"
runuser -u "$b" -- ls "$LAB/results" >/dev/null 2>&1 &&
	fail "$b can list the drop box"
runuser -u "$b" -- sh -c "echo x > '$LAB/results/$a@p.json'" 2>/dev/null &&
	fail "$b can overwrite $a's result"
runuser -u "$b" -- rm -f "$LAB/results/$a@p.json" 2>/dev/null
[ -f "$LAB/results/$a@p.json" ] || fail "$b removed $a's result"
# A file that claims to be a's but is b's.
runuser -u "$b" -- sh -c "echo '{}' > '$LAB/results/$a@forged.json'" ||
	fail "$b could not create a file in the drop box"
"$PARLEARN" lab status "$LAB" >"$T/status.out" 2>"$T/status.err"
grep -q "^$((30 + $#)) students$" "$T/status.out" ||
	fail "status after users: $(cat "$T/status.out")"
grep -q "$a@forged.json: squatted: made by $b" "$T/status.err" ||
	fail "forged file not refused: $(cat "$T/status.err")"
test_done
