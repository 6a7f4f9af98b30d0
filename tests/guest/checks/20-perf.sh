# 20-perf.sh: syscall tracepoints through perf (shared: baseline and patched).
#  perf.stat_getppid     perf stat counts syscalls:sys_enter_getppid of
#                        "tp_syscalls 10000": exactly 10000
#  perf.stat_raw_syscalls and raw_syscalls:sys_enter: 10000 getppid plus
#                        the program's own calls (17 on glibc 2.36: startup,
#                        one write, exit_group), accepted 10001..10100
#  perf.record_openat    perf record -e syscalls:sys_enter_openat of tp_open,
#                        perf script shows exactly its one openat: comm,
#                        pid, filename pointer, flags
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

pf_clean
