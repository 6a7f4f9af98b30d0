# 10-ftrace.sh: syscall events through tracefs (shared: baseline and patched).
#  ftrace.openat_*     syscalls:sys_{enter,exit}_openat and
#                      raw_syscalls:sys_{enter,exit} record tp_open's openat
#                      exactly (pid, dfd, filename pointer, flags, mode, NR, fd)
#  ftrace.disabled     with every event off, tp_open records nothing
#  ftrace.filter_pid   a common_pid filter on sys_enter_openat keeps only
#                      that task's lines
#  ftrace.filter_subsystem  a filter written to events/syscalls/filter is
#                      set on each event of the subsystem, and "0" there
#                      clears every one (6.1 frees them one by one under
#                      event_mutex: a splat of its RCU lockdep check on
#                      the filter pointer fails the run)
#  ftrace.hist_trigger a hist trigger on raw_syscalls:sys_enter, keyed by
#                      pid and id and filtered on id, counts tp_syscalls'
#                      getppid calls exactly
#  ftrace.preempt_depth_syscalls      syscalls:sys_enter_getppid and
#  ftrace.preempt_depth_raw_syscalls  raw_syscalls:sys_enter record
#                      tp_syscalls' getppid calls with the preempt depth of
#                      the call site: every line's preempt-depth and
#                      migrate-disable columns, and a hist trigger keyed on
#                      common_preempt_count (all N hits at one value)
#  ftrace.openat_flags an openat(O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0640):
#                      its flags decoded and the mode in octal, as upstream
#                      6.19 prints them (feature openatflags; raw "80241",
#                      "1a0" before); tp_open's O_RDONLY|O_CLOEXEC without
#                      the mode (ftrace.openat_fields); the verbose option
#                      prints the raw values on every kernel
# Sourced by run-checks.sh after ktap.sh; busybox sh, POSIX only.
set -u

T=/sys/kernel/tracing
W=/tmp/ftrace-check
TARGET=/tmp/tpsleep-open-target
# NR_OPENAT, NR_GETPPID: ktap.sh, per architecture (tp_syscalls prints
# getppid's too)
EVS="syscalls/sys_enter_openat syscalls/sys_exit_openat raw_syscalls/sys_enter raw_syscalls/sys_exit"
HIST_TRIGGER="hist:keys=common_pid,id if id == $NR_GETPPID"
HIST_N=1000
PD_N=20

# Back to a clean tracefs: no event, filter, trigger, pid filter; empty buffer.
ft_clean() {
	echo 0 > $T/events/enable
	for ev in $EVS syscalls/sys_enter_getppid; do
		echo 0 > $T/events/$ev/filter
		grep -v '^#' $T/events/$ev/trigger | sed 's/ \[.*//' |
		while read -r trig; do echo "!$trig" > $T/events/$ev/trigger; done
	done
	echo > $T/set_event_pid
	echo 0 > $T/options/verbose
	echo nop > $T/current_tracer
	echo > $T/trace
	echo 1 > $T/tracing_on
}

# ft_field FILE KEY: the value of KEY=VALUE in tp_open/tp_syscalls output
ft_field() {
	sed -n "s/.* $2=\([^ ]*\).*/\1/p" "$1" | tail -n 1
}

# ft_expect_count NAME COUNT FILE FIXED-STRING: FILE has COUNT lines with it
ft_expect_count() {
	c=$(grep -cF -- "$4" "$3")
	if [ "$c" = "$2" ]; then
		return 0
	fi
	echo "$1: expected $2 line(s) containing '$4', found $c"
	ft_fail_why="$ft_fail_why$1: $c x '$4' (want $2); "
	return 1
}

rm -rf $W
mkdir -p $W
echo target > $TARGET
ft_clean

# --- 1. all four events on, one openat, fields exact --------------------
for ev in $EVS; do echo 1 > $T/events/$ev/enable; done
tp_open $TARGET > $W/open1.out
rc=$?
echo 0 > $T/tracing_on
cat $T/trace > $W/trace1
cat $W/open1.out
pid=$(ft_field $W/open1.out pid)
ptr=$(ft_field $W/open1.out filename)
fd=$(ft_field $W/open1.out fd)
flags=$(ft_field $W/open1.out flags)
if [ "$rc" != 0 ] || [ -z "$pid" ] || [ -z "$ptr" ] || [ -z "$fd" ] || [ "$flags" != 0x80000 ]; then
	ktap_fail ftrace.openat_run "tp_open failed (rc $rc): $(cat $W/open1.out)"
