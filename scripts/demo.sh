#!/bin/bash
# demo.sh: the main job.  Build the kernel with the whole series (variant
# faulting: the six patches and the follow-up), boot it, run the
# syscall-tracing checks, and show what the tracers saw: among them the
# same non-resident openat()/openat2()/execve() calls as bpftrace's str()
# sees them (empty) and as faultsnoop, the sleepable BPF tool, does.
. "$(dirname "$0")/lib.sh"
DEMO_VARIANT=${DEMO_VARIANT:-faulting}
"$TOP/scripts/deps.sh"
status=0
"$TOP/scripts/variant.sh" "$DEMO_VARIANT" || status=1
console=$LOGS/console-$DEMO_VARIANT.log
echo
echo "--- what the guest's tracers recorded (from $console):"
grep -E '\[demo\]' "$console" 2>/dev/null | sed 's/^.*\[demo\] /  /' || true
echo
python3 "$TOP/scripts/report.py" "$DEMO_VARIANT=$LOGS/results-$DEMO_VARIANT.ktap" || status=1
exit "$status"
