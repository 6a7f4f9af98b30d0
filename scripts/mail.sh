#!/bin/bash
# mail.sh: turn the quilt series into mailable git format-patch series: the
# six in build/mail/ (cover letter from ./cover-letter), the follow-up in
# build/mail/faulting/ (from ./cover-letter-faulting; it applies on top of
# the six).  A git repository of the pristine tree, each patch applied with
# git am (author, subject, message kept), then format-patch with the cover
# letter and To/Cc from get_maintainer.pl.  Finally the mboxes are applied
# with git am to a fresh copy of the pristine tree, which must then be
# byte-identical to the quilt-applied trees (patched, then faulting).
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

# mkseries NAME COVER OUTDIR PATCH...: git am the patches on top of the
# repository's HEAD, format-patch them with a cover letter from COVER and
# To/Cc from get_maintainer.pl.
mkseries() {
	local name=$1 coverfile=$2 dir=$3 base n=0 p gm to cc cover subject f
	shift 3
	base=$(g "$repo" rev-parse HEAD)
	for p in "$@"; do
		n=$((n + 1))
		g "$repo" am -q --keep-cr "$TOP/patches/$p" || die "git am of $p failed"
	done
	stage "format-patch $name ($n patches, prefix '$PREFIX')"
	mkdir -p "$dir"
	g "$repo" format-patch -q --cover-letter --subject-prefix="$PREFIX" -o "$dir" "$base..HEAD"

	# To/Cc from the tree's get_maintainer.pl on the whole series: every
	# maintainer of what it touches in To,
	# the lists in Cc; no reviewers.
	gm=$(cd "$repo" && perl scripts/get_maintainer.pl --no-rolestats --no-git \
		--no-git-fallback --no-roles --no-n --nor "$dir"/0*-*.patch 2>/dev/null | grep -v '^$' || true)
	to=$(printf '%s\n' "$gm" | grep -vE 'vger|lists\.' | paste -sd, - | sed 's/,/, /g')
	cc=$(printf '%s\n' "$gm" | grep -E 'vger|lists\.' | paste -sd, - | sed 's/,/, /g')
	[ -n "$to" ] || die "get_maintainer.pl found no maintainer"

	cover=$(ls "$dir"/0000-cover-letter.patch)
	subject=$(head -n1 "$coverfile")
	python3 - "$cover" "$coverfile" "$subject" <<'PY'
import sys
path, src, subject = sys.argv[1:4]
body = open(src).read().split('\n', 1)[1].lstrip('\n').rstrip('\n')
s = open(path).read()
s = s.replace('*** SUBJECT HERE ***', subject).replace('*** BLURB HERE ***', body)
open(path, 'w').write(s)
PY
	for f in "$dir"/*.patch; do
		python3 - "$f" "$to" "$cc" <<'PY'
import sys
path, to, cc = sys.argv[1:4]
s = open(path).read()
head, sep, rest = s.partition('\nSubject: ')
extra = 'To: %s\n' % to + ('Cc: %s\n' % cc if cc else '')
open(path, 'w').write(head + '\n' + extra.rstrip('\n') + sep + rest)
PY
	done
	cat "$dir"/*.patch > "$dir/series.mbox"
	grep -h '^Subject:' "$dir"/*.patch
	echo "mail $name: $dir ($(ls "$dir"/*.patch | wc -l) mails, series.mbox)"
	echo "To: $to"
	echo "Cc: $cc"
}

# shellcheck disable=SC2046 # one patch name a word
mkseries "the six" "$TOP/cover-letter" "$out" $(series_patches patched)
followup=$(followup_patches)
if [ -n "$followup" ]; then
	# shellcheck disable=SC2086
	mkseries "the follow-up" "$TOP/cover-letter-faulting" "$out/faulting" $followup
fi

# The mboxes must reproduce the quilt-applied trees exactly: the six on
# the pristine tree = patched, then the follow-up on top = faulting.
identity() {	# identity MBOX VARIANT
	g "$check" am -q --empty=drop "$1" || die "$1 does not apply with git am"
	if ! diff -r -q -x .git -x .pc -x patches -x .series -x .variant-stamp \
		"$check" "$(tree_of "$2")" > "$out/identity-$2.diff"; then
		cat "$out/identity-$2.diff" >&2
		die "git am of $1 differs from the quilt-applied $2 tree"
	fi
}
stage "identity check: git am of the mbox(es) on a fresh pristine tree"
mkrepo "$check"
identity "$out/series.mbox" patched
if [ -n "$followup" ]; then
	"$TOP/scripts/tree.sh" faulting >/dev/null
	identity "$out/faulting/series.mbox" faulting
fi
rm -rf "$repo" "$check"
echo "mail: git am of the series is byte-identical to the quilt trees (patched${followup:+, then faulting})"
