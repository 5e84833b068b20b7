# testlib.sh - what every script test shares, sourced after it defines
# fail(): skipping a part of a test visibly, and waiting for a condition.
#
# A part that cannot run here (a tool is missing, no root) is skipped with
# part_skip: the test goes on, and test_done then exits 77, automake's SKIP,
# so the summary shows it. Under CI=true nothing may be skipped: part_skip
# fails the test instead.

TEST_SKIPPED=

# part_skip PART REASON: skip PART of this test (fails under CI=true).
part_skip() {
	if [ "${CI:-}" = true ]; then
		fail "$1 cannot run under CI: $2"
	fi
	echo "SKIP ($1): $2" >&2
	TEST_SKIPPED="$TEST_SKIPPED; $1"
}

# part_needs TOOL PART: 0 if TOOL is installed, else PART is skipped (1).
part_needs() {
	command -v "$1" >/dev/null 2>&1 && return 0
	part_skip "$2" "$1 is not installed"
	return 1
}

# test_done: exit 0, or 77 if a part was skipped.
test_done() {
	if [ -n "$TEST_SKIPPED" ]; then
		echo "skipped:${TEST_SKIPPED#;} (the rest passed)" >&2
		exit 77
	fi
	exit 0
}

# wait_until SECONDS CMD [ARG...]: run CMD every 0.1 s until it succeeds
# (0), or until SECONDS have passed (1). The poll interval is the only
# sleep a test needs: it waits for a condition, never for a fixed time.
wait_until() {
	wu_n=$(( $1 * 10 ))
	shift
	while [ "$wu_n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		wu_n=$((wu_n - 1))
	done
	return 1
}

# file_ready FILE: FILE exists and is not empty.
file_ready() {
	[ -s "$1" ]
}
