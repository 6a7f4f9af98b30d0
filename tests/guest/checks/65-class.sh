# 65-class.sh: a may-sleep event class with several events, through
# tpsleep_class.ko (built from patch 2 on, when DEFINE_EVENT_MAYSLEEP()
# exists; its header tests/module/tpsleep_class.h) and tpst_bpflife.
#  class.maysleep          tpsc_a and tpsc_b (DEFINE_EVENT_MAYSLEEP() of the
#                          may-sleep class) are may-sleep tracepoints,
#                          tpsc_plain (DEFINE_EVENT() of it) is not
#  class.local             a sleeping probe on tpsc_b, fired from a file
#                          compiled without CREATE_TRACE_POINTS: runs
#                          preemptible under rcu_read_lock_trace() and
#                          sleeps; a normal probe on tpsc_a and a may-sleep
#                          probe on tpsc_plain get -EINVAL (the normal one
#                          gets 0 with feature tpmode)
#  class.ftrace            both events record N calls each, with the
#                          caller's preempt depth (0)
#  class.ftrace_plain      enabling tpsc_plain fails: its class's probe
#                          may not run on an ordinary tracepoint; once the
#                          tracers connect probes that do not sleep as
#                          ordinary ones (feature atomicprobes), instead
#                          tpsc_plain enables and records N calls
#  class.perf              perf stat counts both events (patch 4)
#  class.perf_plain        perf can not open tpsc_plain (atomicprobes:
#                          perf stat counts it)
#  class.bpf_life.*        a raw_tp program on tpsc_a whose link and fd
#                          are closed while a caller holding it is parked
#                          is not run freed (patch 3, tpst_bpflife): a
#                          probe that sleeps is kept for the caller
#                          (closing waits, from 0016 the put is
#                          deferred), one that does not (from 0013) is
#                          skipped once removed, as the iterator does
#  class.unload            the module unloads
# Sourced by run-checks.sh after ktap.sh; busybox sh, POSIX only.
set -u

MOD=/tests/modules/tpsleep_class.ko
CTL=/proc/tpsleep_class
T=/sys/kernel/tracing
E=$T/events/tpsleep_class
W=/tmp/class-check
N=5
NEED_FTRACE="needs patch 2 (ftrace): no DEFINE_EVENT_MAYSLEEP(), tpsleep_class.ko not built"
ALL="maysleep local ftrace ftrace_plain perf perf_plain unload"
LIFE="attached parked link_close close_returns ran"

# cl_want NAME LINE KEY=VALUE...: pass if LINE has every KEY=VALUE
cl_want() {
	_n=$1 _l=$2 _bad=
	shift 2
	for kv in "$@"; do
		[ "$(ktap_kv "$_l" "${kv%%=*}")" = "${kv#*=}" ] || _bad="$_bad want $kv;"
	done
	if [ -z "$_bad" ]; then
		ktap_pass "class.$_n"
	else
		ktap_fail "class.$_n" "$_l:$_bad"
	fi
}

if ! has_feature ftrace; then
	for c in $ALL; do ktap_skip class.$c "$NEED_FTRACE"; done
	ktap_skip_all class.bpf_life "$NEED_FTRACE" $LIFE
	exit 0
fi
rm -rf $W
mkdir -p $W
if ! insmod $MOD > $W/insmod.out 2>&1; then
	ktap_fail class.module_load "insmod $MOD: $(tr '\n' ' ' < $W/insmod.out)"
	exit 0
fi

echo info > $CTL
r=$(cat $CTL)
echo "  $r"
cl_want maysleep "$r" a_maysleep=1 b_maysleep=1 plain_maysleep=0

echo local > $CTL
r=$(cat $CTL)
echo "  $r"
slept=$(ktap_kv "$r" slept_us)
if [ "${slept:-0}" -ge 1000 ] 2>/dev/null; then slept_ok=1; else slept_ok=0; fi
# a normal probe on a may-sleep tracepoint: refused by the six, accepted
# (called with preemption disabled) once probes say whether they sleep
normal_on_a=-22
has_feature tpmode && normal_on_a=0
cl_want local "$r slept_ok=$slept_ok" reg=0 unreg=0 hits=1 preemptible=1 \
	rcu_trace_held=1 slept_ok=1 normal_on_a=$normal_on_a maysleep_on_plain=-22

# --- ftrace -----------------------------------------------------------------
echo 0 > $T/events/enable
echo > $T/trace
echo 1 > $T/options/irq-info
ok=1
echo 1 > $E/tpsc_a/enable || ok=0
echo 1 > $E/tpsc_b/enable || ok=0
echo "fire $N" > $CTL
echo 0 > $E/tpsc_a/enable
echo 0 > $E/tpsc_b/enable
cat $T/trace > $W/trace
grep ' tpsc_[ab]: ' $W/trace | head -n 4 | sed 's/^/  class: /'
na=$(grep -c ' tpsc_a: val=[0-9]* tag=a$' $W/trace)
nb=$(grep -c ' tpsc_b: val=[0-9]* tag=b$' $W/trace)
# context columns "irqs-off need-resched hardirq/softirq preempt-depth
# migrate-disable": depth 0 ('.') on every line
sed -n 's/^.*-[0-9]*  *\[[0-9]*\] \(.....\) .* tpsc_[ab]: .*$/\1/p' $W/trace > $W/flags
ndepth=$(grep -c '^...[.][.]$' $W/flags)
if [ $ok = 1 ] && [ "$na" = $N ] && [ "$nb" = $N ] && [ "$ndepth" = $((2 * N)) ]; then
	ktap_pass class.ftrace
