#!/bin/sh
# Run every /tests/checks/*.sh, KTAP on /dev/ttyS1, plan at the end.
. /tests/ktap.sh
per_check=${1:-600}
echo 0 > "$KTAP_COUNT_FILE"
ktap_line "KTAP version 1"
ktap_diag "variant $(cat /tests/variant), kernel $(uname -r), features: $(tr '\n' ' ' < /tests/features)"
# tpsleep.checks=A,B on the kernel command line (initramfs/init): only the
# check scripts whose names start with A or B (an experiment, a quick rerun)
only=$(echo "${TPSLEEP_CHECKS:-}" | tr ',' ' ')
[ -n "$only" ] && ktap_diag "only the check scripts: $only"
for c in /tests/checks/*.sh; do
	[ -f "$c" ] || continue
	if [ -n "$only" ]; then
		want=
		for o in $only; do
			case "${c##*/}" in "$o"*) want=1 ;; esac
		done
		[ -n "$want" ] || continue
	fi
	name=${c##*/}
	echo "tpsleep: === $name at $(cut -d' ' -f1 /proc/uptime)s"
	timeout "$per_check" sh -c ". /tests/ktap.sh; . $c"
	rc=$?
	if [ "$rc" != 0 ]; then
		# A check script that dies or times out is a failure of its own.
		ktap_fail "script.${name%.sh}" "exited with status $rc (143 = timeout after ${per_check}s)"
	fi
done
ktap_line "1..$(cat "$KTAP_COUNT_FILE")"
