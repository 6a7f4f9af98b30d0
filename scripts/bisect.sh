#!/bin/bash
# bisect.sh [FIRST [LAST]]: for every prefix of the series, apply, configure,
# build, boot and run the checks that apply to it (the others SKIP), then
# print one table.  Any prefix that fails to apply, build or boot, or with a
# failed check, fails the command.
. "$(dirname "$0")/lib.sh"
"$TOP/scripts/deps.sh"
total=$(series_patches faulting | wc -l)
six=$(series_patches patched | wc -l)
first=${1:-1}
last=${2:-$total}
mkdir -p "$RESULTS"
table=$RESULTS/bisect.md
status=0
rows=()
t0=$(date +%s)
for n in $(seq "$first" "$last"); do
	v=prefix-$n
	# the end of the six and of the whole series are the variants make
	# check builds: reuse their trees and objects
	[ "$n" = "$six" ] && v=patched
	[ "$n" = "$total" ] && [ "$n" != "$six" ] && v=faulting
	applies=no builds=no boots=no counts="-" secs="-"
	log=$LOGS/bisect-$v.log
	mkdir -p "$LOGS"
	{
		"$TOP/scripts/tree.sh" "$v" && applies=yes &&
		"$TOP/scripts/config.sh" "$v" &&
		"$TOP/scripts/build.sh" "$v" && builds=yes &&
		"$TOP/scripts/initramfs.sh" "$v" &&
		"$TOP/scripts/boot.sh" "$v" &&
		"$TOP/scripts/check-log.sh" "$LOGS/console-$v.log" && boots=yes
	} > "$log" 2>&1 || status=1
	[ -f "$(obj_of "$v")/.build-seconds" ] && [ "$builds" = yes ] &&
		secs=$(cat "$(obj_of "$v")/.build-seconds")
	if [ "$boots" = yes ]; then
		out=$(python3 "$TOP/scripts/report.py" "$v=$LOGS/results-$v.ktap") || status=1
		counts=$(printf '%s\n' "$out" | tail -n1)
	fi
	[ "$boots" = yes ] || { echo "prefix $n ($v) failed, see $log:"; tail -n 5 "$log"; }
	patch=$(series_patches faulting | sed -n "${n}p")
	rows+=("| $n | ${patch%.patch} | $applies | $builds | $boots | $counts | $secs |")
	echo "prefix $n: applies=$applies builds=$builds boots=$boots checks: $counts build ${secs}s"
done
{
	echo "| prefix | top patch | applies | builds | boots | checks | build s |"
	echo "|---|---|---|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
	echo
	echo "total $(( $(date +%s) - t0 ))s for prefixes $first..$last"
} | tee "$table"
exit "$status"
