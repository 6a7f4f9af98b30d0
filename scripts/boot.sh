#!/bin/bash
# boot.sh VARIANT: boot the variant's kernel + initramfs in QEMU, console on
# the first serial port, KTAP results on the second; hard timeout.
. "$(dirname "$0")/lib.sh"
VARIANT=${1:?usage: boot.sh VARIANT}
obj=$(obj_of "$VARIANT")
# KERNEL: another bzImage (bisect.sh boots a copy while it builds the next)
kernel=${KERNEL:-$obj/arch/x86/boot/bzImage}
initrd=$BUILD/initramfs/$VARIANT.cpio
[ -f "$kernel" ] || die "no kernel $kernel"
[ -f "$initrd" ] || die "no initramfs $initrd (scripts/initramfs.sh $VARIANT)"
TIMEOUT=${TIMEOUT:-900}          # whole guest, seconds
CHECK_TIMEOUT=${CHECK_TIMEOUT:-400}  # one check script, seconds
mkdir -p "$LOGS"
console=$LOGS/console-$VARIANT.log
results=$LOGS/results-$VARIANT.ktap
rm -f "$console" "$results"

# /dev/kvm can exist as a backend that cannot run our kernel, and probes
# such as KVM_CREATE_VM say yes there: trust KVM only with a real
# vmx/svm host module loaded.
accel="tcg,thread=single"
if [ "${ACCEL:-auto}" = kvm ] || { [ "${ACCEL:-auto}" = auto ] && [ -w /dev/kvm ] &&
	grep -qwE 'vmx|svm' /proc/cpuinfo && grep -qE '^kvm_(intel|amd) ' /proc/modules; }; then
	accel=kvm
fi
# The checks boot with a syscall event enabled from the command line: early
# boot enabling (and event_trace_enable_again()'s 1->0->1 transition at
# early_initcall) of a may-sleep tracepoint; tests/guest/checks/05-*.
# And with idle=poll: QEMU's pc machine has no _CST, so no cpuidle driver,
# and the default halt path calls no _rcuidle tracepoint while RCU is not
# watching; cpu_idle_poll() does (tests/guest/checks/70-rcuidle.sh).
case "${APPEND:-}" in
*tpsleep.mode=*|*tpsleep.inject=*) boot_events= ;;
*) boot_events="trace_event=raw_syscalls:sys_enter idle=poll" ;;
esac
stage "boot: qemu -accel $accel, 2 vCPUs, timeout ${TIMEOUT}s, console $console"
start=$(date +%s)
set +e
timeout --foreground -k 10 "$TIMEOUT" qemu-system-x86_64 \
	-accel "$accel" -smp 2 -m 2048 -cpu max \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 oops=panic panic_on_warn=0 loglevel=7 tpsleep.timeout=$CHECK_TIMEOUT $boot_events ${APPEND:-}" \
	-display none -monitor none -no-reboot \
	-serial "file:$console" -serial "file:$results" \
	${QEMU_EXTRA:-} </dev/null
rc=$?
set -e
secs=$(( $(date +%s) - start ))
echo "$secs" > "$LOGS/boot-$VARIANT.seconds"
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	tail -n 20 "$console" >&2
	die "guest $VARIANT hung: killed after ${TIMEOUT}s (console kept in $console)"
fi
[ "$rc" = 0 ] || die "qemu exited with status $rc (console: $console)"
stage "guest powered off after ${secs}s"
