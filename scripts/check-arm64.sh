#!/bin/bash
# check-arm64.sh: the checks on arm64 (make check-arm64): for each of
# ARM64_VARIANTS (default faulting-arm64 baseline-arm64, the whole series
# and no patch) cross-built with Debian's gcc-aarch64-linux-gnu (the
# common fragments plus config-fragments/arm64), a guest of Debian's arm64
# busybox-static, our test programs and faultsnoop cross-built, the test
# modules and lttng-modules built against the variant, and Debian's arm64
# bpftrace, perf, trace-cmd, libbpf-tools and LTTng with their libraries
# (scripts/sysroot.sh), booted by qemu-system-aarch64 -M virt -cpu max
# under TCG (no static calls there: the generic fallback of the may-sleep
# tracepoints, maysleep.transitions_mixed.call_path).  The same checks and
# KTAP report as make check; recorded in build/results/arm64.json
# (arm64-cfi.json for kCFI kernels alone),
# docs/measurements.md and README.md.
# ARM64_VARIANTS=faulting-arm64-cfi: the same kernel built with clang-16 and
# kCFI (CONFIG_CFI_CLANG), booted with the same checks.
#   ARM64_TIMEOUT        whole guest, s (default 3000: TCG emulating arm64)
#   ARM64_CHECK_TIMEOUT  one check script, s (default 1200)
. "$(dirname "$0")/lib.sh"
VARIANTS=${ARM64_VARIANTS:-faulting-arm64 baseline-arm64}
export TIMEOUT=${ARM64_TIMEOUT:-3000} CHECK_TIMEOUT=${ARM64_CHECK_TIMEOUT:-1200}
for v in $VARIANTS; do
	[ "$(arch_of "$v")" = arm64 ] || die "check-arm64: $v is not an arm64 variant (VARIANT-arm64)"
done
# kCFI kernels alone are recorded as arm64-cfi (their own table), any
# other set as arm64
target=arm64-cfi
lists=packages-arm64.txt
for v in $VARIANTS; do
	case $v in
	*-cfi) lists="packages-arm64.txt packages-cfi.txt" ;;
	*) target=arm64 ;;
	esac
done
# shellcheck disable=SC2086 # a list of variant names
RESULTS_TARGET=$target DEPS_LISTS=$lists exec "$TOP/scripts/check.sh" $VARIANTS
