# Sleepable tracepoints for Linux 6.1: series + build/boot/test harness.
# VARIANT is baseline (no patch), patched (the six), faulting (the six +
# the follow-up series) or prefix-N (the first N patches of series).
VARIANT ?= patched
VARIANTS ?= baseline patched faulting
SELFTEST_VARIANT ?= baseline

.PHONY: help deps tree config build initramfs boot run check check-preempt check-arm64 demo clean distclean checkpatch hygiene bisect selftest mail bench hitprofile stress stress-arm64 robot kabi sparse lava lava-run results

help:
	@echo 'Times on this 2-core machine (QEMU TCG), from docs/measurements.md; "not measured" where no figure exists.'
	@echo 'make deps       install the Debian packages the pipeline needs (root) (not measured alone)'
	@echo 'make tree       unpack linux-source-6.1 once (read-only), derive VARIANT tree, quilt push, fuzz 0 (first unpack 50 s, then ~3 s a variant)'
	@echo 'make config     tinyconfig + config-fragments/ via merge_config.sh, verify every option (6-12 s)'
	@echo 'make build      bzImage + modules of VARIANT (ccache, O=build/obj/VARIANT) (cold 6-7 min, 10 under load; warm ccache ~1 min; no-op 7-12 s)'
	@echo 'make initramfs  pack busybox, perf (x86_64: built from the variant tree, 2 min cold, 11 s unchanged), bpftrace, trace-cmd, LTTng, tests/, test modules and lttng-modules for VARIANT (4-7 s, plus lttng-modules: 4-6 min cold, 6-7 s for an unchanged kernel)'
	@echo 'make boot       boot VARIANT in QEMU and run the guest checks (KTAP) (baseline 2.5 min, patched 3 min, faulting 5 min)'
	@echo 'make run        all of the above for VARIANT, then the KTAP table (not measured alone; its stages add up to ~3.5-6 min warm, ~9-12 min cold)'
	@echo 'make demo       main job: build the faulting kernel (the six + follow-up), boot it, tell what trace-cmd, bpftrace and faultsnoop show of syscall strings in pages never touched, beside the baseline log if there, and the last bench ratios (not measured alone; its stages for faulting add up to ~6 min warm, ~12 min cold)'
	@echo 'make check      the tests: every stage for each of VARIANTS (default: baseline patched faulting) (in .ci/run: 15 min warm ccache, 39 min cold)'
	@echo 'make check-preempt the checks on Debian'"'"'s preemption model: faulting-debian and baseline-debian (PREEMPT_DYNAMIC, Debian'"'"'s RCU/tick/BPF/tracing options, config-fragments/debian), each booted with preempt=none, voluntary, full (PREEMPT_VARIANTS, PREEMPT_MODES) (75 min beside other work: a cold build 16-20 min per kernel, guests 250-470 s)'
	@echo 'make check-arm64 the checks on arm64: faulting-arm64 and baseline-arm64 cross-built (gcc-aarch64-linux-gnu), Debian'"'"'s arm64 tracers, qemu-system-aarch64 -M virt under TCG (ARM64_VARIANTS; faulting-arm64-cfi: clang-16, kCFI) (cold cross build 13-17 min beside other work, faulting guest 549-562 s, baseline 345 s; Debian arm64 sysroot: 4 min the first time)'
	@echo 'make checkpatch checkpatch.pl --strict on the series and test module (allow-list: scripts/checkpatch-allowlist) (not measured)'
	@echo 'make bisect     every prefix of the series, built incrementally in one tree: apply, build, boot (beside the next build), checks; one table (~100 min)'
	@echo 'make bench      may-sleep tracepoint cost: lean baseline-bench, patched-bench, faulting-bench guests in turn (icount, icount with a sleeping probe, wall clock), table/CSV/PNG in build/results (BENCH_BOOTS=5) (defaults not measured; BENCH_MODES=icount BENCH_BOOTS=2: 5 min of guests, plus builds)'
	@echo 'make hitprofile one traced openat() of the bench state openat64_bpf_copystr, single-stepped with gdb: instructions per function, baseline-bench vs faulting-bench (after make bench) (40 s)'
	@echo 'make selftest   show the harness fails loudly: offset, fuzz, reject, guest panic, hang, WARN (97 s)'
	@echo 'make stress     KASAN + full-preemption kernels (baseline-stress, patched-stress, faulting-stress): storms, uffd faults, bad pointers, syscall strings under migration, privilege, hang case; build/results/stress.md (three kernels 42 min; faulting-stress alone 13 min)'
	@echo 'make stress-arm64 the stress scenarios on the arm64 KASAN kernel faulting-stress-arm64 (STRESS_ARM64_VARIANTS; no static calls: the generic fallback), qemu-system-aarch64 -M virt under TCG; no hang case (a harness property, run by make stress) and no rcuidle storm (idle=poll is x86) (cold KASAN cross build 1361 s beside a guest, guest 1061-1283 s)'
	@echo 'make lava       LAVA job definitions of VARIANT (BISECT=1: one per prefix of the bisect walk) in build/lava, device dictionary for a local QEMU worker, validated when lava-dispatcher is installed (3-4 s a variant; BISECT=1 with two prefix kernels present 12 s)'
	@echo 'make lava-run   install Debian'"'"'s lava-dispatcher, run VARIANT'"'"'s job with lava-run here, compare LAVA'"'"'s results with our KTAP of the same kernel (faulting 5 min 29 s, the job 325 s of it; the first time 47 s more to install it)'
	@echo 'make mail       git format-patch: the six in build/mail, the follow-up in build/mail/faulting, cover letters, git am identity check (PREFIX="RFC PATCH v2") (66 s)'
	@echo 'make results    rewrite the generated tables of docs/measurements.md and README.md from build/results/*.json (check, bench, stress and bisect each update theirs at their end) (about 1 s)'
	@echo 'make hygiene    cheap series checks: series vs patches/, format, README.md <= 300 lines, test catalogue vs emitted KTAP names, make robot'\''s comparison tried on made-up sets, make help naming every target, checkpatch, fuzz-0 apply (39 s)'
	@echo 'make robot      the kernel test robot'\''s view: baseline, the six and the series built in each cell (ours, !SMP, PREEMPT_NONE, Debian, !BPF_SYSCALL, !PERF_EVENTS (not configurable on x86; also on arm64), !MODULES, !FTRACE (tracepoints without tracers), !TRACEPOINTS, !BTF, i386, arm64, riscv64; ROBOT_CELLS, ROBOT_SETS), no warning, W=1 or sparse warning added on the touched files, failing sets build-bisected over the prefixes, every prefix built in ROBOT_PREFIX_CELLS; build/results/robot.md (a cell of three sets cold: 17-24 min on x86_64, 20-22 min on arm64, 45 min for the first i386 and riscv64 passes; 6-14 min from ccache; a prefix walk 45 min; the whole matrix, 14 cells and 2 walks, is about 6 hours cold here, run a few cells at a time)'
	@echo 'make kabi       CONFIG_MODVERSIONS builds of baseline and the series (KABI_SETS), Module.symvers compared: every export whose CRC changed and the types behind it; fails when a tracepoint, trace event, bpf_* or perf_* export changes or is gone and scripts/kabi-allowlist (changed types and removals, each with its reason) does not explain it; build/results/kabi-faulting.md (2026-12-06: 2675 of 5273 exports change CRC, 205 watched, each allowed by cause; 37 min cold, 14 min warm)'
	@echo 'make sparse     sparse on the files the series touches: no new warning versus baseline (not measured)'
	@echo 'make clean      remove variant trees, objects, logs (keeps pristine tree and ccache) (not measured)'
	@echo 'make distclean  remove build/ entirely (not measured)'
	@echo 'Variables: VARIANT=$(VARIANT) VARIANTS="$(VARIANTS)" TIMEOUT=secs ACCEL=auto|tcg|kvm BISECT=1 (make lava)'
	@echo 'Docs: README.md (reference), docs/design.md, docs/tests.md, docs/measurements.md'
