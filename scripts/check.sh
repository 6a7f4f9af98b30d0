#!/bin/bash
# check.sh [VARIANT...]: run each variant (default: baseline patched faulting) and
# print one KTAP table with the closing 'N passed, N failed' line.  A
# variant that fails to apply, build or boot, or whose console shows a
# splat, fails the command (its checks are then reported as missing).
# The run is recorded in build/results/check.json and the generated tables
# of docs/measurements.md and README.md are updated (scripts/results.py;
# RESULTS_DOCS=0: the file only); a failure there is a warning, it never
# changes the status of the checks.
. "$(dirname "$0")/lib.sh"
[ $# -gt 0 ] || set -- baseline patched
results() {	# results CMD ARGS...: scripts/results.py CMD check --pid $$ ARGS...
	python3 "$TOP/scripts/results.py" "$1" check --pid $$ "${@:2}" ||
		echo "check: warning: scripts/results.py $1 failed (see above): results not recorded; the checks' status is not affected" >&2
}
results start
"$TOP/scripts/deps.sh"
status=0
args=()
failed=()
for v in "$@"; do
	rm -f "$LOGS/results-$v.ktap"
	t_v=$(date +%s)
	if ! "$TOP/scripts/variant.sh" "$v"; then
		echo "FAILED: variant $v (see the message above)" >&2
		status=1
		failed+=("$v")
	fi
	results ccache --since "$t_v" "$v"
	args+=("$v=$LOGS/results-$v.ktap")
done
echo
results record --status "$status" --failed "${failed[*]}" --variants "$*"
echo
python3 "$TOP/scripts/report.py" "${args[@]}" || status=1
[ "$status" = 0 ] || echo "check: FAILED" >&2
exit "$status"
