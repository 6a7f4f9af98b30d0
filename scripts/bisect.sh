#!/bin/bash
# bisect.sh [FIRST [LAST]]: for every prefix of the series, apply, configure,
# build, boot and run the checks that apply to it (the others SKIP), then
# print one table.  Any prefix that fails to apply, build or boot, or with a
# failed check, fails the command.
#
# The prefixes share one tree and object directory (lib.sh: tree_of,
# obj_of): each is built incrementally on the one before, as a developer
# walking the series with git bisect would; the first is a full build.
# The guest of prefix N boots (from a copy of its bzImage) while prefix N+1
# builds: one guest at a time, one build at a time.
# The walk is recorded in build/results/bisect.json (from bisect.md) and
# the generated tables of docs/measurements.md and README.md are updated
# (scripts/results.py; RESULTS_DOCS=0: the file only); a failure there is a
# warning, it never changes the status of the walk.
. "$(dirname "$0")/lib.sh"
RESULTS_TARGET=bisect
results start
"$TOP/scripts/deps.sh"
total=$(series_patches faulting | wc -l)
six=$(series_patches patched | wc -l)
first=${1:-1}
last=${2:-$total}
mkdir -p "$RESULTS" "$LOGS" "$BUILD/bisect"
table=$RESULTS/bisect.md
status=0
t0=$(date +%s)
bootpid=
# a failure of this script must not leave a guest running
# (|| true: under set -e a failed kill, of a guest already reaped, would
# make the walk exit 1 whatever its result)
trap '[ -z "$bootpid" ] || kill "$bootpid" 2>/dev/null || true' EXIT

# variant of prefix N: the end of the six and of the whole series are the
# variants make check builds (their own trees and objects, reused)
variant_of() {
	if [ "$1" = "$six" ]; then echo patched
	elif [ "$1" = "$total" ]; then echo faulting
	else echo "prefix-$1"
	fi
}

# boot N VARIANT KERNEL: the guest and the console check, in the background;
# the result lands in build/bisect/N.boots
boot_prefix() {
	local n=$1 v=$2 kernel=$3 log=$LOGS/bisect-$2.log
	{
		KERNEL=$kernel "$TOP/scripts/boot.sh" "$v" &&
		"$TOP/scripts/check-log.sh" "$LOGS/console-$v.log" &&
		echo yes > "$BUILD/bisect/$n.boots"
	} >> "$log" 2>&1
	return 0
}

for n in $(seq "$first" "$last"); do
	v=$(variant_of "$n")
	log=$LOGS/bisect-$v.log
	rm -f "$BUILD/bisect/$n".*
	: > "$log"
	applies=no builds=no
	{
		"$TOP/scripts/tree.sh" "$v" && applies=yes &&
		"$TOP/scripts/config.sh" "$v" &&
		"$TOP/scripts/build.sh" "$v" && builds=yes &&
		"$TOP/scripts/initramfs.sh" "$v" &&
		cp "$(obj_of "$v")/arch/x86/boot/bzImage" "$BUILD/bisect/$n.bzImage" &&
		echo yes > "$BUILD/bisect/$n.ready"
	} >> "$log" 2>&1 || status=1
	echo "$applies" > "$BUILD/bisect/$n.applies"
	echo "$builds" > "$BUILD/bisect/$n.builds"
	[ "$builds" = yes ] && cp "$(obj_of "$v")/.build-seconds" "$BUILD/bisect/$n.secs"
	stage "prefix $n ($v): applies=$applies builds=$builds$([ "$builds" = yes ] && echo " in $(cat "$BUILD/bisect/$n.secs")s")"
	[ -n "$bootpid" ] && wait "$bootpid"
	bootpid=
	if [ -f "$BUILD/bisect/$n.ready" ]; then
		boot_prefix "$n" "$v" "$BUILD/bisect/$n.bzImage" &
		bootpid=$!
	fi
done
[ -n "$bootpid" ] && wait "$bootpid"
bootpid=

rows=()
for n in $(seq "$first" "$last"); do
	v=$(variant_of "$n")
	log=$LOGS/bisect-$v.log
	applies=$(cat "$BUILD/bisect/$n.applies")
	builds=$(cat "$BUILD/bisect/$n.builds")
	boots=no counts="-" secs="-"
	[ -f "$BUILD/bisect/$n.boots" ] && boots=yes
	[ -f "$BUILD/bisect/$n.secs" ] && secs=$(cat "$BUILD/bisect/$n.secs")
	if [ "$boots" = yes ]; then
		out=$(python3 "$TOP/scripts/report.py" "$v=$LOGS/results-$v.ktap") || status=1
		counts=$(printf '%s\n' "$out" | tail -n1)
	else
		status=1
		echo "prefix $n ($v) failed, see $log:"
		tail -n 5 "$log"
	fi
	patch=$(series_patches faulting | sed -n "${n}p")
	rows+=("| $n | ${patch%.patch} | $applies | $builds | $boots | $counts | $secs |")
	echo "prefix $n: applies=$applies builds=$builds boots=$boots checks: $counts build ${secs}s"
done
{
	echo "| prefix | top patch | applies | builds | boots | checks | build s |"
	echo "|---|---|---|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
	echo
	echo "build s: the prefix's build on the one before it (the first of the"
	echo "walk, and patched/faulting when their objects were stale, in full)."
	echo "total $(( $(date +%s) - t0 ))s for prefixes $first..$last"
} | tee "$table"
results record --status "$status" --first "$first" --last "$last"
exit "$status"
