#!/bin/bash
# hitprofile.sh [VARIANT...]: where the instructions of one hit go.  Boots
# each bench variant (default: baseline-bench faulting-bench, built by
# scripts/bench.sh) in the bench state HITPROFILE_STATE (default
# openat64_bpf_copystr: a raw_tp program on sys_enter copying a 64-byte
# openat() path; openat64_bpf_tpcopy: the same as a tracepoint program on
# syscalls:sys_enter_openat) under TCG with a gdbstub,
# and single-steps gdb through syscall_trace_enter() of one traced
# openat(): instructions per function, side by side, in
# build/results/hitprofile.md.  Exact counts of one call, no sampling: the
# per-hit difference that make bench measures, taken apart.
. "$(dirname "$0")/lib.sh"
[ $# -gt 0 ] || set -- baseline-bench faulting-bench
STATE=${HITPROFILE_STATE:-openat64_bpf_copystr}
case $STATE in
openat64_bpf_copystr|openat64_bpf_tpcopy) ;;
*) die "hitprofile: HITPROFILE_STATE $STATE is not a BPF copy state" ;;
esac
command -v gdb >/dev/null || die "no gdb (make deps)"
work=$BUILD/bench
mkdir -p "$RESULTS" "$work/hitprofile"
port=$((20000 + $$ % 20000))
cols=()
for v in "$@"; do
	vmlinux=$(obj_of "$v")/vmlinux
	[ -f "$vmlinux" ] && [ -f "$work/initramfs/$v.cpio" ] ||
		die "no bench kernel or initramfs for $v: run scripts/bench.sh first"
	# the copy the program calls: the kfunc where the kernel has it
	ready=bpf_probe_read_user_str
	[ "$(nm "$vmlinux" | grep -cw bpf_copy_from_user_str)" != 0 ] && ready=bpf_copy_from_user_str
	out=$work/hitprofile/$v.txt
	rm -f "$out"
	stage "hitprofile $v: break on $ready, then one syscall_trace_enter()"
	BUILD=$work ACCEL=tcg TIMEOUT=600 QEMU_EXTRA="-smp 1 -gdb tcp:127.0.0.1:$port" \
		APPEND="tpsleep.mode=bench tpsleep.iters=1000000 tpsleep.reps=1 tpsleep.warmup=100 tpsleep.states=$STATE" \
		"$TOP/scripts/boot.sh" "$v" > "$work/hitprofile/$v.boot.log" 2>&1 &
	qpid=$!
	sleep 1
	HP_PORT=$port HP_READY=$ready HP_OUT=$out timeout 500 \
		gdb -q -batch -x "$TOP/tests/bench/hitprofile.py" "$vmlinux" \
		> "$work/hitprofile/$v.gdb.log" 2>&1 || true
	wait "$qpid" || true
	grep -q '^round' "$out" 2>/dev/null || die "hitprofile $v: no counts (see $work/hitprofile/$v.gdb.log)"
	cols+=("$v=$out")
done
python3 - "$STATE" "${cols[@]}" > "$RESULTS/hitprofile.md" <<'PY'
import sys
cols = []
state = sys.argv[1]
for arg in sys.argv[2:]:
    name, path = arg.split('=', 1)
    last = {}
    order = []
    for line in open(path):
        if line.startswith('round'):
            last, order = {}, []
            continue
        n, fn = line.split(None, 1)
        last[fn.strip()] = int(n)
        order.append(fn.strip())
    cols.append((name, last, order))
fns = []
for _, _, order in cols:
    for fn in order:
        if fn not in fns:
            fns.append(fn)
print('Instructions per function in one traced openat() (syscall_trace_enter() '
      'and all it calls; bench state %s):' % state)
print()
print('| function | ' + ' | '.join(c[0] for c in cols) + ' |')
print('|---|' + '---|' * len(cols))
for fn in fns:
    print('| %s | ' % fn + ' | '.join(str(c[1].get(fn, '-')) for c in cols) + ' |')
tot = [sum(c[1].values()) for c in cols]
print('| **total** | ' + ' | '.join('**%d**' % t for t in tot) + ' |')
if len(cols) > 1:
    print()
    print('; '.join('%s/%s %.4f' % (c[0], cols[0][0], t / tot[0])
                    for c, t in zip(cols[1:], tot[1:])))
PY
cat "$RESULTS/hitprofile.md"
