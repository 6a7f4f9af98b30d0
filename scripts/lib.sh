# Common settings for the pipeline scripts; sourced, not run.
# shellcheck shell=bash
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
SRC_TARBALL=${SRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
PRISTINE=$BUILD/pristine/linux-source-6.1
TREES=$BUILD/trees
OBJS=$BUILD/obj
LOGS=$BUILD/logs
RESULTS=$BUILD/results
# ccache where kernel developers keep theirs, ccache's own default
# ($XDG_CACHE_HOME/ccache, i.e. ~/.cache/ccache), outside the clone: a second
# clone or CI run on this machine starts warm (CCACHE_DIR overrides).  Paths
# under the clone are hashed relative to it (CCACHE_BASEDIR), so clones in
# other directories share the objects.  16G: room for make robot's cells
# beside the x86_64 variants (what is evicted first is the oldest).
export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/ccache}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$TOP}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-16G}
export ARCH=x86_64
JOBS=${JOBS:-$(nproc)}

# The architecture of a variant: a name ending in -arm64 (faulting-arm64,
# baseline-arm64: the same patch sets) is an arm64 kernel cross-built with
# Debian's gcc-aarch64-linux-gnu and booted by qemu-system-aarch64 -M virt;
# every other variant is x86_64.
# A name ending in -arm64-cfi is that kernel built with Debian's clang-16
# (LLVM=-16) and kCFI (CONFIG_CFI_CLANG, config-fragments/cfi): an
# indirect call whose type does not match its target traps.
# make robot's cells name two more (build only, never booted): a name
# ending in -i386 is a 32-bit x86 kernel, one ending in -riscv64 is
# cross-built with Debian's gcc-riscv64-linux-gnu.
arch_of() {
	case $1 in
	*-arm64|*-arm64-cfi) echo arm64 ;;
	*-i386) echo i386 ;;
	*-riscv64) echo riscv ;;
	*) echo x86_64 ;;
	esac
}

# arch_setup VARIANT: ARCH and CROSS_COMPILE for the kernel's make,
# KCC (the compiler, through ccache), KIMAGE (the boot image, relative to
# the object directory) and ARCH_FRAGMENTS (config-fragments/ARCH/*.config,
# merged after the common ones).
arch_setup() {
	ARCH=$(arch_of "$1")
	case $ARCH in
	arm64)
		export CROSS_COMPILE=aarch64-linux-gnu-
		KCC="ccache ${CROSS_COMPILE}gcc"
		KIMAGE=arch/arm64/boot/Image
		ARCH_FRAGMENTS=$(ls "$TOP"/config-fragments/arm64/*.config)
		;;
	riscv)
		export CROSS_COMPILE=riscv64-linux-gnu-
		KCC="ccache ${CROSS_COMPILE}gcc"
		KIMAGE=arch/riscv/boot/Image
		ARCH_FRAGMENTS=
		;;
	*)
		unset CROSS_COMPILE
		KCC="ccache gcc"
		KIMAGE=arch/x86/boot/bzImage
		ARCH_FRAGMENTS=
		;;
	esac
	case $1 in
	*-cfi)
		export LLVM=-16
		KCC="ccache clang-16"
		ARCH_FRAGMENTS="$ARCH_FRAGMENTS $(ls "$TOP"/config-fragments/cfi/*.config)"
		;;
	*) unset LLVM ;;
	esac
	export ARCH
}

# results CMD ARGS...: scripts/results.py CMD $RESULTS_TARGET --pid $$ ARGS...
# ($RESULTS_TARGET: the script's target, check, arm64, preempt, stress,
# bench or bisect).  A failure there is a warning: it never changes the
# status of the run.
results() {
	python3 "$TOP/scripts/results.py" "$1" "${RESULTS_TARGET:?}" --pid $$ "${@:2}" ||
		echo "${0##*/}: warning: scripts/results.py $1 failed (see above): results not recorded; the run's status is not affected" >&2
}

# check_close STATUS FAILED VARIANTS NAME=KTAP...: record the run, print one
# KTAP table with the closing 'N passed, N failed' line; exits with the
# run's status (1 also when the table finds a failure or a missing result).
check_close() {
	local st=$1
	echo
	results record --status "$st" --failed "$2" --variants "$3"
	echo
	python3 "$TOP/scripts/report.py" "${@:4}" || st=1
	[ "$st" = 0 ] || echo "${0##*/}: FAILED" >&2
	exit "$st"
}

