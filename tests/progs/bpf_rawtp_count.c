// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_rawtp_count [K]: count one task's sys_enter hits with a raw
 * tracepoint BPF program (progs/bpf/rawtp_count.bpf.c, its skeleton,
 * libbpf).
 *
 *  1. fork a child that blocks reading a pipe;
 *  2. load the program, whose array map (1 entry: target tgid, getppid
 *     hits, all hits) gets the child's pid: when
 *     bpf_get_current_pid_tgid() >> 32 equals the target, it atomically
 *     adds 1 to "all" and, if ctx[1] (the syscall id) is __NR_getppid, to
 *     "getppid";
 *  3. attach it with BPF_RAW_TRACEPOINT_OPEN "sys_enter";
 *  4. release the child, which makes exactly K getppid() calls and
 *     _exit()s; reap it;
 *  5. detach (close the raw tracepoint fd) and read the map.
 *
 * Output: "bpf_rawtp_count: pid=CHILD k=K getppid=G all=A"
 * The check asserts G == K exactly.  A is K + 1 (exit_group) plus 1 if
 * the child's blocking read() was entered only after the attach (the
 * child says it is about to read before it does), so K+1 <= A <= K+2.
 * Exit status is non-zero, with a message, on any error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "rawtp_count.skel.h"

/* The map value of progs/bpf/rawtp_count.bpf.c. */
struct counts {
	uint32_t target_tgid;
	uint32_t pad;
	uint64_t getppid;
	uint64_t all;
};

static void die(const char *what)
{
	fprintf(stderr, "bpf_rawtp_count: %s: %s\n", what, strerror(errno));
	exit(1);
}

int main(int argc, char **argv)
{
	long k = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	struct rawtp_count_bpf *skel;
	int go[2], ready[2], map_fd, tp_fd, status;
	struct counts val;
	uint32_t key = 0;
	pid_t child;
	char c = 0;
	long i;

	if (argc > 2 || k <= 0) {
		fprintf(stderr, "usage: bpf_rawtp_count [K>0]\n");
		return 1;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	if (pipe(go) || pipe(ready))
		die("pipe");

	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		/* Tell the parent we are about to block, then block. */
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(10);
		for (i = 0; i < k; i++)
			syscall(SYS_getppid);
		_exit(0);
	}
	if (read(ready[0], &c, 1) != 1)
		die("read ready pipe");

	skel = rawtp_count_bpf__open_and_load();
	if (!skel)
		die("load progs/bpf/rawtp_count.bpf.c");
	map_fd = bpf_map__fd(skel->maps.counts);
	memset(&val, 0, sizeof(val));
	val.target_tgid = child;
	if (bpf_map_update_elem(map_fd, &key, &val, BPF_ANY))
		die("BPF_MAP_UPDATE_ELEM");

	tp_fd = bpf_raw_tracepoint_open("sys_enter",
					bpf_program__fd(skel->progs.rawtp_count));
	if (tp_fd < 0)
		die("BPF_RAW_TRACEPOINT_OPEN sys_enter");

	/* Release the child and wait for it to finish its K calls. */
	if (write(go[1], &c, 1) != 1)
		die("write go pipe");
	if (waitpid(child, &status, 0) != child)
		die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bpf_rawtp_count: child failed (status %#x)\n",
			status);
		return 1;
	}

	close(tp_fd);	/* detach */

	if (bpf_map_lookup_elem(map_fd, &key, &val))
		die("BPF_MAP_LOOKUP_ELEM");
	if (val.target_tgid != (uint32_t)child) {
		fprintf(stderr, "bpf_rawtp_count: map target changed\n");
		return 1;
	}
	printf("bpf_rawtp_count: pid=%d k=%ld getppid=%llu all=%llu\n",
	       child, k, (unsigned long long)val.getppid,
	       (unsigned long long)val.all);
	rawtp_count_bpf__destroy(skel);
	return 0;
}