deps:
	scripts/deps.sh
tree: deps
	scripts/tree.sh $(VARIANT)
config: tree
	scripts/config.sh $(VARIANT)
build: config
	scripts/build.sh $(VARIANT)
initramfs:
	scripts/initramfs.sh $(VARIANT)
boot:
	scripts/boot.sh $(VARIANT) && scripts/check-log.sh build/logs/console-$(VARIANT).log
run:
	scripts/check.sh $(VARIANT)
demo:
	scripts/demo.sh
check:
	scripts/check.sh $(VARIANTS)
check-preempt:
	scripts/check-preempt.sh
check-arm64:
	scripts/check-arm64.sh
clean:
	rm -rf build/trees build/obj build/logs build/initramfs build/modules build/results build/lttng
	$(MAKE) -C tests clean
distclean:
	chmod -R u+w build 2>/dev/null || true
	rm -rf build
checkpatch:
	scripts/checkpatch.sh
bisect:
	scripts/bisect.sh
bench:
	scripts/bench.sh
hitprofile:
	scripts/hitprofile.sh
selftest:
	scripts/selftest.sh $(SELFTEST_VARIANT)
stress:
	scripts/stress.sh
robot:
	scripts/robot.sh
kabi:
	scripts/kabi.sh
stress-arm64:
	STRESS_VARIANTS="$${STRESS_ARM64_VARIANTS:-faulting-stress-arm64}" STRESS_HANG=0 STRESS_RCUIDLE_VARIANTS= scripts/stress.sh
mail:
	scripts/mail.sh
sparse:
	scripts/sparse.sh
lava:
	scripts/lava.sh $(if $(BISECT),--bisect,$(VARIANT))
lava-run:
	scripts/lava.sh --run $(VARIANT)
hygiene:
	scripts/hygiene.sh
results:
	python3 scripts/results.py update
