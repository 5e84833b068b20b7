#!/bin/sh
# Incidents no loophole passes (issue 14). Drop 12: TP 8 x PP 2 with the
# plain attention kernel fits, keeps TP in a node and cuts the bubble to
# 3.4%, yet runs slower than the layout the incident opened on: the floor
# against the start fails it. Drop 14, walked the honest way: the five
# fixed claims hold on (4, 4, 4) and on the runner-up alike and earn
# nothing; asserting that it keeps more memory free than the runner-up
# sets it apart, and a trade-off naming a figure the engine confirms (what
# it gives up) passes it, saved with the attempt and shown on reopening.
. "${top_srcdir:-.}/tests/screen/lib.sh"

screen_start 100 40
screen_wait "Phase 1"
open_incident 12 "A 35% bubble with m pinned"
screen_wait "at least 1.00 of the starting layout's tokens/s"
screen_keys Tab
screen_wait "Memory/GPU"
# TP 8 x PP 2 (DP is locked, so PP takes TP's factors), then plain attention.
screen_keys Right Right Right
wait_until 10 knob "TP degree" 8 || fail "TP should be 8"
wait_until 10 knob "PP degree" 2 || fail "PP should be 2"
screen_keys j j j j j j j
screen_keys Right
wait_until 10 knob "Attention" plain || fail "attention should be plain"
reason 3 0.034
# Every assertion after a resize or a key waits with a deadline.
screen_resize_wait 100 70
screen_keys c
screen_wait "Check: not yet"
screen_wait "bubble 3.4% of the step (at most 15.0%)"
screen_wait "TP group of 8 GPUs, nodes of 8: inside one node"
# The floor against the start is shown, and fails; the bubble holds.
screen_wait_line "of the start's" "at least 1.00"
screen_wait_line "of the start's" "✗"
screen_wait_line "bubble 3.4%" "✓"
screen_keys q
screen_wait "Drop 12:"
screen_keys q
screen_wait "Phase 3"
screen_resize_wait 100 40

# Drop 14: (4, 4, 4), ZeRO-1 (the draft is TP 8 x PP 1 x DP 8, ZeRO 0).
open_incident 14 "Defend a tuple for Llama 2 70B"
# The brief says "press t": the footer lists t, whole at 80 columns.
screen_resize_wait 80 40
screen_wait "Status: not passed yet"
footer_whole() {
	case "$(screen_capture | tail -n 1)" in
	*" t trade-off "*"q back") return 0 ;;
	esac
	return 1
}
wait_until 10 footer_whole ||
	fail "the defense's footer should list t, uncut: '$(screen_capture | tail -n 1)'"
screen_resize_wait 100 40
screen_keys 1 2 3 4 5
screen_wait "[x] 5."
screen_keys Tab
screen_wait "Memory/GPU"
screen_keys Left
wait_until 10 knob "TP degree" 4 || fail "TP should be 4"
screen_keys j Right Right
wait_until 10 knob "PP degree" 4 || fail "PP should be 4"
wait_until 10 knob "DP degree" 4 || fail "DP should be 4"
screen_keys j Right
wait_until 10 knob "ZeRO stage" 1 || fail "ZeRO should be 1"
reason 4 56
screen_resize_wait 100 90
screen_keys c
screen_wait "Check: not yet"
screen_wait "claims: none asserted that holds on your layout and not on the"
# Claim 5 holds on (4, 4, 4) and on the runner-up.
screen_wait_line "claim 5" "holds, asserted, true of the runner-up too"
screen_wait "Runner-up (row 1 of the ranking): DP 32 x TP 2 x PP 1"
screen_keys 6
screen_keys t
screen_wait "Trade-off (Enter ends): _"
screen_keys -l "We give up throughput: about 12% of the step is exposed communication against 5% for the ZeRO-3 layout"
screen_wait "ZeRO-3 layout_"
screen_keys Enter
screen_keys c
screen_wait "Check: PASSED"
screen_wait "trade-off: exposed communication 12% confirmed"
# Claim 6 sets (4, 4, 4) apart.
screen_wait_line "claim 6" "sets your layout apart"
# Passed: no promise of hints after failed checks.
screen_keys G
screen_wait "Passed with:"
screen_wait "Press w for the worked solution."
screen_wait_gone "A hint opens after each failed check."
screen_keys q
screen_wait "Drop 14:"
# Reopened: the trade-off is read back.
screen_keys Enter
screen_wait "Status: passed (saved)"
screen_wait "with a figure): We give up"
screen_keys q
screen_wait "Drop 14:"
screen_keys q
screen_wait "Phase 4"
screen_keys q
[ "$(screen_exit_status)" = 0 ] || fail "q should exit 0"

if part_needs sqlite3 "database rows"; then
	db=$(screen_db)
	rows=$(sqlite3 "$db" "SELECT drop_id, attempt, correct FROM answers WHERE question_id LIKE 'scenario:%' AND question_id NOT LIKE '%#diagnosis' ORDER BY id;")
	want="drop-12|1|0
drop-14|1|0
drop-14|2|1"
	[ "$rows" = "$want" ] || fail "scenario attempts: $rows"
	t=$(sqlite3 "$db" "SELECT a.attempt, t.text FROM scenario_tradeoffs t JOIN answers a ON a.id = t.answer_id;")
	[ "$t" = "2|We give up throughput: about 12% of the step is exposed communication against 5% for the ZeRO-3 layout" ] ||
		fail "trade-off rows: $t"
fi
test_done
