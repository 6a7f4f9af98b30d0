# 70-rcuidle.sh: the trace_*_rcuidle() tracepoints where they matter: in
# the idle loop, while RCU is not watching (shared: every kernel).
#  rcuidle.idle_path        this guest's idle loop calls an rcuidle
#                           tracepoint between ct_idle_enter() and
#                           ct_idle_exit(), i.e. with RCU not watching:
#                           idle=poll (cpu_idle_poll(): local_irq_enable()
#                           after ct_idle_enter()), or a cpuidle driver
#                           (cpuidle_enter_state() calls ct_idle_enter()
#                           before the state's ->enter(): acpi_idle's HLT C1
#                           does safe_halt(), the POLL state
#                           local_irq_enable()); both call
#                           trace_hardirqs_on() -> trace_irq_enable_rcuidle().
#                           Without them (cpuidle driver "none"),
#                           default_idle_call() traces before
#                           ct_idle_enter() and idles with raw_safe_halt():
#                           no rcuidle tracepoint runs with RCU off
#  rcuidle.idle_irq_enable  with preemptirq:irq_enable enabled, the idle task
#                           records irq_enable events whose caller is that
#                           window's function: the ftrace probe ran there
#  rcuidle.idle_watching    a probe of the test module on irq_enable, called
#                           from the idle task, always sees rcu_is_watching()
#                           (and is called from there at all)
#  rcuidle.idle_eqs         (needs rcu:rcu_dyntick, CONFIG_RCU_TRACE) on its
#                           CPU, each such event directly follows an
#                           rcu_dyntick "Endirq" (ct_nmi_enter() from the
#                           extended quiescent state: the tracepoint made RCU
#                           watch around its probes), and at least one does
# Sourced by run-checks.sh after ktap.sh; busybox sh, POSIX only.
set -u

T=/sys/kernel/tracing
W=/tmp/rcuidle-check
CPUIDLE=/sys/devices/system/cpu/cpuidle
SLEEP_S=2

ri_clean() {
	echo 0 > $T/events/enable
	echo > $T/set_event_pid
	echo nop > $T/current_tracer
	echo > $T/trace
	echo 1 > $T/tracing_on
}

rm -rf $W
mkdir -p $W

# --- which idle path -----------------------------------------------------
drv=$(cat $CPUIDLE/current_driver 2>/dev/null) || drv="none (no $CPUIDLE)"
gov=$(cat $CPUIDLE/current_governor_ro 2>/dev/null) || gov="?"
states=$(cat /sys/devices/system/cpu/cpu0/cpuidle/state*/name 2>/dev/null | tr '\n' ' ')
poll=0
case " $(cat /proc/cmdline) " in *" idle=poll "*) poll=1 ;; esac
echo "  cpuidle: driver '$drv', governor '$gov', cpu0 states '$states', idle=poll $poll"
# Callers of trace_hardirqs_on() inside the RCU-idle window (%pS names;
# GCC may suffix them, e.g. cpu_idle_poll.isra.0; acpi_safe_halt() is
# usually inlined into acpi_idle_do_entry()).
why=
if [ $poll = 1 ]; then
	# do_idle(): cpu_idle_force_poll wins over any cpuidle driver
	callers="cpu_idle_poll"
	path="idle=poll: cpu_idle_poll()"
else
	case "$drv" in
	none*)
		callers=
		why="cpuidle driver '$drv' and no idle=poll: default_idle_call() fires its tracepoints before ct_idle_enter() and idles in raw_safe_halt(), so no rcuidle tracepoint runs with RCU not watching (boot with idle=poll)"
		[ "$(uname -m)" != aarch64 ] ||
			why="arm64 (QEMU virt, no cpuidle driver) has no idle=poll (an x86 parameter): default_idle_call() fires its tracepoints before ct_idle_enter() and idles in cpu_do_idle() (WFI), so no rcuidle tracepoint runs with RCU not watching" ;;
	acpi_idle)
		callers="acpi_idle_do_entry|acpi_safe_halt|acpi_idle_enter|poll_idle"
		path="cpuidle $drv: C1 HLT / POLL" ;;
	*)
		callers="poll_idle"
		path="cpuidle $drv: POLL state" ;;
	esac
fi
if [ -n "$callers" ]; then
	echo "  rcuidle path: $path (irq_enable callers: $callers)"
	ktap_pass rcuidle.idle_path
elif [ "$(uname -m)" = aarch64 ]; then
	ktap_skip rcuidle.idle_path "$why"
else
	ktap_fail rcuidle.idle_path "$why"
fi

# --- record irq_enable (and rcu_dyntick) while the CPUs idle --------------
ri_clean
dyn=0
[ -d $T/events/rcu/rcu_dyntick ] && dyn=1
ok=1
echo 1 > $T/events/preemptirq/irq_enable/enable || ok=0
if [ $dyn = 1 ]; then
	echo 1 > $T/events/rcu/rcu_dyntick/enable || ok=0
