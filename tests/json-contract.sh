#!/bin/sh
# The JSON contract, judged by a validator that is not ours: every --json
# document a command prints (list, plan, plan --search, trace, srs replay,
# stats, review --list, deck list, lab status and report, export, and run --json when
# parlearn has MPI, and the file trace --dump-weights writes) is valid against its schema/KIND.json under Debian's
# python3-jsonschema, and names that schema first. tests/check_schemas
# holds the same documents to the suite's own checker (tests/jsonschema.c),
# which once let run --json through with members its schema does not have.
set -u
PARLEARN=${PARLEARN:-./parlearn}
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-json.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" LC_ALL=C
unset PARLEARN_CONTENT

fail() { echo "FAIL: $*" >&2; exit 1; }
. "$top_srcdir/tests/testlib.sh"

# Debian's python3 first: a python3 earlier in PATH (pyenv, a venv) may not
# have the package, or have another version of it.
py=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import jsonschema' >/dev/null 2>&1; then
		py=$p
		break
	fi
done
if [ -z "$py" ]; then
	part_skip "JSON contract" "python3-jsonschema is not installed (Debian: apt-get install python3-jsonschema)"
	test_done
fi

# validate KIND FILE: FILE is a parlearn.KIND/1 document valid against
# schema/KIND.json (a closed, draft 2020-12 schema).
validate() {
	"$py" - "$top_srcdir/schema/$1.json" "$2" "parlearn.$1/1" <<'EOF' ||
import json, sys
import jsonschema
schema_file, doc_file, want = sys.argv[1:4]
with open(schema_file) as f:
    schema = json.load(f)
with open(doc_file) as f:
    doc = json.load(f)
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
first = next(iter(doc), None) if isinstance(doc, dict) else None
if first != "schema" or doc["schema"] != want:
    sys.exit('the first member is not "schema": "%s"' % want)
errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.path))
for e in errors[:5]:
    print("%s: %s" % ("/".join(str(p) for p in e.path) or "$", e.message),
          file=sys.stderr)
sys.exit(1 if errors else 0)
EOF
		fail "$1: $2 is not a valid parlearn.$1/1 document"
	validated="$validated $1"
}

n=0
# json KIND CMD...: run CMD (it must succeed) and validate its stdout.
json() {
	kind=$1
	shift
	n=$((n + 1))
	"$@" >"$tmp/doc$n.json" 2>"$tmp/err" </dev/null ||
		fail "'$*' exited $?: $(cat "$tmp/err")"
	validate "$kind" "$tmp/doc$n.json"
}

validated=
json list "$PARLEARN" list --json
json plan "$PARLEARN" plan --model llama2-70b --gpus 64 --dp 8 --tp 8 --pp 1 --json
json plan "$PARLEARN" plan --model gpt3-175b --gpus 64 --dp 4 --tp 8 --pp 2 --schedule interleaved --json
json plan "$PARLEARN" plan --model llama3-70b --gpus 64 --dp 2 --tp 8 --pp 4 --schedule dualpipe --global-batch 64 --json
json plan-search "$PARLEARN" plan --model deepseek-v3 --gpu h800-80gb --gpus 256 --any-framework --json
json plan-search "$PARLEARN" plan --model llama2-70b --gpus 64 --json
json plan-search "$PARLEARN" plan --model llama2-70b --gpus 63 --json
json plan-search "$PARLEARN" plan --model llama3-405b --gpus 8 --json
json trace "$PARLEARN" trace --json
json trace "$PARLEARN" trace --mode 3d --gpus 8 --json
json trace "$PARLEARN" trace --mode fsdp --json
json trace "$PARLEARN" trace --gpus 2 --schedule interleaved --json
json trace "$PARLEARN" trace --mode ep --gpus 8 --pp 2 --shared-expert --router-bias 2 --json
json trace "$PARLEARN" trace --mode dp --moe 4 --json
json trace "$PARLEARN" trace --schedule zb-h1 --json
json trace "$PARLEARN" trace --mode ep --gpus 4 --pp 2 --microbatches 4 --schedule dualpipe --json
json srs-replay "$PARLEARN" srs replay --ratings good,again,good,easy --start 2024-01-01 --json
json review-list "$PARLEARN" review --list --json
json review-list "$PARLEARN" review --list --all --json
json review-list "$PARLEARN" review --list --cram --json
json deck-list "$PARLEARN" deck list --json
json stats "$PARLEARN" stats --json
json export "$PARLEARN" export
lab="$tmp/lab"
"$PARLEARN" lab host "$lab" --script "$top_srcdir/labs/short-check.json" \
	--no-dashboard >/dev/null 2>"$tmp/err" </dev/null ||
	fail "lab host: $(cat "$tmp/err")"
