# tests/bench/lib.sh: the guest side of `make bench` (scripts/bench.sh),
# run by /init for tpsleep.mode=bench instead of the checks (run.sh).
#
# Runs /tests/bin/bench_syscall (getppid() in a tight loop on CPU 0,
# ns/call = median of REPS rounds) under each tracing state, then times
# disabling every syscall event and a BPF raw_tp attach+detach cycle.
# Tracers (perf, bpftrace, the BPF loader) are pinned to CPU 1 when the
# guest has a second CPU ($PIN; with one CPU they share CPU 0).
#
# Kernel command line (all optional):
#   tpsleep.iters=N    calls per round                 (default 200000)
#   tpsleep.reps=N     timed rounds per state          (default 5)
#   tpsleep.warmup=N   untimed calls first             (default 20000)
#   tpsleep.cycles=N   disable / attach cycles         (default 20)
#   tpsleep.states=A,B which states, comma separated   (default all)
#   tpsleep.sleeper=1  a probe that sleeps connected to sys_enter all along
#                      (run.sh; tpsleep_test.ko idle_sleeper)
#
# Results port (/dev/ttyS1), one line each, machine-readable:
#   bench begin variant=V kernel=K clocksource=C iters=N reps=N warmup=N cycles=N sleeper=S
#   bench STATE ns=MEDIAN min=MIN max=MAX calls=C count=N   (per getppid call)
#   bench disable_all ns=MEDIAN min=MIN max=MAX ... n=N        (per cycle)
#   bench enable_all ns=MEDIAN min=MIN max=MAX n=N             (per cycle)
#   bench rawtp_cycle ns=MEDIAN min=MIN max=MAX ... n=N        (per cycle)
#   bench error STATE WHY
#   bench end
# count is what the state's tracer saw (sys_enter hits; ftrace: events
# written on CPU 0), so the host can tell that the tracer really traced.
# Diagnostics go to the console.  Sourced by run.sh and, for each state,
# by the shell that runs it.  busybox sh, POSIX only.
set -u

T=/sys/kernel/tracing
OUT=${BENCH_OUT:-/dev/ttyS1}
W=/tmp/bench
export HOME=/tmp
# the tracer processes: on the other CPU if there is one
PIN=
[ "$(nproc)" -gt 1 ] && PIN="taskset 2"
ALL="none ftrace_raw ftrace_syscalls ftrace_syscalls_nostr perf_stat perf_record bpf_rawtp bpftrace disable_all rawtp_cycle openat_none openat_ftrace openat_ftrace_nostr openat64_none openat64_bpf_copystr openat64_bpf_tpcopy openat64_ftrace openat64_ftrace_1 write64_ftrace write64_ftrace_1"

