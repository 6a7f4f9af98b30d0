#!/bin/bash
# kabi.sh (make kabi): what the series does to the kernel's ABI as a
# distribution tracks it.  Baseline and the whole series (KABI_SETS,
# default "baseline faulting"; patched may be added) are configured with
# our fragments plus config-fragments/kabi/modversions.config
# (CONFIG_MODVERSIONS) and built with KBUILD_SYMTYPES=1; their
# Module.symvers are compared by scripts/kabi-report.py: every export
# whose genksyms CRC changed, with the types behind the change (from the
# .symtypes files), and the exports added or removed.
#
# Fails when an export that out-of-tree modules use (tracepoint
# registration and the tracepoints' own symbols, what TRACE_EVENT() calls,
# bpf_*, perf_*; see kabi-report.py) changes its CRC or is gone and
# scripts/kabi-allowlist does not list it with its reason.
# build/results/kabi-SET.md and kabi-SET.json.
. "$(dirname "$0")/lib.sh"
SETS=${KABI_SETS:-baseline faulting}
mkdir -p "$RESULTS" "$LOGS"
"$TOP/scripts/deps.sh"
export FRAGMENTS=kabi/modversions.config KBUILD_SYMTYPES=1
t0=$(date +%s)
for s in $SETS; do
	v=$s-kabi
	"$TOP/scripts/tree.sh" "$v"
	"$TOP/scripts/config.sh" "$v"
	"$TOP/scripts/build.sh" "$v"
	[ -s "$(obj_of "$v")/Module.symvers" ] || die "kabi: no Module.symvers for $v"
done
# shellcheck disable=SC2086 # a list of sets
set -- $SETS
[ $# -ge 2 ] || die "kabi: KABI_SETS needs baseline and at least one set to compare ('$SETS')"
base=$1
shift
st=0
for s in "$@"; do
	python3 "$TOP/scripts/kabi-report.py" \
		--base "$(obj_of "$base-kabi")" --new "$(obj_of "$s-kabi")" \
		--name "$s" --allow "$TOP/scripts/kabi-allowlist" \
		--out "$RESULTS/kabi-$s" --seconds $(( $(date +%s) - t0 )) || st=1
done
[ "$st" = 0 ] || die "kabi: exports that out-of-tree modules use change their CRC or are gone (see above; build/results/kabi-*.md)"
echo "kabi: no watched export changes its CRC or is gone"
