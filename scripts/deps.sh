#!/bin/bash
# Install every Debian package the pipeline needs (idempotent).
. "$(dirname "$0")/lib.sh"
pkgs=$(sed -e 's/#.*//' "$TOP/scripts/packages.txt" | xargs)
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: all $(echo "$pkgs" | wc -w) packages installed"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "deps: must run as root to install:$missing (or install them and rerun)"
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
