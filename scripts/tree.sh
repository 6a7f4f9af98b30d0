#!/bin/bash
# tree.sh VARIANT: derive the variant's source tree from the pristine
# distro tree and apply its patches with quilt, fuzz 0, no offsets.
. "$(dirname "$0")/lib.sh"
VARIANT=${1:?usage: tree.sh VARIANT}

# 1. The pristine tree: unpacked once, then read-only.
if [ ! -f "$PRISTINE/.pristine-ok" ]; then
	[ -f "$SRC_TARBALL" ] || die "no $SRC_TARBALL (install linux-source-6.1: make deps)"
	stage "unpacking $SRC_TARBALL"
	rm -rf "$BUILD/pristine"
	mkdir -p "$BUILD/pristine"
	tar -C "$BUILD/pristine" -xf "$SRC_TARBALL"
	[ -f "$PRISTINE/Makefile" ] || die "tarball did not unpack to $PRISTINE"
	chmod -R a-w "$PRISTINE"
	chmod u+w "$PRISTINE"
	touch "$PRISTINE/.pristine-ok"
	chmod u-w "$PRISTINE"
fi
KVER=$(make -s -C "$PRISTINE" kernelversion)
case "$KVER" in 6.1.*) ;; *) die "pristine tree is $KVER, expected 6.1.x" ;; esac

mapfile -t PATCHES < <(series_patches "$VARIANT")
for p in "${PATCHES[@]}"; do
	[ -f "$TOP/patches/$p" ] || die "series lists $p, not in patches/"
done

# A tree is reused only if it holds exactly these patches, byte for byte.
want=$( { echo "$KVER"; for p in "${PATCHES[@]}"; do
	sha256sum "$TOP/patches/$p" | sed "s|$TOP/||"; done; } )
tree=$(tree_of "$VARIANT")
if [ -f "$tree/.variant-stamp" ] && [ "$(cat "$tree/.variant-stamp")" = "$want" ]; then
	stage "tree $tree: linux $KVER + ${#PATCHES[@]} patches, already applied (no-op)"
	exit 0
fi

export QUILT_PATCHES=patches QUILT_SERIES=$tree/.series QUILT_PC=.pc
# An applied tree of the same kernel whose first K patches are these, byte
# for byte, keeps them: the patches above pop (quilt restores the files,
# hard links to the pristine tree with its times: each becomes a copy of
# its own with the time of now, so that make rebuilds what it touched),
# the rest are pushed.  make then rebuilds what changed, as in a
# developer's tree: a bisect walk (scripts/bisect.sh) or an edit of the
# last patch.
keep=-1
if [ -f "$tree/.variant-stamp" ] && [ -f "$tree/.series" ] && [ -d "$tree/.pc" ] &&
   [ "$(head -n1 "$tree/.variant-stamp")" = "$KVER" ]; then
	mapfile -t have < <(tail -n +2 "$tree/.variant-stamp")
	mapfile -t need < <(printf '%s\n' "$want" | tail -n +2)
	keep=0
	while [ "$keep" -lt "${#have[@]}" ] && [ "$keep" -lt "${#need[@]}" ] &&
	      [ "${have[$keep]}" = "${need[$keep]}" ]; do
		keep=$((keep + 1))
	done
fi
if [ "$keep" -ge 0 ]; then
	stage "tree $tree: keeps $keep of its ${#have[@]} patches, then ${#PATCHES[@]} in all"
	cd "$tree"
	rm -f .variant-stamp
	while [ "$(quilt --quiltrc=/dev/null applied 2>/dev/null | wc -l)" -gt "$keep" ]; do
		top=$(quilt --quiltrc=/dev/null top)
		mapfile -t files < <(quilt --quiltrc=/dev/null files "$top")
		out=$(quilt --quiltrc=/dev/null pop -f 2>&1) || {
			printf '%s\n' "$out"
			die "quilt pop of $top failed in $tree"
		}
		for f in "${files[@]}"; do
			[ -e "$f" ] || continue
			cp -p "$f" "$f.tpsleep-pop" && mv -f "$f.tpsleep-pop" "$f" &&
				touch "$f" || die "cannot renew $f in $tree"
		done
	done
	printf '%s\n' "${PATCHES[@]}" > .series
else
	stage "tree $tree from pristine $KVER (hard links)"
	# the objects of another tree: files that go back to pristine keep
	# their old times, so make would not rebuild them
	rm -rf "$tree" "$(obj_of "$VARIANT")"
	mkdir -p "$TREES"
	cp -al "$PRISTINE" "$tree"
	# Directories become writable so patch can replace files (it writes
	# a new file and renames it, breaking the hard link); files stay
	# shared.
	find "$tree" -type d -exec chmod u+w {} +
	rm -f "$tree/.pristine-ok"
	cd "$tree"
	printf '%s\n' "${PATCHES[@]}" > .series
	keep=0
fi
# this checkout's patches (a kept tree may have been made by another
# checkout sharing BUILD, e.g. a git worktree)
ln -sfn "$TOP/patches" patches
n=$keep
for p in "${PATCHES[@]:$keep}"; do
	n=$((n + 1))
	out=$(quilt --quiltrc=/dev/null push --fuzz=0 2>&1) || {
		printf '%s\n' "$out"
		die "patch $n ($p) does not apply to linux $KVER"
	}
	printf '%s\n' "$out"
	if printf '%s\n' "$out" | grep -qE '^Hunk .*(fuzz|offset)|with fuzz|offset [0-9]+ line'; then
		die "patch $n ($p) applies only with fuzz or offset: refresh it"
	fi
done
# A second push must be a no-op: quilt says the series is fully applied.
if [ "${#PATCHES[@]}" -gt 0 ]; then
	out=$(quilt --quiltrc=/dev/null push -a 2>&1) && die "second quilt push was not a no-op: $out"
	printf '%s\n' "$out" | grep -q 'fully applied' || die "second quilt push: $out"
fi
echo "$want" > .variant-stamp
stage "tree ready: linux $KVER + ${#PATCHES[@]} patches"
