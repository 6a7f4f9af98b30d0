#!/bin/bash
# demo.sh: the main job.  Build the kernel with the whole series (variant
# faulting: the six patches and the follow-up), boot it, run the guest
# checks, then tell what the tracers showed (scripts/demo-report.py, from
# the checks' [demo:*] lines): trace-cmd, bpftrace and faultsnoop on system
# calls whose strings are in pages never touched, beside the same calls on
# the unpatched kernel when build/logs/console-baseline.log is there; the
# ratios of the last make bench; the KTAP summary.
. "$(dirname "$0")/lib.sh"
DEMO_VARIANT=${DEMO_VARIANT:-faulting}
DEMO_BASE=${DEMO_BASE:-baseline}
"$TOP/scripts/deps.sh"
status=0
"$TOP/scripts/variant.sh" "$DEMO_VARIANT" || {
	status=1
	echo "demo: the $DEMO_VARIANT run failed (above); what follows is from the logs it left"
}
echo
python3 "$TOP/scripts/demo-report.py" "$LOGS" "$RESULTS" "$BUILD/bench/runs" \
	"$DEMO_VARIANT" "$DEMO_BASE" || status=1
mkdir -p "$RESULTS"
table=$RESULTS/demo-$DEMO_VARIANT.txt
python3 "$TOP/scripts/report.py" "$DEMO_VARIANT=$LOGS/results-$DEMO_VARIANT.ktap" > "$table" || status=1
echo
awk 'NF == 2 && ($2 == "FAIL" || $2 == "MISSING") { print "  not ok: " $1 } / ERROR: / { print }' \
	"$table" | head -n 10
echo "KTAP of $DEMO_VARIANT: $(tail -n 1 "$table") (the table: $table)"
exit "$status"
