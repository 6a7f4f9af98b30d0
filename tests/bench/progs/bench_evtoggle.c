// SPDX-License-Identifier: GPL-2.0
/*
 * bench_evtoggle N [TRACEFS]: what enabling and disabling every system call
 * event costs.  N times: write "1" to TRACEFS/events/syscalls/enable and
 * TRACEFS/events/raw_syscalls/enable, make a few getppid() calls (so the
 * probes have run), then write "0" to syscalls/enable and then to
 * raw_syscalls/enable.  Each write() is timed on its own with
 * clock_gettime(CLOCK_MONOTONIC) (the open() is outside the timing).
 * TRACEFS defaults to /sys/kernel/tracing.
 *
 * Output, one line on stdout (medians over the N cycles, ns):
 *   bench_evtoggle: disable_all=D min=MIN max=MAX disable_syscalls=DS
 *       disable_raw=DR enable_all=E enable_min=EMIN enable_max=EMAX n=N
 * disable_all is the time of both disabling writes of one cycle together
 * (min and max are of that sum); enable_all likewise for the enables.
 * Exit status is non-zero, with a message, on any error.
 */
#define _GNU_SOURCE
#define BENCH_NAME "bench_evtoggle"
#include "bench_common.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_CYCLES 1000

/* Write VAL to PATH; return how long the write() took, in ns. */
static double timed_write(const char *path, const char *val)
{
	double t0, t1;
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		die(path);
	t0 = now_ns();
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		die(path);
	t1 = now_ns();
	close(fd);
	return t1 - t0;
}

static double dis_all[MAX_CYCLES], dis_sys[MAX_CYCLES], dis_raw[MAX_CYCLES],
	en_all[MAX_CYCLES];

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 0, i, j;
	const char *t = argc > 2 ? argv[2] : "/sys/kernel/tracing";
	char sys[512], raw[512];
	double lo, hi, elo, ehi;

	if (argc < 2 || argc > 3 || n <= 0 || n > MAX_CYCLES) {
		fprintf(stderr, "usage: bench_evtoggle N(1..%d) [TRACEFS]\n", MAX_CYCLES);
		return 1;
	}
	snprintf(sys, sizeof(sys), "%s/events/syscalls/enable", t);
	snprintf(raw, sizeof(raw), "%s/events/raw_syscalls/enable", t);
	for (i = 0; i < n; i++) {
		en_all[i] = timed_write(sys, "1\n") + timed_write(raw, "1\n");
		for (j = 0; j < 10; j++)
			syscall(SYS_getppid);
		dis_sys[i] = timed_write(sys, "0\n");
		dis_raw[i] = timed_write(raw, "0\n");
		dis_all[i] = dis_sys[i] + dis_raw[i];
	}
	median(dis_all, n);	/* sorts */
	lo = dis_all[0];
	hi = dis_all[n - 1];
	median(en_all, n);
	elo = en_all[0];
	ehi = en_all[n - 1];
	printf("bench_evtoggle: disable_all=%.0f min=%.0f max=%.0f disable_syscalls=%.0f disable_raw=%.0f enable_all=%.0f enable_min=%.0f enable_max=%.0f n=%ld\n",
	       median(dis_all, n), lo, hi, median(dis_sys, n), median(dis_raw, n),
	       median(en_all, n), elo, ehi, n);
	return 0;
}