iters=200000 reps=5 warmup=20000 cycles=20 states=$ALL sleeper=0
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	tpsleep.iters=*) iters=${arg#*=} ;;
	tpsleep.reps=*) reps=${arg#*=} ;;
	tpsleep.warmup=*) warmup=${arg#*=} ;;
	tpsleep.cycles=*) cycles=${arg#*=} ;;
	tpsleep.states=*) states=$(echo "${arg#*=}" | tr , ' ') ;;
	tpsleep.sleeper=*) sleeper=${arg#*=} ;;
	esac
done
BENCH="bench_syscall $iters $reps $warmup"

out() {
	echo "bench $*" > "$OUT"
	echo "[bench] $*"
}
# the "ns=... calls=..." part of bench_syscall's line in FILE
result_of() {
	sed -n 's/^bench_syscall: \(ns=.*\) iters=[0-9]* reps=[0-9]* \(calls=[0-9]*\)$/\1 \2/p' "$1"
}
clean() {
	echo 0 > $T/events/enable
	echo 1 > $T/tracing_on
	echo > $T/trace
	rm -rf $W
	mkdir -p $W
}
# report STATE FILE [COUNT]: the state's result line, or an error
report() {
	local r
	r=$(result_of "$2")
	if [ -n "$r" ]; then
		out "$1 $r count=${3:--}"
	else
		out "error $1 no result: $(tail -n 3 "$2" $W/err 2>/dev/null | tr '\n' ' ')"
	fi
}
# ftrace_events: events written on CPU 0 since the last clear
ftrace_events() {
	awk '/^entries:/ { e = $2 } /^overrun:/ { o = $2 } END { print e + o }' \
		$T/per_cpu/cpu0/stats
}
# The stand-in <linux/types.h> bpftrace needs without BTF (as in
# tests/guest/checks/30-bpftrace.sh), in $W/inc for -I.
bt_types_h() {
	mkdir -p $W/inc/linux
	cp /tests/bench/bpftrace-types.h $W/inc/linux/types.h
}

st_none() {
	$BENCH > $W/out 2> $W/err
	report none $W/out
}
st_ftrace_raw() {
	echo 1 > $T/events/raw_syscalls/sys_enter/enable
	echo 1 > $T/events/raw_syscalls/sys_exit/enable
	$BENCH > $W/out 2> $W/err
	echo 0 > $T/events/raw_syscalls/enable
	report ftrace_raw $W/out "$(ftrace_events)"
}
st_ftrace_syscalls() {
	echo 1 > $T/events/syscalls/enable
	$BENCH > $W/out 2> $W/err
	echo 0 > $T/events/syscalls/enable
	report ftrace_syscalls $W/out "$(ftrace_events)"
}
# with_knob KNOB CMD...: CMD with syscall_user_buf_size at KNOB where the
# kernel has it (restored after)
with_knob() {
	local knob=$T/syscall_user_buf_size old= v=$1
	shift
	[ -e $knob ] && old=$(cat $knob) && echo "$v" > $knob
	"$@"
	[ -n "$old" ] && echo "$old" > $knob
}
# syscalls:* without the strings (syscall_user_buf_size 0): no probe of
# ftrace's sleeps
st_ftrace_syscalls_nostr() {
	with_knob 0 syscalls_run
	report ftrace_syscalls_nostr $W/out "$(ftrace_events)"
}
syscalls_run() {
	echo 1 > $T/events/syscalls/enable
	$BENCH > $W/out 2> $W/err
	echo 0 > $T/events/syscalls/enable
}
st_perf_stat() {
	$PIN perf stat -x, -o $W/stat.csv -e raw_syscalls:sys_enter \
		-- $BENCH > $W/out 2> $W/err
	cat $W/stat.csv
	report perf_stat $W/out "$(awk -F, '$3 == "raw_syscalls:sys_enter" { print $1 }' $W/stat.csv)"
}
st_perf_record() {
	$PIN perf record -N -m 16 -e raw_syscalls:sys_enter -o $W/perf.data \
		-- $BENCH > $W/out 2> $W/err
	cat $W/err
	# "[ perf record: Captured and wrote 1.2 MB /tmp/bench/perf.data (12345 samples) ]"
	report perf_record $W/out "$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' $W/err)"
	rm -f $W/perf.data
}
st_bpf_rawtp() {
	$PIN bench_rawtp run $BENCH > $W/out 2> $W/err
	cat $W/err
	report bpf_rawtp $W/out "$(sed -n 's/^bench_rawtp: count=\([0-9]*\)$/\1/p' $W/out)"
}
st_bpftrace() {
	local pid i
	bt_types_h
	$PIN bpftrace -I $W/inc -e 'tracepoint:raw_syscalls:sys_enter { @ = count(); }' \
		> $W/bt.out 2> $W/bt.err &
	pid=$!
	i=0
	while ! grep -qs '^Attaching' $W/bt.out && kill -0 $pid 2>/dev/null && [ $i -lt 1200 ]; do
		usleep 100000
		i=$((i + 1))
	done
	if ! grep -qs '^Attaching' $W/bt.out; then
		kill -9 $pid 2>/dev/null
		out "error bpftrace did not attach: $(tail -n 3 $W/bt.err | tr '\n' ' ')"
		return
	fi
	usleep 200000	# bpftrace's own start-up activity settles
	$BENCH > $W/out 2> $W/err
	kill -INT $pid
	wait $pid
	cat $W/bt.out $W/bt.err
	report bpftrace $W/out "$(sed -n 's/^@: \([0-9]*\)$/\1/p' $W/bt.out)"
}
# Enabling and disabling every syscall event, with syscall_user_buf_size 0
# (no probe of ftrace's sleeps; the strings' price is ftrace_syscalls'):
# one run of bench_evtoggle gives both rows.
st_disable_all() {
	with_knob 0 bench_evtoggle "$cycles" > $W/out 2> $W/err
	r=$(sed -n 's/^bench_evtoggle: disable_all=\([0-9]*\) \(.*\) enable_all=.*$/ns=\1 \2/p' $W/out)
	if [ -n "$r" ]; then out "disable_all $r"; else out "error disable_all $(tr '\n' ' ' < $W/err)"; fi
	r=$(sed -n 's/^.* enable_all=\([0-9]*\) enable_min=\([0-9]*\) enable_max=\([0-9]*\) n=\([0-9]*\)$/ns=\1 min=\2 max=\3 n=\4/p' $W/out)
	if [ -n "$r" ]; then out "enable_all $r"; else out "error enable_all $(tr '\n' ' ' < $W/err)"; fi
}
# openat() of a resident path that does not exist instead of getppid()
# (bench_syscall BENCH_CALL=openat): untraced; with sys_enter_openat on
# and, where the kernel records syscall user strings, the path copied
# (syscall_user_buf_size at its default) or not (0).
st_openat_none() {
	BENCH_CALL=openat $BENCH > $W/out 2> $W/err
	report openat_none $W/out
}
# call_traced STATE CALL EVENT KNOB: the BENCH_CALL=CALL loop with
# syscalls/EVENT on and, where the kernel has it, syscall_user_buf_size at
# KNOB (restored after); count: events written on CPU 0
call_traced() {
	with_knob "$4" call_run "$2" "$3"
	report "$1" $W/out "$(ftrace_events)"
}
# call_run CALL EVENT: the BENCH_CALL=CALL loop with syscalls/EVENT on
call_run() {
	echo 1 > $T/events/syscalls/$2/enable
	BENCH_CALL=$1 $BENCH > $W/out 2> $W/err
	echo 0 > $T/events/syscalls/$2/enable
}
st_openat_ftrace() {
	call_traced openat_ftrace openat sys_enter_openat 63
}
st_openat_ftrace_nostr() {
	call_traced openat_ftrace_nostr openat sys_enter_openat 0
}
# openat() of a resident 63-character path (a 64-byte string,
# BENCH_CALL=openat64): untraced, and with a BPF raw_tp program on
# sys_enter that copies the path (bench_copystr): the sleepable
# bpf_copy_from_user_str() kfunc where the kernel has it, else a program
# that is not sleepable with bpf_probe_read_user_str().  count: copies of
# the whole string.
st_openat64_none() {
	BENCH_CALL=openat64 $BENCH > $W/out 2> $W/err
	report openat64_none $W/out
}
st_openat64_bpf_copystr() {
	BENCH_CALL=openat64 $PIN bench_copystr run $BENCH > $W/out 2> $W/err
	report openat64_bpf_copystr $W/out "$(sed -n 's/^bench_copystr: count=\([0-9]*\) .*/\1/p' $W/out)"
	sed -n 's/^bench_copystr: /bench_copystr: /p' $W/out
}
# the same copy by a tracepoint program (perf) on syscalls:sys_enter_openat:
# sleepable with the kfunc where the kernel runs them (0025), else
# bpf_probe_read_user_str() (what bpftrace's tracepoint: probes and
# libbpf-tools' tp programs do)
st_openat64_bpf_tpcopy() {
	BENCH_CALL=openat64 $PIN bench_copystr run-tp $BENCH > $W/out 2> $W/err
	report openat64_bpf_tpcopy $W/out "$(sed -n 's/^bench_copystr: count=\([0-9]*\) .*/\1/p' $W/out)"
	sed -n 's/^bench_copystr: /bench_copystr: /p' $W/out
}
# What ftrace's record of a write() buffer costs against that of a path:
# the openat64 loop with sys_enter_openat on, and a write() of a resident
# 64-byte buffer to /dev/null (BENCH_CALL=write64) with sys_enter_write on,
# each with syscall_user_buf_size 63 (the path's 63 characters, the
# buffer's first 63 bytes recorded, where the kernel records them) and 1
# (one byte each: the probe still sleeps and copies, so the difference
# holds no fixed cost).  The host takes (write64_ftrace -
# write64_ftrace_1) / (openat64_ftrace - openat64_ftrace_1): the price of
# 62 more bytes of the buffer against 62 more of the path.
st_openat64_ftrace() {
	call_traced openat64_ftrace openat64 sys_enter_openat 63
}
st_openat64_ftrace_1() {
	call_traced openat64_ftrace_1 openat64 sys_enter_openat 1
}
st_write64_ftrace() {
	call_traced write64_ftrace write64 sys_enter_write 63
}
st_write64_ftrace_1() {
	call_traced write64_ftrace_1 write64 sys_enter_write 1
}
st_rawtp_cycle() {
	taskset 1 bench_rawtp cycle "$cycles" > $W/out 2> $W/err
	r=$(sed -n 's/^bench_rawtp: cycle \(ns=.*\)$/\1/p' $W/out)
	if [ -n "$r" ]; then out "rawtp_cycle $r"; else out "error rawtp_cycle $(tr '\n' ' ' < $W/err)"; fi
}
