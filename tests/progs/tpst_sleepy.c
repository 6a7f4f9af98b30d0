// SPDX-License-Identifier: GPL-2.0
/*
 * tpst_sleepy MODE: user memory access from tracepoint probes, on a page
 * that is not resident (a fresh, untouched shared file mapping holding a
 * NUL-terminated string).  Needs tpsleep_test.ko.
 *
 *   sleepy   a sleepable probe on sys_enter (may-sleep sys_enter) gets the
 *            openat() filename argument, pointing into that page:
 *              hit          the probe ran once, for our openat()
 *              context      preemptible() and rcu_read_lock_trace_held()
 *              nonresident  copy_from_user_nofault() first: -EFAULT
 *              slept        msleep(20) slept >= 20 ms
 *              copy         copy_from_user() then copied every byte and
 *                           they are exactly the string (with its NUL)
 *   nofault  a normal probe on sys_enter (ordinary sys_enter), same openat():
 *              hit, context (not preemptible), efault (-EFAULT)
 *   local    a normal probe on the module's own ordinary tracepoint, fired
 *            from the control write with the page's address:
 *              efault       hit once, not preemptible, -EFAULT
 *              resident     after we read the page ourselves: 0 and the
 *                           bytes are the string
 *
 * Prints "check NAME ok|fail WHY" lines; exit status 1 if any failed.
 */
#include "tpst_common.h"
#include <sys/syscall.h>

static char result[4096];

static int arm_and_open(int fd, const char *mode, char *p, size_t len)
{
	long r;

	if (tpst_cmd(fd, "arm %s %lx %zu", mode, (unsigned long)p, len)) {
		printf("arm rejected: %s\n", strerror(errno));
		return -1;
	}
	tpst_result(fd, result, sizeof(result));
	if (tpst_num(result, "reg", -1) != 0)
		return -1;
	/* The probe reads the filename before the syscall does. */
	r = syscall(SYS_openat, AT_FDCWD, p, O_RDONLY);
	printf("openat(%p) = %ld (%s)\n", (void *)p, r,
	       r < 0 ? strerror(errno) : "opened");
	if (r >= 0)
		close(r);
	if (tpst_cmd(fd, "disarm"))
		tpst_die("disarm");
	tpst_result(fd, result, sizeof(result));
	return 0;
}

int main(int argc, char **argv)
{
	char expected[96], want_hex[2 * sizeof(expected) + 1];
	char got_hex[2 * sizeof(expected) + 1];
	const char *mode = argc == 2 ? argv[1] : "";
	volatile char sink;
	size_t len, i;
	long long v;
	char *p;
	int fd;

	if (strcmp(mode, "sleepy") && strcmp(mode, "nofault") &&
	    strcmp(mode, "local")) {
		fprintf(stderr, "usage: tpst_sleepy sleepy|nofault|local\n");
		return 2;
	}
	snprintf(expected, sizeof(expected),
		 "/tpst-no-such-dir/%s-%d-0123456789abcdef-zyxwvutsrqponmlk",
		 mode, getpid());
	len = strlen(expected) + 1;
	tpst_hex(expected, len, want_hex);
	p = tpst_map_string(expected);
	fd = tpst_open();

	if (!strcmp(mode, "local")) {
		if (tpst_cmd(fd, "local_nofault %lx %zu", (unsigned long)p, len))
			tpst_die("local_nofault");
		tpst_result(fd, result, sizeof(result));
		tpst_check("efault",
			   tpst_num(result, "reg", -1) == 0 &&
			   tpst_num(result, "hits", -1) == 1 &&
			   tpst_num(result, "preemptible", -1) == 0 &&
			   tpst_num(result, "nofault_ret", 1) == -EFAULT,
			   "want reg=0 hits=1 preemptible=0 nofault_ret=-14: %s",
			   result);
		/* Fault the page in ourselves, then the same read works. */
		for (i = 0; i < len; i++)
			sink = p[i];
		(void)sink;
		if (tpst_cmd(fd, "local_nofault %lx %zu", (unsigned long)p, len))
			tpst_die("local_nofault");
		tpst_result(fd, result, sizeof(result));
		tpst_str(result, "bytes", got_hex, sizeof(got_hex));
		tpst_check("resident",
			   tpst_num(result, "nofault_ret", 1) == 0 &&
			   !strcmp(got_hex, want_hex),
			   "want nofault_ret=0 bytes=%s: %s", want_hex, result);
		return tpst_failed;
	}

	if (arm_and_open(fd, mode, p, len)) {
		tpst_check("hit", 0, "could not arm the probe: %s", result);
		return 1;
	}
	v = tpst_num(result, "hits", -1);
	tpst_check("hit", v == 1, "want hits=1, got %lld", v);
	if (!strcmp(mode, "nofault")) {
		tpst_check("context", tpst_num(result, "preemptible", -1) == 0,
			   "a normal probe ran preemptible: %s", result);
		v = tpst_num(result, "nofault_ret", 1);
		tpst_check("efault", v == -EFAULT,
			   "copy_from_user_nofault() = %lld, want -14", v);
		return tpst_failed;
	}
	tpst_check("context",
		   tpst_num(result, "preemptible", -1) == 1 &&
		   tpst_num(result, "rcu_trace_held", -1) == 1,
		   "want preemptible=1 rcu_trace_held=1: %s", result);
	v = tpst_num(result, "nofault_ret", 1);
	tpst_check("nonresident", v == -EFAULT,
		   "copy_from_user_nofault() = %lld, want -14 (page resident?)",
		   v);
	v = tpst_num(result, "slept_ns", -1);
	tpst_check("slept", v >= 20000000LL,
		   "msleep(20) took %lld ns", v);
	tpst_str(result, "bytes", got_hex, sizeof(got_hex));
	tpst_check("copy",
		   tpst_num(result, "copy_left", -1) == 0 &&
		   !strcmp(got_hex, want_hex),
		   "copy_left=%lld bytes=%s, want copy_left=0 bytes=%s",
		   tpst_num(result, "copy_left", -1), got_hex, want_hex);
	return tpst_failed;
}
