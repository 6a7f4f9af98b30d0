#!/bin/bash
# mail.sh: turn the quilt series into a mailable git format-patch series in
# build/mail/: a git repository of the pristine tree, each patch applied
# with git am (author, subject, message kept), then format-patch with a
# cover letter filled from ./cover-letter and To/Cc from get_maintainer.pl.
# Finally the mbox is applied with git am to a fresh copy of the pristine
# tree, which must be byte-identical to the quilt-applied tree.
#   PREFIX="RFC PATCH v2" make mail
. "$(dirname "$0")/lib.sh"
PREFIX=${PREFIX:-PATCH}
"$TOP/scripts/tree.sh" patched >/dev/null
out=$BUILD/mail
repo=$BUILD/mail-repo
check=$BUILD/mail-check
rm -rf "$out" "$repo" "$check"
mkdir -p "$out"
export GIT_AUTHOR_DATE="2026-12-03T00:00:00Z" GIT_COMMITTER_DATE="2026-12-03T00:00:00Z"
g() { git -C "$1" -c core.autocrlf=false -c gc.auto=0 -c user.name="$(git -C "$TOP" config user.name)" \
	-c user.email="$(git -C "$TOP" config user.email)" "${@:2}"; }

mkrepo() {	# mkrepo DIR: a git repository holding the pristine tree
	cp -a "$PRISTINE" "$1"
	chmod -R u+w "$1"
	rm -f "$1/.pristine-ok"
	g "$1" init -q
	# Debian's tree ignores its own top level in .gitignore: force.
	g "$1" add -A -f .
	g "$1" commit -q -m "linux $(make -s -C "$PRISTINE" kernelversion) (Debian linux-source-6.1)"
}
stage "git repository of the pristine tree"
mkrepo "$repo"
base=$(g "$repo" rev-parse HEAD)
n=0
for p in $(series_patches patched); do
	n=$((n + 1))
	g "$repo" am -q --keep-cr "$TOP/patches/$p" || die "git am of $p failed"
done
stage "format-patch ($n patches, prefix '$PREFIX')"
g "$repo" format-patch -q --cover-letter --subject-prefix="$PREFIX" -o "$out" "$base..HEAD"

# To/Cc from the tree's get_maintainer.pl on the whole series.
gm=$(cd "$repo" && perl scripts/get_maintainer.pl --no-rolestats --no-git \
	--no-git-fallback --no-roles --no-n "$out"/0*-*.patch 2>/dev/null | grep -v '^$' || true)
to=$(printf '%s\n' "$gm" | grep -vE 'vger|lists\.' | head -n 6 | paste -sd, - | sed 's/,/, /g')
cc=$(printf '%s\n' "$gm" | grep -E 'vger|lists\.' | paste -sd, - | sed 's/,/, /g')
[ -n "$to" ] || die "get_maintainer.pl found no maintainer"

cover=$(ls "$out"/0000-cover-letter.patch)
subject=$(head -n1 "$TOP/cover-letter")
python3 - "$cover" "$TOP/cover-letter" "$subject" <<'PY'
import sys
path, src, subject = sys.argv[1:4]
body = open(src).read().split('\n', 1)[1].lstrip('\n').rstrip('\n')
s = open(path).read()
s = s.replace('*** SUBJECT HERE ***', subject).replace('*** BLURB HERE ***', body)
open(path, 'w').write(s)
PY
for f in "$out"/*.patch; do
	python3 - "$f" "$to" "$cc" <<'PY'
import sys
path, to, cc = sys.argv[1:4]
s = open(path).read()
head, sep, rest = s.partition('\nSubject: ')
extra = 'To: %s\n' % to + ('Cc: %s\n' % cc if cc else '')
open(path, 'w').write(head + '\n' + extra.rstrip('\n') + sep + rest)
PY
done
cat "$out"/*.patch > "$out/series.mbox"

# The mbox must reproduce the quilt-applied tree exactly.
stage "identity check: git am of the mbox on a fresh pristine tree"
mkrepo "$check"
g "$check" am -q --empty=drop "$out/series.mbox" || die "the exported mbox does not apply with git am"
if ! diff -r -q -x .git -x .pc -x patches -x .series -x .variant-stamp \
	"$check" "$(tree_of patched)" > "$out/identity.diff"; then
	cat "$out/identity.diff" >&2
	die "git am result differs from the quilt-applied tree"
fi
rm -rf "$repo" "$check"
grep -h '^Subject:' "$out"/*.patch
echo "mail: $out ($(ls "$out"/*.patch | wc -l) mails, series.mbox); git am result is byte-identical to the quilt tree"
echo "To: $to"
echo "Cc: $cc"
