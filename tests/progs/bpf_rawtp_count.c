// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_rawtp_count [K]: count one task's sys_enter hits with a raw
 * tracepoint BPF program, through the bare bpf() syscall (no libbpf).
 *
 *  1. fork a child that blocks reading a pipe;
 *  2. create an array map (1 entry: target tgid, getppid hits, all hits)
 *     and store the child's pid in it;
 *  3. load a hand-assembled BPF_PROG_TYPE_RAW_TRACEPOINT program that,
 *     when bpf_get_current_pid_tgid() >> 32 equals the target, atomically
 *     adds 1 to "all" and, if ctx[1] (the syscall id) is __NR_getppid,
 *     to "getppid";
 *  4. attach it with BPF_RAW_TRACEPOINT_OPEN "sys_enter";
 *  5. release the child, which makes exactly K getppid() calls and
 *     _exit()s; reap it;
 *  6. detach (close the raw tracepoint fd) and read the map.
 *
 * Output: "bpf_rawtp_count: pid=CHILD k=K getppid=G all=A"
 * The check asserts G == K exactly.  A is K + 1 (exit_group) plus 1 if
 * the child's blocking read() was entered only after the attach (the
 * child says it is about to read before it does), so K+1 <= A <= K+2.
 * Exit status is non-zero, with a message, on any error.
 */
#define _GNU_SOURCE
#include "bpf_raw.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Map value, shared with the BPF program (offsets 0, 8, 16). */
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

static int load_prog(int map_fd)
{
	struct bpf_insn prog[] = {
		MOV64_REG(BPF_REG_6, BPF_REG_1),	/* r6 = ctx (u64 args[]) */
		CALL(BPF_FUNC_get_current_pid_tgid),
		RSH64_IMM(BPF_REG_0, 32),		/* tgid */
		MOV64_REG(BPF_REG_7, BPF_REG_0),
		ST_IMM(BPF_W, BPF_REG_10, -4, 0),	/* key = 0 */
		LD_MAP_FD(BPF_REG_1, map_fd),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 7),		/* no value: out */
		LDX(BPF_W, BPF_REG_1, BPF_REG_0, 0),	/* target_tgid */
		JNE_REG(BPF_REG_1, BPF_REG_7, 5),	/* other task: out */
		MOV64_IMM(BPF_REG_1, 1),
		ATOMIC_ADD64(BPF_REG_0, BPF_REG_1, 16),	/* all++ */
		LDX(BPF_DW, BPF_REG_2, BPF_REG_6, 8),	/* ctx[1]: syscall id */
		JNE_IMM(BPF_REG_2, SYS_getppid, 1),
		ATOMIC_ADD64(BPF_REG_0, BPF_REG_1, 8),	/* getppid++ */
		MOV64_IMM(BPF_REG_0, 0),		/* out: */
		EXIT(),
	};
	int fd;

	fd = bpf_raw_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, prog,
			       sizeof(prog) / sizeof(prog[0]), "rawtp_count");
	if (fd < 0) {
		bpf_raw_print_log();
		die("BPF_PROG_LOAD");
	}
	return fd;
}

int main(int argc, char **argv)
{
	long k = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	int go[2], ready[2], map_fd, prog_fd, tp_fd, status;
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

	map_fd = bpf_raw_array_create(sizeof(val), 1);
	if (map_fd < 0)
		die("BPF_MAP_CREATE");

	memset(&val, 0, sizeof(val));
	val.target_tgid = child;
	if (bpf_raw_map_update(map_fd, &key, &val, BPF_ANY))
		die("BPF_MAP_UPDATE_ELEM");

	prog_fd = load_prog(map_fd);

	tp_fd = bpf_raw_tp_open("sys_enter", prog_fd);
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

	if (bpf_raw_map_lookup(map_fd, &key, &val))
		die("BPF_MAP_LOOKUP_ELEM");
	if (val.target_tgid != (uint32_t)child) {
		fprintf(stderr, "bpf_rawtp_count: map target changed\n");
		return 1;
	}
	printf("bpf_rawtp_count: pid=%d k=%ld getppid=%llu all=%llu\n",
	       child, k, (unsigned long long)val.getppid,
	       (unsigned long long)val.all);
	close(prog_fd);
	close(map_fd);
	return 0;
}
