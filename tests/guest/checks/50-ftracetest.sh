# 50-ftracetest.sh: the kernel's own ftrace selftests (shared), a chosen set.
# One KTAP line per ftracetest case: ftracetest.<case file>, and
# ftracetest.<case file>.instance for the rerun of "flags: instance" cases
# inside a trace instance.  PASS -> ok; UNSUPPORTED/UNRESOLVED/UNTESTED/
# XFAIL -> SKIP with ftracetest's reason (the case's "# requires:");
# FAIL/UNDEFINED or no result line -> not ok.
# Sourced by run-checks.sh after ktap.sh; busybox sh, POSIX only.
set -u

T=/sys/kernel/tracing
FT=/tests/ftrace
W=/tmp/ftracetest-check
LOGDIR=$W/logs
FT_TIMEOUT=330         # below the per-check timeout, so results still come

# series_cases: the cases the series adds, each with the patch that adds it
series_cases() {
	echo test.d/event/syscall-user-string.tc 0010
	echo test.d/event/syscall-user-buf-size.tc 0011
	echo test.d/event/syscall-user-buf.tc 0026
	echo test.d/event/syscall-openat-flags.tc 0027
}

# The cases, in the order ftracetest is given them (00basic: all, sorted).
ft_cases() {
	for f in $FT/test.d/00basic/*.tc; do echo "${f#$FT/}"; done
	echo test.d/event/event-no-pid.tc
	echo test.d/event/toplevel-enable.tc
	echo test.d/trigger/trigger-hist-mod.tc
	echo test.d/dynevent/add_remove_eprobe.tc
	echo test.d/dynevent/eprobes_syntax_errors.tc
	echo test.d/dynevent/test_duplicates.tc
	echo test.d/trigger/inter-event/trigger-synthetic-eprobe.tc
	# the cases the series adds, where the tree has them
	series_cases | while read -r c p; do
		if [ -f $FT/$c ]; then echo $c; fi
	done
}

ft_clean() {
	echo 0 > $T/events/enable
	echo > $T/trace
	echo 1 > $T/tracing_on
}

rm -rf $W
mkdir -p $W
ft_clean
ft_cases > $W/cases

# ftracetest numbers its cases [1].. in argument order, then reruns the
# "flags: instance" ones, again in order: rebuild that list ("case kind").
while read -r c; do echo "$c top"; done < $W/cases > $W/expected
while read -r c; do
	grep -q "^#[ 	]*flags:.*instance" "$FT/$c" && echo "$c instance"
done < $W/cases >> $W/expected

# shellcheck disable=SC2046
(cd $FT && timeout $FT_TIMEOUT ./ftracetest -k -l $LOGDIR $(cat $W/cases)) > $W/ft.out 2>&1
rc=$?
echo "--- ftracetest (rc $rc):"
cat $W/ft.out; echo

# "[3] (instance)  Basic trace clock test	[PASS]" -> "3 PASS"
sed -n 's/^\[\([0-9][0-9]*\)\].*\[\([A-Z][A-Z]*\)\]$/\1 \2/p' $W/ft.out > $W/results

# ft_reason CASENO CASEFILE: why a case did not pass, from its kept log
ft_reason() {
	log=$(ls $LOGDIR/"$1-${2##*/}"-log.* 2> /dev/null | head -n 1)
	why=
	[ -n "$log" ] && why=$(grep -m 1 '^Required ' "$log")
	if [ -z "$why" ] && [ -n "$log" ]; then
		why=$(grep -v '^+' "$log" | grep -v '^execute' | tail -n 3 | tr '\n' ' ')
	fi
	req=$(grep "^#[ 	]*requires:" "$FT/$2" | cut -f2- -d:)
	[ -n "$req" ] && why="$why (requires:$req)"
	echo "${why:-no log}"
}

caseno=0
while read -r c kind; do
	caseno=$((caseno + 1))
	ftname=ftracetest.${c##*/}
	[ "$kind" = instance ] && ftname=$ftname.instance
	res=$(sed -n "s/^$caseno \([A-Z]*\)\$/\1/p" $W/results)
	# the line must carry this case's description (guards the numbering)
	desc=$(grep "^#[ 	]*description:" "$FT/$c" | cut -f2- -d:)
	line=$(grep "^\[$caseno\]" $W/ft.out | head -n 1)
	if [ -z "$line" ]; then
		ktap_fail "$ftname" "ftracetest never ran case [$caseno] (rc $rc; 143 = killed by timeout)"
		continue
	fi
	case "$line" in
	*"$desc"*) ;;
	*) ktap_fail "$ftname" "case [$caseno] is '$line', expected '$desc' (rc $rc)"; continue ;;
	esac
	case "$res" in
	PASS) ktap_pass "$ftname" ;;
	UNSUPPORTED|UNRESOLVED|UNTESTED|XFAIL)
		ktap_skip "$ftname" "ftracetest $res: $(ft_reason $caseno "$c")" ;;
	'') ktap_fail "$ftname" "no result for case [$caseno] (ftracetest rc $rc; 143 = killed by timeout)" ;;
	*) ktap_fail "$ftname" "ftracetest $res: $(ft_reason $caseno "$c")" ;;
	esac
done < $W/expected

# The series' cases (all "flags: instance") on a tree that lacks them: a
# prefix before the patch that adds the case or an unpatched kernel.  SKIP,
# so every variant reports every catalogue name.
series_cases > $W/series
while read -r c p; do
	[ -f $FT/$c ] && continue
	ktap_skip "ftracetest.${c##*/}" "not in this tree (the series adds it: $p)"
	ktap_skip "ftracetest.${c##*/}.instance" "not in this tree (the series adds it: $p)"
done < $W/series

# ftracetest's own cleanup (finish_ftrace) resets tracefs; make sure.
ft_clean
for d in $T/instances/ftracetest.*; do [ -d "$d" ] && rmdir "$d"; done
rm -rf $W
