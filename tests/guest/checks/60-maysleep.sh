# 60-maysleep.sh: may-sleep tracepoint semantics, through tpsleep_test.ko
# (its control file /proc/tpsleep_test) and the tpst_* programs.
#  maysleep.module_api          the module saw the may-sleep API iff the
#                               kernel has patch 1 (core)
#  maysleep.matrix.TP.KIND      registering a KIND (normal, sleepable) probe
#                               on TP (sys_enter, sys_exit, sched_switch, the
#                               module's ordinary tpst_plain and may-sleep
#                               tpst_maysleep) with each of the plain, prio
#                               and may_exist functions returns 0 when KIND
#                               matches TP (sleepable on a may-sleep
#                               tracepoint, normal on an ordinary one), else
#                               -EINVAL; successful ones unregister with 0.
#                               With feature tpmode a normal probe is
#                               accepted on a may-sleep tracepoint too.
#  maysleep.local_nofault.*     a normal probe on an ordinary tracepoint:
#                               copy_from_user_nofault() of a non-resident
#                               page is -EFAULT (efault), of the same page
#                               once resident its exact bytes (resident)
#  maysleep.sys_enter_nofault.* the same on sys_enter while it is ordinary
#  maysleep.local_maysleep      a sleepable probe on the module's may-sleep
#                               tracepoint runs preemptible, under
#                               rcu_read_lock_trace(), and can sleep (core)
#  maysleep.sys_enter_sleepy.*  a sleepable probe on sys_enter (patch 5):
#                               preemptible, Tasks Trace RCU held, sleeps,
#                               copy_from_user()s openat's filename from a
#                               non-resident page: exact bytes
#  maysleep.sync.*              tracepoint_synchronize_unregister() returns
#                               only after a probe asleep in sys_enter left
#  maysleep.transitions_normal.*  1->2->1->0->1 probe transitions with two
#                               distinct data, normal probes on sched_switch,
#                               2000 cycles or 60 s (>= 100 cycles): no
#                               probe ever called with the other's data
#  maysleep.transitions_sleepy.*  the same, sleepable probes on sys_enter
#  maysleep.transitions_mixed.*  (feature tpmode) a sleeping and a normal
#                               probe on sys_enter, 0->1->2->1->0 in every
#                               order (either first in, either first out),
#                               workers on every CPU: no wrong data, the
#                               sleeping one always preemptible, the normal
#                               one never; call_path: the sleep
#                               iterator selected through the static call
#                               (x86_64) or the generic fallback (arm64)
#  maysleep.ordinary.*          (feature tpmode) an ordinary probe after a
#                               sleeping one on sys_enter, kmalloc()ed data,
#                               unregistered, synchronize_rcu(), data
#                               poisoned and freed while the sleeping probe
#                               is blocked on a userfaultfd page: never
#                               called with the poisoned data after the
#                               fault is resolved (tpst_uffd ordinary; the
#                               lttng-modules contract); and a filter
#                               update meanwhile does not wait for it
#                               (filter_prompt)
#  maysleep.park_2to1.*, maysleep.park_1to0to1.*  (core) a hand-written
#                               caller of tpst_maysleep parked between
#                               loading the first probe's data and the static
#                               call while the probes go 2->1 (first data
#                               changes) or 1->0->1: no probe gets the other's
#                               data, the change does not wait for the
#                               caller, the direct call comes back
#                               (tests/progs/tpst_park.c)
#  maysleep.custom_event.*      a TRACE_CUSTOM_EVENT on sys_enter
#                               (tpsleep_custom.ko): enabling it works and
#                               records on an ordinary sys_enter; it fails
#                               and records nothing once sys_enter is
#                               may-sleep (patches 2 ftrace + 5 syscalls)
#  rcuidle.irq_events           preemptirq:irq_disable/irq_enable (the
#                               trace_*_rcuidle() users) enable and record
#  rcuidle.console_event        printk:console (trace_console_rcuidle) too
#  maysleep.unload.*            rmmod while a probe sleeps in sys_enter
#                               returns only after it left (patch 5);
#                               without patch 5 maysleep.module_unload
# Sourced by run-checks.sh after ktap.sh; busybox sh, POSIX only.
set -u
# ktap.sh's functions set the globals n, name and out: do not use those.

