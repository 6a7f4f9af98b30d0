// SPDX-License-Identifier: GPL-2.0
/*
 * bench_copystr run PROG [ARG...]: what copying a syscall's path in a BPF
 * program on sys_enter costs.  Loads a raw_tp program that, for each
 * openat(), reads the path pointer from the pt_regs and copies up to 64
 * bytes of the string (a 64-byte path: PROG is bench_syscall with
 * BENCH_CALL=openat64) into an array map value, counting the copies that
 * returned 64, the whole string:
 *
 *   kfunc       where the kernel has it (the follow-up series): a
 *               sleepable program, bpf_copy_from_user_str(), which faults
 *               pages in (the string is resident: nothing to fault)
 *   probe_read  elsewhere: a program that is not sleepable,
 *               bpf_probe_read_user_str(), what tools use today
 *
 * Attaches it to sys_enter, runs PROG, detaches, prints
 *   bench_copystr: count=N kind=kfunc|probe_read
 * and exits with PROG's status.  libbpf (static) only finds the kfunc's
 * BTF id; the rest is bpf_raw.h.
 */
#define _GNU_SOURCE
#define BENCH_NAME "bench_copystr"
#include "bench_common.h"
#include "bpf_raw.h"
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define KFUNC_CALL(id)	INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, id)
#define JNE_IMM32(d, i, o) INSN(BPF_JMP | BPF_JNE | BPF_K, d, 0, o, i)

static int kfunc_id(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int id;

	if (!btf)
		return -1;
	id = btf__find_by_name_kind(btf, "bpf_copy_from_user_str", BTF_KIND_FUNC);
	btf__free(btf);
	return id;
}

/* map: 2 slots of 64 bytes: [0] the copy, [1] the count (first u64) */
static int load(int map_fd, int kid)
{
	struct bpf_insn prog[] = {
		MOV64_REG(BPF_REG_6, BPF_REG_1),
		LDX(BPF_DW, BPF_REG_7, BPF_REG_6, 8),		/* id */
		JNE_IMM32(BPF_REG_7, 257, 28),			/* openat? -> out */
		MOV64_REG(BPF_REG_1, BPF_REG_10),
		ADD64_IMM(BPF_REG_1, -16),
		MOV64_IMM(BPF_REG_2, 8),
		LDX(BPF_DW, BPF_REG_3, BPF_REG_6, 0),		/* regs */
		ADD64_IMM(BPF_REG_3, 104),			/* ->si */
		CALL(BPF_FUNC_probe_read_kernel),
		ST_IMM(BPF_W, BPF_REG_10, -4, 0),
		LD_MAP_FD(BPF_REG_1, map_fd),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 15),			/* -> out */
		MOV64_REG(BPF_REG_1, BPF_REG_0),
		MOV64_IMM(BPF_REG_2, 64),
		LDX(BPF_DW, BPF_REG_3, BPF_REG_10, -16),
		MOV64_IMM(BPF_REG_4, 0),
		kid > 0 ? KFUNC_CALL(kid) : CALL(BPF_FUNC_probe_read_user_str),
		JNE_IMM32(BPF_REG_0, 64, 9),			/* whole? -> out */
		ST_IMM(BPF_W, BPF_REG_10, -4, 1),
		LD_MAP_FD(BPF_REG_1, map_fd),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 2),			/* -> out */
		MOV64_IMM(BPF_REG_1, 1),
		ATOMIC_ADD64(BPF_REG_0, BPF_REG_1, 0),
		MOV64_IMM(BPF_REG_0, 0),			/* out: */
		EXIT(),
	};

	return bpf_raw_prog_load_flags(BPF_PROG_TYPE_RAW_TRACEPOINT, prog,
				       sizeof(prog) / sizeof(prog[0]),
				       "bench_copystr",
				       kid > 0 ? BPF_F_SLEEPABLE : 0);
}

int main(int argc, char **argv)
{
	int kid, map_fd, prog_fd, tp_fd, status;
	uint64_t val[8];
	uint32_t key = 1;
	pid_t child;

	if (argc < 3 || strcmp(argv[1], "run")) {
		fprintf(stderr, "usage: bench_copystr run PROG [ARG...]\n");
		return 2;
	}
	kid = kfunc_id();
	map_fd = bpf_raw_array_create(64, 2);
	if (map_fd < 0)
		die("BPF_MAP_CREATE");
	prog_fd = load(map_fd, kid);
	if (prog_fd < 0) {
		bpf_raw_print_log();
		die("BPF_PROG_LOAD");
	}
	tp_fd = bpf_raw_tp_open("sys_enter", prog_fd);
	if (tp_fd < 0)
		die("BPF_RAW_TRACEPOINT_OPEN sys_enter");
	fflush(stdout);
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "bench_copystr: exec %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	if (waitpid(child, &status, 0) != child)
		die("waitpid");
	close(tp_fd);
	memset(val, 0, sizeof(val));
	if (bpf_raw_map_lookup(map_fd, &key, val))
		die("BPF_MAP_LOOKUP_ELEM");
	printf("bench_copystr: count=%llu kind=%s\n", (unsigned long long)val[0],
	       kid > 0 ? "kfunc" : "probe_read");
	if (!WIFEXITED(status)) {
		fprintf(stderr, "bench_copystr: %s failed (status %#x)\n", argv[2], status);
		return 1;
	}
	return WEXITSTATUS(status);
}
