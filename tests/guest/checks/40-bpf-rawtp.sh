# 40-bpf-rawtp.sh: a raw tracepoint BPF program on sys_enter (shared).
#  bpf.rawtp_sys_enter_count  bpf_rawtp_count (BPF C, its skeleton,
#                             libbpf) counts its child's getppid calls on
#                             raw tracepoint sys_enter: exactly K; and all
#                             the child's syscalls after attach: K+1
#                             (exit_group) or K+2 (if its blocking read was
#                             entered after the attach)
# Sourced by run-checks.sh after ktap.sh; busybox sh, POSIX only.
set -u

K=5000
W=/tmp/bpf-rawtp-check
rm -rf $W
mkdir -p $W

bpf_rawtp_count $K > $W/out 2> $W/err
rc=$?
cat $W/out $W/err
# "bpf_rawtp_count: pid=CHILD k=K getppid=G all=A"
g=$(sed -n 's/^bpf_rawtp_count: pid=[0-9]* k=[0-9]* getppid=\([0-9]*\) all=[0-9]*$/\1/p' $W/out)
a=$(sed -n 's/^bpf_rawtp_count: pid=[0-9]* k=[0-9]* getppid=[0-9]* all=\([0-9]*\)$/\1/p' $W/out)
if [ "$rc" != 0 ] || [ -z "$g" ] || [ -z "$a" ]; then
	ktap_fail bpf.rawtp_sys_enter_count "bpf_rawtp_count failed (rc $rc): $(tail -n 3 $W/err | tr '\n' ' ')"
elif [ "$g" != "$K" ]; then
	ktap_fail bpf.rawtp_sys_enter_count "counted $g getppid calls, want $K"
elif [ "$a" -lt $((K + 1)) ] || [ "$a" -gt $((K + 2)) ]; then
	ktap_fail bpf.rawtp_sys_enter_count "counted $a syscalls of the child, want $((K + 1))..$((K + 2))"
else
	ktap_pass bpf.rawtp_sys_enter_count
fi
rm -rf $W
