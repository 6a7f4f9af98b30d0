// SPDX-License-Identifier: GPL-2.0
/*
 * A minimal test_progs for one test of the variant's
 * tools/testing/selftests/bpf (TEST, e.g. tp_sleepable: prog_tests/TEST.c,
 * included below, with the tree's own test_progs.h, its ASSERT_*() and
 * CHECK() macros).  The selftests' test_progs is not built here: it
 * builds every program of progs/, which our lean configurations cannot
 * compile (tests/bpf-selftests/Makefile).  What a test calls of
 * test_progs.c is implemented here, as test_progs does it for one test
 * run serially: test__start_subtest() (no filter), test__end_subtest(),
 * test__fail(), test__skip(), test__force_log().
 *
 * Output: test_progs' own PASS/FAIL lines, then, for each subtest, a line
 * "check SUBTEST ok", "check SUBTEST fail FIRST-FAILURE" or
 * "check SUBTEST skip" (tests/guest/ktap.sh: ktap_check_lines), and
 * "check TEST ..." for what failed outside a subtest.  Exits 1 if
 * anything failed.
 */
#include <test_progs.h>

struct test_env env;

static char subtest[MAX_SUBTEST_NAME + 1];
static bool in_subtest, skipped;
static int errors, top_errors, failed;

void test__fail(void)
{
	if (in_subtest)
		errors++;
	else
		top_errors++;
}

void test__skip(void)
{
	skipped = true;
}

void test__force_log(void)
{
}

void test__end_subtest(void)
{
	if (!in_subtest)
		return;
	fflush(stdout);
	if (errors)
		printf("check %s fail %d assertion(s) failed (the FAIL lines above)\n",
		       subtest, errors);
	else if (skipped)
		printf("check %s skip the test skipped it\n", subtest);
	else
		printf("check %s ok\n", subtest);
	failed += errors;
	in_subtest = false;
}

bool test__start_subtest(const char *name)
{
	test__end_subtest();
	snprintf(subtest, sizeof(subtest), "%s", name);
	in_subtest = true;
	skipped = false;
	errors = 0;
	printf("# subtest %s\n", name);
	return true;
}

#define STR_(x) #x
#define STR(x) STR_(x)
#define TEST_FN_(t) test_ ## t
#define TEST_FN(t) TEST_FN_(t)

#include STR(prog_tests/TEST.c)

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	TEST_FN(TEST)();
	test__end_subtest();
	if (top_errors)
		printf("check %s fail %d assertion(s) outside a subtest failed\n",
		       STR(TEST), top_errors);
	return failed || top_errors;
}
