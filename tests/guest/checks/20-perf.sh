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
#  perf.trace_args_renameat2  the same for tp_rename's renameat2 (five
#                        arguments, two strings: seven fields with 0010)
#  perf.trace_event_path perf trace -e syscalls:sys_enter_openat (the event
#                        itself): the same arguments, filename the path
#                        tp_open opened (0023 with 0010's strings) or the
#                        pointer (0022 alone); SKIP with a perf without 0022
#  perf.trace_event_renameat2  the same for sys_enter_renameat2: both paths
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
	# (flags and mode: OFL_TEP, decoded from 0027)
	want="tp_open $pid syscalls:sys_enter_openat: dfd: 0xffffffffffffff9c, filename: 0x$ptr, $OFL_TEP"
	# with the follow-up, the path follows the pointer (15-ustrings.sh)
	has_feature ustrings &&
		want="tp_open $pid syscalls:sys_enter_openat: dfd: 0xffffffffffffff9c, filename: 0x$ptr \"$TARGET\", $OFL_TEP"
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
# trace.show_zeros: print zero arguments too, and so any extra "argument"
# whatever its value (perf 6.1 has no --show-zeros option)
printf '[trace]\n\tshow_zeros = yes\n' > $W/perfconfig
# low32 HEX: how perf 6.1 prints a pointer it has no string for ("%#x")
low32() { printf '%#x' $((0x${1:-0} & 0xffffffff)); }

# --sort-events: perf trace reads the per-CPU buffers in turn and, unsorted,
# handles an event of one CPU before an earlier one of another.  When PROG
# migrates, it then prints its openat as "... [continued]: openat())" (the
# exit before the enter), or as ":PID/PID" (the call before exec's COMM):
# a CI run lost tp_open's line so, and 1 of 40 runs beside two CPU hogs did.
# pt_check NAME SELECTOR CALL WANT_NAMES "ARG=WANT..." PROG PROGARGS...:
# perf trace -e SELECTOR of PROG; PROG's line "PROG: pid=PID ARG=HEX ..."
# gives the pid and the pointers.  Exactly one line "PROG/PID CALL(...)",
# its argument names WANT_NAMES, each ARG printed as WANT: "ptr" (the
# low 32 bits of PROG's pointer ARG) or "path:PATH" (the quoted PATH).
pt_check() {
	name=$1 sel=$2 call=$3 want_names=$4 wants=$5 prog=$6
	shift 5
	PERF_CONFIG=$W/perfconfig perf trace --sort-events -e $sel -o $W/pt.out -- "$@" > $W/pt.prog 2> $W/pt.err
	rc=$?
	echo "--- perf trace -e $sel (rc $rc):"
	cat $W/pt.out $W/pt.prog $W/pt.err
	pid=$(sed -n 's/.* pid=\([0-9]*\) .*/\1/p' $W/pt.prog)
	for kv in $(sed -n "s/^$prog: pid=[0-9]* //p" $W/pt.prog); do
		eval "PTR_${kv%%=*}=${kv#*=}"
	done
	# "0.000 ( 0.010 ms): tp_open/123 openat(dfd: CWD, ...)   = 3" or
	# "0.000 tp_open/123 syscalls:sys_enter_openat(dfd: CWD, ...)"
	sed -n "s|.* $prog/$pid $call(\(.*\))[^)]*\$|\1|p" $W/pt.out > $W/pt.line
	awk -F', ' '{ for (i = 1; i <= NF; i++) print $i }' $W/pt.line > $W/pt.args
	names=$(sed 's/:.*//' $W/pt.args | tr '\n' ' ')
	if [ "$rc" != 0 ] || [ -z "$pid" ]; then
		ktap_fail $name "perf trace failed (rc $rc): $(tail -n 3 $W/pt.err | tr '\n' ' ')"
		return
	fi
	if [ "$(wc -l < $W/pt.line)" != 1 ]; then
		ktap_fail $name "want one $call of $prog/$pid; got $(wc -l < $W/pt.line)"
		return
	fi
	if [ "$names" != "$want_names " ]; then
		ktap_fail $name "$call's arguments printed as '$names', want '$want_names'"
		return
	fi
	for kv in $wants; do
		arg=${kv%%=*}
		case ${kv#*=} in
		ptr) want=$(eval "low32 \${PTR_$arg:-}") ;;
		path:*) want="\"${kv#*=path:}\"" ;;
		*) ktap_fail $name "test bug: '$kv' is no ARG=ptr or ARG=path:PATH"; return ;;
		esac
		got=$(sed -n "s/^$arg: //p" $W/pt.args)
		if [ "$got" != "$want" ]; then
			ktap_fail $name "$arg printed as '$got', want $want"
			return
		fi
	done
	ktap_pass $name
}

RENAME_A=$W/rename-a RENAME_B=$W/rename-b
: > $RENAME_A

# The syscalls (through raw_syscalls:sys_enter): exactly the arguments
# perf 6.1 prints on baseline; renameat2 has seven fields with 0010.
if has_feature ustrings && ! perf_has perftrace; then
	why="the guest's perf lacks patch 0022 ($(cat /tests/perf-origin 2>/dev/null)): it takes 0010's fields for arguments"
	ktap_skip perf.trace_args "$why"
	ktap_skip perf.trace_args_renameat2 "$why"
else
	pt_check perf.trace_args openat openat "dfd filename flags" \
		filename=ptr tp_open $TARGET
	pt_check perf.trace_args_renameat2 renameat2 renameat2 \
		"olddfd oldname newdfd newname flags" \
		'oldname=ptr newname=ptr' \
		tp_rename $RENAME_A $RENAME_B
fi

# The events themselves: the same arguments through the same beautifiers,
# the paths where the kernel records them and perf reads them (0023),
# else the pointers (0022 alone: no payload taken from the event's data).
mv $RENAME_B $RENAME_A 2> /dev/null
if perf_has perftracestr && has_feature ustrings; then
	pt_check perf.trace_event_path syscalls:sys_enter_openat syscalls:sys_enter_openat \
		"dfd filename flags" "filename=path:$TARGET" tp_open $TARGET
	pt_check perf.trace_event_renameat2 syscalls:sys_enter_renameat2 \
		syscalls:sys_enter_renameat2 "olddfd oldname newdfd newname flags" \
		"oldname=path:$RENAME_A newname=path:$RENAME_B" \
		tp_rename $RENAME_A $RENAME_B
elif perf_has perftrace; then
	pt_check perf.trace_event_path syscalls:sys_enter_openat syscalls:sys_enter_openat \
		"dfd filename flags" filename=ptr tp_open $TARGET
	pt_check perf.trace_event_renameat2 syscalls:sys_enter_renameat2 \
		syscalls:sys_enter_renameat2 "olddfd oldname newdfd newname flags" \
		'oldname=ptr newname=ptr' \
		tp_rename $RENAME_A $RENAME_B
else
	why="perf without patch 0022 takes the event's own data after the arguments for an augmenter's payload"
	ktap_skip perf.trace_event_path "$why"
	ktap_skip perf.trace_event_renameat2 "$why"
fi

pf_clean
