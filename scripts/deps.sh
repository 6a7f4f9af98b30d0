#!/bin/bash
# Install every Debian package the pipeline needs (idempotent).
# A line "unpack:NAME" of packages.txt is a package that is downloaded
# (apt-get download) and unpacked in build/src/NAME, never installed; its
# version is kept in build/src/NAME/.version and the download is redone
# when apt's candidate changes.
. "$(dirname "$0")/lib.sh"
# deps.sh [LIST...]: packages.txt and, for a target beyond make check, its
# own list (e.g. scripts/packages-preempt.txt), same format.
lists=("$TOP/scripts/packages.txt")
for l in "$@"; do
	[ -f "$l" ] || l=$TOP/scripts/$l
	[ -f "$l" ] || die "deps: no package list $l"
	lists+=("$l")
done
list=$(sed -e 's/#.*//' "${lists[@]}" | xargs -n 1)
# "arch:NAME": a foreign architecture dpkg must know (multiarch), for the
# NAME:ARCH packages of a cross target
foreign=$(printf '%s\n' "$list" | sed -n 's/^arch://p' | xargs)
list=$(printf '%s\n' "$list" | { grep -v '^arch:' || true; })
updated=
for a in $foreign; do
	if ! dpkg --print-foreign-architectures | grep -qx "$a"; then
		[ "$(id -u)" = 0 ] || die "deps: must run as root to add the architecture $a (dpkg --add-architecture $a)"
		dpkg --add-architecture "$a"
		echo "deps: dpkg --add-architecture $a"
		apt-get update -q
		updated=1
	fi
done
pkgs=$(printf '%s\n' "$list" | { grep -v '^unpack:' || true; } | xargs)
unpack=$(printf '%s\n' "$list" | sed -n 's/^unpack://p' | xargs)
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: all $(echo "$pkgs" | wc -w) packages installed"
else
	[ "$(id -u)" = 0 ] || die "deps: must run as root to install:$missing (or install them and rerun)"
	echo "deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	updated=1
	# lttng-tools' postinst starts its lttng-sessiond service: a root
	# session daemon on this machine, which loads any LTTng modules built
	# for the host's kernel into it.  While apt-get installs, a
	# policy-rc.d (Debian's mechanism, as in container images) denies
	# every service start, unless the machine has one of its own.
	policy=/usr/sbin/policy-rc.d
	if [ ! -e "$policy" ]; then
		printf '#!/bin/sh\n# scripts/deps.sh, while apt-get installs: no service starts\nexit 101\n' > "$policy"
		chmod 755 "$policy"
		trap 'rm -f "$policy"' EXIT
	fi
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing
	[ ! -e "$policy" ] || ! grep -q '^# scripts/deps.sh' "$policy" || { rm -f "$policy"; trap - EXIT; }
fi

# unpack_pkg NAME: build/src/NAME holds apt's candidate version of NAME
unpack_pkg() {
	local p=$1 dir=$BUILD/src/$1 ver tmp deb
	ver=$(apt-cache policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	if { [ -z "$ver" ] || [ "$ver" = "(none)" ]; } && [ -z "$updated" ] && [ "$(id -u)" = 0 ]; then
		apt-get update -q
		updated=1
		ver=$(apt-cache policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	fi
	if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
		[ -f "$dir/.version" ] || die "deps: apt knows no package $p (apt-get update as root, then rerun)"
		echo "deps: $p: apt knows no candidate, keeping build/src/$p $(cat "$dir/.version")"
		return 0
	fi
	if [ -f "$dir/.version" ] && [ "$(cat "$dir/.version")" = "$ver" ]; then
		echo "deps: $p $ver unpacked in build/src/$p"
		return 0
	fi
	tmp=$(mktemp -d)
	# apt downloads as _apt when it can write there (else it warns)
	[ "$(id -u)" != 0 ] || chown _apt "$tmp" 2>/dev/null || true
	(cd "$tmp" && apt-get download -q "$p=$ver") || { rm -rf "$tmp"; die "deps: apt-get download $p=$ver failed"; }
	deb=$(ls "$tmp"/*.deb)
	rm -rf "$dir"
	mkdir -p "$dir"
	dpkg-deb -x "$deb" "$dir"
	echo "$ver" > "$dir/.version"
	rm -rf "$tmp"
	echo "deps: $p $ver downloaded and unpacked in build/src/$p (not installed)"
}
for p in $unpack; do
	unpack_pkg "$p"
done
