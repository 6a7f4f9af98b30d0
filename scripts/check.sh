#!/bin/bash
# check.sh [VARIANT...]: run each variant (default: baseline patched faulting) and
# print one KTAP table with the closing 'N passed, N failed' line.  A
# variant that fails to apply, build or boot, or whose console shows a
# splat, fails the command (its checks are then reported as missing).
# The run is recorded in build/results/$RESULTS_TARGET.json (default
# check.json) and the generated tables of docs/measurements.md and
# README.md are updated (scripts/results.py; RESULTS_DOCS=0: the file
# only); a failure there is a warning, it never changes the status of the
# checks.
#   RESULTS_TARGET  the results target (check; check-arm64.sh: arm64)
#   DEPS_LISTS      package lists scripts/deps.sh installs beside
#                   packages.txt (check-arm64.sh: packages-arm64.txt ...)
. "$(dirname "$0")/lib.sh"
[ $# -gt 0 ] || set -- baseline patched
RESULTS_TARGET=${RESULTS_TARGET:-check}
results start
# shellcheck disable=SC2086 # a list of file names
"$TOP/scripts/deps.sh" ${DEPS_LISTS:-}
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
check_close "$status" "${failed[*]}" "$*" "${args[@]}"
