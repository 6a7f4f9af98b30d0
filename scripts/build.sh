#!/bin/bash
# build.sh VARIANT: bzImage (Image on arm64) and modules, out of tree,
# through ccache.
. "$(dirname "$0")/lib.sh"
VARIANT=${1:?usage: build.sh VARIANT}
arch_setup "$VARIANT"
tree=$(tree_of "$VARIANT")
obj=$(obj_of "$VARIANT")
[ -f "$obj/.config" ] || die "no config for $VARIANT: run scripts/config.sh $VARIANT"
mkdir -p "$LOGS" "$CCACHE_DIR"
log=$LOGS/build-$VARIANT.log
stage "build: $ARCH ${KIMAGE##*/} modules (-j$JOBS, ccache in $CCACHE_DIR), log $log"
# One kernel build at a time on this machine, whoever starts it (make
# check-preempt beside make check-arm64, another clone's make check): wait
# for the other's end, at most BUILD_LOCK_WAIT seconds (default 2 h).  The
# lock is this script's own (make and the compilers do not inherit it: a
# compiler left behind by a killed build does not hold it).
lock=${BUILD_LOCK:-/run/lock/tpsleep-kernel-build.lock}
mkdir -p "$(dirname "$lock")"
exec 9>>"$lock"
if ! flock -n 9; then
	stage "build: another kernel build holds $lock ($(cat "$lock.holder" 2>/dev/null || echo unknown)), waiting"
	flock -w "${BUILD_LOCK_WAIT:-7200}" 9 ||
		die "build: $lock still held after ${BUILD_LOCK_WAIT:-7200} s ($(cat "$lock.holder" 2>/dev/null))"
fi
echo "pid $$, $VARIANT, since $(date +%H:%M:%S), $TOP" > "$lock.holder"
ccache -z >/dev/null
start=$(date +%s)
if ! make -C "$tree" O="$obj" -j"$JOBS" CC="$KCC" KBUILD_BUILD_TIMESTAMP="" \
	KBUILD_BUILD_USER=tpsleep KBUILD_BUILD_HOST=build "${KIMAGE##*/}" modules >"$log" 2>&1 9>&-; then
	grep -E 'error|Error' "$log" | head -40 >&2
	die "build of $VARIANT failed (full log: $log)"
fi
secs=$(( $(date +%s) - start ))
# Warnings in the files the series touches are errors for us; show them all.
if grep -E ': warning:' "$log" >/dev/null; then
	grep -E ': warning:' "$log" | sort -u >&2
	die "build of $VARIANT has compiler warnings (log: $log)"
fi
krel=$(cat "$obj/include/config/kernel.release")
hits=$(ccache -s 2>/dev/null | sed -n 's/^ *Hits: *\([0-9]*\).*/\1/p' | head -1)
echo "$secs" > "$obj/.build-seconds"
stage "built $krel in ${secs}s (ccache hits: ${hits:-?})"
