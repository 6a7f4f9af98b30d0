#!/bin/bash
# check.sh [VARIANT...]: run each variant (default: baseline patched faulting) and
# print one KTAP table with the closing 'N passed, N failed' line.  A
# variant that fails to apply, build or boot, or whose console shows a
# splat, fails the command (its checks are then reported as missing).
. "$(dirname "$0")/lib.sh"
[ $# -gt 0 ] || set -- baseline patched
"$TOP/scripts/deps.sh"
status=0
args=()
for v in "$@"; do
	rm -f "$LOGS/results-$v.ktap"
	if ! "$TOP/scripts/variant.sh" "$v"; then
		echo "FAILED: variant $v (see the message above)" >&2
		status=1
	fi
	args+=("$v=$LOGS/results-$v.ktap")
done
echo
python3 "$TOP/scripts/report.py" "${args[@]}" || status=1
[ "$status" = 0 ] || echo "check: FAILED" >&2
exit "$status"
