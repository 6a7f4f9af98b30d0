#!/bin/bash
# hygiene.sh: the cheap series checks, run before any build so that a
# broken series fails in seconds: series <-> patches/ consistency, one
# patch format, README.md a reference of at most 300 lines (the rest is
# in docs/), the catalogue of checks in docs/tests.md against the KTAP
# names the checks emit (scripts/catalogue.py), make robot's comparison
# on made-up sets (scripts/robot-selftest.sh), make help naming every
# target, checkpatch, fuzz-0 apply of the whole series.
. "$(dirname "$0")/lib.sh"
fail=0
listed=$(series_patches faulting)
for p in $listed; do
	[ -f "$TOP/patches/$p" ] || { echo "series lists $p, which is not in patches/"; fail=1; }
done
for f in "$TOP"/patches/*; do
	[ -e "$f" ] || continue
	printf '%s\n' "$listed" | grep -qx "${f##*/}" || { echo "patches/${f##*/} is not in series"; fail=1; }
done
[ "$(printf '%s\n' "$listed" | sort | uniq -d)" = "" ] || { echo "series lists a patch twice"; fail=1; }
for p in $listed; do
	f=$TOP/patches/$p
	[ -f "$f" ] || continue
	# One format: mail headers, a/ b/ paths, no timestamps, no Index lines.
	head -n1 "$f" | grep -q '^From: ' || { echo "$p: does not start with a From: header"; fail=1; }
	grep -q '^Subject: \[PATCH [0-9]*/[0-9]*\] ' "$f" || { echo "$p: no 'Subject: [PATCH n/N]' header"; fail=1; }
	grep -q '^Signed-off-by: ' "$f" || { echo "$p: no Signed-off-by"; fail=1; }
	if grep -qE '^(\+\+\+|---) [ab]/.*[[:space:]][0-9]{4}-[0-9]{2}-[0-9]{2}' "$f"; then
		echo "$p: diff headers carry timestamps"; fail=1
	fi
	grep -qE '^Index: ' "$f" && { echo "$p: quilt Index: lines"; fail=1; }
	# (/dev/null: the other side of a file the patch creates or deletes)
	if grep -E '^(\+\+\+|---) ' "$f" | grep -vE '^--- (a/|/dev/null$)|^\+\+\+ (b/|/dev/null$)' | grep -q .; then
		echo "$p: a diff header without a/ b/ paths"; fail=1
	fi
done
# README.md is a reference: the design, the measurements and the test
# catalogue live in docs/ (design.md, measurements.md, tests.md).
README_MAX=300
readme_lines=$(wc -l < "$TOP/README.md")
if [ "$readme_lines" -gt "$README_MAX" ]; then
	echo "README.md has $readme_lines lines, more than $README_MAX: move the details to docs/ (design.md, measurements.md, tests.md)"
	fail=1
fi
# The catalogue of checks (docs/tests.md): one row per KTAP name, against
# the names the scripts under tests/ can emit, extracted statically (a
# catalogued name no script emits, or an emitted one not catalogued,
# fails naming it).
python3 "$TOP/scripts/catalogue.py" check || fail=1
# make robot's comparison and report on made-up sets (no kernel built)
"$TOP/scripts/robot-selftest.sh" || fail=1
# make help: it runs (one quote in an echo breaks it) and names every
# target of .PHONY but itself
if help=$(make -s -C "$TOP" --no-print-directory help 2>&1); then
	for t in $(sed -n 's/^\.PHONY: *//p' "$TOP/Makefile"); do
		[ "$t" = help ] || grep -q "^make $t\b" <<< "$help" ||
			{ echo "make help does not name make $t"; fail=1; }
	done
else
	printf 'make help fails:\n%s\n' "$help"
	fail=1
fi
[ "$fail" = 0 ] || die "hygiene failed (see above)"
echo "hygiene: $(printf '%s\n' "$listed" | wc -l) patches, series and patches/ agree, one format; README.md $readme_lines lines (at most $README_MAX); the catalogue of checks agrees with tests/"
"$TOP/scripts/checkpatch.sh"
"$TOP/scripts/tree.sh" faulting
