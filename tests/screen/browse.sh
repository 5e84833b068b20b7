#!/bin/sh
# The card browser (B on the home screen): it lists the cards drop 1
# unlocked, '/' narrows the list as a query is typed (even '?' and 'C',
# which elsewhere open the help and the cheatsheet), s suspends the
# selected card: the database row says so, the card leaves the review
# queue, the home screen's count and `parlearn review --list`, and the
# statistics say why their counts are lower; s again brings it back.
. "${top_srcdir:-.}/tests/screen/lib.sh"

if ! command -v sqlite3 >/dev/null 2>&1; then
	[ "${CI:-}" = true ] && { echo "FAIL: sqlite3 is required under CI" >&2; exit 1; }
	echo "SKIP: sqlite3 not installed" >&2
	exit 77
fi
run() {
	HOME="$SCREEN_TMP/home" XDG_DATA_HOME="$SCREEN_TMP/data" \
		"$PARLEARN" --profile tester "$@"
}
suspended() {
	sqlite3 "$(screen_db)" "SELECT card_id FROM cards WHERE suspended;"
}

screen_start 100 30
screen_wait "Phase 1"
screen_keys j Enter
screen_wait "Drop 1:"
screen_keys q
screen_keys G	# the review entry is below the fold at 100x30
screen_wait "Flashcard review  (0 due, 0 learning, 7 new)"
screen_keys B
screen_wait "Card browser"
screen_has "7 cards, 0 suspended"
screen_has "7 cards shown"
screen_has "What does each of DP, TP and PP cut?"
screen_has "Is FSDP / ZeRO a fourth axis?"
# The selected card's back is shown under the list.
screen_has "DP cuts the batch"

# '?' lists the browser's keys.
screen_keys '?'
screen_wait "suspend / unsuspend"
screen_has "search as you type"
screen_keys Escape
screen_wait_gone "suspend / unsuspend"

# Search: the list narrows with each key; '?' and 'C' are typed, not keys.
screen_keys / w i r
screen_wait "Search: wir_"
screen_wait "1 card shown"
screen_has "What does each axis put on the wire?"
screen_lacks "Is FSDP / ZeRO a fourth axis?"
screen_keys e x '?'
screen_wait "Search: wirex?_"
screen_has "No card matches the search."
screen_lacks "Keys on this screen"
screen_keys BSpace BSpace C
screen_wait "Search: wireC_"
screen_lacks "Cheatsheet"
screen_keys BSpace Enter
screen_wait "Search: wire "
screen_has "1 card shown"

# Suspend the one card found: stored, and out of every queue.
screen_keys s
screen_wait "1 suspended"
screen_capture | grep "put on the wire" | grep -q suspended ||
	fail "the card should show as suspended"
[ "$(suspended | wc -l)" = 1 ] || fail "one row should be suspended: $(suspended)"
id=$(suspended)
# Esc clears the search: all seven again.
screen_keys Escape
screen_wait "7 cards shown"
screen_keys q
screen_wait "Flashcard review  (0 due, 0 learning, 6 new)"
list=$(run review --list --all) || fail "review --list failed"
echo "$list" | grep -q "^$id " && fail "a suspended card is listed for review"
[ "$(echo "$list" | grep -c '^[^ ]*  *new ')" = 6 ] || fail "6 new: $list"

# Statistics: counts without the suspended card, and the reason.
screen_keys G k k Enter
screen_wait "Flashcard statistics"
screen_has "0 due, 0 learning, 6 new (as on the home screen)"
screen_has "1 card is suspended (B on the home screen)"
screen_has "new 6   learning 0"
screen_keys q
screen_wait "Cost-model playground"
screen_wait_gone "Flashcard statistics"

# Unsuspend: the browser remembers, and the card is back.
screen_keys B
screen_wait "Card browser"
screen_has "7 cards, 1 suspended"
screen_keys j s
screen_wait "7 cards, 0 suspended"
[ -z "$(suspended)" ] || fail "nothing should be suspended: $(suspended)"
screen_keys q
screen_wait "Flashcard review  (0 due, 0 learning, 7 new)"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
exit 0
