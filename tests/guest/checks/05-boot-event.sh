# Boot-time event enabling: scripts/boot.sh puts
# trace_event=raw_syscalls:sys_enter on the kernel command line.  On the
# patched kernel that is a may-sleep tracepoint enabled in start_kernel(),
# before the scheduler runs, disabled and enabled again at early_initcall
# (event_trace_enable_again(), a 1->0->1 transition), both before Tasks
# Trace RCU is up: the switches to the direct call are queued at
# postcore_initcall.  The console must show no splat (check-log.sh) and
# the event must be on and recording.
T=/sys/kernel/tracing
if grep -q 'trace_event=raw_syscalls:sys_enter' /proc/cmdline; then
	state=$(cat $T/events/raw_syscalls/sys_enter/enable)
	# Stop recording first: reading the buffer makes syscalls that would
	# be recorded faster than they are read.
	echo 0 > $T/tracing_on
	recs=$(grep -c ' sys_enter: NR ' $T/trace)
	echo "  boot-time raw_syscalls:sys_enter: enable=$state, $recs records"
	grep -m 2 ' sys_enter: NR ' $T/trace | sed 's/^/  boot event: /'
	echo 0 > $T/events/raw_syscalls/enable
	echo > $T/trace
	echo 1 > $T/tracing_on
	if [ "$state" = 1 ] && [ "$recs" -gt 0 ]; then
		ktap_pass boot.trace_event
	else
		ktap_fail boot.trace_event "enable=$state, $recs sys_enter records"
	fi
else
	ktap_skip boot.trace_event "trace_event= not on the kernel command line"
fi
