#!/bin/bash
# checkpatch.sh: the tree's own checkpatch.pl --strict on every patch of the
# series (and, with --file, on the test module sources), run from the
# pristine linux-source-6.1 tree (not from this repository).  0 errors, 0
# warnings and, in the patches, 0 checks (--strict's CHECK lines, which a
# maintainer running --strict sees too; the test module is not mailed),
# except the findings listed in scripts/checkpatch-allowlist.
. "$(dirname "$0")/lib.sh"
"$TOP/scripts/tree.sh" baseline >/dev/null
cp=$PRISTINE/scripts/checkpatch.pl
allow=$TOP/scripts/checkpatch-allowlist
fail=0
seen=$(mktemp)
trap 'rm -f "$seen"' EXIT
check() {	# check NAME KINDS checkpatch-args...
	local name=$1 kinds=$2 out line type
	shift 2
	# From the pristine tree, as a maintainer runs it on a patch: no git
	# repository there (the commit-id checks then read the message as
	# written), and no context line of ours taken for a source line.
	out=$(cd "$PRISTINE" && perl "$cp" --strict --terse --show-types --no-summary "$@" 2>&1 || true)
	while IFS= read -r line; do
		case "$line" in *": ERROR:"*|*": WARNING:"*) ;; *": CHECK:"*) [ "$kinds" = all ] || continue ;; *) continue ;; esac
		type=$(printf '%s\n' "$line" | sed -E 's/.*: (ERROR|WARNING|CHECK):([A-Z_0-9]+):.*/\2/')
		if grep -qE "^$name $type " "$allow"; then
			echo "$name $type" >> "$seen"
			echo "  allowed: $line"
		else
			echo "  NOT ALLOWED: $line"
			fail=1
		fi
	done <<< "$out"
}
for p in $(series_patches faulting); do
	echo "checkpatch --strict $p"
	check "$p" all "$TOP/patches/$p"
done
for f in "$TOP"/tests/module/*.[ch]; do
	[ -f "$f" ] || continue
	echo "checkpatch --strict --file ${f#$TOP/}"
	check "${f##*/}" errors --no-tree --file "$f"
done
# A stale allow-list entry hides nothing but is misleading: fail on it too.
while read -r p type _; do
	case "$p" in ''|\#*) continue ;; esac
	grep -qx "$p $type" "$seen" || { echo "  STALE allow-list entry: $p $type"; fail=1; }
done < "$allow"
[ "$fail" = 0 ] || die "checkpatch: findings not in scripts/checkpatch-allowlist (see above)"
echo "checkpatch: clean (allowed findings are listed in scripts/checkpatch-allowlist)"
