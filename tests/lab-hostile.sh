#!/bin/sh
# Labs under hostile or unusual setups (issue 15, item 4), with real Unix
# users and groups (root, as CI runs): a drop box whose group has other
# members is refused with the fix; a squatted result name tells the victim
# what happened and the instructor which entry; one student's files are
# capped; 50,000 junk files are counted, not listed; a lab in a setgid
# shared directory stays readable to the students.
set -u

PARLEARN=${PARLEARN:-${top_builddir:-.}/parlearn}
top_srcdir=${top_srcdir:-.}
USERS=""
GROUPS_MADE=""

if [ "$(id -u)" != 0 ] || ! command -v useradd >/dev/null 2>&1 ||
	! command -v groupadd >/dev/null 2>&1 || ! command -v runuser >/dev/null 2>&1; then
	if [ "${CI:-}" = true ]; then
		echo "FAIL: CI must run this as root with useradd, groupadd, runuser" >&2
		exit 1
	fi
	echo "SKIP: needs root, useradd, groupadd and runuser" >&2
	exit 77
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-hostile.XXXXXX")
cleanup() {
	for u in $USERS; do
		userdel "$u" >/dev/null 2>&1
	done
	for g in $GROUPS_MADE; do
		groupdel "$g" >/dev/null 2>&1
	done
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

export HOME="$T/home" XDG_DATA_HOME="$T/data" LC_ALL=C
unset PARLEARN_CONTENT
mkdir -p "$HOME"
chmod 755 "$T"
src=$(cd "$top_srcdir" && pwd)
bin=$(cd "$(dirname "$PARLEARN")" && pwd)/$(basename "$PARLEARN")
script="$src/labs/short-check.json"

# A shared group "G" with two users in it as their primary group, and a
# third student on their own.
G="plh$$g"
groupadd "$G" || fail "groupadd"
GROUPS_MADE="$G"
for u in i s a; do
	name="plh$$$u"
	if [ "$u" = a ]; then
		useradd -M -N -s /bin/sh "$name" || fail "useradd $name"
	else
		useradd -M -N -g "$G" -s /bin/sh "$name" || fail "useradd $name"
	fi
	USERS="$USERS $name"
done
I="plh$$i" S="plh$$s" A="plh$$a"
as() {
	u=$1
	shift
	runuser -u "$u" -- env HOME=/nonexistent XDG_DATA_HOME=/nonexistent \
		LC_ALL=C "$bin" "$@"
}

# 1. An instructor whose group is shared with a student: refused, with
#    the fix.
mkdir -m 1777 "$T/pub"
as "$I" lab host "$T/pub/lab" --script "$script" --no-dashboard \
	>"$T/g.out" 2>"$T/g.err" && fail "hosted with a shared group"
grep -q "group \"$G\" has other members ($S" "$T/g.err" ||
	fail "group check: $(cat "$T/g.err")"
grep -q "chgrp" "$T/g.err" || fail "no fix given: $(cat "$T/g.err")"

# ... root's own group is private: a drop box made with the shared group
# is given root's instead.
LAB="$T/lab"
mkdir -p "$LAB/results"
chgrp "$G" "$LAB/results"
"$PARLEARN" lab host "$LAB" --script "$script" --no-dashboard >/dev/null 2>"$T/h.err" ||
	fail "lab host: $(cat "$T/h.err")"
[ "$(stat -c %g "$LAB/results")" = "$(id -g)" ] ||
	fail "drop box group $(stat -c %G "$LAB/results")"

# 2. A squats S's name: S is told what happened and what to do; the
#    instructor's status and report name the entry.
as "$A" --profile p lab submit "$LAB" --step 1 --question q1 --correct 1 ||
	fail "A's own submit"
runuser -u "$A" -- sh -c "echo '{}' > '$LAB/results/$S@p.json'" ||
	fail "A could not plant a file"
as "$S" --profile p lab submit "$LAB" --step 1 --question q1 --correct 1 \
	>"$T/sq.out" 2>"$T/sq.err" && fail "S submitted over a squatted name"
grep -q "taken by another user (uid $(id -u "$A"))" "$T/sq.err" ||
	fail "victim's message: $(cat "$T/sq.err")"
grep -q "another --profile" "$T/sq.err" || fail "no way out: $(cat "$T/sq.err")"
as "$S" --profile p2 lab submit "$LAB" --step 1 --question q1 --correct 1 ||
	fail "S under another profile"
"$PARLEARN" lab status "$LAB" >"$T/st.out" 2>"$T/st.err"
grep -q "$S@p.json: squatted: made by $A" "$T/st.err" ||
	fail "status does not name the squat: $(cat "$T/st.err")"
"$PARLEARN" lab report "$LAB" >/dev/null 2>"$T/rp.err"
grep -q "$S@p.json: squatted: made by $A" "$T/rp.err" ||
	fail "report does not name the squat: $(cat "$T/rp.err")"
# A squatted lock name is told too, to the victim and (issue 23: it was
# not) to the instructor, as a squatted result name is.
runuser -u "$A" -- sh -c "echo x > '$LAB/results/.$S@p3.json.lock'"
as "$S" --profile p3 lab submit "$LAB" --step 1 --question q1 --correct 1 \
	2>"$T/lk.err" && fail "S submitted with a squatted lock"
grep -q "another user's file holds your lock name" "$T/lk.err" ||
	fail "lock squat: $(cat "$T/lk.err")"
"$PARLEARN" lab status "$LAB" >"$T/st.out" 2>"$T/st.err"
grep -q "\.$S@p3\.json\.lock: squatted: made by $A (uid $(id -u "$A")), not by $S whose lock it is; $S cannot submit under this profile until you remove it" \
	"$T/st.err" || fail "status does not name the lock squat: $(cat "$T/st.err")"
# ... and so is a student's profile list (issue 23), made before theirs.
runuser -u "$A" -- sh -c "echo x > '$LAB/results/.$I.profiles'"
as "$I" --profile p lab submit "$LAB" --step 1 --question q1 --correct 1 \
	2>"$T/pl.err" && fail "I submitted with a squatted profile list"
grep -q "another user's file holds your lock name" "$T/pl.err" ||
	fail "profile list squat: $(cat "$T/pl.err")"
"$PARLEARN" lab status "$LAB" >"$T/st.out" 2>"$T/st.err"
grep -q "\.$I\.profiles: squatted: made by $A .*, not by $I whose profile list it is" \
	"$T/st.err" || fail "status does not name the list squat: $(cat "$T/st.err")"
# A's own lock and list are no squat.
grep -q "made by $A .* not by $A " "$T/st.err" && fail "A's own files: $(cat "$T/st.err")"

# 3. One student, twelve profiles (issue 23: all were accepted, exit 0,
#    and four never counted): the first eight are, p and x1..x7; a ninth
#    is refused with the cap, and nothing is written for it.
k=1
while [ $k -le 7 ]; do
	as "$A" --profile "x$k" lab submit "$LAB" --step 1 --question q1 --correct 1 ||
		fail "A's submit $k"
	k=$((k + 1))
done
while [ $k -le 12 ]; do
	as "$A" --profile "x$k" lab submit "$LAB" --step 1 --question q1 --correct 1 \
		2>"$T/cap9.err" && fail "A's submit $k beyond the cap exited 0"
	grep -q "you have results under 8 profiles in this lab, the most the instructor's table counts for one student (8)" \
		"$T/cap9.err" || fail "cap message: $(cat "$T/cap9.err")"
	[ -e "$LAB/results/$A@x$k.json" ] && fail "x$k was written"
	k=$((k + 1))
done
# Another answer under a profile A has is still taken.
as "$A" --profile x3 lab submit "$LAB" --step 1 --question q2 --correct 1 ||
	fail "A under x3 after the cap"
"$PARLEARN" lab report "$LAB" --format json -o "$T/cap.json" 2>"$T/cap.err"
n=$(grep -c "\"user\":	\"$A\"" "$T/cap.json")
[ "$n" = 8 ] || fail "A has $n results in the report, not 8"
grep -q "more result files for this user" "$T/cap.err" &&
	fail "files skipped under the cap: $(cat "$T/cap.err")"
# Files put in the drop box by hand still meet the host's cap: eight are
# read, the rest skipped and said.
for k in 1 2; do
	sed "s/\"profile\":\"x1\"/\"profile\":\"y$k\"/" "$LAB/results/$A@x1.json" |
		runuser -u "$A" -- sh -c "cat > '$LAB/results/$A@y$k.json'" ||
		fail "planting y$k"
done
"$PARLEARN" lab report "$LAB" --format json -o "$T/cap.json" 2>"$T/cap.err"
n=$(grep -c "\"user\":	\"$A\"" "$T/cap.json")
[ "$n" = 8 ] || fail "A has $n results in the report with 10 files, not 8"
[ "$(grep -c "more result files for this user" "$T/cap.err")" = 2 ] ||
	fail "cap not reported: $(cat "$T/cap.err")"

# 4. 50,000 junk files: counted, a bounded number of lines printed.
J="$T/junk"
"$PARLEARN" lab host "$J" --script "$script" --no-dashboard >/dev/null ||
	fail "lab host junk"
(cd "$J/results" && seq 1 50000 | sed 's/^/junk/' | xargs touch) ||
	fail "making junk"
"$PARLEARN" lab status "$J" >"$T/j.out" 2>"$T/j.err" || fail "lab status with junk"
grep -q "^50000 files skipped$" "$T/j.out" || fail "junk count: $(cat "$T/j.out")"
[ "$(wc -l <"$T/j.err")" -le 51 ] || fail "$(wc -l <"$T/j.err") warning lines for junk"
grep -q "49950 more entries of the drop box skipped" "$T/j.err" ||
	fail "junk summary: $(tail -1 "$T/j.err")"

# 5. A setgid directory shared by the staff group: the lab's files stay
#    world-readable, so students can join.
mkdir "$T/staff"
chgrp "$G" "$T/staff"
chmod 2775 "$T/staff"
"$PARLEARN" lab host "$T/staff/lab" --script "$script" --no-dashboard >/dev/null \
	2>"$T/sg.err" || fail "lab host in a setgid dir: $(cat "$T/sg.err")"
for f in script.json state.json; do
	[ "$(stat -c %a "$T/staff/lab/$f")" = 644 ] ||
		fail "$f is $(stat -c %a "$T/staff/lab/$f") in a setgid directory"
done
as "$A" --profile j lab submit "$T/staff/lab" --step 1 --question q1 --correct 1 ||
	fail "a student cannot use a lab in a setgid directory"
echo "ok"