else
	ktap_pass ftrace.openat_run
	# Only tp_open's lines; the comm is the saved one, not <...>.
	grep -E "^ *tp_open-$pid +\[" $W/trace1 > $W/mine1
	echo "--- trace lines of tp_open-$pid:"
	sed 's/^/  ftrace: /' $W/mine1
	fdhex=$(printf '%x' "$fd")
	# syscalls:sys_enter_openat: every argument, printed %lx
	# (flags and mode: OFL_FT, decoded from 0027)
	enter="sys_openat(dfd: ffffffffffffff9c, filename: $ptr, $OFL_FT"
	# with the follow-up, the path follows the pointer (15-ustrings.sh)
	has_feature ustrings &&
		enter="sys_openat(dfd: ffffffffffffff9c, filename: $ptr \"$TARGET\", $OFL_FT"
	ft_fail_why=
	# tp_open makes exactly one openat: one line of each kind.
	if ft_expect_count enter 1 $W/mine1 "$enter" &&
	   ft_expect_count enter_any 1 $W/mine1 "sys_openat(" &&
	   ft_expect_count exit 1 $W/mine1 "sys_openat -> 0x$fdhex" &&
	   ft_expect_count exit_any 1 $W/mine1 "sys_openat -> "; then
		# and the exit comes after the enter
		le=$(grep -nF -- "$enter" $W/mine1 | cut -d: -f1)
		lx=$(grep -nF -- "sys_openat -> 0x$fdhex" $W/mine1 | cut -d: -f1)
		if [ "$le" -lt "$lx" ]; then
			ktap_pass ftrace.openat_fields
		else
			ktap_fail ftrace.openat_fields "sys_exit_openat (line $lx) before sys_enter_openat (line $le)"
		fi
	else
		ktap_fail ftrace.openat_fields "$ft_fail_why"
	fi
	# raw_syscalls: NR openat and its first four arguments, then "= fd"
	ft_fail_why=
	if ft_expect_count raw_enter 1 $W/mine1 "sys_enter: NR $NR_OPENAT (ffffffffffffff9c, $ptr, 80000, 0, " &&
	   ft_expect_count raw_enter_any 1 $W/mine1 "sys_enter: NR $NR_OPENAT (" &&
	   ft_expect_count raw_exit 1 $W/mine1 "sys_exit: NR $NR_OPENAT = $fd"; then
		ktap_pass ftrace.openat_raw_syscalls
	else
		ktap_fail ftrace.openat_raw_syscalls "$ft_fail_why"
	fi
fi

# --- 2. everything off: nothing recorded --------------------------------
ft_clean
tp_open $TARGET > $W/open2.out
on=$(cat $T/tracing_on)
grep -v '^#' $T/trace > $W/trace2
if [ "$on" != 1 ]; then
	ktap_fail ftrace.disabled "tracing_on is '$on', the test would prove nothing"
elif [ -s $W/trace2 ]; then
	ktap_fail ftrace.disabled "$(wc -l < $W/trace2) line(s) with every event disabled: $(head -n 2 $W/trace2 | tr '\n' ' ')"
else
	ktap_pass ftrace.disabled
fi