else
	ktap_fail class.ftrace "enable ok=$ok, $na tpsc_a and $nb tpsc_b lines (want $N each), $ndepth of them with preempt depth 0; columns: $(sort $W/flags | uniq -c | tr -s ' \n' '  ')"
fi
if has_feature atomicprobes; then
	ok=1
	echo 1 > $E/tpsc_plain/enable || ok=0
	echo "fire $N" > $CTL
	echo 0 > $E/tpsc_plain/enable
	np=$(grep -c ' tpsc_plain: val=[0-9]* tag=plain$' $T/trace)
	if [ $ok = 1 ] && [ "$np" = $N ]; then
		ktap_pass class.ftrace_plain
	else
		ktap_fail class.ftrace_plain "enable ok=$ok, $np tpsc_plain lines, want $N"
	fi
elif echo 1 > $E/tpsc_plain/enable 2> $W/plain.err; then
	ktap_fail class.ftrace_plain "enabling tpsc_plain (a may-sleep class's event on an ordinary tracepoint) succeeded"
	echo 0 > $E/tpsc_plain/enable
elif [ "$(cat $E/tpsc_plain/enable)" != 0 ]; then
	ktap_fail class.ftrace_plain "the write failed but enable reads $(cat $E/tpsc_plain/enable)"
else
	echo "  tpsc_plain refused: $(cat $W/plain.err)"
	ktap_pass class.ftrace_plain
fi
echo > $T/trace

# --- perf -------------------------------------------------------------------
if has_feature perf; then
	perf stat -x, -e tpsleep_class:tpsc_a,tpsleep_class:tpsc_b -- \
		sh -c "echo 'fire 7' > $CTL" > $W/perf.out 2>&1
	rc=$?
	sed 's/^/  /' $W/perf.out
	pa=$(grep ',tpsleep_class:tpsc_a' $W/perf.out | cut -d, -f1)
	pb=$(grep ',tpsleep_class:tpsc_b' $W/perf.out | cut -d, -f1)
	if [ $rc = 0 ] && [ "$pa" = 7 ] && [ "$pb" = 7 ]; then
		ktap_pass class.perf
	else
		ktap_fail class.perf "perf stat rc $rc, counts tpsc_a '$pa' tpsc_b '$pb', want 7 and 7"
	fi
	# perf stat reports an event it could not open as "<not supported>"
	# and still exits 0.
	perf stat -x, -e tpsleep_class:tpsc_plain -- \
		sh -c "echo 'fire 3' > $CTL" > $W/perfp.out 2>&1
	rc=$?
	sed 's/^/  /' $W/perfp.out
	pp=$(grep ',tpsleep_class:tpsc_plain' $W/perfp.out | cut -d, -f1)
	if has_feature atomicprobes; then
		if [ $rc = 0 ] && [ "$pp" = 3 ]; then
			ktap_pass class.perf_plain
		else
			ktap_fail class.perf_plain "perf stat rc $rc, count '$pp', want 3: $(tr '\n' ' ' < $W/perfp.out)"
		fi
	elif [ $rc != 0 ] || grep -q '^<not supported>,,tpsleep_class:tpsc_plain,' $W/perfp.out; then
		ktap_pass class.perf_plain
	else
		ktap_fail class.perf_plain "perf stat counted tpsc_plain (rc $rc): $(tr '\n' ' ' < $W/perfp.out)"
	fi
else
	ktap_skip class.perf "needs patch 4 (perf)"
	ktap_skip class.perf_plain "needs patch 4 (perf)"
fi

# --- BPF program lifetime ---------------------------------------------------
if has_feature bpf; then
	# closing the link waits for the parked caller (the six), or returns
	# at once and the program is put later (follow-up 0016, bpflinkgp)
	if has_feature bpflinkgp; then lmode=deferred; else lmode=sync; fi
	# the BPF probe of a program that is not sleepable: ordinary from 0013
	if has_feature atomicprobes; then pmode=ordinary; else pmode=sleeps; fi
	tpst_bpflife $lmode $pmode > $W/life.out 2>&1
	rc=$?
	sed 's/^/  /' $W/life.out
	ktap_check_lines class.bpf_life $W/life.out $rc $LIFE
else
	ktap_skip_all class.bpf_life "needs patch 3 (bpf)" $LIFE
fi

if rmmod tpsleep_class > $W/rmmod.out 2>&1; then
	ktap_pass class.unload
else
	ktap_fail class.unload "rmmod: $(tr '\n' ' ' < $W/rmmod.out)"
fi
rm -rf $W
