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
# kernel-doc (robot.sh: counted, as norm counts): BASE's warnings, the
# series', what the report must say.  kdoc_case NAME BASE SERIES WANT
# (pass: 'N added' with N = 0; fail: FAILED, the warning named)
kdoc_case() {
	local rc=0 out
	n=$((n + 1))
	printf '%b' "$2" | counted > "$R/baseline.kdoc"
	printf '%b' "$3" | counted > "$R/faulting.kdoc"
	added kdoc faulting baseline > "$R/kdoc.added"
	out=$(python3 "$TOP/scripts/robot-report.py" "$R" --cells t --sets baseline patched 2>&1) || rc=$?
	case $4 in
	pass) { [ "$rc" = 0 ] && grep -q ', 0 added' <<< "$out"; } ||
		{ echo "robot-selftest: kernel-doc, $1: reported as failing (exit $rc)"; fail=1; } ;;
	fail) { [ "$rc" != 0 ] && grep -q 'kernel-doc: .k.c: warning: Function parameter x' <<< "$out"; } ||
		{ echo "robot-selftest: kernel-doc, $1: not reported as failing, with its text (exit $rc)"; fail=1; } ;;
	esac
}
kdoc_case 'a warning added' 'k.c: warning: old\n' \
	'k.c: warning: old\nk.c: warning: Function parameter x not described\n' fail
kdoc_case 'a warning of baseline repeated' 'k.c: warning: Function parameter x not described\n' \
	'k.c: warning: Function parameter x not described\nk.c: warning: Function parameter x not described\n' fail
kdoc_case 'the same warnings' 'k.c: warning: old\nk.c: warning: old\n' 'k.c: warning: old\nk.c: warning: old\n' pass
[ "$fail" = 0 ] || die "robot-selftest: make robot's comparison or report is wrong (above)"
echo "robot-selftest: $n cases of make robot's comparison and report, each as it must be"
