#!/bin/bash
# initramfs.sh VARIANT: pack the guest userspace for a built variant:
# busybox-static, Debian's perf, bpftrace, trace-cmd and libbpf-tools
# (opensnoop, execsnoop, syscount) with their libraries, faultsnoop
# (tools/faultsnoop), our static test programs, the test modules built against the variant, the
# tree's ftrace selftests.  Reproducible: sorted, zero mtimes, root owner.
. "$(dirname "$0")/lib.sh"
VARIANT=${1:?usage: initramfs.sh VARIANT}
tree=$(tree_of "$VARIANT")
obj=$(obj_of "$VARIANT")
[ -f "$obj/arch/x86/boot/bzImage" ] || die "no kernel for $VARIANT: run scripts/build.sh $VARIANT"
stage "initramfs"
root=$BUILD/initramfs/$VARIANT
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,tests/bin,tests/modules,tests/checks}
cp "$TOP/initramfs/init" "$root/init"
cp /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
file /bin/busybox | grep -q 'statically linked' || die "/bin/busybox is not static (install busybox-static)"

# Dynamically linked tracers: the binary (as DEST, default its own path),
# its libraries, the loader.
copy_with_libs() {
	local bin=$1 dest=${2:-$1} lib
	install -D "$bin" "$root$dest"
	for lib in $(ldd "$bin" | awk '/=>/ { print $3 } /^\t\// { print $1 }'); do
		[ -e "$root$lib" ] || install -D "$(readlink -f "$lib")" "$root$lib"
	done
}
copy_with_libs /usr/bin/perf
copy_with_libs /usr/bin/bpftrace
copy_with_libs /usr/bin/trace-cmd
# Debian's libbpf-tools (CO-RE: they need the kernel's BTF).
for t in opensnoop execsnoop syscount; do
	copy_with_libs /usr/sbin/$t
done
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
copy_with_libs /usr/lib/x86_64-linux-gnu/lttng/libexec/lttng-consumerd
copy_with_libs /usr/bin/babeltrace2
for p in /usr/lib/x86_64-linux-gnu/babeltrace2/plugins/*.so; do
	copy_with_libs "$p"
done
# the session daemon validates session configurations against it at start
# (liblttng-ctl0's), and exits without it
install -D -m 644 /usr/share/xml/lttng/session.xsd "$root/usr/share/xml/lttng/session.xsd"
mkdir -p "$root/var"
ln -s ../run "$root/var/run"
case "$VARIANT" in
*-bench|*-stress) ;;
*) "$TOP/scripts/lttng-modules.sh" "$VARIANT" "$root" ;;
esac

# faultsnoop, our libbpf tool (tools/faultsnoop: clang, bpftool gen
# skeleton, libbpf-dev), as /usr/sbin/faultsnoop.
make -s -C "$TOP/tools/faultsnoop" >/dev/null || die "tools/faultsnoop does not build"
copy_with_libs "$TOP/tools/faultsnoop/out/faultsnoop" /usr/sbin/faultsnoop

# Our static test programs (tests/Makefile: checks, bench, stress).
test_programs "$root/tests/bin"

# The test modules, built against this variant (out of the source dir, so
# variants do not share objects).
mkdir -p "$LOGS"
mdir=$BUILD/modules/$VARIANT
rm -rf "$mdir"
mkdir -p "$mdir"
cp "$TOP"/tests/module/* "$mdir/"
make -s -C "$obj" M="$mdir" CC="ccache gcc" modules >"$LOGS/modules-$VARIANT.log" 2>&1 ||
	{ cat "$LOGS/modules-$VARIANT.log"; die "test modules do not build against $VARIANT"; }
cp "$mdir"/*.ko "$root/tests/modules/"
hdir=$BUILD/modules/$VARIANT-harness
rm -rf "$hdir"
mkdir -p "$hdir" "$root/tests/harness"
cp "$TOP"/tests/harness/* "$hdir/"
make -s -C "$obj" M="$hdir" CC="ccache gcc" modules >>"$LOGS/modules-$VARIANT.log" 2>&1 ||
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