# build_lock WHAT: one kernel build at a time on this machine, whoever
# starts it (make check-preempt beside make check-arm64, another clone's
# make check, make robot): take the lock on fd 9, waiting for the other's
# end at most BUILD_LOCK_WAIT seconds (default 2 h); WHAT names the
# holder.  The lock is the calling script's (run make and the compilers
# with 9>&-, so that one left behind by a killed build does not hold it);
# it ends with the script or build_unlock.
build_lock() {
	local lock=${BUILD_LOCK:-/run/lock/tpsleep-kernel-build.lock}
	mkdir -p "$(dirname "$lock")"
	exec 9>>"$lock"
	if ! flock -n 9; then
		stage "build: another kernel build holds $lock ($(cat "$lock.holder" 2>/dev/null || echo unknown)), waiting"
		flock -w "${BUILD_LOCK_WAIT:-7200}" 9 ||
			die "build: $lock still held after ${BUILD_LOCK_WAIT:-7200} s ($(cat "$lock.holder" 2>/dev/null))"
	fi
	echo "pid $$, $1, since $(date +%H:%M:%S), $TOP" > "$lock.holder"
}
build_unlock() { exec 9>&-; }

stage() { printf '\n=== [%s] %s: %s\n' "$(date +%H:%M:%S)" "${VARIANT:-}" "$*"; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

# Patches of a variant, one file name a line, in series order.
# The series holds the six patches of the RFC port, then, after a line
# "# --- follow-up", the follow-up series.  Variants: baseline (none),
# patched (the six), faulting (the six + the follow-up), prefix-N (the
# first N of the whole series); a -suffix (-stress, -bench) keeps the set.
series_patches() {
	local variant=$1
	local all six n
	all=$(sed -e 's/#.*//' -e 's/[[:space:]].*//' -e '/^$/d' "$TOP/series")
	six=$(sed -e '/^# --- follow-up/,$d' "$TOP/series" |
		sed -e 's/#.*//' -e 's/[[:space:]].*//' -e '/^$/d')
	case "$variant" in
	baseline|baseline-*) ;;
	patched|patched-*) printf '%s\n' "$six" | sed '/^$/d' ;;
	faulting|faulting-*) printf '%s\n' "$all" | sed '/^$/d' ;;
	prefix-[0-9]*) n=${variant#prefix-}
		printf '%s\n' "$all" | sed '/^$/d' | head -n "${n%%-*}" ;;
	*) die "unknown variant '$variant' (baseline, patched, faulting, prefix-N)" ;;
	esac
}

# series_files REGEX: the files the whole series touches whose names match
# REGEX (an extended regular expression, e.g. '\.[ch]$'), one a line
series_files() {
	local p
	for p in $(series_patches faulting); do
		sed -n 's|^+++ b/||p' "$TOP/patches/$p"
	done | grep -E "$1" | sort -u
}

# touched_objs: the objects of the .c files the series touches, and of the
# files that include its changed headers the most (trace events, BPF,
# perf): what make sparse and make robot check
touched_objs() {
	series_files '\.c$' | sed 's|\.c$|.o|'
	printf '%s\n' kernel/sched/core.o kernel/entry/common.o kernel/trace/trace_event_perf.o
}

# The follow-up patches alone, in order.
followup_patches() {
	series_patches faulting | tail -n +$(( $(series_patches patched | wc -l) + 1 ))
}

# The prefix-N variants share one tree and one object directory
# (build/trees/prefix, build/obj/prefix): tree.sh moves the tree to N
# patches (popping, pushing) and make rebuilds what changed, so a walk over
# the prefixes (scripts/bisect.sh) builds incrementally, as git bisect does.
# A suffix is kept: prefix-N-robot-CELL is in build/trees/prefix-robot-CELL.
prefix_dir() { local n=${1#prefix-}; case $n in *-*) echo "prefix-${n#*-}" ;; *) echo prefix ;; esac; }
tree_of() { case $1 in prefix-[0-9]*) echo "$TREES/$(prefix_dir "$1")" ;; *) echo "$TREES/$1" ;; esac; }
obj_of() { case $1 in prefix-[0-9]*) echo "$OBJS/$(prefix_dir "$1")" ;; *) echo "$OBJS/$1" ;; esac; }

# test_programs DIR: build tests/ (tests/Makefile) for $ARCH (x86_64 in
# tests/out, arm64 cross-built in tests/out/arm64) and copy its programs,
# the guest's /tests/bin, into DIR (those the Makefile builds today, not
# whatever else its output directory holds).
test_programs() {
	local p out
	make -s -C "$TOP/tests" ARCH="$ARCH" DEB="$BUILD/src" >/dev/null || die "tests/ programs do not build (make -C tests ARCH=$ARCH)"
	out=$(make -s -C "$TOP/tests" ARCH="$ARCH" outdir)
	for p in $(make -s -C "$TOP/tests" ARCH="$ARCH" list); do
		cp "$TOP/tests/$out/$p" "$1/"
	done
}
