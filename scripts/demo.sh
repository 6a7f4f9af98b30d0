#!/bin/bash
# demo.sh: the main job.  Build the patched kernel, boot it, run the
# syscall-tracing checks, and show what the tracers saw.
. "$(dirname "$0")/lib.sh"
"$TOP/scripts/deps.sh"
status=0
"$TOP/scripts/variant.sh" patched || status=1
console=$LOGS/console-patched.log
echo
echo "--- what the guest's tracers recorded (from $console):"
grep -E '\[demo\]' "$console" 2>/dev/null | sed 's/^.*\[demo\] /  /' || true
echo
python3 "$TOP/scripts/report.py" "patched=$LOGS/results-patched.ktap" || status=1
exit "$status"
