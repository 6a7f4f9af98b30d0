#!/bin/bash
# initramfs.sh VARIANT: pack the guest userspace for a built variant:
# busybox-static, perf (x86_64: built from the variant's tree), Debian's
# bpftrace, trace-cmd and libbpf-tools (opensnoop, execsnoop, syscount)
# with their libraries, faultsnoop (tools/faultsnoop), our static test
# programs, the test modules built against the variant, the tree's ftrace
# selftests and the series' BPF selftests.  Reproducible: sorted, zero
# mtimes, root owner.
. "$(dirname "$0")/lib.sh"
VARIANT=${1:?usage: initramfs.sh VARIANT}
arch_setup "$VARIANT"
tree=$(tree_of "$VARIANT")
obj=$(obj_of "$VARIANT")
[ -f "$obj/$KIMAGE" ] || die "no kernel for $VARIANT: run scripts/build.sh $VARIANT"
stage "initramfs"
root=$BUILD/initramfs/$VARIANT
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,tests/bin,tests/modules,tests/checks}
cp "$TOP/initramfs/init" "$root/init"
# busybox-static, the host's or (arm64) Debian's arm64 package unpacked by
# scripts/deps.sh (packages-arm64.txt)
case $ARCH in
arm64) bb=$BUILD/src/busybox-static:arm64/bin/busybox ;;
*) bb=/bin/busybox ;;
esac
[ -f "$bb" ] || die "no $bb: run scripts/deps.sh (arm64: scripts/deps.sh packages-arm64.txt)"
cp "$bb" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
file "$bb" | grep -q 'statically linked' || die "$bb is not static (install busybox-static)"

# Dynamically linked tracers: the binary (as DEST, default its own path),
# its libraries, the loader.  x86_64: the host's installed packages, their
# libraries as ldd finds them.  arm64: Debian's arm64 packages unpacked in
# build/sysroot/arm64 (scripts/sysroot.sh), their libraries found by
# following DT_NEEDED there (the host cannot run the arm64 loader).
triplet=x86_64-linux-gnu
sysroot=
if [ "$ARCH" = arm64 ]; then
	triplet=aarch64-linux-gnu
	sysroot=$BUILD/sysroot/arm64
	"$TOP/scripts/sysroot.sh" arm64
