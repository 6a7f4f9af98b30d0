#!/bin/bash
# qedit.sh FILE...: `quilt add` FILEs in a hard-linked dev tree and give
# each a private copy, so that editing it never writes through to the
# read-only pristine tree it shares inodes with.  Run inside the tree.
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
quilt --quiltrc="$here/quiltrc" add "$@"
for f in "$@"; do
	[ -e "$f" ] || continue
	cp -p "$f" "$f.qedit.$$"
	mv -f "$f.qedit.$$" "$f"
	chmod u+w "$f"
done
