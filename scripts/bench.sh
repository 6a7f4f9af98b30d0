#!/bin/bash
# bench.sh: what may-sleep tracepoints cost: baseline, patched (the six) and
# faulting (the six + the follow-up) side by side.  Boots the kernels in
# turn (A B C A B C ..., BENCH_BOOTS boots each) with the guest in tpsleep.mode=bench
# (tests/bench/), under the same QEMU settings as `make check` (boot.sh),
# in two ways:
#   icount  QEMU -icount $BENCH_ICOUNT: virtual time advances per guest
#           instruction (shift=0: 1 ns each), so a guest-measured ns is an
#           instruction count, the same on a loaded or idle host.  The
#           primary figure.  One vCPU (BENCH_ICOUNT_SMP): with -smp 2
#           and -icount (QEMU 7.2, shift=0, sleep=off or sleep=on) the
#           guest stops for good at "smp: Bringing up secondary CPUs"
#           (seen here: no console line in 3 minutes after 0.69 s of
#           virtual time), so the tracers share the CPU with the loop.
#   wall    wall clock: guest time is host time, with the accelerator
#           boot.sh picks (ACCEL=auto: KVM where it works, TCG here); host
#           load and run-to-run noise show, the paired repeats give the
#           spread.  icount is TCG only: those guests always get ACCEL=tcg.
# Results: build/results/bench.md (printed at the end), bench.csv,
# bench-runs.csv (every guest value), bench.png (ratios with min-max).
#
# Environment (defaults in brackets):
#   BENCH_BOOTS      boots per variant and mode                     [5]
#   BENCH_MODES      which ways to measure                          [icount icountsl wall]
#                    icountsl: icount with a probe that sleeps attached to
#                    sys_enter (tpsleep.sleeper=1, tests/bench/run.sh) where
#                    the kernel has them: the price of sleeping
#   BENCH_VARIANTS   two or more variants, A first (ratios X/A)     [baseline-bench patched-bench faulting-bench]
#                    *-bench: the variant's patches, the lean config without
#                    30-debug.config's lockdep/PROVE_RCU/DEBUG_PREEMPT
#                    (config-fragments/bench/nodebug.config), built here
#                    (tree, config, build, initramfs; a no-op when up to
#                    date).  Other variants (e.g. "baseline patched", the
#                    debug kernels of make check) must be built already.
#   BENCH_ICOUNT     the -icount option                             [shift=0,sleep=off,align=off]
#   BENCH_ICOUNT_SMP vCPUs of the icount guests                      [1]
#   BENCH_ICOUNT_ARGS, BENCH_WALL_ARGS  guest parameters per mode (tests/bench/lib.sh)
#                    [iters=20000 reps=3 warmup=2000 cycles=10] and
#                    [iters=100000 reps=7 warmup=10000 cycles=20]
#   BENCH_STATES     comma-separated subset of the guest states     [all]
#   BENCH_TSC_KHZ    the host TSC frequency (TCG guests read the host TSC) [measured]
#   BENCH_APPEND     more kernel command line for every bench guest  []
#                    (e.g. lockdep.prove_locking=0: lockdep bookkeeping stays)
#   TIMEOUT          one guest, seconds                             [900]
# `scripts/bench.sh report` only redoes the table, CSV and plot from the
# guest results of the last run (build/bench/runs/).
# A run is recorded in build/results/bench.json (from bench-figures.json,
# each mode with the run that measured it) and the generated tables of
# docs/measurements.md and README.md are updated (scripts/results.py;
# RESULTS_DOCS=0: the file only); a failure there is a warning, it never
# changes the status of the run.
. "$(dirname "$0")/lib.sh"
BENCH_BOOTS=${BENCH_BOOTS:-5}
BENCH_MODES=${BENCH_MODES:-icount icountsl wall}
BENCH_VARIANTS=${BENCH_VARIANTS:-baseline-bench patched-bench faulting-bench}
BENCH_ICOUNT=${BENCH_ICOUNT:-shift=0,sleep=off,align=off}
BENCH_ICOUNT_SMP=${BENCH_ICOUNT_SMP:-1}
BENCH_ICOUNT_ARGS=${BENCH_ICOUNT_ARGS:-iters=20000 reps=3 warmup=2000 cycles=10}
BENCH_WALL_ARGS=${BENCH_WALL_ARGS:-iters=100000 reps=7 warmup=10000 cycles=20}
export TIMEOUT=${TIMEOUT:-900}
read -ra VARS <<< "$BENCH_VARIANTS"
[ "${#VARS[@]}" -ge 2 ] || die "BENCH_VARIANTS must name two or more variants (A B ...)"
var_a=${VARS[0]}
var_last=${VARS[-1]}
case "$BENCH_BOOTS" in ''|*[!0-9]*|0) die "BENCH_BOOTS must be a positive number" ;; esac

work=$BUILD/bench
runs=$work/runs

