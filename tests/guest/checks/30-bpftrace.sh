# 30-bpftrace.sh: a syscall tracepoint through bpftrace (shared).
#  bpftrace.openat_filename  bpftrace on tracepoint:syscalls:sys_enter_openat,
#                            filtered on cpid, prints exactly one line, with
#                            tp_open's pid and the exact path it opened
# The guest kernel has no BTF and no headers: a stand-in <linux/types.h> is
# passed with -I (see bt_types_h); any warning bpftrace prints on stderr is
# accepted, the assertion is only on the probe's output and exit status.
# Sourced by run-checks.sh after ktap.sh; busybox sh, POSIX only.
set -u

T=/sys/kernel/tracing
W=/tmp/bpftrace-check
TARGET=/tmp/tpsleep-bpftrace/known-path

bt_clean() {
	echo 0 > $T/events/enable
	echo > $T/trace
	echo 1 > $T/tracing_on
	rm -rf $W /tmp/tpsleep-bpftrace
}

# Without BTF, bpftrace 0.17 puts "#include <linux/types.h>" in front of
# the struct it builds from a tracepoint's format file, and that struct uses
# kernel-internal types (sys_enter_openat: "int dfd" of size 8 becomes s64,
# "umode_t mode").  The guest has neither BTF nor kernel headers (bpftrace
# fails: "'linux/types.h' file not found"), so give it, through -I, the few
# typedefs of the kernel's include/linux/types.h and int-ll64.h it needs.
# The file is tests/bench/bpftrace-types.h, shared with the bench guest.
bt_types_h() {
	mkdir -p $W/inc/linux
	cp /tests/bench/bpftrace-types.h $W/inc/linux/types.h
}

bt_clean
mkdir -p $W /tmp/tpsleep-bpftrace
echo target > $TARGET
bt_types_h

if ! command -v bpftrace > /dev/null; then
	ktap_fail bpftrace.openat_filename "no bpftrace binary in the guest"
else
	# The probe line: "bt: PID PATH"; tp_open's own line goes to stdout too.
	# -I $W/inc: our stand-in <linux/types.h> (bt_types_h above).
	bpftrace -I $W/inc -e 'tracepoint:syscalls:sys_enter_openat /pid == cpid/ {
		printf("bt: %d %s\n", pid, str(args->filename)); }' \
		-c "/tests/bin/tp_open $TARGET" > $W/bt.out 2> $W/bt.err
	rc=$?
	echo "--- bpftrace (rc $rc):"
	sed 's/^/  bpftrace: /' $W/bt.out
	cat $W/bt.err
	pid=$(sed -n 's/^tp_open: pid=\([0-9]*\) .* fd=\([0-9]*\)$/\1/p' $W/bt.out)
	fd=$(sed -n 's/^tp_open: .* fd=\(-*[0-9]*\)$/\1/p' $W/bt.out)
	want="bt: $pid $TARGET"
	got=$(grep -cxF -- "$want" $W/bt.out)
	all=$(grep -c '^bt: ' $W/bt.out)
	if [ "$rc" != 0 ]; then
		ktap_fail bpftrace.openat_filename "bpftrace exited $rc: $(tail -n 3 $W/bt.err | tr '\n' ' ')"
	elif [ -z "$pid" ] || [ -z "$fd" ] || [ "$fd" -lt 0 ]; then
		ktap_fail bpftrace.openat_filename "tp_open did not run or its open failed: $(grep tp_open $W/bt.out | tr '\n' ' ')"
	elif [ "$got" != 1 ] || [ "$all" != 1 ]; then
		ktap_fail bpftrace.openat_filename "want exactly '$want': $got of it, $all probe line(s)"
	else
		ktap_pass bpftrace.openat_filename
	fi
fi

bt_clean
