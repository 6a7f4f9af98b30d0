#!/bin/bash
# perf-tool.sh VARIANT: build the variant's own perf (tools/perf of its
# tree, as Debian's linux-perf is built from the kernel's source package)
# out of tree in build/perf/VARIANT, log in build/logs/perf-VARIANT.log,
# build time in build/perf/VARIANT.seconds.  Prints the binary's path.
# The features that matter here are on: libtraceevent and libbpf (both
# in the 6.1 tree), libelf; what the checks do not use is off (no
# scripting, GTK, unwinding, DWARF).  x86_64 only: the arm64 guests run
# Debian's arm64 perf (scripts/initramfs.sh).
. "$(dirname "$0")/lib.sh"
VARIANT=${1:?usage: perf-tool.sh VARIANT}
arch_setup "$VARIANT"
[ "$ARCH" = x86_64 ] || die "perf-tool: x86_64 only (VARIANT $VARIANT is $ARCH)"
tree=$(tree_of "$VARIANT")
[ -f "$tree/tools/perf/Makefile.perf" ] || die "perf-tool: no tools/perf in $tree (scripts/tree.sh $VARIANT)"
out=$BUILD/perf/$VARIANT
log=$LOGS/perf-$VARIANT.log
mkdir -p "$out" "$LOGS"
start=$(date +%s)
# Out of tree (O=): the tree's files are hard links to the pristine
# source and stay untouched.  Make's dependency files rebuild what a
# patch of the next prefix changes.
if ! make -C "$tree/tools/perf" O="$out" -j"$JOBS" CC="ccache gcc" WERROR=0 \
	NO_LIBPYTHON=1 NO_LIBPERL=1 NO_JVMTI=1 NO_GTK2=1 NO_LIBBABELTRACE=1 \
	NO_LIBUNWIND=1 NO_LIBDW_DWARF_UNWIND=1 NO_DWARF=1 NO_SDT=1 NO_DEMANGLE=1 \
	NO_LIBNUMA=1 NO_SLANG=1 NO_LIBCAP=1 NO_LIBZSTD=1 NO_LIBPFM4=1 \
	>"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -20 >&2
	die "perf does not build from the $VARIANT tree (log: $log)"
fi
[ -x "$out/perf" ] || die "perf-tool: no $out/perf after the build (log: $log)"
echo $(( $(date +%s) - start )) > "$out.seconds"
echo "$out/perf"
