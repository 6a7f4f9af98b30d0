# 20-perf.sh: syscall tracepoints through perf (shared: baseline and patched).
#  perf.stat_getppid     perf stat counts syscalls:sys_enter_getppid of
#                        "tp_syscalls 10000": exactly 10000
#  perf.stat_raw_syscalls and raw_syscalls:sys_enter: 10000 getppid plus
#                        the program's own calls (17 on glibc 2.36: startup,
#                        one write, exit_group), accepted 10001..10100
#  perf.record_openat    perf record -e syscalls:sys_enter_openat of tp_open,
#                        perf script shows exactly its one openat: comm,
#                        pid, filename pointer, flags
#  perf.trace_args       perf trace -e openat (trace.show_zeros) of tp_open prints
#                        its openat with exactly the arguments perf 6.1
#                        prints on baseline: dfd, filename (the pointer,
#                        "%#x": its low 32 bits), flags (mode is hidden
#                        without O_CREAT); none of the event's other fields
#  perf.trace_event_path perf trace -e syscalls:sys_enter_openat (the event
#                        itself): the same arguments, filename the path
#                        tp_open opened (0023 with 0007's strings) or the
#                        pointer (0022 alone); SKIP with a perf without 0022
# The guest's perf is the variant's own on x86_64 (/tests/perf-origin).
# Sourced by run-checks.sh after ktap.sh; busybox sh, POSIX only.
set -u

T=/sys/kernel/tracing
W=/tmp/perf-check
N=10000
RAW_MAX=$((N + 100))
TARGET=/tmp/tpsleep-perf-target
# perf: no build-id cache (~/.debug), a small ring buffer for a 2 GiB guest
export HOME=/tmp
PERF_REC="-N -m 16"

pf_clean() {
	echo 0 > $T/events/enable
	echo > $T/trace
	echo 1 > $T/tracing_on
	rm -rf $W $TARGET
}

# pf_count FILE EVENT: the count perf stat -x, wrote for EVENT
pf_count() {
	awk -F, -v ev="$2" '$3 == ev { print $1 }' "$1"
}

pf_clean
mkdir -p $W
echo target > $TARGET

# (no perf binary: rc 127, every test fails with it)
# --- perf stat --------------------------------------------------------------
perf stat -x, -o $W/stat.csv -e syscalls:sys_enter_getppid -e raw_syscalls:sys_enter \
	-- tp_syscalls $N > $W/stat.out 2> $W/stat.err
rc=$?
echo "--- perf stat (rc $rc):"
cat $W/stat.out $W/stat.err $W/stat.csv
getppid=$(pf_count $W/stat.csv syscalls:sys_enter_getppid)
raw=$(pf_count $W/stat.csv raw_syscalls:sys_enter)
if [ "$rc" != 0 ] || ! grep -q "getppid=$N " $W/stat.out; then
	ktap_fail perf.stat_getppid "perf stat failed (rc $rc): $(tail -n 3 $W/stat.err | tr '\n' ' ')"
	ktap_fail perf.stat_raw_syscalls "perf stat failed (rc $rc)"
else
	if [ "$getppid" = "$N" ]; then
		ktap_pass perf.stat_getppid
	else
		ktap_fail perf.stat_getppid "syscalls:sys_enter_getppid counted '$getppid', want $N"
	fi
	case "$raw" in
	''|*[!0-9]*) ktap_fail perf.stat_raw_syscalls "raw_syscalls:sys_enter count is '$raw'" ;;
	*)
		if [ "$raw" -gt "$N" ] && [ "$raw" -le "$RAW_MAX" ]; then
			ktap_pass perf.stat_raw_syscalls
		else
			ktap_fail perf.stat_raw_syscalls "raw_syscalls:sys_enter counted $raw, want $((N + 1))..$RAW_MAX"
		fi ;;
	esac
fi

# --- perf record + perf script ---------------------------------------------
# shellcheck disable=SC2086
perf record $PERF_REC -e syscalls:sys_enter_openat -o $W/perf.data \
	-- tp_open $TARGET > $W/rec.out 2> $W/rec.err
