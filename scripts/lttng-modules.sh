#!/bin/bash
# lttng-modules.sh VARIANT [ROOT]: Debian's lttng-modules 2.13.9 (the
# source of the lttng-modules-dkms package, which scripts/deps.sh unpacks
# in build/src, never installs) built against build/obj/VARIANT, out of
# tree: a copy of the source in build/lttng/VARIANT, log in
# build/logs/lttng-VARIANT.log, build time in build/lttng/VARIANT.seconds.
# With ROOT (scripts/initramfs.sh's staging directory) the modules go to
# ROOT/lib/modules/KERNELRELEASE/extra/lttng/ and depmod -b ROOT writes
# the modules.dep* that lttng-sessiond's libkmod reads to load them.
#
# Left out (the Kbuild lines removed from the copy):
#  lttng-probe-timer  6.1.192's hrtimer_start tracepoint has a third
#                     argument (was_armed, a stable backport) that
#                     lttng-modules 2.13.9's probe does not declare: the
#                     probe does not compile.
# Nothing else fails against our tinyconfig kernels; probes of subsystems
# the config lacks (block, ext4, net, kvm...) are not built anyway
# (their Kbuild conditions), and lttng-sessiond skips probe modules it
# does not find.  The kmem probe needs the full source tree (mm/slab.h):
# the build's srctree is our variant tree, so it builds.
. "$(dirname "$0")/lib.sh"
VARIANT=${1:?usage: lttng-modules.sh VARIANT [ROOT]}
ROOT=${2:-}
arch_setup "$VARIANT"
obj=$(obj_of "$VARIANT")
[ -f "$obj/Module.symvers" ] || die "no built kernel in $obj: run scripts/build.sh $VARIANT"
LEAVE_OUT="lttng-probe-timer"
src=$(ls -d "$BUILD"/src/lttng-modules-dkms/usr/src/lttng-modules-* 2>/dev/null | tail -n 1)
[ -n "$src" ] && [ -f "$src/src/Kbuild" ] ||
	die "no lttng-modules source in build/src/lttng-modules-dkms: run scripts/deps.sh (make deps)"
krel=$(cat "$obj/include/config/kernel.release")
dir=$BUILD/lttng/$VARIANT
log=$LOGS/lttng-$VARIANT.log
mkdir -p "$LOGS"
# The copy is kept while the source and LEAVE_OUT are the same: Kbuild's
# dependency files then rebuild what a changed kernel header or .config
# touches, and nothing when the kernel did not change.
stamp="$src $(cat "$BUILD/src/lttng-modules-dkms/.version" 2>/dev/null) leave-out: $LEAVE_OUT"
if [ ! -f "$dir/.tpsleep-stamp" ] || [ "$(cat "$dir/.tpsleep-stamp")" != "$stamp" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -r "$src"/. "$dir/"
	for m in $LEAVE_OUT; do
		kb=$(grep -l "+= $m\.o" "$dir"/src/Kbuild "$dir"/src/*/Kbuild || true)
		[ -n "$kb" ] || die "lttng-modules: no Kbuild line builds $m (new source version? update LEAVE_OUT)"
		sed -i "/+= $m\.o/d" $kb
	done
	echo "$stamp" > "$dir/.tpsleep-stamp"
fi
start=$(date +%s)
# The Makefile of the source's top directory does this (dkms.conf too):
# CONFIG_LTTNG=m on the command line, M= its src directory.
if ! make -C "$obj" M="$dir/src" -j"$JOBS" CC="$KCC" \
	CONFIG_LTTNG=m CONFIG_LTTNG_CLOCK_PLUGIN_TEST=m modules >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -20 >&2
	die "lttng-modules do not build against $VARIANT (log: $log)"
fi
secs=$(( $(date +%s) - start ))
echo "$secs" > "$dir.seconds"
mods=$(cd "$dir/src" && find . -name '*.ko' | LC_ALL=C sort)
[ -n "$mods" ] || die "lttng-modules: no module built (log: $log)"
for m in lttng-tracer lttng-wrapper lttng-lib-ring-buffer lttng-ring-buffer-client-discard; do
	echo "$mods" | grep -q "/$m\.ko\$" || die "lttng-modules: $m.ko not built against $VARIANT (log: $log)"
done
echo "lttng-modules: $(echo "$mods" | wc -l) modules built against $VARIANT ($krel) in ${secs}s, left out: $LEAVE_OUT (log $log)"
[ -n "$ROOT" ] || exit 0
# Every module but the tests/ ones (lttng-test, lttng-clock-plugin-test:
# lttng-sessiond loads neither), without their debug information (as
# modules_install INSTALL_MOD_STRIP=1: lttng-tracer.ko is 38 MB with it).
dest=$ROOT/lib/modules/$krel/extra/lttng
mkdir -p "$dest"
echo "$mods" | grep -v '^\./tests/' | while read -r m; do
	install -D -m 644 "$dir/src/$m" "$dest/$m"
	"${CROSS_COMPILE:-}strip" --strip-debug "$dest/$m"
done
# libkmod (lttng-sessiond's modprobe) finds modules by name in modules.dep*,
# and its kmod_load_resources() refuses an empty modules.builtin.bin or
# modules.builtin.alias.bin ("Failed to load kmod library resources", no
# kernel tracer): depmod needs the kernel's modules.builtin(.modinfo) and
# modules.order, as modules_install would install them.
for f in modules.builtin modules.builtin.modinfo modules.order; do
	cp "$obj/$f" "$ROOT/lib/modules/$krel/"
done
depmod -b "$ROOT" "$krel" >&2
for f in modules.dep.bin modules.builtin.bin modules.builtin.alias.bin; do
	[ -s "$ROOT/lib/modules/$krel/$f" ] || die "depmod wrote no $f in $ROOT/lib/modules/$krel"
done
echo "lttng-modules: $(find "$dest" -name '*.ko' | wc -l) modules packed in ${dest#"$ROOT"}, $(du -sm "$dest" | cut -f1) MiB"
