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
# other directories share the objects.
export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/ccache}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$TOP}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export ARCH=x86_64
JOBS=${JOBS:-$(nproc)}

stage() { printf '\n=== [%s] %s: %s\n' "$(date +%H:%M:%S)" "${VARIANT:-}" "$*"; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

# Patches of a variant, one file name a line, in series order.
# The series holds the six patches of the RFC port, then, after a line
# "# --- follow-up", the follow-up series.  Variants: baseline (none),
# patched (the six), faulting (the six + the follow-up), prefix-N (the
# first N of the whole series); a -suffix (-stress, -bench) keeps the set.
series_patches() {
	local variant=$1
	local all six
	all=$(sed -e 's/#.*//' -e 's/[[:space:]].*//' -e '/^$/d' "$TOP/series")
	six=$(sed -e '/^# --- follow-up/,$d' "$TOP/series" |
		sed -e 's/#.*//' -e 's/[[:space:]].*//' -e '/^$/d')
	case "$variant" in
	baseline|baseline-*) ;;
	patched|patched-*) printf '%s\n' "$six" | sed '/^$/d' ;;
	faulting|faulting-*) printf '%s\n' "$all" | sed '/^$/d' ;;
	prefix-[0-9]*) printf '%s\n' "$all" | sed '/^$/d' | head -n "${variant#prefix-}" ;;
	*) die "unknown variant '$variant' (baseline, patched, faulting, prefix-N)" ;;
	esac
}

# The follow-up patches alone, in order.
followup_patches() {
	series_patches faulting | tail -n +$(( $(series_patches patched | wc -l) + 1 ))
}

# The prefix-N variants share one tree and one object directory
# (build/trees/prefix, build/obj/prefix): tree.sh moves the tree to N
# patches (popping, pushing) and make rebuilds what changed, so a walk over
# the prefixes (scripts/bisect.sh) builds incrementally, as git bisect does.
tree_of() { case $1 in prefix-[0-9]*) echo "$TREES/prefix" ;; *) echo "$TREES/$1" ;; esac; }
obj_of() { case $1 in prefix-[0-9]*) echo "$OBJS/prefix" ;; *) echo "$OBJS/$1" ;; esac; }

# test_programs DIR: build tests/ (tests/Makefile) and copy its programs,
# the guest's /tests/bin, into DIR (those the Makefile builds today, not
# whatever else tests/out holds).
test_programs() {
	local p
	make -s -C "$TOP/tests" >/dev/null || die "tests/ programs do not build (make -C tests)"
	for p in $(make -s -C "$TOP/tests" list); do
		cp "$TOP/tests/out/$p" "$1/"
	done
}