rc=$?
echo "--- perf record (rc $rc):"
cat $W/rec.out $W/rec.err
pid=$(sed -n 's/.* pid=\([0-9]*\) .*/\1/p' $W/rec.out)
ptr=$(sed -n 's/.* filename=\([0-9a-f]*\) .*/\1/p' $W/rec.out)
if [ "$rc" != 0 ] || [ -z "$pid" ] || [ -z "$ptr" ]; then
	ktap_fail perf.record_openat "perf record failed (rc $rc): $(tail -n 3 $W/rec.err | tr '\n' ' ')"
else
	perf script -i $W/perf.data -F trace:comm,pid,event,trace > $W/script.out 2> $W/script.err
	rc=$?
	echo "--- perf script (rc $rc):"
	cat $W/script.out $W/script.err
	# "tp_open   123 syscalls:sys_enter_openat: dfd: 0xffffffffffffff9c,
	#  filename: 0x7ffd..., flags: 0x00080000, mode: 0x00000000"
	# (print fmt "0x%08lx" of each argument as unsigned long; a user stack
	# address has more than 8 digits, so it reads as tp_open's %lx)
	tr -s ' ' < $W/script.out | sed 's/^ //' > $W/script.norm
	want="tp_open $pid syscalls:sys_enter_openat: dfd: 0xffffffffffffff9c, filename: 0x$ptr, flags: 0x00080000, mode: 0x00000000"
	# with the follow-up, the path follows the pointer (15-ustrings.sh)
	has_feature ustrings &&
		want="tp_open $pid syscalls:sys_enter_openat: dfd: 0xffffffffffffff9c, filename: 0x$ptr \"$TARGET\", flags: 0x00080000, mode: 0x00000000"
	got=$(grep -cxF -- "$want" $W/script.norm)
	all=$(grep -c 'syscalls:sys_enter_openat' $W/script.norm)
	if [ "$rc" != 0 ]; then
		ktap_fail perf.record_openat "perf script failed (rc $rc): $(tail -n 3 $W/script.err | tr '\n' ' ')"
	elif [ "$got" != 1 ] || [ "$all" != 1 ]; then
		ktap_fail perf.record_openat "want exactly one '$want'; got $got of it, $all openat sample(s)"
	else
		ktap_pass perf.record_openat
	fi
fi

# --- perf trace ---------------------------------------------------------------
echo "--- perf: $(cat /tests/perf-origin 2>/dev/null || echo 'origin unknown')"
# perf_has TAG: the guest's perf carries the tool patch TAG: it is built
# from this kernel's tree (x86_64) and the tree has the patch.  Debian's
# perf (arm64) has none of them.
perf_has() {
	grep -q '^tree:' /tests/perf-origin 2>/dev/null && has_feature "$1"
}
# shellcheck disable=SC2086
# trace.show_zeros: print mode 0 too, and any extra "argument" whatever
# its value (perf 6.1 has no --show-zeros option)
printf '[trace]\n\tshow_zeros = yes\n' > $W/perfconfig
PERF_CONFIG=$W/perfconfig perf trace -e openat -o $W/trace.out -- tp_open $TARGET > $W/ttrace.out 2> $W/ttrace.err
rc=$?
echo "--- perf trace -e openat (rc $rc):"
cat $W/trace.out $W/ttrace.out $W/ttrace.err
pid=$(sed -n 's/.* pid=\([0-9]*\) .*/\1/p' $W/ttrace.out)
ptr=$(sed -n 's/.* filename=\([0-9a-f]*\) .*/\1/p' $W/ttrace.out)
# "0.000 ( 0.010 ms): tp_open/123 openat(dfd: CWD, filename: 0x7ffd..., ...) = 3"
# -> the argument names, and filename's value
sed -n "s|.* tp_open/$pid openat(\(.*\)) *= .*|\1|p" $W/trace.out > $W/trace.args
names=$(awk -F', ' '{ for (i = 1; i <= NF; i++) print $i }' $W/trace.args | sed 's/:.*//' | tr '\n' ' ')
fval=$(awk -F', ' '{ for (i = 1; i <= NF; i++) print $i }' $W/trace.args | sed -n 's/^filename: //p')
if has_feature ustrings && ! perf_has perftrace; then
	ktap_skip perf.trace_args "the guest's perf lacks patch 0022 ($(cat /tests/perf-origin 2>/dev/null)): it takes 0007's fields for arguments"
