# Sleepable tracepoints for Linux 6.1: series + build/boot/test harness.
# VARIANT is baseline (no patch), patched (the six), faulting (the six +
# the follow-up series) or prefix-N (the first N patches of series).
VARIANT ?= patched
VARIANTS ?= baseline patched faulting
SELFTEST_VARIANT ?= baseline

.PHONY: help deps tree config build initramfs boot run check demo clean distclean checkpatch hygiene bisect selftest mail bench hitprofile stress sparse

help:
	@echo 'make deps       install the Debian packages the pipeline needs (root)'
	@echo 'make tree       unpack linux-source-6.1 once (read-only), derive VARIANT tree, quilt push, fuzz 0'
	@echo 'make config     tinyconfig + config-fragments/ via merge_config.sh, verify every option'
	@echo 'make build      bzImage + modules of VARIANT (ccache, O=build/obj/VARIANT)'
	@echo 'make initramfs  pack busybox, perf, bpftrace, tests/ and test modules for VARIANT'
	@echo 'make boot       boot VARIANT in QEMU and run the guest checks (KTAP)'
	@echo 'make run        all of the above for VARIANT, then the KTAP table'
	@echo 'make demo       main job: build the faulting kernel (the six + follow-up), boot it, show syscall tracing: bpftrace str() vs faultsnoop on non-resident strings'
	@echo 'make check      the tests: every stage for each of VARIANTS (default: baseline patched faulting)'
	@echo 'make checkpatch checkpatch.pl --strict on the series and test module (allow-list: scripts/checkpatch-allowlist)'
	@echo 'make bisect     every prefix of the series, built incrementally in one tree: apply, build, boot (beside the next build), checks; one table'
	@echo 'make bench      may-sleep tracepoint cost: lean baseline-bench, patched-bench, faulting-bench guests in turn (icount, icount with a sleeping probe, wall clock), table/CSV/PNG in build/results (BENCH_BOOTS=5)'
	@echo 'make hitprofile one traced openat() of the bench state openat64_bpf_copystr, single-stepped with gdb: instructions per function, baseline-bench vs faulting-bench (after make bench)'
	@echo 'make selftest   show the harness fails loudly: offset, fuzz, reject, guest panic, hang, WARN'
	@echo 'make stress     KASAN + full-preemption kernels (baseline-stress, patched-stress, faulting-stress): storms, uffd faults, bad pointers, syscall strings under migration, privilege, hang case; build/results/stress.md'
	@echo 'make mail       git format-patch: the six in build/mail, the follow-up in build/mail/faulting, cover letters, git am identity check (PREFIX="RFC PATCH v2")'
	@echo 'make hygiene    cheap series checks: series vs patches/, format, checkpatch, fuzz-0 apply'
	@echo 'make sparse     sparse on the files the series touches: no new warning versus baseline'
	@echo 'make clean      remove variant trees, objects, logs (keeps pristine tree and ccache)'
	@echo 'make distclean  remove build/ entirely'
	@echo 'Variables: VARIANT=$(VARIANT) VARIANTS="$(VARIANTS)" TIMEOUT=secs ACCEL=auto|tcg|kvm'

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
clean:
	rm -rf build/trees build/obj build/logs build/initramfs build/modules build/results
	$(MAKE) -C tests/progs clean
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
mail:
	scripts/mail.sh
sparse:
	scripts/sparse.sh
hygiene:
	scripts/hygiene.sh