MOD=/tests/modules/tpsleep_test.ko
CUSTOM=/tests/modules/tpsleep_custom.ko
CTL=/proc/tpsleep_test
T=/sys/kernel/tracing
W=/tmp/maysleep-check
NEED_CORE="needs patch 1 (core): no may-sleep API"
NEED_SYS="needs patch 5 (syscalls): sys_enter is not may-sleep"
SLEEP_MS=500
UNLOAD_MS=1000
# transitions: 2000 cycles, or as many as fit in MAXSEC but at least MINCYC
# (under TCG a cycle, with its grace periods, takes ~25 ms on baseline)
CYCLES=2000
MAXSEC=60
MINCYC=100

# ms_run OUT PROG ARGS...: run a program, output to the console and OUT
ms_run() {
	_out=$1
	shift
	"$@" > "$_out" 2>&1
	_rc=$?
	sed 's/^/  /' "$_out"
	return $_rc
}

# ms_maysleep TP: 1 if TP is a may-sleep tracepoint on this kernel
ms_maysleep() {
	case "$1" in
	sys_enter|sys_exit) has_feature syscalls && echo 1 || echo 0 ;;
	tpst_maysleep) echo 1 ;;
	*) echo 0 ;;
	esac
}

# Back to a clean tracefs (whatever earlier checks left): no event, no pid
# filter, nop tracer, empty buffer, tracing on.
ms_tracing_clean() {
	echo 0 > $T/events/enable
	echo > $T/set_event_pid
	[ -e $T/set_event_notrace_pid ] && echo > $T/set_event_notrace_pid
	echo nop > $T/current_tracer
	echo > $T/trace
	echo 1 > $T/tracing_on
}

rm -rf $W
mkdir -p $W

if ! insmod $MOD > $W/insmod.out 2>&1; then
	ktap_fail maysleep.module_load "insmod $MOD: $(tr '\n' ' ' < $W/insmod.out)"
	exit 0
fi

# --- registration matrix -------------------------------------------------
echo matrix > $CTL
cat $CTL > $W/matrix
sed 's/^/  /' $W/matrix
api=$(sed -n 's/^api maysleep=//p' $W/matrix)
want_api=0
has_feature core && want_api=1
if [ "$api" = "$want_api" ]; then
	ktap_pass maysleep.module_api
else
	ktap_fail maysleep.module_api "module built with may-sleep API '$api', want $want_api (Kbuild detection)"
