#!/bin/sh
# Under LANG=C the lesson text is shown in ASCII: drop 9's formulas read
# "16*Psi", "~=" and "4x" instead of curses' "~W" garbage, and no page of
# the drop, read to its end at 80x24, holds a byte >= 0x80 or a '~' that
# is not the text's own ("~1") or an "≈" ("~="). Every drop is laid out
# the same way in tests/check_translit.
. "${top_srcdir:-.}/tests/screen/lib.sh"

drop9=$(ls "$top_srcdir"/lessons/2-*/09-*.json)

# One page: ASCII only, no escape garbage. Curses shows a UTF-8 lead byte
# as "M-x" and a continuation byte as "~x" or "M-x"; a '~' pair on the
# page is garbage unless it is "~=" or in the lesson's own text.
check_page() {
	screen_capture >"$SCREEN_TMP/page"
	LC_ALL=C grep -q "$(printf '[\200-\377]')" "$SCREEN_TMP/page" &&
		fail "a byte >= 0x80 under LANG=C"
	grep -qF "M-" "$SCREEN_TMP/page" && fail "curses meta garbage (M-x)"
	for pair in $(LC_ALL=C grep -o '~[^ =]' "$SCREEN_TMP/page" | sort -u); do
		grep -qF -- "$pair" "$drop9" || fail "curses garbage: $pair"
	done
	cat "$SCREEN_TMP/page" >>"$SCREEN_TMP/all"
}

SCREEN_LOCALE=C
screen_start 80 24
screen_wait "Phase 1"
check_page
# A cut title ends with "..." (the ellipsis in ASCII).
screen_capture | grep "Your throughput dropped" | grep -q '\.\.\. ' ||
	fail "a cut title should end with ..."
screen_keys j j j j j j j j j Enter
screen_wait "Drop 9: Counting bytes per GPU"
: >"$SCREEN_TMP/all"
pages=0
while ! grep -qF "(100%)" "$SCREEN_TMP/page"; do
	check_page
	pages=$((pages + 1))
	[ $pages -lt 40 ] || fail "drop 9 never reached its end"
	before=$(screen_capture | tail -n 1)
	screen_keys f
	# Wait for the page to change (the status line counts lines).
	i=0
	while [ "$(screen_capture | tail -n 1)" = "$before" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	screen_capture >"$SCREEN_TMP/page"
done
check_page
[ $pages -ge 5 ] || fail "drop 9 should take several pages at 80x24"
for want in "16*Psi" "2*Psi + 14*Psi/d" "~= 2.9 GB" "almost 4x" "5*a*s^2*b"; do
	grep -qF -- "$want" "$SCREEN_TMP/all" || fail "never shown: $want"
done
screen_keys q q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"
exit 0
