#!/bin/bash
# stress.sh: the stress suite (make stress).  For baseline-stress,
# patched-stress and faulting-stress (the baseline, the six and the six +
# follow-up patch sets, plus config-fragments/stress/kasan.config: generic
# KASAN, preemption and RCU stall debugging): tree, config, build,
# initramfs, a boot with tpsleep.mode=stress (tests/stress/run.sh: bad
# pointers, privilege, a probe blocked on userfaultfd, one blocked for good
# on a FUSE page, syscall user strings under migration, attach/detach
# storm) and the console
# splat check.  Then a harness case that must fail: patched-stress booted
# with tpsleep.stress=hang, a sleepable probe that never returns, must be
# killed at HANG_TIMEOUT and reported, its console log kept.  Then the
# rcuidle case: patched-stress booted with idle=poll runs a filter rewrite
# storm on the rcuidle events.
# Prints a table and writes build/results/stress.md (scripts/stress-report.py);
# the run is recorded in build/results/stress.json and the generated tables
# of docs/measurements.md and README.md are updated (scripts/results.py;
# RESULTS_DOCS=0: the file only; a failure there is a warning, it never
# changes the status of the run).
#
#   STRESS_VARIANTS  default "baseline-stress patched-stress faulting-stress"
#   STRESS_TIMEOUT   guest timeout of a stress boot, s (default 1800;
#                    an arm64 variant's 3600)
#   HANG_TIMEOUT     guest timeout of the hang case, s (default 120)
#   STRESS_APPEND    extra kernel command line, e.g. tpsleep.storm=...
#   STRESS_HANG=0    skip the hang case
#   STRESS_RCUIDLE_VARIANTS  kernels of the rcuidle case, a boot with
#                    idle=poll and tpsleep.stress=rcuidle (filter rewrite
#                    storm on the preemptirq events); default patched-stress,
#                    empty to skip
#   RCUIDLE_TIMEOUT  its guest timeout, s (default 600)
. "$(dirname "$0")/lib.sh"
VARIANTS=${STRESS_VARIANTS:-baseline-stress patched-stress faulting-stress}
HANG_TIMEOUT=${HANG_TIMEOUT:-120}
HANG_VARIANT=${STRESS_HANG_VARIANT:-patched-stress}
RCUIDLE_VARIANTS=${STRESS_RCUIDLE_VARIANTS-patched-stress}
RCUIDLE_TIMEOUT=${RCUIDLE_TIMEOUT:-600}
t_start=$(date +%s)
# An arm64 variant (faulting-stress-arm64: make stress-arm64) is recorded
# as stress-arm64, its guest gets 3600 s (TCG emulating arm64, KASAN), and
# it takes the arm64 packages; x86_64 kernels add stress/x86_64.config.
RESULTS_TARGET=stress-arm64
lists=
for v in $VARIANTS; do
	if [ "$(arch_of "$v")" = arm64 ]; then
		lists=packages-arm64.txt
	else
		RESULTS_TARGET=stress
	fi
done
stress_arch() {	# stress_arch VARIANT: FRAGMENTS and the guest timeout of VARIANT
	case $(arch_of "$1") in
	arm64) FRAGMENTS=stress/kasan.config; v_timeout=${STRESS_TIMEOUT:-3600} ;;
	*) FRAGMENTS="stress/kasan.config stress/x86_64.config"; v_timeout=${STRESS_TIMEOUT:-1800} ;;
	esac
	export FRAGMENTS
}
results start
# shellcheck disable=SC2086 # a list of file names
"$TOP/scripts/deps.sh" $lists
mkdir -p "$RESULTS" "$LOGS"

# run_stage STATUS-FILE NAME CMD...: run, record "NAME=ok|fail" and seconds
run_stage() {
	local st=$1 name=$2 t0 rc
	shift 2
	t0=$(date +%s)
	set +e
	"$@"
	rc=$?
	set -e
	echo "${name}_s=$(( $(date +%s) - t0 ))" >> "$st"
	if [ "$rc" = 0 ]; then
		echo "$name=ok" >> "$st"
	else
		echo "$name=fail (status $rc)" >> "$st"
	fi
	return "$rc"
}

args=()
for v in $VARIANTS; do
	VARIANT=$v
	st=$RESULTS/stress-$v.status
	: > "$st"
	rm -f "$LOGS/results-$v.ktap" "$LOGS/console-$v.log" "$RESULTS/stress-$v.ktap" "$RESULTS/stress-$v.console.log"
	stage "stress: $v"
	stress_arch "$v"
	if run_stage "$st" tree "$TOP/scripts/tree.sh" "$v" &&
	   run_stage "$st" config "$TOP/scripts/config.sh" "$v" &&
	   run_stage "$st" build "$TOP/scripts/build.sh" "$v" &&
	   run_stage "$st" initramfs "$TOP/scripts/initramfs.sh" "$v"; then
		APPEND="tpsleep.mode=stress ${STRESS_APPEND:-}" TIMEOUT=$v_timeout \
			run_stage "$st" boot "$TOP/scripts/boot.sh" "$v" || true
		if [ -f "$LOGS/console-$v.log" ]; then
			run_stage "$st" log "$TOP/scripts/check-log.sh" "$LOGS/console-$v.log" || true
			cp "$LOGS/console-$v.log" "$RESULTS/stress-$v.console.log"
		fi
		[ -f "$LOGS/results-$v.ktap" ] && cp "$LOGS/results-$v.ktap" "$RESULTS/stress-$v.ktap"
	else
		echo "FAILED: $v did not get to boot (see above)" >&2
	fi
	args+=("$v")
