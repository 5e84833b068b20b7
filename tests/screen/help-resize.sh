#!/bin/sh
# '?' shows the keys of the current screen, wrapped to the window; a
# resize below the minimum shows a message instead of a broken screen, and
# growing back restores it.
. "${top_srcdir:-.}/tests/screen/lib.sh"

screen_start 100 30
screen_wait "Phase 1"
screen_keys '?'
screen_wait "Keys on this screen"
screen_has "continue where you left off"
screen_has "show or hide this help"
screen_keys x
screen_wait_gone "Keys on this screen"

# Help in the reader lists the reader's keys.
screen_keys j Enter
screen_wait "Drop 1:"
screen_keys '?'
screen_wait "next / previous drop"
screen_keys x
screen_wait_gone "Keys on this screen"

# In a narrow window the help wraps a long explanation instead of cutting
# it (issue 16): its second line is there, under the first.
screen_resize 60 30
screen_wait "lines 1-"
screen_keys '?'
screen_wait "Keys on this screen"
screen_capture | grep -q "│ Tab, Shift-Tab   mark the next / previous question   │" ||
	fail "the Tab line should be wrapped at the box"
screen_capture | grep -q "│                  or animation; stops at the ends  *│" ||
	fail "the Tab line's end should be on the next row"
screen_has "Backspace erases"
screen_has "Press any key to close this help."
screen_keys x
screen_wait_gone "Keys on this screen"
screen_resize 100 30
screen_wait "lines 1-"

# C opens the cheatsheet from anywhere, and closes it again.
screen_keys C
screen_wait "Cheatsheet and key equations"
screen_has "The three axes"
screen_keys j j
screen_keys C
screen_wait_gone "Cheatsheet and key equations"
screen_has "Drop 1:"

screen_resize 40 12
screen_wait "Terminal too small: 40x12"
screen_lacks "Drop 1:"
screen_resize 100 30
screen_wait "Drop 1:"
screen_lacks "too small"
screen_has "lines 1-"

screen_resize 40 12
screen_wait "Terminal too small"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q on the small screen should exit 0"
test_done
