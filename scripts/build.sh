#!/bin/bash
# build.sh VARIANT: bzImage (Image on arm64 and riscv) and modules, out of
# tree, through ccache.
. "$(dirname "$0")/lib.sh"
VARIANT=${1:?usage: build.sh VARIANT}
arch_setup "$VARIANT"
tree=$(tree_of "$VARIANT")
obj=$(obj_of "$VARIANT")
[ -f "$obj/.config" ] || die "no config for $VARIANT: run scripts/config.sh $VARIANT"
mkdir -p "$LOGS" "$CCACHE_DIR"
log=$LOGS/build-$VARIANT.log
# modules when the config has them (make robot's nomodules cell has not)
targets=${KIMAGE##*/}
! grep -q '^CONFIG_MODULES=y' "$obj/.config" || targets="$targets modules"
stage "build: $ARCH $targets (-j$JOBS, ccache in $CCACHE_DIR), log $log"
build_lock "$VARIANT"
ccache -z >/dev/null
start=$(date +%s)
# shellcheck disable=SC2086 # the make targets
if ! make -C "$tree" O="$obj" -j"$JOBS" CC="$KCC" KBUILD_BUILD_TIMESTAMP="" \
	KBUILD_BUILD_USER=tpsleep KBUILD_BUILD_HOST=build $targets >"$log" 2>&1 9>&-; then
	grep -E 'error|Error' "$log" | head -40 >&2
	die "build of $VARIANT failed (full log: $log)"
fi
secs=$(( $(date +%s) - start ))
# Warnings in the files the series touches are errors for us; show them all
# (BUILD_WARNINGS=keep: make robot compares them with baseline's itself).
if [ "${BUILD_WARNINGS:-fail}" != keep ] && grep -E ': warning:' "$log" >/dev/null; then
	grep -E ': warning:' "$log" | sort -u >&2
	die "build of $VARIANT has compiler warnings (log: $log)"
fi
krel=$(cat "$obj/include/config/kernel.release")
hits=$(ccache -s 2>/dev/null | sed -n 's/^ *Hits: *\([0-9]*\).*/\1/p' | head -1)
echo "$secs" > "$obj/.build-seconds"
stage "built $krel in ${secs}s (ccache hits: ${hits:-?})"
