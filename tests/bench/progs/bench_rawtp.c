// SPDX-License-Identifier: GPL-2.0
/*
 * bench_rawtp: what a BPF raw tracepoint program on sys_enter costs,
 * the counting program of tests/lib/bpf/count.bpf.c (bpf_test.h).
 *
 *   bench_rawtp run PROG [ARG...]
 *	load a BPF_PROG_TYPE_RAW_TRACEPOINT program that counts every
 *	sys_enter hit (all tasks, one array map slot, atomic add: what
 *	bpftrace's "@ = count()" does), attach it with
 *	BPF_RAW_TRACEPOINT_OPEN "sys_enter", fork and exec PROG ARG...
 *	(e.g. bench_syscall), wait for it, detach, print
 *	    bench_rawtp: count=N
 *	and exit with PROG's status.
 *
 *   bench_rawtp cycle N
 *	load the program once, then N times: attach (BPF_RAW_TRACEPOINT_OPEN)
 *	and detach (close the link fd; the release runs before close()
 *	returns), each timed with clock_gettime(CLOCK_MONOTONIC); print
 *	    bench_rawtp: cycle ns=MEDIAN min=MIN max=MAX attach=MEDIAN detach=MEDIAN n=N
 *	(per cycle; attach and detach are the medians of their own parts).
 *
 * Exit status is non-zero, with a message, on any error.
 */
#define _GNU_SOURCE
#define BENCH_NAME "bench_rawtp"
#include "bench_common.h"
#include "bpf_test.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CYCLES 10000

static int create_map(void)
{
	int fd = bpft_array_create(sizeof(uint64_t), 1);

	if (fd < 0)
		die("BPF_MAP_CREATE");
	return fd;
}

/* Every hit: map[0] += 1. */
static int load_prog(int map_fd)
{
	int fd = bpft_count_load(BPF_PROG_TYPE_RAW_TRACEPOINT, map_fd, 0);

	if (fd < 0) {
		bpft_print_log();
		die("BPF_PROG_LOAD");
	}
	return fd;
}

static int attach(int prog_fd)
{
	int fd = bpf_raw_tracepoint_open("sys_enter", prog_fd);

	if (fd < 0)
		die("BPF_RAW_TRACEPOINT_OPEN sys_enter");
	return fd;
}

static int run(char **argv)
{
	int map_fd = create_map(), prog_fd = load_prog(map_fd), tp_fd, status;
	uint32_t key = 0;
	uint64_t count;
	pid_t child;

	tp_fd = attach(prog_fd);
	fflush(stdout);
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "bench_rawtp: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(child, &status, 0) != child)
		die("waitpid");
	close(tp_fd);	/* detach */

	if (bpf_map_lookup_elem(map_fd, &key, &count))
		die("BPF_MAP_LOOKUP_ELEM");
	printf("bench_rawtp: count=%llu\n", (unsigned long long)count);
	close(prog_fd);
	close(map_fd);
	if (!WIFEXITED(status)) {
		fprintf(stderr, "bench_rawtp: %s failed (status %#x)\n", argv[0], status);
		return 1;
	}
	return WEXITSTATUS(status);
}

static double cyc[MAX_CYCLES], att[MAX_CYCLES], det[MAX_CYCLES];

static int cycle(long n)
{
	int map_fd = create_map(), prog_fd = load_prog(map_fd), tp_fd;
	double t0, t1, t2, lo, hi;
	long i;

	for (i = 0; i < n; i++) {
		t0 = now_ns();
		tp_fd = attach(prog_fd);
		t1 = now_ns();
		if (close(tp_fd))
			die("close (detach)");
		t2 = now_ns();
		att[i] = t1 - t0;
		det[i] = t2 - t1;
		cyc[i] = t2 - t0;
	}
	median(cyc, n);		/* sorts */
	lo = cyc[0];
	hi = cyc[n - 1];
	printf("bench_rawtp: cycle ns=%.0f min=%.0f max=%.0f attach=%.0f detach=%.0f n=%ld\n",
	       median(cyc, n), lo, hi, median(att, n), median(det, n), n);
	close(prog_fd);
	close(map_fd);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc >= 3 && !strcmp(argv[1], "run"))
		return run(argv + 2);
	if (argc == 3 && !strcmp(argv[1], "cycle")) {
		long n = strtol(argv[2], NULL, 10);

		if (n > 0 && n <= MAX_CYCLES)
			return cycle(n);
	}
	fprintf(stderr, "usage: bench_rawtp run PROG [ARG...] | bench_rawtp cycle N (1..%d)\n",
		MAX_CYCLES);
	return 1;
}
