# 85-bpf-selftests.sh: the BPF selftests the series adds to
# tools/testing/selftests/bpf (0028, feature bpfselftests), built from the
# kernel's tree into minimal runners (tests/bpf-selftests: the test's own
# sources and the tree's test_progs.h).
#  bpfselftests.TEST.SUBTEST  one result per subtest of prog_tests/TEST.c,
#                             the names below (every kernel reports the
#                             same names): ok when every assertion in it
#                             passed; a subtest the runner did not report
#                             fails
#  bpfselftests.TEST          the subtests of the source
#                             (/tests/bpf-selftests/TEST.subtests, from its
#                             test__start_subtest() calls) are the names
#                             below, nothing failed outside them, and the
#                             runner exited with 0
# Without the feature: SKIP (0028 is not in this kernel).
# Sourced by run-checks.sh after ktap.sh; busybox sh, POSIX only.
set -u

W=/tmp/bpf-selftests-check
rm -rf $W
mkdir -p $W
t=tp_sleepable
subtests="raw_tp_copy tp_btf_copy tp_btf_refused raw_tp_refused kfunc_refused link_detach"
need="needs 0028 (selftests/bpf: test sleepable programs on may-sleep tracepoints)"

if ! has_feature bpfselftests; then
	# shellcheck disable=SC2086 # a list of names
	ktap_skip_all "bpfselftests.$t" "$need" $subtests
	ktap_skip "bpfselftests.$t" "$need"
elif [ ! -x "/tests/bin/test_progs_$t" ] || [ ! -s "/tests/bpf-selftests/$t.subtests" ]; then
	# shellcheck disable=SC2086
	ktap_skip_all "bpfselftests.$t" "not run: no runner" $subtests
	ktap_fail "bpfselftests.$t" "the kernel has 0028 but the initramfs has no runner or subtest list for $t"
else
	"/tests/bin/test_progs_$t" > "$W/$t.out" 2>&1
	rc=$?
	echo "--- test_progs_$t (rc $rc):"
	cat "$W/$t.out"
	# shellcheck disable=SC2086
	ktap_check_lines "bpfselftests.$t" "$W/$t.out" "$rc" $subtests
	src=$(tr '\n' ' ' < "/tests/bpf-selftests/$t.subtests")
	if [ "$src" != "$subtests " ]; then
		ktap_fail "bpfselftests.$t" "the source's subtests are '$src', this check knows '$subtests'"
	elif grep -q "^check $t fail" "$W/$t.out"; then
		ktap_fail "bpfselftests.$t" "$(grep "^check $t fail" "$W/$t.out" | sed "s/^check $t fail //")"
	elif [ "$rc" != 0 ]; then
		ktap_fail "bpfselftests.$t" "test_progs_$t exited with $rc: $(grep ':FAIL:' "$W/$t.out" | head -n 2 | tr '\n' ' ')"
	else
		ktap_pass "bpfselftests.$t"
	fi
fi
