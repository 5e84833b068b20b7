#!/bin/sh
# Flashcard review in a real terminal: opening drop 1 unlocks its cards;
# `parlearn review` shows the queue counts, Space reveals the back with
# the interval of each rating, three cards rated Easy get due dates days
# out (seen in `parlearn review --list --all` before and after), u undoes
# a rating, the end screen sums up, and the statistics count the reviews.
. "${top_srcdir:-.}/tests/screen/lib.sh"

run() {
	HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data" \
		"$PARLEARN" --profile tester "$@"
}

# Start drop 1 from the home screen; back home, the entry counts its cards.
screen_start 100 30
screen_wait "Phase 1"
screen_keys j Enter
screen_wait "Drop 1:"
screen_keys q
screen_keys G	# the review entry is below the fold at 100x30
screen_wait "Flashcard review  (0 due, 0 learning, 7 new)"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# The day starts 12 hours from now, so that no learning step of this test
# crosses the rollover (at 03:55 a 10-minute step under the default 4 am
# would be tomorrow's card); check_cards_store holds the crossing itself.
hour=$(date +%H)
run review --rollover $(( (${hour#0} + 12) % 24 )) >/dev/null ||
	fail "setting the rollover failed"

# Without a terminal: a clear error, exit 2.
run review </dev/null >/dev/null 2>"$SCREEN_TMP/err"
[ $? = 2 ] || fail "review without a terminal should exit 2"
grep -q "must be a terminal" "$SCREEN_TMP/err" || fail "no terminal message"

before=$(run review --list --all) || fail "review --list failed"
[ "$(echo "$before" | grep -c '^[^ ]*  *new ')" = 7 ] || fail "7 new cards expected: $before"

screen_start 80 24 review
screen_wait "new 7  learning 0  due 0"
screen_has "Space show answer"
screen_keys Space
screen_wait "1 again 1m"
screen_has "3 good 10m"
# Easy on a new card: 8 days, fuzzed by a few days as Anki does.
screen_capture | grep -Eq '4 easy [0-9]+d' || fail "Easy should give days"
screen_keys 4
screen_wait "new 6  learning 0  due 0"
screen_keys Space 4
screen_wait "new 5  learning 0  due 0"
# Undo brings the second card back, new again.
screen_keys u
screen_wait "new 6  learning 0  due 0"
screen_keys Space 4
screen_wait "new 5  learning 0  due 0"
screen_keys Space 4
screen_wait "new 4  learning 0  due 0"
# Again on the fourth: it comes back in a minute, as learning.
screen_keys Space 1
screen_wait "new 3  learning 1  due 0"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

after=$(run review --list --all) || fail "review --list failed"
[ "$(echo "$after" | grep -Ec '^[^ ]*  *review .*\(in [0-9]+d\)')" = 3 ] ||
	fail "3 cards should be due in days: $after"
[ "$(echo "$after" | grep -c '^[^ ]*  *learning ')" = 1 ] || fail "1 learning: $after"
[ "$(echo "$after" | grep -c '^[^ ]*  *new ')" = 3 ] || fail "3 new: $after"
stats=$(run stats --width 60) || fail "stats failed"
echo "$stats" | grep -q "new 3   learning 1" || fail "stats states: $stats"
echo "$stats" | grep -q "review 3   relearning 0" || fail "stats states"
echo "$stats" | grep -q "all time: 4 " || fail "stats total: $stats"

# With a limit of 0 new cards a day the queue is down to the learning card,
# and the narrow terminal still draws it; then the end screen and stats.
run review --new-per-day 0 >/dev/null || fail "setting the limit failed"
screen_start 50 14 review
screen_wait "new 0  learning 1  due 0"
screen_keys Space
screen_wait "1 again"
screen_keys 3
# Its next step is 10 minutes away: within the 20-minute learn-ahead, so
# with nothing else left it is shown again (as Anki does), front only;
# Good graduates it.
screen_wait_gone "1 again"
screen_has "new 0  learning 1  due 0"
screen_lacks "Session done."
screen_keys Space
screen_wait "1 again"
screen_keys 3
screen_wait "Session done."
screen_has "2 cards rated"
screen_keys s
screen_wait "Flashcard statistics"
screen_has "Cards by state"
screen_keys q q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

# Cram changes nothing stored: the cards' states and absolute due times
# (not the header's counts or "in 9m", which move with the clock).
schedules() {
	run review --list --all | tail -n +2 |
		sed -E 's/ \((due, [^)]* ago|in [^)]*)\)//' | tr -s ' '
}
sum1=$(schedules | md5sum)
screen_start 80 24 review --cram
screen_wait "cram: 7 left"
screen_keys Space 1 Space 3
screen_wait "cram: 6 left"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
sum2=$(schedules | md5sum)
[ "$sum1" = "$sum2" ] || fail "cram changed a schedule"
test_done
