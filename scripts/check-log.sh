#!/bin/bash
# check-log.sh CONSOLE-LOG: fail, naming the line, on any kernel splat.
. "$(dirname "$0")/lib.sh"
log=${1:?usage: check-log.sh CONSOLE-LOG}
[ -s "$log" ] || die "empty console log $log"
pat='Kernel panic|Oops|BUG:|WARNING:|INFO: (possible|task .* blocked|rcu_(preempt|sched|tasks)|suspicious RCU)|possible (circular|recursive) locking|inconsistent lock state|lockdep is turned off|KASAN|UBSAN|sleeping function called from invalid context|rcu: INFO|self-detected stall|soft lockup|hard LOCKUP|general protection fault|Call Trace:|invalid opcode'
if grep -nE "$pat" "$log" > "$log.splats"; then
	echo "Kernel splat in $log:" >&2
	head -n 20 "$log.splats" | sed 's/^/  line /' >&2
	die "$(wc -l < "$log.splats") splat line(s) in the console log, first at line $(head -n1 "$log.splats" | cut -d: -f1)"
fi
grep -q 'tpsleep: checks done' "$log" || die "the guest never finished its checks ($log)"
rm -f "$log.splats"
echo "console log $log: no splat"
