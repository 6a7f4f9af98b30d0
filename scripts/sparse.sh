#!/bin/bash
# sparse.sh: sparse (C=2) on the files the series touches, on the baseline
# and the patched tree; fails on any sparse warning the patched tree has
# and the baseline has not (compared after dropping line numbers).
. "$(dirname "$0")/lib.sh"
command -v sparse >/dev/null || die "sparse not installed (make deps)"
objs=$(touched_objs | tr '\n' ' ')
mkdir -p "$RESULTS"
for v in baseline patched; do
	obj=$(obj_of "$v")
	[ -f "$obj/vmlinux" ] || die "build $v first (scripts/variant.sh $v)"
	# shellcheck disable=SC2086
	make -s -C "$(tree_of "$v")" O="$obj" C=2 CC="gcc" $objs 2>&1 |
		grep -E ': (warning|error):' |
		sed -E "s|^$(tree_of "$v")/||; s|:[0-9]+:[0-9]+:|:|" |
		sort -u > "$RESULTS/sparse-$v.txt" || true
done
new=$(comm -13 "$RESULTS/sparse-baseline.txt" "$RESULTS/sparse-patched.txt")
echo "sparse: baseline $(wc -l < "$RESULTS/sparse-baseline.txt"), patched $(wc -l < "$RESULTS/sparse-patched.txt") distinct warnings on: $objs"
if [ -n "$new" ]; then
	printf '%s\n' "$new"
	die "sparse: new warnings in the patched tree (above)"
fi
echo "sparse: no new warning"