# report: bench.md, bench.csv, bench-runs.csv, bench.png from $runs
report() {
	mkdir -p "$RESULTS"
	python3 "$TOP/scripts/bench-report.py" "$runs" "$RESULTS" "${VARS[@]}" > /dev/null || status=1
	# The plot: per state the median ratio with its min-max, one series per
	# mode (bench-plot.dat has one block per mode, "# MODE" first), the targets.
	dat=$RESULTS/bench-plot.dat
	mapfile -t modes_in < <(sed -n 's/^# //p' "$dat")
	plot=
	for k in "${!modes_in[@]}"; do
		off=$(awk -v k="$k" -v n="${#modes_in[@]}" 'BEGIN { printf "%.2f", (k - (n - 1) / 2) * 0.12 }')
		plot="$plot '$dat' index $k using (\$1+$off):3:4:5 with yerrorbars pt $((k % 6 + 2)) ps 1.1 lw 2 title '${modes_in[$k]} / $var_a',"
	done
	cat > "$RESULTS/bench.gp" <<EOF
set terminal pngcairo size 1200,650 font ",10" noenhanced
set output '$RESULTS/bench.png'
set title "may-sleep tracepoints: each variant / $var_a per state (median, min-max over the paired boots)" noenhanced
set ylabel "ratio to $var_a" noenhanced
set yrange [0.8:*]
set xrange [-0.6:13.6]
set grid ytics
set key top left
set xtics rotate by -30 ("none" 0, "ftrace raw" 1, "ftrace syscalls:*" 2, "syscalls:* knob 0" 3, "perf stat" 4, "perf record" 5, "BPF raw_tp" 6, "bpftrace" 7, "enable all" 8, "disable all" 9, "raw_tp attach+detach" 10, "openat" 11, "openat traced" 12, "openat knob 0" 13)
set arrow from -0.6,1 to 13.6,1 nohead dt 2 lc rgb "gray40"
plot $plot '$dat' index 0 using 1:6 with points pt 2 ps 2 lc rgb "red" title "target"
EOF
	gnuplot "$RESULTS/bench.gp" || { echo "bench: gnuplot failed" >&2; status=1; }
}

status=0
if [ "${1:-}" = report ]; then
	report
	cat "$RESULTS/bench.md"
	exit "$status"
fi

RESULTS_TARGET=bench
mkdir -p "$RESULTS"
results start
"$TOP/scripts/deps.sh"
t0=$(date +%s)
# Only the modes measured now are replaced: the guest results of other
# modes stay (one mode can be measured again), and the report covers
# every mode in $runs, each with its own settings and date.
for mode in $BENCH_MODES; do
	rm -f "$runs/$mode.settings" "$runs/$mode"-*
done
rm -rf "$work/overlay"
mkdir -p "$runs" "$work/initramfs" "$work/obj" "$work/logs" "$RESULTS"

# The bench guests reuse boot.sh with BUILD=$work: the kernels are linked
# in, the initramfs is the variant's (build/initramfs/VARIANT.cpio) with an
# overlay appended (the kernel unpacks concatenated cpio archives in order,
# later files replace earlier ones): this tree's /init, tests/bench/'s
# scripts and the test programs (tests/out/).  So build/initramfs and build/logs of
# `make check` are left as they are.
make -s -C "$TOP/tests" >/dev/null || die "tests/ programs do not build"
for v in "${VARS[@]}"; do
	case "$v" in
	*-bench)
		VARIANT=$v
		stage "bench: kernel $v (lean, no lock/RCU debugging)"
		FRAGMENTS=bench/nodebug.config "$TOP/scripts/tree.sh" "$v"
		FRAGMENTS=bench/nodebug.config "$TOP/scripts/config.sh" "$v"
		"$TOP/scripts/build.sh" "$v"
		"$TOP/scripts/initramfs.sh" "$v"
		;;
	esac
done
for v in "${VARS[@]}"; do
	kernel=$(obj_of "$v")/arch/x86/boot/bzImage
	[ -f "$kernel" ] || die "no kernel for $v ($kernel): run make build VARIANT=$v"
	[ -f "$BUILD/initramfs/$v.cpio" ] || "$TOP/scripts/initramfs.sh" "$v"
	st=$work/overlay/$v
	mkdir -p "$st/tests/bin" "$st/tests/bench"
	cp "$TOP/initramfs/init" "$st/init"
	test_programs "$st/tests/bin"
	find "$TOP/tests/bench" -maxdepth 1 -type f -exec cp {} "$st/tests/bench/" \;
	find "$st" -exec touch -h -d @0 {} +
	(cd "$st" && find . | LC_ALL=C sort | cpio -o -H newc --reproducible -R 0:0 --quiet) > "$work/overlay-$v.cpio"
	cat "$BUILD/initramfs/$v.cpio" "$work/overlay-$v.cpio" > "$work/initramfs/$v.cpio"
	ln -sfn "$(obj_of "$v")" "$work/obj/$v"
done