done

# The harness case: a guest whose probe never returns must be killed at
# its timeout and reported, with its console log kept.
hst=$RESULTS/stress-hang.status
: > "$hst"
if [ "${STRESS_HANG:-1}" != 0 ] && grep -q '^initramfs=ok' "$RESULTS/stress-$HANG_VARIANT.status" 2>/dev/null; then
	# shellcheck disable=SC2034 # stage() prints it
	VARIANT=$HANG_VARIANT
	stage "stress: harness case, a probe that never returns (expect a kill after ${HANG_TIMEOUT}s)"
	t0=$(date +%s)
	set +e
	out=$(APPEND="tpsleep.mode=stress tpsleep.stress=hang" TIMEOUT=$HANG_TIMEOUT \
		"$TOP/scripts/boot.sh" "$HANG_VARIANT" 2>&1)
	rc=$?
	set -e
	printf '%s\n' "$out" | tail -n 8
	echo "hang_s=$(( $(date +%s) - t0 ))" >> "$hst"
	hlog=$RESULTS/stress-hang.console.log
	cp "$LOGS/console-$HANG_VARIANT.log" "$hlog" 2>/dev/null || : > "$hlog"
	why=
	[ "$rc" != 0 ] || why="boot.sh succeeded (status 0)"
	[ -n "$why" ] || grep -q "hung: killed after ${HANG_TIMEOUT}s" <<< "$out" ||
		why="boot.sh failed (status $rc) without reporting the hang"
	[ -n "$why" ] || grep -q 'hang probe entered' "$hlog" ||
		why="the console log has no 'hang probe entered' line"
	[ -n "$why" ] || ! grep -q 'the probe returned' "$hlog" || why="the probe returned"
	if [ -z "$why" ]; then
		echo "hang=ok (killed after ${HANG_TIMEOUT}s and reported, console kept in ${hlog#"$TOP"/})" >> "$hst"
	else
		echo "hang=fail ($why)" >> "$hst"
	fi
	# boot.sh left these for the killed run: do not mistake them for the
	# stress run's (copied above).
	rm -f "$LOGS/results-$HANG_VARIANT.ktap"
	[ -f "$RESULTS/stress-$HANG_VARIANT.console.log" ] &&
		cp "$RESULTS/stress-$HANG_VARIANT.console.log" "$LOGS/console-$HANG_VARIANT.log"
elif [ "${STRESS_HANG:-1}" != 0 ]; then
	echo "hang=fail (no $HANG_VARIANT kernel)" >> "$hst"
else
	echo "hang=skipped (STRESS_HANG=0)" >> "$hst"
fi

# The rcuidle case: a boot of its own, with idle=poll (the other scenarios
# keep the default halt idle, whose vCPU does not spin under TCG), that only
# runs the filter rewrite storm on the rcuidle events (tests/stress/run.sh).
rst=$RESULTS/stress-rcuidle.status
: > "$rst"
for v in $RCUIDLE_VARIANTS; do
	rm -f "$RESULTS/stress-rcuidle-$v.ktap" "$RESULTS/stress-rcuidle-$v.console.log"
	if ! grep -q '^initramfs=ok' "$RESULTS/stress-$v.status" 2>/dev/null; then
		echo "$v=fail (no $v kernel)" >> "$rst"
		continue
	fi
	# shellcheck disable=SC2034 # stage() prints it
	VARIANT=$v
	stage "stress: rcuidle filter storm on $v (idle=poll)"
	t0=$(date +%s)
	set +e
	APPEND="tpsleep.mode=stress tpsleep.stress=rcuidle idle=poll" TIMEOUT=$RCUIDLE_TIMEOUT \
		"$TOP/scripts/boot.sh" "$v"
	brc=$?
	"$TOP/scripts/check-log.sh" "$LOGS/console-$v.log"
	lrc=$?
	set -e
	echo "${v}_s=$(( $(date +%s) - t0 ))" >> "$rst"
	cp "$LOGS/console-$v.log" "$RESULTS/stress-rcuidle-$v.console.log" 2>/dev/null || true
	cp "$LOGS/results-$v.ktap" "$RESULTS/stress-rcuidle-$v.ktap" 2>/dev/null || true
	if [ "$brc" = 0 ] && [ "$lrc" = 0 ]; then
		echo "$v=ok" >> "$rst"
	else
		echo "$v=fail (boot status $brc, console check status $lrc)" >> "$rst"
	fi
	# Leave the main stress run's logs in place.
	[ -f "$RESULTS/stress-$v.console.log" ] &&
		cp "$RESULTS/stress-$v.console.log" "$LOGS/console-$v.log"
	[ -f "$RESULTS/stress-$v.ktap" ] &&
		cp "$RESULTS/stress-$v.ktap" "$LOGS/results-$v.ktap"
done

echo "total_s=$(( $(date +%s) - t_start ))" > "$RESULTS/stress-total.status"
echo
rc=0
rm -f "$RESULTS/stress-summary.json"
python3 "$TOP/scripts/stress-report.py" "$RESULTS" "${args[@]}" || rc=$?
results record --status "$rc" --variants "${args[*]}"
exit "$rc"
