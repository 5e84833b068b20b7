#!/bin/sh
# The '?' box shows every key's whole description: a text longer than the
# box goes on under itself instead of being cut mid-word (the playground's
# scenario keys in English at 80x24, and in German at 80x24 and 52x20,
# where the words are longer); a box cut short by a small terminal says so.
. "${top_srcdir:-.}/tests/screen/lib.sh"

screen_start 80 24
screen_wait "profile: tester"
screen_keys G k Enter
screen_wait "Rank order"
screen_keys '?'
screen_wait "Keys on this screen"
screen_capture | grep -qE '│ {18}start +│' ||
	fail "the d key's text does not go on under itself"
screen_has "verdict, hints"
screen_has "(after two failed checks)"
screen_keys x
screen_wait_gone "Keys on this screen"

mo="${top_builddir:-.}/po/locale/de/LC_MESSAGES/parlearn.mo"
if ! locale -a 2>/dev/null | grep -qix 'de_DE\.utf-\?8'; then
	part_skip german "no de_DE.UTF-8 locale"
elif [ ! -f "$mo" ]; then
	part_skip german "no $mo (built without NLS or msgfmt)"
else
	SCREEN_LOCALE=de_DE.UTF-8
	screen_start 80 24
	screen_wait "Profil: tester"
	screen_keys G k Enter
	screen_wait "Rang-Reihenfolge"
	screen_keys '?'
	screen_wait "Tasten auf diesem Bildschirm"
	screen_has "Urteil, Hinweise"
	screen_has "aufstellen/zurückziehen"
	screen_has "Fehlversuchen)"
	screen_resize 52 20
	screen_wait "gewählte Layout übernehmen"
	screen_has "Mehr Tasten in einem größeren"
	screen_has "…"
fi
test_done