fi
sleep $SLEEP_S
echo 0 > $T/tracing_on
echo 0 > $T/events/preemptirq/irq_enable/enable
[ $dyn = 1 ] && echo 0 > $T/events/rcu/rcu_dyntick/enable
cat $T/trace > $W/trace
grep -E '^ *<idle>-0 +\[[0-9]+\] .* irq_enable: caller=' $W/trace > $W/idle
nidle=$(wc -l < $W/idle)
echo "  $nidle irq_enable line(s) from <idle>-0 in ${SLEEP_S}s, by caller:"
sed 's/.* caller=\([^+]*\)+.*/\1/' $W/idle | sort | uniq -c | sort -rn | head -n 8 | sed 's/^/   /'
if [ -n "$callers" ]; then
	grep -E " irq_enable: caller=($callers)[.+]" $W/idle > $W/window
	nwin=$(wc -l < $W/window)
	head -n 2 $W/window | sed 's/^/  rcuidle: /'
	if [ $ok = 1 ] && [ "$nwin" -gt 0 ]; then
		ktap_pass rcuidle.idle_irq_enable
	else
		ktap_fail rcuidle.idle_irq_enable "enable ok=$ok, $nwin of $nidle idle irq_enable line(s) with caller $callers"
	fi
else
	ktap_skip rcuidle.idle_irq_enable "no rcuidle idle path in this guest (rcuidle.idle_path)"
fi

# --- the window events lie in an RCU extended quiescent state ------------
if [ -z "$callers" ]; then
	ktap_skip rcuidle.idle_eqs "no rcuidle idle path in this guest (rcuidle.idle_path)"
elif [ $dyn = 0 ]; then
	ktap_skip rcuidle.idle_eqs "no rcu:rcu_dyntick event (needs CONFIG_RCU_TRACE=y)"
else
	# Per CPU, the last rcu_dyntick polarity seen before each window
	# irq_enable: "Endirq" is ct_nmi_enter() leaving the EQS, done by the
	# rcuidle tracepoint itself just before it calls the probes.
	awk -v re=" irq_enable: caller=($callers)[.+]" -v shownf=$W/eqs.shown '
	/^CPU:[0-9]+ \[LOST / { c = $1; sub(/^CPU:/, "", c); last[c + 0] = ""; next }
	/^#/ { next }
	{
		if (!match($0, /\[[0-9]+\] /))
			next
		cpu = substr($0, RSTART + 1, RLENGTH - 3) + 0
		if (index($0, " rcu_dyntick: ")) {
			s = $0
			sub(/.* rcu_dyntick: /, "", s)
			split(s, a, " ")
			last[cpu] = a[1]
			line[cpu] = $0
			next
		}
		if ($0 !~ /^ *<idle>-0 +\[/ || $0 !~ re)
			next
		if (last[cpu] == "Endirq") {
			good++
			if (shown == "")
				shown = line[cpu] "\n" $0
		} else if (last[cpu] == "")
			unknown++
		else {
			bad++
			if (first == "")
				first = "after " last[cpu] ": " $0
		}
	}
	END {
		printf "eqs good=%d bad=%d unknown=%d\n", good, bad, unknown
		if (first != "")
			print "first bad " first
		if (shown != "")
			print shown > shownf
	}' $W/trace > $W/eqs
	sed 's/^/  /' $W/eqs
	[ -f $W/eqs.shown ] && sed 's/^/  rcuidle eqs: /' $W/eqs.shown
	good=$(sed -n 's/^eqs good=\([0-9]*\) .*/\1/p' $W/eqs)
	bad=$(sed -n 's/^eqs good=[0-9]* bad=\([0-9]*\) .*/\1/p' $W/eqs)
	if [ $ok = 1 ] && [ "${good:-0}" -gt 0 ] && [ "${bad:-1}" = 0 ]; then
		ktap_pass rcuidle.idle_eqs
	else
		ktap_fail rcuidle.idle_eqs "enable ok=$ok, $(tr '\n' ' ' < $W/eqs)"
	fi
fi

# --- RCU watches in the probes, on the idle path too ------------------------
if [ "$poll" = 1 ] && [ -e /tests/modules/tpsleep_test.ko ]; then
	if insmod /tests/modules/tpsleep_test.ko > $W/insmod.out 2>&1; then
		echo "rcuidle 1000" > /proc/tpsleep_test
		r=$(cat /proc/tpsleep_test)
		echo "  $r"
		rmmod tpsleep_test
		if [ "$(ktap_kv "$r" reg)" = 0 ] && [ "$(ktap_kv "$r" unreg)" = 0 ] &&
		   [ "$(ktap_kv "$r" idle_calls)" -gt 0 ] 2>/dev/null &&
		   [ "$(ktap_kv "$r" not_watching)" = 0 ]; then
			ktap_pass rcuidle.idle_watching
		else
			ktap_fail rcuidle.idle_watching "want reg=0 unreg=0, idle_calls > 0 and not_watching=0 (the tracepoint makes RCU watch around its probes): $r"
		fi
	else
		ktap_fail rcuidle.idle_watching "insmod tpsleep_test: $(tr '\n' ' ' < $W/insmod.out)"
	fi
else
	ktap_skip rcuidle.idle_watching "needs idle=poll (an idle path that calls the rcuidle tracepoint with RCU off) and tpsleep_test.ko"
fi

ri_clean
rm -rf $W
exit 0
