#!/bin/bash
# boot.sh VARIANT: boot the variant's kernel + initramfs in QEMU, console on
# the first serial port, KTAP results on the second; hard timeout.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/guest.sh"
VARIANT=${1:?usage: boot.sh VARIANT}
arch_setup "$VARIANT"
obj=$(obj_of "$VARIANT")
# KERNEL: another bzImage (bisect.sh boots a copy while it builds the next)
kernel=${KERNEL:-$obj/$KIMAGE}
initrd=$BUILD/initramfs/$VARIANT.cpio
[ -f "$kernel" ] || die "no kernel $kernel"
[ -f "$initrd" ] || die "no initramfs $initrd (scripts/initramfs.sh $VARIANT)"
TIMEOUT=${TIMEOUT:-900}          # whole guest, seconds
CHECK_TIMEOUT=${CHECK_TIMEOUT:-400}  # one check script, seconds
mkdir -p "$LOGS"
console=$LOGS/console-$VARIANT.log
results=$LOGS/results-$VARIANT.ktap
rm -f "$console" "$results"

# The machine (CPUs, memory, KVM or TCG) and the kernel command line are
# those of scripts/guest.sh, which the LAVA jobs (scripts/lava.sh) share.
stage "boot: $(guest_qemu), timeout ${TIMEOUT}s, console $console"
start=$(date +%s)
# While the guest runs: its stage and KTAP counts so far (a line per stage
# in a log, one updating line on a terminal).
"$TOP/scripts/progress.sh" "$console" "$results" "$TIMEOUT" $$ &
progress=$!
set +e
timeout --foreground -k 10 "$TIMEOUT" $(guest_qemu) \
	-kernel "$kernel" -initrd "$initrd" \
	-append "$(guest_append "$CHECK_TIMEOUT" "${APPEND:-}")" \
	-display none -monitor none -no-reboot \
	-serial "file:$console" $(guest_results_port "$results") \
	${QEMU_EXTRA:-} </dev/null
rc=$?
kill "$progress" 2>/dev/null
wait "$progress" 2>/dev/null
set -e
secs=$(( $(date +%s) - start ))
echo "$secs" > "$LOGS/boot-$VARIANT.seconds"
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	tail -n 20 "$console" >&2
	die "guest $VARIANT hung: killed after ${TIMEOUT}s (console kept in $console)"
fi
[ "$rc" = 0 ] || die "qemu exited with status $rc (console: $console)"
stage "guest powered off after ${secs}s"
