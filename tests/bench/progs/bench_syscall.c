// SPDX-License-Identifier: GPL-2.0
/*
 * bench_syscall [ITERS [REPS [WARMUP]]]: what one cheap system call costs.
 *
 * Pins itself to CPU 0 (sched_setaffinity), makes WARMUP getppid() calls
 * through syscall() (no libc caching), then REPS timed rounds of ITERS
 * calls each, timed with clock_gettime(CLOCK_MONOTONIC).  Defaults: 200000
 * iterations, 5 rounds, 20000 warm-up calls.
 *
 * Output, one line on stdout:
 *   bench_syscall: ns=MEDIAN min=MIN max=MAX iters=ITERS reps=REPS calls=C
 * ns values are per call (the median, fastest and slowest round); C is
 * the number of calls made in all (warm-up included), so a tracer
 * counting sys_enter can be checked against it.
 * Exit status is non-zero, with a message, on any error.
 *
 * With BENCH_CALL=openat in the environment the call is instead
 * openat(AT_FDCWD, BENCH_PATH, O_RDONLY) of a path that does not exist
 * (ENOENT: no descriptor to close), a string in this program's data;
 * BENCH_CALL=openat64 opens a path of 63 characters (a 64-byte string).
 * BENCH_CALL=write64 write()s a 64-byte buffer in this program's data (63
 * characters and a newline, no NUL) to /dev/null, opened once before the
 * warm-up; one checked write() comes first and is counted in C.
 */
#define _GNU_SOURCE
#define BENCH_NAME "bench_syscall"
#include "bench_common.h"
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_REPS 101
#define BENCH_PATH "/tmp/bench-openat/no-such-file"
/* 63 characters and the NUL: the 64-byte string of BENCH_CALL=openat64 */
#define BENCH_PATH64 "/tmp/bench-openat/no-such-file-whose-path-is-63-characters-long"
/* 63 characters and a newline: the 64 bytes BENCH_CALL=write64 writes */
#define BENCH_BUF64 "bench_syscall write64: a buffer of 63 characters and a newline.\n"
#define BENCH_BUF64_LEN (sizeof(BENCH_BUF64) - 1)
_Static_assert(BENCH_BUF64_LEN == 64, "BENCH_BUF64 is not 64 bytes");

static int use_openat;
static int write_fd = -1;	/* BENCH_CALL=write64: /dev/null */

static inline void call(void)
{
	if (write_fd >= 0)
		syscall(SYS_write, write_fd, BENCH_BUF64, BENCH_BUF64_LEN);
	else if (use_openat)
		syscall(SYS_openat, AT_FDCWD,
			use_openat == 2 ? BENCH_PATH64 : BENCH_PATH, O_RDONLY);
	else
		syscall(SYS_getppid);
}

static long arg(int argc, char **argv, int i, long def)
{
	char *end;
	long v;

	if (argc <= i)
		return def;
	v = strtol(argv[i], &end, 10);
	if (*end || v < 0) {
		fprintf(stderr, "bench_syscall: bad argument '%s'\n", argv[i]);
		exit(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	long iters = arg(argc, argv, 1, 200000);
	long reps = arg(argc, argv, 2, 5);
	long warmup = arg(argc, argv, 3, 20000);
	double ns[MAX_REPS], t0, t1, med;
	cpu_set_t cpus;
	long i, r, checked = 0;

	if (argc > 4 || iters <= 0 || reps <= 0 || reps > MAX_REPS) {
		fprintf(stderr, "usage: bench_syscall [ITERS>0 [REPS 1..%d [WARMUP]]]\n",
			MAX_REPS);
		return 1;
	}
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		fprintf(stderr, "bench_syscall: sched_setaffinity(CPU 0): %s\n",
			strerror(errno));
		return 1;
	}
	if (getenv("BENCH_CALL") && !strcmp(getenv("BENCH_CALL"), "openat"))
		use_openat = 1;
	else if (getenv("BENCH_CALL") && !strcmp(getenv("BENCH_CALL"), "openat64"))
		use_openat = 2;
	else if (getenv("BENCH_CALL") && !strcmp(getenv("BENCH_CALL"), "write64")) {
		write_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (write_fd < 0)
			die("open /dev/null");
		if (syscall(SYS_write, write_fd, BENCH_BUF64, BENCH_BUF64_LEN) !=
		    (long)BENCH_BUF64_LEN) {
			fprintf(stderr, "bench_syscall: write(/dev/null) of %zu bytes failed\n",
				BENCH_BUF64_LEN);
			return 1;
		}
		checked = 1;
	}
	for (i = 0; i < warmup; i++)
		call();
	for (r = 0; r < reps; r++) {
		t0 = now_ns();
		for (i = 0; i < iters; i++)
			call();
		t1 = now_ns();
		ns[r] = (t1 - t0) / (double)iters;
	}
	med = median(ns, reps);	/* sorts */
	printf("bench_syscall: ns=%.2f min=%.2f max=%.2f iters=%ld reps=%ld calls=%ld\n",
	       med, ns[0], ns[reps - 1], iters, reps, checked + warmup + iters * reps);
	return 0;
}
