// SPDX-License-Identifier: GPL-2.0
/*
 * bench_rawtp: what a BPF raw tracepoint program on sys_enter costs,
 * through the bare bpf() syscall (no libbpf; the loader code follows
 * bpf_rawtp_count.c).
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
#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV64_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define ADD64_IMM(d, i)		INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define ST_IMM(sz, d, o, i)	INSN(BPF_ST | BPF_MEM | (sz), d, 0, o, i)
#define ATOMIC_ADD64(d, s, o)	INSN(BPF_STX | BPF_ATOMIC | BPF_DW, d, s, o, BPF_ADD)
#define JEQ_IMM(d, i, o)	INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define CALL(f)			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT()			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define LD_MAP_FD(d, fd) \
	INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd), \
	INSN(0, 0, 0, 0, 0)

#define MAX_CYCLES 10000

static void die(const char *what)
{
	fprintf(stderr, "bench_rawtp: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static double now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		die("clock_gettime");
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, long n)
{
	qsort(v, n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static char verifier_log[65536];

static int create_map(void)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(uint32_t);
	attr.value_size = sizeof(uint64_t);
	attr.max_entries = 1;
	fd = sys_bpf(BPF_MAP_CREATE, &attr);
	if (fd < 0)
		die("BPF_MAP_CREATE");
	return fd;
}

/* Every hit: map[0] += 1. */
static int load_prog(int map_fd)
{
	struct bpf_insn prog[] = {
		ST_IMM(BPF_W, BPF_REG_10, -4, 0),	/* key = 0 */
		LD_MAP_FD(BPF_REG_1, map_fd),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 2),		/* no value: out */
		MOV64_IMM(BPF_REG_1, 1),
		ATOMIC_ADD64(BPF_REG_0, BPF_REG_1, 0),	/* count++ */
		MOV64_IMM(BPF_REG_0, 0),		/* out: */
		EXIT(),
	};
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	attr.insns = (uintptr_t)prog;
	attr.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)verifier_log;
	attr.log_size = sizeof(verifier_log);
	attr.log_level = 1;
	memcpy(attr.prog_name, "bench_count", sizeof("bench_count"));
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0) {
		int e = errno;

		fprintf(stderr, "verifier log:\n%s\n", verifier_log);
		errno = e;
		die("BPF_PROG_LOAD");
	}
	return fd;
}

static int attach(int prog_fd)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (uintptr_t)"sys_enter";
	attr.raw_tracepoint.prog_fd = prog_fd;
	fd = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
	if (fd < 0)
		die("BPF_RAW_TRACEPOINT_OPEN sys_enter");
	return fd;
}

static int run(char **argv)
{
	int map_fd = create_map(), prog_fd = load_prog(map_fd), tp_fd, status;
	union bpf_attr attr;
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

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)&count;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr))
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
