# 35-libbpf-tools.sh: Debian's libbpf-tools, real CO-RE clients (shared).
#  libbpf_tools.btf        /sys/kernel/btf/vmlinux exists (CONFIG_DEBUG_INFO_BTF)
#  libbpf_tools.opensnoop  opensnoop shows tp_open's openat() of a known
#                          path, with tp_open's pid
#  libbpf_tools.execsnoop  execsnoop shows an execve() with a marker argument
#  libbpf_tools.syscount   syscount counts at least the 5000 getppid()
#                          calls of one run of tp_syscalls
# Each tool starts in the background; the workload runs once the tool
# printed its header (it is attached then); the tool is stopped with
# SIGINT.  syscount ends by itself (-d), see below.
# Sourced by run-checks.sh after ktap.sh; busybox sh, POSIX only.
set -u

LW=/tmp/libbpf-tools-check
rm -rf $LW
mkdir -p $LW

# lt_wait FILE PATTERN SECONDS [PID]: until FILE has a line matching
# PATTERN (or process PID is gone)
lt_wait() {
	local _i=0
	while [ "$_i" -lt "$(($3 * 10))" ]; do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		[ -n "${4:-}" ] && ! kill -0 "$4" 2>/dev/null && return 1
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# lt_stop PID: SIGINT, then wait for it (at most 30 s, then SIGKILL)
lt_stop() {
	local _i=0
	kill -INT "$1" 2>/dev/null
	while kill -0 "$1" 2>/dev/null && [ "$_i" -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

lt_show() {
	echo "--- $1 (stdout, stderr):"
	sed "s/^/[libbpf-tools] $1: /" $LW/$1.out
	sed "s/^/[libbpf-tools] $1 (stderr): /" $LW/$1.err
}

if [ -r /sys/kernel/btf/vmlinux ]; then
	ktap_pass libbpf_tools.btf
else
	ktap_fail libbpf_tools.btf "no /sys/kernel/btf/vmlinux: the kernel has no BTF"
fi

# opensnoop
echo known > $LW/opensnoop-known-path
opensnoop > $LW/opensnoop.out 2> $LW/opensnoop.err &
op=$!
if lt_wait $LW/opensnoop.out '^PID' 60 $op; then
	/tests/bin/tp_open $LW/opensnoop-known-path > $LW/tp_open.out 2>&1
	tpid=$(sed -n 's/^tp_open: pid=\([0-9]*\).*/\1/p' $LW/tp_open.out)
	lt_wait $LW/opensnoop.out "opensnoop-known-path" 10
	lt_stop $op
	lt_show opensnoop
	if grep -E "^ *${tpid:-none} +tp_open +[0-9]+ +0 +$LW/opensnoop-known-path\$" $LW/opensnoop.out > /dev/null; then
		ktap_pass libbpf_tools.opensnoop
	else
		ktap_fail libbpf_tools.opensnoop "no line 'PID tp_open FD 0 PATH' for pid ${tpid:-?} (see the console)"
	fi
else
	lt_stop $op
	lt_show opensnoop
	ktap_fail libbpf_tools.opensnoop "no header (60 s at most): $(tail -n 2 $LW/opensnoop.err | tr '\n' ' ')"
fi

# execsnoop
execsnoop > $LW/execsnoop.out 2> $LW/execsnoop.err &
ep=$!
if lt_wait $LW/execsnoop.out '^PCOMM' 60 $ep; then
	/bin/busybox true execsnoop-marker-$$
	lt_wait $LW/execsnoop.out "execsnoop-marker-$$" 10
	lt_stop $ep
	lt_show execsnoop
	if grep -q " 0 /bin/busybox true execsnoop-marker-$$ *\$" $LW/execsnoop.out; then
		ktap_pass libbpf_tools.execsnoop
	else
		ktap_fail libbpf_tools.execsnoop "no line '... 0 /bin/busybox true execsnoop-marker-$$' (see the console)"
	fi
else
	lt_stop $ep
	lt_show execsnoop
	ktap_fail libbpf_tools.execsnoop "no header (60 s at most): $(tail -n 2 $LW/execsnoop.err | tr '\n' ' ')"
fi

# syscount -d 12: its stdout is a file, block buffered, so nothing shows
# until it exits; tp_syscalls 5000 runs again and again meanwhile: at least
# one whole run falls within the traced time
syscount -d 12 > $LW/syscount.out 2> $LW/syscount.err &
sp=$!
runs=0
while kill -0 $sp 2>/dev/null && [ $runs -lt 200 ]; do
	/tests/bin/tp_syscalls 5000 > /dev/null 2>&1
	runs=$((runs + 1))
done
lt_stop $sp
lt_show syscount
echo "tp_syscalls 5000: $runs runs while syscount ran"
n=$(awk '$1 == "getppid" { print $2 }' $LW/syscount.out | head -n 1)
if [ -n "$n" ] && [ "$n" -ge 5000 ]; then
	ktap_pass libbpf_tools.syscount
	ktap_diag "syscount: getppid $n (tp_syscalls: $runs runs of 5000)"
else
	ktap_fail libbpf_tools.syscount "getppid count '${n:-none}', expected at least 5000 ($runs runs of 5000): $(tail -n 2 $LW/syscount.err | tr '\n' ' ')"
fi
rm -rf $LW