fi
# needed_libs FILE: the libraries FILE needs, recursively, as paths in the
# sysroot (and its loader)
needed_libs() {
	local todo=("$1") seen=" " f n d found
	while [ ${#todo[@]} -gt 0 ]; do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		readelf -lW "$f" 2>/dev/null | sed -n 's/.*program interpreter: \(.*\)]/\1/p'
		for n in $(readelf -dW "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			case $seen in *" $n "*) continue ;; esac
			seen="$seen$n "
			found=
			for d in /lib/$triplet /usr/lib/$triplet /lib /usr/lib; do
				if [ -e "$sysroot$d/$n" ]; then
					found=$d/$n
					break
				fi
			done
			[ -n "$found" ] || die "initramfs: $n (needed by ${f#"$sysroot"}) is not in $sysroot (scripts/sysroot.sh: a missing dependency)"
			echo "$found"
			todo+=("$sysroot$(dirname "$found")/$(readlink -f "$sysroot$found" | xargs basename)")
		done
	done | sort -u
}
copy_with_libs() {
	local bin=$1 dest=${2:-$1} lib libs
	if [ -z "$sysroot" ]; then
		install -D "$bin" "$root$dest"
		for lib in $(ldd "$bin" | awk '/=>/ { print $3 } /^\t\// { print $1 }'); do
			[ -e "$root$lib" ] || install -D "$(readlink -f "$lib")" "$root$lib"
		done
		return
	fi
	[ -f "$sysroot$bin" ] || die "initramfs: no $bin in $sysroot (scripts/sysroot.sh)"
	install -D "$(readlink -f "$sysroot$bin")" "$root$dest"
	# (a failure in the command substitution of a for list is not seen
	# by set -e: take the list first)
	libs=$(needed_libs "$sysroot$bin") || die "initramfs: the libraries of $bin (above)"
	for lib in $libs; do
		[ -e "$root$lib" ] || install -D "$(readlink -f "$sysroot$lib")" "$root$lib"
	done
}
# perf: on x86_64 the variant's own, built from its tree's tools/perf
# (scripts/perf-tool.sh), as Debian builds linux-perf from the kernel's
# source package: a series that changes what perf sees carries its perf
# fix.  On arm64 Debian's arm64 package.  /tests/perf-origin says which
# (tests/guest/checks/20-perf.sh).
if [ "$ARCH" = x86_64 ]; then
	perf=$("$TOP/scripts/perf-tool.sh" "$VARIANT") || die "initramfs: no perf for $VARIANT"
	copy_with_libs "$perf" /usr/bin/perf
	echo "tree: tools/perf of $VARIANT" > "$root/tests/perf-origin"
else
	copy_with_libs /usr/bin/perf
	echo "debian: the linux-perf package ($ARCH)" > "$root/tests/perf-origin"
fi
copy_with_libs /usr/bin/bpftrace
copy_with_libs /usr/bin/trace-cmd
# Debian's libbpf-tools (CO-RE: they need the kernel's BTF).
for t in opensnoop execsnoop syscount; do
	copy_with_libs /usr/sbin/$t
done
# syscount has a syscall name table for x86_64 only; elsewhere it runs
# auditd's ausyscall
[ "$ARCH" = x86_64 ] || copy_with_libs /usr/bin/ausyscall
# Debian's LTTng (tests/guest/checks/90-lttng.sh): the client, the session
# daemon and the consumer daemon it starts (at its compiled-in path),
# babeltrace2 and its plugins (dlopen()ed from their compiled-in
# directory, so ldd of each); /var/run/lttng is the root daemon's run
# directory.  lttng-modules built against this variant in
# ROOT/lib/modules/KERNELRELEASE/extra with depmod's modules.dep*
# (scripts/lttng-modules.sh); not for the bench and stress guests, which
# run no checks.
copy_with_libs /usr/bin/lttng
copy_with_libs /usr/bin/lttng-sessiond
copy_with_libs /usr/lib/$triplet/lttng/libexec/lttng-consumerd
copy_with_libs /usr/bin/babeltrace2
for p in "$sysroot"/usr/lib/$triplet/babeltrace2/plugins/*.so; do
	copy_with_libs "${p#"$sysroot"}"
done
# the session daemon validates session configurations against it at start
# (liblttng-ctl0's), and exits without it
install -D -m 644 "$sysroot/usr/share/xml/lttng/session.xsd" "$root/usr/share/xml/lttng/session.xsd"
mkdir -p "$root/var"
ln -s ../run "$root/var/run"
case "$VARIANT" in
*-bench|*-stress) ;;
*) "$TOP/scripts/lttng-modules.sh" "$VARIANT" "$root" ;;
esac

# faultsnoop, our libbpf tool (tools/faultsnoop: clang, bpftool gen
# skeleton, libbpf-dev), as /usr/sbin/faultsnoop; on arm64 cross-built,
# static (tools/faultsnoop/out/arm64).
make -s -C "$TOP/tools/faultsnoop" ARCH="$ARCH" DEB="$BUILD/src" >/dev/null || die "tools/faultsnoop does not build (ARCH=$ARCH)"
if [ "$ARCH" = arm64 ]; then
	install -D "$TOP/tools/faultsnoop/out/arm64/faultsnoop" "$root/usr/sbin/faultsnoop"
else
	copy_with_libs "$TOP/tools/faultsnoop/out/faultsnoop" /usr/sbin/faultsnoop
fi

# Our static test programs (tests/Makefile: checks, bench, stress).
test_programs "$root/tests/bin"

# The BPF selftests of the series (0028), where the tree has them: built
# from the tree for this kernel into minimal runners
# (tests/bpf-selftests), with the subtests each must report
# (tests/guest/checks/85-bpf-selftests.sh).
mkdir -p "$root/tests/bpf-selftests"
if [ -f "$tree/tools/testing/selftests/bpf/prog_tests/tp_sleepable.c" ]; then
	bst=$BUILD/bpf-selftests/$VARIANT
	rm -rf "$bst"
	make -s -C "$TOP/tests/bpf-selftests" ARCH="$ARCH" DEB="$BUILD/src" \
		TREE="$tree" VMLINUX="$obj/vmlinux" OUT="$bst" >"$LOGS/bpf-selftests-$VARIANT.log" 2>&1 ||
		{ cat "$LOGS/bpf-selftests-$VARIANT.log"; die "the series' BPF selftests do not build against $VARIANT (tests/bpf-selftests)"; }
	cp "$bst"/test_progs_* "$root/tests/bin/"
	cp "$bst"/*.subtests "$root/tests/bpf-selftests/"
fi

# The test modules, built against this variant (out of the source dir, so
# variants do not share objects).
mkdir -p "$LOGS"
mdir=$BUILD/modules/$VARIANT
rm -rf "$mdir"
mkdir -p "$mdir"
cp "$TOP"/tests/module/* "$mdir/"
make -s -C "$obj" M="$mdir" CC="$KCC" modules >"$LOGS/modules-$VARIANT.log" 2>&1 ||
	{ cat "$LOGS/modules-$VARIANT.log"; die "test modules do not build against $VARIANT"; }
cp "$mdir"/*.ko "$root/tests/modules/"
hdir=$BUILD/modules/$VARIANT-harness
rm -rf "$hdir"
mkdir -p "$hdir" "$root/tests/harness"
cp "$TOP"/tests/harness/* "$hdir/"
make -s -C "$obj" M="$hdir" CC="$KCC" modules >>"$LOGS/modules-$VARIANT.log" 2>&1 ||
	{ cat "$LOGS/modules-$VARIANT.log"; die "harness modules do not build against $VARIANT"; }
cp "$hdir"/*.ko "$root/tests/harness/"

# Guest checks and the tree's ftracetest.
cp "$TOP"/tests/guest/ktap.sh "$TOP"/tests/guest/run-checks.sh "$root/tests/"
cp "$TOP"/tests/guest/checks/*.sh "$root/tests/checks/"
cp -r "$tree/tools/testing/selftests/ftrace" "$root/tests/ftrace"
# Other guest modes (tpsleep.mode=NAME, see initramfs/init).
for m in bench stress; do
	[ -d "$TOP/tests/$m" ] && cp -r "$TOP/tests/$m" "$root/tests/$m"
	rm -rf "$root/tests/$m/progs"	# their programs are in /tests/bin
done
echo "$VARIANT" > "$root/tests/variant"
series_patches "$VARIANT" | while read -r p; do
	grep -E "^$p[[:space:]]+#[[:space:]]*feature=" "$TOP/series" |
		sed 's/.*feature=\([a-z]*\).*/\1/'
done > "$root/tests/features"

out=$BUILD/initramfs/$VARIANT.cpio
find "$root" -exec touch -h -d @0 {} +
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --reproducible -R 0:0 --quiet) > "$out"
stage "initramfs $out: $(du -m "$out" | cut -f1) MiB, features: $(tr '\n' ' ' < "$root/tests/features")"