# Under plain TCG the guest's TSC is the host's (QEMU reads the host TSC),
# and the guest's own calibration fails now and then on a loaded host (the
# kernel then falls back to jiffies, 4 ms resolution): tell it the
# frequency (tsc_early_khz) and skip the watchdog (tsc=reliable).  Under
# icount the TSC counts virtual nanoseconds: 1000000 kHz.
if [ -z "${BENCH_TSC_KHZ:-}" ]; then
	cat > "$work/tsc_khz.c" <<'EOF'
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>
int main(void)
{
	struct timespec a, b, d = { 0, 200000000 };
	unsigned long long t0, t1;

	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	t0 = __rdtsc();
	nanosleep(&d, NULL);
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	t1 = __rdtsc();
	/* ticks per millisecond */
	printf("%.0f\n", (t1 - t0) / ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6));
	return 0;
}
EOF
	gcc -O2 -o "$work/tsc_khz" "$work/tsc_khz.c"
	BENCH_TSC_KHZ=$("$work/tsc_khz")
fi

# icount_note SETTINGS: what one virtual ns is
icount_note() {
	local shift
	shift=$(echo "$1" | sed -n 's/.*shift=\([0-9]*\).*/\1/p')
	if [ -n "$shift" ]; then
		echo "one guest instruction = $((1 << shift)) virtual ns, so ns/call = $((1 << shift)) x instructions/call"
	else
		echo "shift=${1#*shift=}: QEMU adapts the ns per instruction to the host speed"
	fi
}

guest_args() {	# guest_args "iters=N reps=N ...": the tpsleep.* command line
	local a out=
	for a in $1; do out="$out tpsleep.$a"; done
	[ -n "${BENCH_STATES:-}" ] && out="$out tpsleep.states=$BENCH_STATES"
	echo "$out"
}

nboots=0
for mode in $BENCH_MODES; do
	case "$mode" in
	icount)	qemu_extra="-icount $BENCH_ICOUNT -smp $BENCH_ICOUNT_SMP" accel=tcg
		append="tsc=reliable tsc_early_khz=1000000$(guest_args "$BENCH_ICOUNT_ARGS")" ;;
	icountsl) qemu_extra="-icount $BENCH_ICOUNT -smp $BENCH_ICOUNT_SMP" accel=tcg
		append="tsc=reliable tsc_early_khz=1000000$(guest_args "$BENCH_ICOUNT_ARGS") tpsleep.sleeper=1" ;;
	wall)	qemu_extra= accel=${ACCEL:-auto}
		append="tsc=reliable tsc_early_khz=$BENCH_TSC_KHZ$(guest_args "$BENCH_WALL_ARGS")" ;;
	*) die "unknown BENCH_MODES entry '$mode' (icount, icountsl, wall)" ;;
	esac
	stage "bench $mode: $BENCH_BOOTS x (${VARS[*]}), QEMU_EXTRA='$qemu_extra', guest:$append"
	{
		echo "QEMU: boot.sh's settings (TCG, -smp 2, -m 2048, -cpu max)${qemu_extra:+ plus \`$qemu_extra\`};" \
			"kernel command line: \`tpsleep.mode=bench $append${BENCH_APPEND:+ $BENCH_APPEND}\`"
		case "$mode" in
		icount*) echo "Virtual time: $(icount_note "$BENCH_ICOUNT")." ;;
		wall) echo "Wall clock (ACCEL=$accel): the guest's TSC is the host's ($BENCH_TSC_KHZ kHz); host load shows." ;;
		esac
		echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC'), $BENCH_BOOTS boots per variant."
	} > "$runs/$mode.settings"
	for i in $(seq 1 "$BENCH_BOOTS"); do
		for v in "${VARS[@]}"; do
			nboots=$((nboots + 1))
			tag=$mode-$i-$v
			rm -f "$work/logs/console-$v.log" "$work/logs/results-$v.ktap"
			if ! ACCEL=$accel BUILD=$work QEMU_EXTRA="$qemu_extra" APPEND="tpsleep.mode=bench $append ${BENCH_APPEND:-}" \
				"$TOP/scripts/boot.sh" "$v"; then
				echo "bench: guest $tag failed" >&2
				status=1
			fi
			cp "$work/logs/console-$v.log" "$runs/$tag.console.log" 2>/dev/null || true
			cp "$work/logs/results-$v.ktap" "$runs/$tag.txt" 2>/dev/null || : > "$runs/$tag.txt"
			"$TOP/scripts/check-log.sh" "$runs/$tag.console.log" || status=1
			grep -E '^bench (none|error)' "$runs/$tag.txt" || true
		done
	done
done

stage "bench: $nboots guests in $(( $(date +%s) - t0 ))s; report"
rm -f "$RESULTS/bench-figures.json"
report
echo
cat "$RESULTS/bench.md"
results record --status "$status" --measured "$BENCH_MODES"
echo "bench: $nboots guests, $(( $(date +%s) - t0 ))s; table $RESULTS/bench.md, CSV $RESULTS/bench.csv," \
	"every value $RESULTS/bench-runs.csv, plot $RESULTS/bench.png, guest logs $runs/"
[ "$status" = 0 ] || echo "bench: FAILED (see above)" >&2
exit "$status"
