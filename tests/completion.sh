#!/bin/sh
# Shell completion as a shell runs it: the bash function is called with
# COMP_WORDS and COMP_CWORD set, in a bash subshell, and its COMPREPLY
# checked; the zsh function runs with words and CURRENT set and compadd
# and _files stubbed. Both ask the real binary (`parlearn complete`).
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-comp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C PARLEARN
unset PARLEARN_CONTENT

fail() { echo "FAIL: $*" >&2; exit 1; }
. "$top_srcdir/tests/testlib.sh"

part_needs bash "bash completion" || test_done

# bash_comp WORD...: the candidates bash offers for "parlearn WORD...",
# the last word being the one completed; sorted, one a line.
bash_comp() {
	bash -c '
		. "$1"
		shift
		COMP_WORDS=("$PARLEARN" "$@")
		COMP_CWORD=$#
		COMPREPLY=()
		_parlearn
		printf "%s\n" "${COMPREPLY[@]}"' sh \
	    "$top_srcdir/completion/parlearn" "$@" | sed '/^$/d' | sort
}

# expect WANT WORD...: the candidates, space-separated and sorted, are WANT.
expect() {
	want=$1
	shift
	got=$(bash_comp "$@" | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$want" ] || fail "bash: parlearn $* <TAB>: '$got', want '$want'"
}

# has CANDIDATE WORD...: CANDIDATE is among the candidates.
has() {
	c=$1
	shift
	bash_comp "$@" | grep -Fxq -- "$c" || fail "bash: parlearn $* <TAB> lacks $c"
}

expect "plan" pl
expect "lab list" l
has check-content ""
has help ""
bash_comp "" | grep -q complete && fail "the hidden command is offered"
expect "--model" plan --mod
expect "llama2-13b llama2-70b llama2-7b" plan --model llama2-
expect "h100-80gb h200-141gb h800-80gb" plan --gpus 8 --gpu h
expect "1f1b dualpipe gpipe interleaved zb-h1" plan --schedule ""
expect "full none selective" plan --recompute ""
expect "--no-seq-parallel" plan --no-seq
expect "--json" trace --js
expect "3d cp dp ep fsdp pp single tp" trace --mode ""
expect "3d cp dp ep fsdp pp single tp" run --mode ""
expect "1f1b dualpipe gpipe interleaved zb-h1" trace --schedule ""
expect "1f1b dualpipe gpipe interleaved zb-h1" run --np 4 --schedule ""
expect "mpi ordered" run --reduce ""
# The simulator's settings as each command spells them (core/sim/sim_keys.c):
# run's --np is trace's --gpus; --compute-only is trace's alone.
expect "--no-overlap --np" run --n
expect "--gpus" trace --gp
expect "" run --gp
expect "--compute-only" trace --comp
expect "" run --comp
# cp's TP degree, trace's and run's.
expect "--top-k --tp" trace --mode cp --t
expect "--timeout --top-k --tp" run --t
expect "host join report reset status step submit" lab ""
expect "--help --no-dashboard --script" lab host "$tmp" --
expect "csv json" lab report "$tmp" --format ""
expect "next prev" lab step "$tmp" ""
expect "replay" srs ""
expect "again easy good hard" srs replay --ratings ""
expect "export import list" deck ""
expect "phase-1 phase-2 phase-3 phase-4 phase-5" deck export ""
expect "--profile --projector" --pr
expect "--content --db --help --profile --projector --version" --
expect "plan" --profile someone pl
# File and directory names where a command takes them.
mkdir -p "$tmp/w/dir1" "$tmp/w/dir2"
: >"$tmp/w/notes.txt"
cd "$tmp/w" || fail "cd"
expect "dir1 dir2 notes.txt" deck import ""
expect "dir1 dir2" lab host ""
expect "dir1 dir2" check-content ""
expect "notes.txt" export -o no
cd - >/dev/null || fail "cd -"
# Your own decks too, read from the database of the global options.
printf 'front one\tback one\n' >"$tmp/mine.txt"
"$PARLEARN" --profile ann deck import "$tmp/mine.txt" --name "my-deck" \
	>/dev/null 2>"$tmp/err" || fail "deck import: $(cat "$tmp/err")"
has my-deck --profile ann deck export ""
has my-deck --profile ann review --deck ""
bash_comp --profile bob deck export "" | grep -q my-deck &&
	fail "another profile's deck is offered"

# zsh: the same protocol through compadd and _files.
if part_needs zsh "zsh completion"; then
	zsh_comp() {
		zsh -f -c '
			compadd() { [[ $1 == -a ]] && print -l -- ${(P)2}; }
			_files() { print -- "_files $*"; }
			words=("$PARLEARN" "${@[2,-1]}")
			CURRENT=$#words
			. "$1"' zsh "$top_srcdir/completion/_parlearn" "$@" | sort |
		    tr '\n' ' ' | sed 's/ $//'
	}
	[ "$(zsh_comp pl)" = "plan" ] || fail "zsh: pl: $(zsh_comp pl)"
	[ "$(zsh_comp plan --model llama3-)" = "llama3-405b llama3-70b llama3-8b" ] ||
		fail "zsh: --model: $(zsh_comp plan --model llama3-)"
	[ "$(zsh_comp lab "")" = "host join report reset status step submit" ] ||
		fail "zsh: lab: $(zsh_comp lab "")"
	[ "$(zsh_comp deck import "")" = "_files " ] ||
		[ "$(zsh_comp deck import "")" = "_files" ] ||
		fail "zsh: deck import: $(zsh_comp deck import "")"
	[ "$(zsh_comp lab host "")" = "_files -/" ] ||
		fail "zsh: lab host: $(zsh_comp lab host "")"
fi
echo "completion.sh: all checks passed"
test_done
