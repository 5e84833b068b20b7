#!/bin/sh
# Whole screens at 80x24 against golden files (tmux regress/ style): the
# home screen of a new learner, the first page of drop 1 in the reader, and
# the cost-model playground's default layout. Any change of layout, wording
# or figures shows as a diff. To accept an intended change:
#	UPDATE_GOLDEN=1 make check TESTS=tests/screen/golden.sh
# and review `git diff tests/screen/golden/`.
. "${top_srcdir:-.}/tests/screen/lib.sh"

screen_start 80 24
screen_wait "j/k move  Enter open  c continue  B cards  ? keys  q quit"
screen_golden home-80x24

screen_keys j Enter
screen_wait "Drop 1: Three different things people call 'parallel'"
screen_wait "lines 1-"
screen_golden reader-drop1-80x24

screen_keys q
screen_wait "Continue where I left off: 1."
screen_keys G k Enter
screen_wait "Memory/GPU, GB (1e9 B)"
screen_golden playground-80x24

screen_keys q q
[ "$(screen_exit_status)" = 0 ] || fail "q q should exit 0"
test_done
