#!/bin/bash
# sysroot.sh ARCH: Debian's tracers for the ARCH guest (arm64): bpftrace,
# linux-perf, trace-cmd, libbpf-tools, lttng-tools, babeltrace2 (with
# libbabeltrace2-0's plugins and liblttng-ctl0's session.xsd), auditd's
# ausyscall (libbpf-tools' syscount names syscalls with it where it has no
# table of its own: every architecture but x86_64), the
# packages of ARCH that they depend on (apt-cache depends --recurse: every
# Depends and Pre-Depends), downloaded with apt-get (dpkg multiarch:
# scripts/deps.sh packages-arm64.txt adds the architecture) and unpacked,
# never installed, in build/sysroot/ARCH.  scripts/initramfs.sh copies the
# binaries from there with the libraries their DT_NEEDED name.  Redone only
# when the list of packages or a version changes (build/sysroot/ARCH.list).
. "$(dirname "$0")/lib.sh"
A=${1:?usage: sysroot.sh ARCH}
ROOTS="bpftrace linux-perf trace-cmd libbpf-tools lttng-tools babeltrace2 libbabeltrace2-0 liblttng-ctl0 auditd"
dir=$BUILD/sysroot/$A
list=$BUILD/sysroot/$A.list
debs=$BUILD/sysroot/$A.debs
mkdir -p "$BUILD/sysroot" "$debs"
dpkg --print-foreign-architectures | grep -qx "$A" ||
	die "sysroot: dpkg does not know the architecture $A (scripts/deps.sh packages-$A.txt)"
# Packages of the architecture (an Architecture: all dependency, perl's
# modules or python's stdlib, holds no library the binaries link).
# shellcheck disable=SC2046
pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
	--no-breaks --no-replaces --no-enhances $(printf "%s:$A " $ROOTS) 2>/dev/null |
	grep -v '^[ <]' | grep ":$A\$" | sort -u)
[ -n "$pkgs" ] || die "sysroot: apt knows none of $ROOTS for $A (apt-get update?)"
# shellcheck disable=SC2086
want=$(apt-cache show --no-all-versions $pkgs |
	awk '/^Package: /{p=$2} /^Architecture: /{a=$2} /^Version: /{v=$2}
	     /^$/{if (p != "") print p ":" a "=" v; p=""} END{if (p != "") print p ":" a "=" v}' |
	sed "s/:all=/:$A=/" | sort -u)
if [ -d "$dir" ] && [ -f "$list" ] && [ "$(cat "$list")" = "$want" ]; then
	echo "sysroot: $A: $(echo "$want" | wc -l) packages unpacked in build/sysroot/$A"
	exit 0
fi
stage "sysroot $A: $(echo "$want" | wc -l) packages"
# the .debs of other versions (an older list) are not kept
for f in "$debs"/*.deb; do
	[ -e "$f" ] || continue
	b=${f##*/}
	echo "$want" | awk -F= -v b="$b" '{ split($1, pa, ":"); v = $2; gsub(":", "%3a", v);
		if (b == pa[1] "_" v "_" pa[2] ".deb" || b == pa[1] "_" v "_all.deb") f = 1 } END { exit !f }' ||
		rm -f "$f"
done
# apt downloads as _apt when it can write there (else it warns)
[ "$(id -u)" != 0 ] || chown _apt "$debs" 2>/dev/null || true
# debfile PACKAGE:ARCH VERSION: the .deb apt-get download wrote (an epoch's
# colon is %3a in its name)
debfile() {
	local f=$debs/${1%%:*}_${2/:/%3a}_$A.deb
	[ -f "$f" ] || f=$debs/${1%%:*}_${2/:/%3a}_all.deb
	[ -f "$f" ] && echo "$f"
}
missing=()
for pv in $want; do
	p=${pv%%=*}
	v=${pv#*=}
	debfile "$p" "$v" >/dev/null || missing+=("$pv")
done
if [ ${#missing[@]} -gt 0 ]; then
	# stale package lists (a version gone from the mirror): update once
	(cd "$debs" && apt-get download -q "${missing[@]}" >/dev/null) ||
		{ [ -z "${SYSROOT_UPDATED:-}" ] && [ "$(id -u)" = 0 ] && apt-get update -q &&
		  SYSROOT_UPDATED=1 exec "$0" "$@"; } ||
		die "sysroot: apt-get download failed for some of: ${missing[*]}"
fi
rm -rf "$dir"
mkdir -p "$dir"
for pv in $want; do
	p=${pv%%=*}
	v=${pv#*=}
	deb=$(debfile "$p" "$v") || die "sysroot: no .deb of $pv in $debs"
	dpkg-deb -x "$deb" "$dir"
done
echo "$want" > "$list"
stage "sysroot $A: $(echo "$want" | wc -l) packages unpacked in build/sysroot/$A ($(du -sm "$dir" | cut -f1) MiB)"