# --- 3. event filter common_pid == PID on sys_enter_openat --------------
ft_clean
rm -f $W/fifo
mkfifo $W/fifo
tp_open --wait-fifo $W/fifo $TARGET > $W/open3.out &
fpid=$!
echo "common_pid == $fpid" > $T/events/syscalls/sys_enter_openat/filter
# Enable only once tp_open has opened the fifo (its own openat), so the
# one openat of it the event can see is the open of TARGET.
i=0
until grep -q "^tp_open: pid=$fpid ready\$" $W/open3.out || [ $i -ge 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
echo 1 > $T/events/syscalls/sys_enter_openat/enable
# a decoy that opens the same path while the filter is on
tp_open $TARGET > $W/decoy.out
dpid=$(ft_field $W/decoy.out pid)
echo go > $W/fifo          # lets the filtered tp_open open TARGET
wait $fpid
rc=$?
echo 0 > $T/tracing_on
filt=$(cat $T/events/syscalls/sys_enter_openat/filter)
cat $T/trace > $W/trace3
cat $W/open3.out $W/decoy.out
ptr=$(ft_field $W/open3.out filename)
grep -v '^#' $W/trace3 > $W/lines3
lines=$(wc -l < $W/lines3)
ustr=
has_feature ustrings && ustr=" \"$TARGET\""   # the path follows the pointer
mine=$(grep -cE "^ *tp_open-$fpid +\[.* sys_openat\(dfd: ffffffffffffff9c, filename: $ptr$ustr, $OFL_FT_RE\$" $W/lines3)
others=$(grep -cvE "^ *tp_open-$fpid +\[" $W/lines3)
if [ "$rc" != 0 ] || [ -z "$ptr" ] || [ -z "$dpid" ]; then
	ktap_fail ftrace.filter_pid "tp_open failed (rc $rc): $(cat $W/open3.out $W/decoy.out | tr '\n' ' ')"
elif [ "$filt" != "common_pid == $fpid" ]; then
	ktap_fail ftrace.filter_pid "filter reads back '$filt'"
elif [ "$lines" != 1 ] || [ "$mine" != 1 ] || [ "$others" != 0 ]; then
	ktap_fail ftrace.filter_pid "want exactly tp_open-$fpid's openat: $lines line(s), $mine of it, $others of others (decoy $dpid): $(head -n 3 $W/lines3 | tr '\n' ' ')"
else
	ktap_pass ftrace.filter_pid
fi

# --- 3b. a filter on the whole syscalls subsystem, then cleared ---------
ft_clean
SUBF="common_pid == 1"
why=
if ! echo "$SUBF" > $T/events/syscalls/filter; then
	why="cannot set '$SUBF' on events/syscalls/filter"
else
	for ev in sys_enter_openat sys_exit_getppid; do
		f=$(cat $T/events/syscalls/$ev/filter)
		[ "$f" = "$SUBF" ] || why="$why $ev reads back '$f' once set;"
	done
	echo 0 > $T/events/syscalls/filter || why="$why cannot write 0;"
	for ev in sys_enter_openat sys_exit_getppid; do
		f=$(cat $T/events/syscalls/$ev/filter)
		[ "$f" = none ] || why="$why $ev reads back '$f' once cleared;"
	done
fi
if [ -z "$why" ]; then ktap_pass ftrace.filter_subsystem; else ktap_fail ftrace.filter_subsystem "$why"; fi

# --- 4. hist trigger: keys=common_pid,id if id == getppid ---------------
ft_clean
trig=$T/events/raw_syscalls/sys_enter/trigger
if ! echo "$HIST_TRIGGER" > $trig; then
	ktap_fail ftrace.hist_trigger "cannot set '$HIST_TRIGGER'"
else
	tp_syscalls $HIST_N > $W/sys4.out
	rc=$?
	cat $T/events/raw_syscalls/sys_enter/hist > $W/hist4
	echo "!$HIST_TRIGGER" > $trig
	cat $W/sys4.out
	cat $W/hist4
	spid=$(ft_field $W/sys4.out pid)
	snr=$(ft_field $W/sys4.out nr)
	# "{ common_pid:        134, id:        110 } hitcount:       1000"
	grep '^{' $W/hist4 | tr -s ' ' > $W/entries4
	hits=$(sed -n "s/^{ common_pid: $spid, id: $NR_GETPPID } hitcount: \([0-9]*\)\$/\1/p" $W/entries4)
	wrong_id=$(grep -cv "id: $NR_GETPPID }" $W/entries4)
	left=$(grep -cv '^#' $trig)
	if [ "$rc" != 0 ] || [ "$snr" != "$NR_GETPPID" ]; then
		ktap_fail ftrace.hist_trigger "tp_syscalls failed (rc $rc) or getppid is not $NR_GETPPID: $(cat $W/sys4.out)"
	elif [ "$hits" != "$HIST_N" ]; then
		ktap_fail ftrace.hist_trigger "hitcount for pid $spid id $NR_GETPPID is '${hits:-none}', want $HIST_N"
	elif [ "$wrong_id" != 0 ]; then
		ktap_fail ftrace.hist_trigger "$wrong_id entries with id != $NR_GETPPID: the trigger filter leaked"
	elif [ "$left" != 0 ]; then
		ktap_fail ftrace.hist_trigger "trigger not removed: $(cat $trig | tr '\n' ' ')"
	else
		ktap_pass ftrace.hist_trigger
	fi
fi

# --- 5. preempt depth recorded for a syscall event ---------------------
# trace_event_buffer_reserve() records tracing_gen_ctx_dec(): the preempt
# count at the probe minus the one level the tracepoint is assumed to hold
# (CONFIG_PREEMPTION; include/linux/trace_events.h).  getppid() enters the
# tracepoint preemptible, so exactly one level held while ftrace records
# gives depth 0 ("." in the preempt-depth column).
#  raw_syscalls:sys_enter: 0 on every kernel.  Without patch 5 the level is
#    __DO_TRACE()'s preempt_disable_notrace(); with it sys_enter is
#    may-sleep and the class probe (DECLARE_EVENT_SYSCALL_CLASS in
#    include/trace/trace_events.h) takes it instead.
#  syscalls:sys_enter_getppid: ftrace_syscall_enter() takes
#    guard(preempt_notrace)() itself: in Debian's 6.1.192 already (stable
#    backport of "tracing/ftrace: guard syscall probe with
#    preempt_notrace"), so without patch 5 two levels are held (the
#    tracepoint's and the probe's) and 2 - 1 = 1 is recorded ("...1.");
#    with patch 5 the probe's is the only one: 0.
ft_clean
PD_SYS=$T/events/syscalls/sys_enter_getppid
PD_RAW=$T/events/raw_syscalls/sys_enter
PD_SYS_TRIG="hist:keys=common_pid,common_preempt_count"
PD_RAW_TRIG="hist:keys=common_pid,common_preempt_count if id == $NR_GETPPID"
if has_feature syscalls; then pd_sys=0; else pd_sys=1; fi
pd_raw=0
irqinfo=$(cat $T/options/irq-info)
tgid=$(cat $T/options/record-tgid)
pd_ok=1
# The context columns are in the default output (irq-info); no tgid column.
echo 1 > $T/options/irq-info || pd_ok=0
echo 0 > $T/options/record-tgid || pd_ok=0
echo "$PD_SYS_TRIG" > $PD_SYS/trigger || pd_ok=0
echo "$PD_RAW_TRIG" > $PD_RAW/trigger || pd_ok=0
echo 1 > $PD_SYS/enable || pd_ok=0
echo 1 > $PD_RAW/enable || pd_ok=0
tp_syscalls $PD_N > $W/sys5.out
rc=$?
echo 0 > $T/tracing_on
cat $T/trace > $W/trace5
cat $PD_SYS/hist > $W/hist5.sys
cat $PD_RAW/hist > $W/hist5.raw
echo "!$PD_SYS_TRIG" > $PD_SYS/trigger
echo "!$PD_RAW_TRIG" > $PD_RAW/trigger
echo "$irqinfo" > $T/options/irq-info
echo "$tgid" > $T/options/record-tgid
cat $W/sys5.out
spid=$(ft_field $W/sys5.out pid)
echo "preempt depth: want $pd_sys for syscalls:sys_enter_getppid, $pd_raw for raw_syscalls:sys_enter"

# pd_check NAME TEXT HIST WANT: tp_syscalls-$spid has exactly PD_N trace
# lines containing TEXT, each with preempt depth WANT and migrate-disable 0
# in the context columns ("irqs-off need-resched hardirq/softirq
# preempt-depth migrate-disable", kernel/trace/trace_output.c
# trace_print_lat_fmt()), and HIST has the single entry for $spid
# "{ common_pid: $spid, common_preempt_count: WANT } hitcount: PD_N".
pd_check() {
	if [ "$4" = 0 ]; then pd_c=.; else pd_c=$4; fi
	grep -E "^ *[^ ].*-$spid +\[[0-9]+\] " $W/trace5 | grep -F -- "$2" > $W/pd.$1
	pd_lines=$(wc -l < $W/pd.$1)
	sed -n "s/^.*-$spid  *\[[0-9]*\] \(.....\) .*\$/\1/p" $W/pd.$1 > $W/pd.$1.flags
	pd_good=$(grep -c "^...[$pd_c][.]\$" $W/pd.$1.flags)
	pd_cols=$(sort $W/pd.$1.flags | uniq -c | tr -s ' \n' '  ')
	grep '^{' "$3" | tr -s ' ' > $W/pd.$1.hist
	pd_want="{ common_pid: $spid, common_preempt_count: $4 } hitcount: $PD_N"
	pd_mine=$(grep -c "^{ common_pid: $spid, " $W/pd.$1.hist)
	pd_exact=$(grep -cxF -- "$pd_want" $W/pd.$1.hist)
	echo "--- $1: $pd_lines line(s) of tp_syscalls-$spid, context columns:$pd_cols"
	head -n 2 $W/pd.$1 | sed "s/^/  $1: /"
	grep "^{ common_pid: $spid, " $W/pd.$1.hist | sed "s/^/  hist: /"
	if [ "$pd_ok" != 1 ] || [ "$rc" != 0 ] || [ -z "$spid" ]; then
		ktap_fail "ftrace.$1" "setup ok=$pd_ok, tp_syscalls rc $rc: $(tr '\n' ' ' < $W/sys5.out)"
	elif [ "$pd_lines" != "$PD_N" ]; then
		ktap_fail "ftrace.$1" "$pd_lines line(s) with '$2' for tp_syscalls-$spid, want $PD_N"
	elif [ "$pd_good" != "$PD_N" ]; then
		ktap_fail "ftrace.$1" "want preempt-depth '$pd_c' ($4) and migrate-disable '.' on all $PD_N lines, $pd_good have them; columns:$pd_cols"
	elif [ "$pd_mine" != 1 ] || [ "$pd_exact" != 1 ]; then
		ktap_fail "ftrace.$1" "hist: want '$pd_want', got: $(grep "^{ common_pid: $spid, " $W/pd.$1.hist | tr '\n' ' ')"
	else
		ktap_pass "ftrace.$1"
	fi
}
pd_check preempt_depth_syscalls "sys_getppid()" $W/hist5.sys $pd_sys
pd_check preempt_depth_raw_syscalls "sys_enter: NR $NR_GETPPID (" $W/hist5.raw $pd_raw

# --- 6. openat()'s flags decoded -------------------------------------------
ft_clean
echo 1 > $T/events/syscalls/sys_enter_openat/enable
tp_ustr creat $W/flags-creat > $W/creat.out 2>&1
rc=$?
tp_ustr dir $W > $W/dir.out 2>&1
rc=$((rc + $?))
tp_ustr tmpfile $W > $W/tmpfile.out 2>&1
rc=$((rc + $?))
echo 0 > $T/tracing_on
cat $T/trace > $W/trace6
# (the option applies when the trace is read)
echo 1 > $T/options/verbose
cat $T/trace > $W/trace6v
echo 0 > $T/options/verbose
cptr=$(ft_field $W/creat.out ptr)
dptr=$(ft_field $W/dir.out ptr)
tptr=$(ft_field $W/tmpfile.out ptr)
# O_DIRECTORY: no mode (upstream shows one: it tests O_TMPFILE, which
# includes O_DIRECTORY); O_TMPFILE: the mode
if has_feature openatflags; then
	cwant="flags: O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, mode: 0640)"
	dwant="flags: O_RDONLY|O_DIRECTORY|O_CLOEXEC)"
	twant="flags: O_TMPFILE|O_WRONLY, mode: 0600)"
else	# (O_DIRECTORY is 040000 on arm64, 0200000 on x86)
	cwant="flags: 80241, mode: 1a0)"
	case $(uname -m) in
	aarch64) dwant="flags: 84000, mode: 0)" twant="flags: 404001, mode: 180)" ;;
	*) dwant="flags: 90000, mode: 0)" twant="flags: 410001, mode: 180)" ;;
	esac
fi
c=$(grep -E "filename: $cptr[ ,]" $W/trace6 | grep -cF -- "$cwant")
d=$(grep -E "filename: $dptr[ ,]" $W/trace6 | grep -cF -- "$dwant")
t=$(grep -E "filename: $tptr[ ,]" $W/trace6 | grep -cF -- "$twant")
v=$(grep -E "filename: $cptr[ ,]" $W/trace6v | grep -cF -- "int flags: 80241, umode_t mode: 1a0)")
grep -hE -e "filename: ($cptr|$dptr|$tptr)[ ,]" $W/trace6 $W/trace6v | sed 's/^/  ftrace: /'
if [ "$rc" = 0 ] && [ -n "$cptr" ] && [ "$c$d$t$v" = 1111 ]; then
	ktap_pass ftrace.openat_flags
else
	ktap_fail ftrace.openat_flags "rc $rc; lines: '$cwant' $c, '$dwant' $d, '$twant' $t, verbose 'int flags: 80241, umode_t mode: 1a0)' $v (want 1 each)"
fi

ft_clean
rm -rf $W $TARGET
