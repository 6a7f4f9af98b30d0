#!/bin/bash
# robot-selftest.sh: make robot's comparison (scripts/robot-lib.sh) and
# report (scripts/robot-report.py) tried on made-up sets, in seconds, no
# kernel built (run by make hygiene).  Each case is a baseline and a set of
# a made-up cell, their warnings as norm() writes them, and the verdict the
# robot must reach: a set passes only when it adds no warning over
# baseline, counted (one fewer is not added), and a file it cannot read
# fails it.  The report must say FAILED and list the warning, or pass.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/robot-lib.sh"
R=$(mktemp -d)/robot
mkdir -p "$R"
trap 'rm -rf "$(dirname "$R")"' EXIT
fail=0
n=0

# mk VARIANT RESULT CC W1 SPARSE: a set's files (\n in the warnings)
mk() {
	printf 'result=%s\nseconds=1\nobjs=1\n' "$2" > "$R/$1-robot-t.status"
	printf '%b' "$3" > "$R/$1-robot-t.cc"
	printf '%b' "$4" > "$R/$1-robot-t.w1"
	printf '%b' "$5" > "$R/$1-robot-t.sparse"
}

# case NAME WANT(pass|fail) REPORT(pass|fail|-): set_ok's verdict, and the
# report's on the cell of baseline and patched
try() {
	local name=$1 want=$2 got out rc
	n=$((n + 1))
	if set_ok patched-robot-t baseline-robot-t 2>/dev/null; then got=pass; else got=fail; fi
	if [ "$got" != "$want" ]; then
		echo "robot-selftest: $name: set_ok says $got, the robot must say $want"
		fail=1
	fi
	[ "$3" != - ] || return 0
	rc=0
	out=$(python3 "$TOP/scripts/robot-report.py" "$R" --cells t --sets baseline patched 2>&1) || rc=$?
	if [ "$3" = pass ] && { [ "$rc" != 0 ] || ! grep -q 'no warning added' <<< "$out"; }; then
		echo "robot-selftest: $name: the report fails or does not say 'no warning added' (exit $rc)"
		fail=1
	elif [ "$3" = fail ] && { [ "$rc" = 0 ] || ! grep -q 'FAILED' <<< "$out"; }; then
		echo "robot-selftest: $name: the report passes a failing set (exit $rc)"
		fail=1
	fi
}

W='a.c: warning: unused variable x [x1]\n'
W2='a.c: warning: unused variable x [x2]\n'
V='b.c: warning: incorrect type in argument 1 (different address spaces) [x3]\n'

mk baseline built '' "$V" "$V"; mk patched built '' "$V" "$V"
try "the same warnings" pass pass
mk baseline built '' '' ''; mk patched built "$W" '' ''
try "a warning where baseline has none of that kind" fail fail
grep -qx 'a.c: warning: unused variable x \[x1\]' "$R/patched-robot-t.added.cc" ||
	{ echo "robot-selftest: the added warning is not in patched's .added.cc"; fail=1; }
out=$(python3 "$TOP/scripts/robot-report.py" "$R" --cells t --sets baseline patched 2>&1) || true
grep -q 'patched-robot-t, cc: .a.c: warning: unused variable x' <<< "$out" ||
	{ echo "robot-selftest: the report does not name the added warning"; fail=1; }
mk baseline built "$W" '' "$V"; mk patched built "$W2" '' "$V"
try "a warning once more than baseline" fail fail
mk baseline built "$W2" '' "$V"; mk patched built "$W" '' ''
try "one fewer, and a sparse warning gone" pass pass
mk baseline built '' '' "$V"; mk patched built '' "$W" "$V"
try "a W=1 warning added" fail fail
mk baseline built '' '' ''; mk patched built '' '' "$V"
try "a sparse warning added (baseline has none)" fail fail
mk baseline built '' '' "$V"; mk patched built '' '' "$V$W"
try "a sparse warning added" fail fail
mk baseline built '' '' ''; mk patched built '' '' ''
rm "$R/patched-robot-t.cc"
try "the set's own file missing" fail -
mk baseline built '' '' "$V"; mk patched built '' '' "$V"
rm "$R/baseline-robot-t.sparse"
try "baseline's sparse file missing" fail -
mk baseline nobuild '' '' ''; mk patched built '' '' ''
try "baseline not built" fail fail
mk baseline built '' '' ''; mk patched nobuild '' '' ''
try "the set not built" fail fail
mk baseline built '' '' ''; mk patched built '' '' ''
rm -f "$R"/patched-robot-t.added.*
python3 "$TOP/scripts/robot-report.py" "$R" --cells t --sets baseline patched > /dev/null 2>&1 &&
	{ echo "robot-selftest: the report passes a built set that robot.sh did not compare"; fail=1; }
# norm: the tree's path (absolute or ../../trees/SET/), line and column
# go; a second identical warning in a file is counted
n=$((n + 1))
printf '%s\n' "../../trees/faulting-robot-t/kernel/a.c:10:5: warning: unused variable 'x' [-Wunused-variable]" \
	"$TREES/baseline-robot-t/kernel/a.c:20:5: warning: unused variable 'x' [-Wunused-variable]" \
	"kernel/b.c:3: error: incorrect type in argument 1 (different address spaces)" \
	"  CC      kernel/c.o" > "$R/log"
want="kernel/a.c: warning: unused variable 'x' [-Wunused-variable] [x2]
kernel/b.c: error: incorrect type in argument 1 (different address spaces) [x1]"
[ "$(norm "$R/log")" = "$want" ] ||
	{ echo "robot-selftest: norm gives"; norm "$R/log"; echo "robot-selftest: where it must give"; echo "$want"; fail=1; }

