# The machine and kernel command line of a check guest, shared by our boot
# (scripts/boot.sh) and the LAVA job (scripts/lava.sh); sourced, not run.
# shellcheck shell=bash

# shellcheck disable=SC2034  # used by the scripts that source this file
GUEST_SMP=2        # vCPUs
GUEST_MEM=2048     # MiB
GUEST_CPU=max

# guest_accel: the -accel argument.  /dev/kvm can exist as a backend that
# cannot run our kernel, and probes such as KVM_CREATE_VM say yes there:
# trust KVM only with a real vmx/svm host module loaded (ACCEL=auto|tcg|kvm).
guest_accel() {
	if [ "${ACCEL:-auto}" = kvm ] || { [ "${ACCEL:-auto}" = auto ] && [ -w /dev/kvm ] &&
		grep -qwE 'vmx|svm' /proc/cpuinfo && grep -qE '^kvm_(intel|amd) ' /proc/modules; }; then
		echo kvm
	else
		echo "tcg,thread=single"
	fi
}

# guest_qemu: the emulator and its machine for $ARCH (scripts/lib.sh
# arch_setup): x86_64's pc, or arm64's virt with the most capable CPU
# (TCG; KVM only for x86_64 here).
guest_qemu() {
	case ${ARCH:-x86_64} in
	arm64) echo "qemu-system-aarch64 -M virt -accel tcg,thread=single -smp $GUEST_SMP -m $GUEST_MEM -cpu max" ;;
	*) echo "qemu-system-x86_64 -accel $(guest_accel) -smp $GUEST_SMP -m $GUEST_MEM -cpu $GUEST_CPU" ;;
	esac
}

# guest_results_port FILE: QEMU's arguments for the results port, the
# guest's second serial port (ttyS1) on x86_64; on arm64 (virt has one
# UART) a virtio console, hvc0, that /init tells the checks of.
guest_results_port() {
	case ${ARCH:-x86_64} in
	arm64) echo "-device virtio-serial-device -chardev file,id=ktap,path=$1 -device virtconsole,chardev=ktap" ;;
	*) echo "-serial file:$1" ;;
	esac
}

# guest_append CHECK_TIMEOUT [EXTRA]: the kernel command line, EXTRA last.
# The checks boot with a syscall event enabled from the command line: early
# boot enabling (and event_trace_enable_again()'s 1->0->1 transition at
# early_initcall) of a may-sleep tracepoint; tests/guest/checks/05-*.
# And with idle=poll: QEMU's pc machine has no _CST, so no cpuidle driver,
# and the default halt path calls no _rcuidle tracepoint while RCU is not
# watching; cpu_idle_poll() does (tests/guest/checks/70-rcuidle.sh).
# The other guest modes (tpsleep.mode=) and the injections boot without.
guest_append() {
	local boot_events
	case "${2:-}" in
	*tpsleep.mode=*|*tpsleep.inject=*) boot_events= ;;
	*) boot_events="trace_event=raw_syscalls:sys_enter idle=poll" ;;
	esac
	# arm64: the PL011 console; no idle=poll (an x86 parameter: arm64's
	# idle is cpu_do_idle(), WFI; 70-rcuidle.sh says so in its SKIP), the
	# results port on hvc0
	if [ "${ARCH:-x86_64}" = arm64 ]; then
		printf '%s\n' "console=ttyAMA0 panic=-1 oops=panic panic_on_warn=0 loglevel=7 tpsleep.timeout=$1 tpsleep.results=/dev/hvc0 ${boot_events% idle=poll} ${2:-}"
		return
	fi
	printf '%s\n' "console=ttyS0 panic=-1 oops=panic panic_on_warn=0 loglevel=7 tpsleep.timeout=$1 $boot_events ${2:-}"
}