json lab-status "$PARLEARN" lab status "$lab" --json
"$PARLEARN" lab submit "$lab" --step 1 --question q1 --correct 0 \
	>/dev/null 2>"$tmp/err" </dev/null || fail "lab submit: $(cat "$tmp/err")"
json lab-status "$PARLEARN" lab status "$lab" --json
json lab-report "$PARLEARN" lab report "$lab" --format json

# run --json and the file run -o writes: a parlearn.run/1 document, which
# trace --from replays.
if [ -x "$top_builddir/parlearn-run" ] && command -v mpirun >/dev/null 2>&1; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_MCA_rmaps_base_oversubscribe=1
	unset OMPI_COMM_WORLD_SIZE OMPI_COMM_WORLD_RANK PMI_SIZE PMI_RANK \
		SLURM_STEP_ID SLURM_PROCID SLURM_STEP_NUM_TASKS
	json run timeout 60 "$PARLEARN" run --mode pp --np 2 --timeout 20 --json
	json run timeout 60 "$PARLEARN" run --mode ep --np 4 --timeout 20 --json
	json run timeout 60 "$PARLEARN" run --mode pp --np 2 --schedule zb-h1 \
		--microbatches 4 --timeout 20 --json
	json run timeout 60 "$PARLEARN" run --mode dp --np 2 --timeout 20 \
		--reduce mpi --json
	timeout 60 "$PARLEARN" run --mode tp --np 2 --timeout 20 \
		-o "$tmp/run-o.json" >/dev/null 2>"$tmp/err" </dev/null ||
		fail "run -o: $(cat "$tmp/err")"
	validate run "$tmp/run-o.json"
	"$PARLEARN" trace --from "$tmp/run-o.json" >/dev/null 2>"$tmp/err" \
		</dev/null || fail "trace --from a run -o file: $(cat "$tmp/err")"
	# A run refused by lab submit --run is in lab status and lab report.
	printf '{"title": "r", "steps": [{"kind": "run", "minutes": 5, "run": {"mode": "tp", "np": 2}}]}' \
		>"$tmp/run-lab.json"
	"$PARLEARN" lab host "$tmp/rlab" --script "$tmp/run-lab.json" \
		--no-dashboard >/dev/null 2>"$tmp/err" </dev/null ||
		fail "lab host: $(cat "$tmp/err")"
	sed '0,/^\t"loss":/s/^\t"loss":\t[^,]*,/\t"loss":\t123,/' \
		"$tmp/run-o.json" >"$tmp/forged.json"
	"$PARLEARN" lab submit "$tmp/rlab" --step 1 --run "$tmp/forged.json" \
		>/dev/null 2>&1 </dev/null && fail "a run with loss 123 was taken"
	json lab-status "$PARLEARN" lab status "$tmp/rlab" --json
	grep -q '"reason":' "$tmp/doc$n.json" || fail "no refusal in lab status"
	json lab-report "$PARLEARN" lab report "$tmp/rlab" --format json
	grep -q '"refused":' "$tmp/doc$n.json" || fail "no refusal in lab report"
else
	part_skip "run --json" "parlearn was built without MPI (Debian: apt-get install openmpi-bin libopenmpi-dev, then ./configure)"
fi

# trace --dump-weights FILE (examples/pytorch reads it).
"$PARLEARN" trace --mode dp --gpus 2 --dump-weights "$tmp/weights.json" \
	>/dev/null 2>"$tmp/err" || fail "trace --dump-weights: $(cat "$tmp/err")"
validate weights "$tmp/weights.json"

# Every installed schema was used.
for s in "$top_srcdir"/schema/*.json; do
	k=$(basename "$s" .json)
	case " $validated " in
	*" $k "*) ;;
	*) [ "$k" = run ] && [ -n "$TEST_SKIPPED" ] ||
		fail "no document of $k was validated" ;;
	esac
done
test_done
