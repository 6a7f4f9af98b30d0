#!/bin/sh
# tests/bench/run.sh [STATE_TIMEOUT]: /init runs it for tpsleep.mode=bench
# (instead of the checks).  Every state of lib.sh in order, each in its own
# shell under a timeout; results on the results port (see lib.sh).
. /tests/bench/lib.sh
STATE_TIMEOUT=${1:-600}
# tpsleep.sleeper=1: every state with a probe that sleeps connected to
# sys_enter (tpsleep_test.ko idle_sleeper): "sleeper=on", or "none" where
# the kernel has no probes that sleep (the module's may-sleep API).
sl=off
if [ "$sleeper" = 1 ]; then
	sl=none
	if insmod /tests/modules/tpsleep_test.ko 2>/dev/null &&
	   echo "idle_sleeper 1" > /proc/tpsleep_test 2>/dev/null &&
	   grep -q 'idle_sleeper on=1 ret=0' /proc/tpsleep_test; then
		sl=on
	fi
	echo "tpsleep: bench sleeper=$sl: $(cat /proc/tpsleep_test 2>/dev/null)"
fi
out "begin variant=$(cat /tests/variant) kernel=$(uname -r)" \
	"cpus=$(nproc) clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)" \
	"iters=$iters reps=$reps warmup=$warmup cycles=$cycles sleeper=$sl"
for s in $states; do
	case " $ALL " in *" $s "*) ;; *) out "error $s unknown state"; continue ;; esac
	echo "tpsleep: bench $s at $(cut -d' ' -f1 /proc/uptime)s"
	clean
	# each state in its own shell, under a timeout
	timeout "$STATE_TIMEOUT" sh -c ". /tests/bench/lib.sh; st_$s" ||
		out "error $s exited with status $? (143 = timeout after ${STATE_TIMEOUT}s)"
done
clean
out end