elif [ "$rc" != 0 ] || [ -z "$pid" ] || [ -z "$ptr" ]; then
	ktap_fail perf.trace_args "perf trace failed (rc $rc): $(tail -n 3 $W/ttrace.err | tr '\n' ' ')"
elif [ "$(wc -l < $W/trace.args)" != 1 ]; then
	ktap_fail perf.trace_args "want one openat of tp_open/$pid; got $(wc -l < $W/trace.args)"
elif [ "$names" != "dfd filename flags " ]; then
	ktap_fail perf.trace_args "openat's arguments printed as '$names', want 'dfd filename flags'"
elif [ "$fval" != "$(printf '%#x' $((0x$ptr & 0xffffffff)))" ]; then
	ktap_fail perf.trace_args "filename printed as '$fval', want tp_open's 0x$ptr (its low 32 bits)"
else
	ktap_pass perf.trace_args
fi

# The event itself: its arguments through the same beautifiers, with the
# path where the kernel records it and perf reads it (0023), else the
# pointer (0022 alone: no payload taken from the event's own data).
perf trace -e syscalls:sys_enter_openat -o $W/trace_ev.out -- tp_open $TARGET > $W/ttrace.out 2> $W/ttrace.err
rc=$?
echo "--- perf trace -e syscalls:sys_enter_openat (rc $rc):"
cat $W/trace_ev.out $W/ttrace.out $W/ttrace.err
pid=$(sed -n 's/.* pid=\([0-9]*\) .*/\1/p' $W/ttrace.out)
ptr=$(sed -n 's/.* filename=\([0-9a-f]*\) .*/\1/p' $W/ttrace.out)
sed -n "s|.* tp_open/$pid syscalls:sys_enter_openat(\(.*\))\$|\1|p" $W/trace_ev.out > $W/trace_ev.args
names=$(awk -F', ' '{ for (i = 1; i <= NF; i++) print $i }' $W/trace_ev.args | sed 's/:.*//' | tr '\n' ' ')
fval=$(awk -F', ' '{ for (i = 1; i <= NF; i++) print $i }' $W/trace_ev.args | sed -n 's/^filename: //p')
if perf_has perftracestr && has_feature ustrings; then
	want="\"$TARGET\""
elif perf_has perftrace; then
	want=$(printf '%#x' $((0x${ptr:-0} & 0xffffffff)))
else
	want=
fi
if [ -z "$want" ]; then
	ktap_skip perf.trace_event_path "perf without patch 0022 takes the event's own data after the arguments for an augmenter's payload"
elif [ "$rc" != 0 ] || [ -z "$pid" ] || [ -z "$ptr" ]; then
	ktap_fail perf.trace_event_path "perf trace failed (rc $rc): $(tail -n 3 $W/ttrace.err | tr '\n' ' ')"
elif [ "$(wc -l < $W/trace_ev.args)" != 1 ]; then
	ktap_fail perf.trace_event_path "want one sys_enter_openat of tp_open/$pid; got $(wc -l < $W/trace_ev.args)"
elif [ "$names" != "dfd filename flags " ]; then
	ktap_fail perf.trace_event_path "arguments printed as '$names', want 'dfd filename flags'"
elif [ "$fval" != "$want" ]; then
	ktap_fail perf.trace_event_path "filename printed as '$fval', want $want"
else
	ktap_pass perf.trace_event_path
fi

pf_clean