# the report of a prefix walk with a failing prefix (a warning added) and
# of kernel-doc with a warning added: FAILED, each warning named
n=$((n + 1))
mk baseline built '' '' ''; mk patched built '' '' ''
set_ok patched-robot-t baseline-robot-t
printf '1=ok 5\n2=fail a.c: warning: walked [x1]\ntotal_s=10\n' > "$R/prefixes-t.status"
printf 'a.c: warning: walked [x1]\n' > "$R/prefix-2-robot-t.added.cc"
rc=0
out=$(python3 "$TOP/scripts/robot-report.py" "$R" --cells t --sets baseline patched --prefix-cells t 2>&1) || rc=$?
{ [ "$rc" != 0 ] && grep -q 'FAILED' <<< "$out" && grep -q 'prefix 2 of the walk in t, cc: .a.c: warning: walked' <<< "$out"; } ||
	{ echo "robot-selftest: a failing prefix of the walk is not reported as failing, with its warning (exit $rc)"; fail=1; }
rm -f "$R/prefixes-t.status"
# kernel-doc (robot-lib.sh's kdoc_compare, as robot.sh runs it) on two
# made-up trees whose scripts/kernel-doc prints what a case gives (FILE.out)
# and exits FILE.rc, or 3 when told -Werror (KCFLAGS, KDOC_WERROR: kdoc
# must clear them).  kdoc_case NAME BASE SERIES WANT [SERIES_RC [SUMMARY]]: WANT
# pass (', 0 added'), fail (FAILED, the warning 'Function parameter x'
# named) or broken (kernel-doc failed: the run FAILED, the file named);
# [SUMMARY]: what the report must also say
T=$(dirname "$R")/kdoc
for t in base series; do
	mkdir -p "$T/$t/scripts"
	cat > "$T/$t/scripts/kernel-doc" <<'PERL'
my $f = $ARGV[-1];
exit 3 if defined $ENV{KDOC_WERROR} || ($ENV{KCFLAGS} // '') =~ /Werror/;
open(my $h, '<', "$f.out") or die "Can't open $f.out";
print STDERR <$h>;
exit(-e "$f.rc" ? `cat $f.rc` : 0);
PERL
done
kdoc_case() {
	local rc=0 out got=pass
	n=$((n + 1))
	printf '%b' "$2" > "$T/base/k.c.out"
	printf '%b' "$3" > "$T/series/k.c.out"
	: > "$T/base/k.c"; : > "$T/series/k.c"
	rm -f "$T/series/k.c.rc"
	[ -z "${5:-}" ] || echo "$5" > "$T/series/k.c.rc"
	KDOC_WERROR=1 KCFLAGS=-Werror kdoc_compare "$T/base" "$T/series" k.c absent.c || got=fail
	out=$(python3 "$TOP/scripts/robot-report.py" "$R" --cells t --sets baseline patched 2>&1) || rc=$?
	case $4 in
	pass) { [ "$got" = pass ] && [ "$rc" = 0 ] && grep -q ', 0 added' <<< "$out"; } ||
		{ echo "robot-selftest: kernel-doc, $1: kdoc_compare says $got, the report exits $rc, must pass"; fail=1; } ;;
	fail) { [ "$got" = fail ] && [ "$rc" != 0 ] && grep -q "kernel-doc: .k.c: warning: Function parameter x" <<< "$out"; } ||
		{ echo "robot-selftest: kernel-doc, $1: not failed, with its warning (kdoc_compare $got, report exit $rc)"; fail=1; } ;;
	broken) { [ "$got" = fail ] && [ "$rc" != 0 ] && grep -q "kernel-doc -none -v FAILED: kernel-doc exits $5 on k.c" <<< "$out"; } ||
		{ echo "robot-selftest: kernel-doc, $1: a failing kernel-doc not reported as FAILED (kdoc_compare $got, report exit $rc)"; fail=1; } ;;
	esac
	if [ -n "${6:-}" ] && ! grep -q "$6" <<< "$out"; then
		echo "robot-selftest: kernel-doc, $1: the report does not say '$6'"
		fail=1
	fi
}
w='k.c:12: warning: Function parameter x not described in f\n'
info='k.c:3: info: Scanning doc for function f\n'
kdoc_case 'a warning added' "${info}k.c:7: warning: old\n1 warnings\n" "${info}k.c:7: warning: old\n${w}2 warnings\n" fail
kdoc_case 'a warning of baseline repeated' "$info$w" "$info${w}k.c:40: warning: Function parameter x not described in f\n" fail '' \
	'baseline 1, series 2 warnings, 1 added'
kdoc_case 'three more of a warning' "$w" "$w$w$w$w" fail '' 'baseline 1, series 4 warnings, 3 added'
kdoc_case 'a warning where baseline has none' '' "$w" fail
kdoc_case 'the same warnings on other lines, more info lines' "$info$w$w" "$info$info${w/12/30}${w/12/31}" pass
kdoc_case 'one warning fewer' "$w$w" "$w" pass
kdoc_case 'no output at all' '' '' pass
kdoc_case 'kernel-doc fails on the series' "$w" "Can't open k.c.x\n" broken 2
[ "$fail" = 0 ] || die "robot-selftest: make robot's comparison or report is wrong (above)"
echo "robot-selftest: $n cases of make robot's comparison and report, each as it must be"