fi
for tp in sys_enter sys_exit sched_switch tpst_plain tpst_maysleep; do
	for kind in normal sleepable; do
		tname=maysleep.matrix.$tp.$kind
		if ! has_feature core && { [ $kind = sleepable ] || [ $tp = tpst_maysleep ]; }; then
			ktap_skip $tname "$NEED_CORE"
			continue
		fi
		ms=$(ms_maysleep $tp)
		if { [ $kind = sleepable ] && [ "$ms" = 1 ]; } ||
		   { [ $kind = normal ] && [ "$ms" = 0 ]; } ||
		   { [ $kind = normal ] && has_feature tpmode; }; then
			want=0
		else
			want=-22
		fi
		bad=
		for api in plain prio may_exist; do
			row=$(grep "^matrix $tp $kind $api " $W/matrix)
			# shellcheck disable=SC2086 # split the row into fields
			set -- $row
			if [ $# != 6 ]; then
				bad="$bad$api: no result; "
				continue
			fi
			ret=$5 unreg=$6
			[ "$ret" = "$want" ] || bad="$bad$api returned $ret, want $want; "
			if [ "$ret" = 0 ] && [ "$unreg" != 0 ]; then
				bad="${bad}unregister after $api returned $unreg; "
			fi
		done
		if [ -z "$bad" ]; then
			ktap_pass $tname
		else
			ktap_fail $tname "$bad"
		fi
	done
done

# --- user memory from probes ---------------------------------------------
ms_run $W/local.out tpst_sleepy local
ktap_check_lines maysleep.local_nofault $W/local.out $? efault resident

if has_feature syscalls && ! has_feature tpmode; then
	ktap_skip_all maysleep.sys_enter_nofault "sys_enter is may-sleep (patch 5): no normal probe on it (see maysleep.matrix.sys_enter.normal, maysleep.local_nofault)" hit context efault
else
	ms_run $W/nofault.out tpst_sleepy nofault
	ktap_check_lines maysleep.sys_enter_nofault $W/nofault.out $? hit context efault
fi

if has_feature core; then
	echo local_maysleep > $CTL
	r=$(cat $CTL)
	echo "  $r"
	bad=
	for kv in reg=0 unreg=0 hits=1 preemptible=1 rcu_trace_held=1 val_ok=1; do
		[ "$(ktap_kv "$r" "${kv%=*}")" = "${kv#*=}" ] || bad="$bad want $kv;"
	done
	slept=$(ktap_kv "$r" slept_ns)
	[ "${slept:-0}" -ge 1000000 ] 2>/dev/null || bad="$bad slept ${slept:-?} ns, want >= 1 ms;"
	if [ -z "$bad" ]; then
		ktap_pass maysleep.local_maysleep
	else
		ktap_fail maysleep.local_maysleep "$r:$bad"
	fi
else
	ktap_skip maysleep.local_maysleep "$NEED_CORE"
fi

if has_feature syscalls; then
	ms_run $W/sleepy.out tpst_sleepy sleepy
	ktap_check_lines maysleep.sys_enter_sleepy $W/sleepy.out $? hit context nonresident slept copy
else
	ktap_skip_all maysleep.sys_enter_sleepy "$NEED_SYS" hit context nonresident slept copy
fi

# --- tracepoint_synchronize_unregister() waits for a sleeping probe ------
if has_feature syscalls; then
	ms_run $W/sync.out tpst_sync sync $SLEEP_MS
	ktap_check_lines maysleep.sync $W/sync.out $? entered slept order
else
	ktap_skip_all maysleep.sync "$NEED_SYS" entered slept order
fi

# --- probe transitions ---------------------------------------------------
ms_run $W/trn.out tpst_transitions normal $CYCLES $MAXSEC $MINCYC
ktap_check_lines maysleep.transitions_normal $W/trn.out $? run calls data
if has_feature syscalls; then
	ms_run $W/trs.out tpst_transitions sleepy $CYCLES $MAXSEC $MINCYC
	ktap_check_lines maysleep.transitions_sleepy $W/trs.out $? run calls data preemptible
else
	ktap_skip_all maysleep.transitions_sleepy "$NEED_SYS" run calls data preemptible
fi
if has_feature tpmode; then
	ms_run $W/trm.out tpst_transitions mixed $CYCLES $MAXSEC $MINCYC
	ktap_check_lines maysleep.transitions_mixed $W/trm.out $? run calls data preemptible call_path
else
	ktap_skip_all maysleep.transitions_mixed "needs the follow-up's probes that sleep or not on one tracepoint (feature tpmode)" run calls data preemptible call_path
fi
# --- an ordinary probe's data freed as lttng-modules frees it ------------
ORD="entered live unreg_prompt filter_prompt no_stale_call complete"
if has_feature tpmode; then
	if insmod /tests/modules/tpsleep_stress.ko > $W/insmod-stress.out 2>&1; then
		ms_run $W/ordinary.out tpst_uffd ordinary
		# shellcheck disable=SC2086 # word list
		ktap_check_lines maysleep.ordinary $W/ordinary.out $? $ORD
		rmmod tpsleep_stress || echo "  rmmod tpsleep_stress failed"
	else
		# shellcheck disable=SC2086
		ktap_skip_all maysleep.ordinary "insmod tpsleep_stress: $(tr '\n' ' ' < $W/insmod-stress.out)" $ORD
		ktap_fail maysleep.ordinary_module "insmod tpsleep_stress: $(tr '\n' ' ' < $W/insmod-stress.out)"
	fi
else
	# The six refuse an ordinary probe on sys_enter (maysleep.matrix);
	# baseline has no sleeping probe.
	# shellcheck disable=SC2086
	ktap_skip_all maysleep.ordinary "needs the follow-up's ordinary probes beside sleeping ones on sys_enter (feature tpmode)" $ORD
fi

for m in 2to1 1to0to1; do
	if has_feature tpmode; then
		ktap_skip_all maysleep.park_$m "feature tpmode: a caller disables preemption from loading the data to the static call, no caller can park there (see maysleep.transitions_mixed)" parked data preemptible direct nonblocking
	elif has_feature core; then
		ms_run $W/park.$m.out tpst_park $m 3
		ktap_check_lines maysleep.park_$m $W/park.$m.out $? parked data preemptible direct nonblocking
	else
		ktap_skip_all maysleep.park_$m "$NEED_CORE" parked data preemptible direct nonblocking
	fi
done

# --- a custom event on sys_enter -----------------------------------------
# Expect: refused once sys_enter is may-sleep and ftrace knows it.
refuse=0
has_feature ftrace && has_feature syscalls && refuse=1
# a custom event's probe does not sleep: accepted with feature tpmode
has_feature tpmode && refuse=0
ev=$T/events/custom/sys_enter
ms_tracing_clean
if ! insmod $CUSTOM > $W/custom.out 2>&1; then
	why="insmod $CUSTOM: $(tr '\n' ' ' < $W/custom.out)"
	ktap_fail maysleep.custom_event.enable "$why"
	ktap_fail maysleep.custom_event.record "$why"
elif [ ! -e $ev/enable ]; then
	ktap_fail maysleep.custom_event.enable "no $ev after insmod"
	ktap_fail maysleep.custom_event.record "no $ev after insmod"
	rmmod tpsleep_custom
else
	enabled=0
	echo 1 > $ev/enable 2> $W/custom.err && enabled=1
	state=$(cat $ev/enable)
	cat /proc/version > /dev/null
	tp_syscalls 10 > /dev/null
	echo 0 > $ev/enable 2>/dev/null
	nrec=$(grep -c 'tpst_custom nr=' $T/trace)
	echo "  custom event: enable write ok=$enabled ($(tr '\n' ' ' < $W/custom.err)), enable reads '$state', $nrec line(s) recorded"
	grep -m 3 'tpst_custom nr=' $T/trace | sed 's/^/  /'
	if [ $refuse = 1 ]; then
		if [ $enabled = 0 ] && [ "$state" = 0 ]; then
			ktap_pass maysleep.custom_event.enable
		else
			ktap_fail maysleep.custom_event.enable "sys_enter is may-sleep: enabling must fail, but write ok=$enabled, enable reads '$state'"
		fi
		if [ "$nrec" = 0 ]; then
			ktap_pass maysleep.custom_event.record
		else
			ktap_fail maysleep.custom_event.record "recorded $nrec line(s), want none"
		fi
	else
		if [ $enabled = 1 ] && [ "$state" = 1 ]; then
			ktap_pass maysleep.custom_event.enable
		else
			ktap_fail maysleep.custom_event.enable "write ok=$enabled ($(tr '\n' ' ' < $W/custom.err)), enable reads '$state'"
		fi
		if [ "$nrec" -gt 0 ]; then
			ktap_pass maysleep.custom_event.record
		else
			ktap_fail maysleep.custom_event.record "no tpst_custom line recorded"
		fi
	fi
	rmmod tpsleep_custom || echo "  rmmod tpsleep_custom failed"
fi
ms_tracing_clean

# --- rcuidle tracepoints (shared) ----------------------------------------
ok=1
for e in irq_disable irq_enable; do
	echo 1 > $T/events/preemptirq/$e/enable || ok=0
done
sleep 1
for e in irq_disable irq_enable; do
	echo 0 > $T/events/preemptirq/$e/enable
done
nd=$(grep -c ' irq_disable: ' $T/trace)
ne=$(grep -c ' irq_enable: ' $T/trace)
echo "  preemptirq: $nd irq_disable, $ne irq_enable line(s)"
grep -m 2 -E ' irq_(disable|enable): ' $T/trace | sed 's/^/  /'
if [ $ok = 1 ] && [ "$nd" -gt 0 ] && [ "$ne" -gt 0 ]; then
	ktap_pass rcuidle.irq_events
else
	ktap_fail rcuidle.irq_events "enable ok=$ok, $nd irq_disable and $ne irq_enable lines"
fi
ms_tracing_clean
ok=1
echo 1 > $T/events/printk/console/enable || ok=0
echo "tpsleep-console-marker-$$" > /dev/kmsg
echo 0 > $T/events/printk/console/enable
ncon=$(grep -c "tpsleep-console-marker-$$" $T/trace)
if [ $ok = 1 ] && [ "$ncon" -gt 0 ]; then
	ktap_pass rcuidle.console_event
else
	ktap_fail rcuidle.console_event "enable ok=$ok, $ncon line(s) with the marker"
fi
ms_tracing_clean

# --- module unload while a probe sleeps (last: removes the module) -------
if has_feature syscalls; then
	ms_run $W/unload.out tpst_sync unload $UNLOAD_MS
	ktap_check_lines maysleep.unload $W/unload.out $? entered rmmod waited
	# The unload test removed the module: it must be gone.
	if grep -q '^tpsleep_test ' /proc/modules; then
		echo "  tpsleep_test still loaded: removing it"
		rmmod tpsleep_test
		ktap_fail maysleep.module_unload "tpsleep_test still loaded after the unload test"
	else
		ktap_pass maysleep.module_unload
	fi
else
	ktap_skip_all maysleep.unload "$NEED_SYS" entered rmmod waited
	if rmmod tpsleep_test > $W/rmmod.out 2>&1; then
		ktap_pass maysleep.module_unload
	else
		ktap_fail maysleep.module_unload "$(tr '\n' ' ' < $W/rmmod.out)"
	fi
fi
rm -rf $W
