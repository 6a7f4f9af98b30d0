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
 * and exits with PROG's status.  The programs: bench/progs/bpf/copystr.bpf.c.
 */
#define _GNU_SOURCE
#define BENCH_NAME "bench_copystr"
#include "bench_common.h"
#include "bpf_test.h"
#include "copystr.skel.h"
#include "copystr_kfunc.skel.h"
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

/*
 * bench/progs/bpf/copystr.bpf.c: the kfunc program (sleepable) if @kfunc,
 * else the bpf_probe_read_user_str() one, on @map_fd; the fd or -errno.
 */
static int load(int map_fd, int kfunc)
{
	static const char *const maps[] = { "buf", NULL };
	int fd;

	if (kfunc) {
		struct copystr_kfunc_bpf *skel = copystr_kfunc_bpf__open();

		if (!skel)
			return -errno;
		fd = bpft_load_one(skel->obj, "copy_kfunc", BPF_F_SLEEPABLE, maps, &map_fd);
		copystr_kfunc_bpf__destroy(skel);
	} else {
		struct copystr_bpf *skel = copystr_bpf__open();

		if (!skel)
			return -errno;
		fd = bpft_load_one(skel->obj, "copy_probe_read", 0, maps, &map_fd);
		copystr_bpf__destroy(skel);
	}
	if (fd < 0)
		errno = -fd;
	return fd;
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
	map_fd = bpft_array_create(64, 2);
	if (map_fd < 0)
		die("BPF_MAP_CREATE");
	prog_fd = load(map_fd, kid > 0);
	if (prog_fd < 0) {
		bpft_print_log();
		die("BPF_PROG_LOAD");
	}
	tp_fd = bpf_raw_tracepoint_open("sys_enter", prog_fd);
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
	if (bpf_map_lookup_elem(map_fd, &key, val))
		die("BPF_MAP_LOOKUP_ELEM");
	printf("bench_copystr: count=%llu kind=%s\n", (unsigned long long)val[0],
	       kid > 0 ? "kfunc" : "probe_read");
	if (!WIFEXITED(status)) {
		fprintf(stderr, "bench_copystr: %s failed (status %#x)\n", argv[2], status);
		return 1;
	}
	return WEXITSTATUS(status);
}
