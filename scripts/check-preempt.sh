#!/bin/bash
# check-preempt.sh: the checks on Debian's preemption model (make
# check-preempt).  For each of PREEMPT_VARIANTS (default faulting-debian,
# baseline-debian: the whole series and no patch, built with
# config-fragments/debian/model.config: PREEMPT_DYNAMIC, voluntary by
# default, Debian's RCU, tick, BPF JIT and tracing options): tree, config,
# build, initramfs, then one boot per mode of PREEMPT_MODES (default "none
# voluntary full", the kernel's preempt= parameter), each running every
# guest check.  A boot whose console does not say "Dynamic Preempt: MODE"
# fails (the mode must be the one asked for), as does any check, splat,
# panic or hang.  The fragment is compared line by line with Debian's own
# amd64 config (package linux-config-6.1) first: a difference fails.
#   PREEMPT_TIMEOUT  whole guest, s (default 1500)
# One KTAP table over the boots (columns VARIANT@MODE) and the closing line;
# recorded in build/results/preempt.json, docs/measurements.md and README.md.
. "$(dirname "$0")/lib.sh"
VARIANTS=${PREEMPT_VARIANTS:-faulting-debian baseline-debian}
MODES=${PREEMPT_MODES:-none voluntary full}
export FRAGMENTS=debian/model.config
# a guest of this model, beside a build, took 482 s (x86_64 make check's
# default is 900 s)
export TIMEOUT=${PREEMPT_TIMEOUT:-1500}
RESULTS_TARGET=preempt
for v in $VARIANTS; do
	case $v in *-debian) ;; *) die "check-preempt: $v: the variants are VARIANT-debian (baseline-debian, patched-debian, faulting-debian, prefix-N-debian is not one)" ;; esac
done
results start
"$TOP/scripts/deps.sh" packages-preempt.txt

# The fragment is Debian's: every option it sets has Debian's value.
debconf=$BUILD/src/linux-config-6.1/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
[ -f "$debconf" ] || die "check-preempt: no $debconf (scripts/deps.sh packages-preempt.txt)"
frag=$TOP/config-fragments/$FRAGMENTS
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) opt=${line%%=*} ;;
	"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *} ;;
	*) continue ;;
	esac
	deb=$(xzcat "$debconf" | grep -E "^($opt=|# $opt is not set)" || true)
	if [ "$deb" != "$line" ] && ! { [ -z "$deb" ] && [ "${line#\# }" != "$line" ]; }; then
		echo "check-preempt: $FRAGMENTS: '$line', Debian's config has '${deb:-<absent>}'" >&2
		bad=1
	fi
done < "$frag"
[ "$bad" = 0 ] || die "check-preempt: $FRAGMENTS differs from Debian's amd64 config (linux-config-6.1 $(cat "$BUILD/src/linux-config-6.1/.version"))"
echo "check-preempt: $FRAGMENTS: $(grep -c '^[#]* *CONFIG_' "$frag") options, each as in Debian's config.amd64_none_amd64 ($(cat "$BUILD/src/linux-config-6.1/.version"))"

status=0
args=()
boots=()
failed=()
for v in $VARIANTS; do
	VARIANT=$v
	for m in $MODES; do
		rm -f "$LOGS/results-$v@$m.ktap"
		args+=("$v@$m=$LOGS/results-$v@$m.ktap")
		boots+=("$v@$m")
	done
	t_v=$(date +%s)
	if ! { "$TOP/scripts/tree.sh" "$v" && "$TOP/scripts/config.sh" "$v" &&
	       "$TOP/scripts/build.sh" "$v" && "$TOP/scripts/initramfs.sh" "$v"; }; then
		echo "FAILED: variant $v (see the message above)" >&2
		status=1
		for m in $MODES; do failed+=("$v@$m"); done
		continue
	fi
	results ccache --since "$t_v" "$v"
	for m in $MODES; do
		stage "preempt=$m"
		# no file of the previous boot may pass for this one's
		rm -f "$LOGS/console-$v.log" "$LOGS/results-$v.ktap" "$LOGS/boot-$v.seconds"
		ok=1
		APPEND="preempt=$m" "$TOP/scripts/boot.sh" "$v" || ok=0
		for f in console-"$v".log results-"$v".ktap boot-"$v".seconds; do
			[ ! -f "$LOGS/$f" ] || cp "$LOGS/$f" "$LOGS/${f/$v/$v@$m}"
		done
		if [ "$ok" = 1 ]; then
			"$TOP/scripts/check-log.sh" "$LOGS/console-$v@$m.log" || ok=0
		fi
		# the mode asked for is the one the kernel runs (sched_dynamic_update())
		# (grep -c reads it all: grep -q would end the pipe early, and
		# pipefail would take tr's SIGPIPE for a failure)
		if [ "$(tr -d '\r' < "$LOGS/console-$v@$m.log" 2>/dev/null | grep -c "Dynamic Preempt: $m\$")" = 0 ]; then
			echo "check-preempt: $v booted with preempt=$m, but its console does not say 'Dynamic Preempt: $m' ($(grep -o 'Dynamic Preempt: .*' "$LOGS/console-$v@$m.log" 2>/dev/null | tail -1))" >&2
			ok=0
		fi
		if [ "$ok" = 0 ]; then
			echo "FAILED: $v with preempt=$m (console: $LOGS/console-$v@$m.log)" >&2
			status=1
			failed+=("$v@$m")
		fi
	done
done
check_close "$status" "${failed[*]}" "${boots[*]}" "${args[@]}"
