// SPDX-License-Identifier: GPL-2.0
/*
 * bench_copystr run|run-tp PROG [ARG...]: what copying a syscall's path in a BPF
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
 * run-tp: the same as a tracepoint program (perf) on
 * syscalls:sys_enter_openat, the path from the event's context: the
 * kfunc one sleepable where the kernel runs sleepable tracepoint programs
 * (0025), else the bpf_probe_read_user_str() one.
 *
 * Attaches it, runs PROG, detaches, prints
 *   bench_copystr: count=N kind=kfunc|probe_read|tp-kfunc|tp-probe_read
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
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
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
static int load(int map_fd, int kfunc, int tp)
{
	static const char *const maps[] = { "buf", NULL };
	int fd;

	if (kfunc) {
		struct copystr_kfunc_bpf *skel = copystr_kfunc_bpf__open();

		if (!skel)
			return -errno;
		fd = bpft_load_one(skel->obj, tp ? "tp_copy_kfunc" : "copy_kfunc",
				   BPF_F_SLEEPABLE, maps, &map_fd);
		copystr_kfunc_bpf__destroy(skel);
	} else {
		struct copystr_bpf *skel = copystr_bpf__open();

		if (!skel)
			return -errno;
		fd = bpft_load_one(skel->obj, tp ? "tp_copy_probe_read" : "copy_probe_read",
				   0, maps, &map_fd);
		copystr_bpf__destroy(skel);
	}
	if (fd < 0)
		errno = -fd;
	return fd;
}

/* syscalls:sys_enter_openat as a perf event with program @prog_fd */
static int tp_attach(int prog_fd)
{
	struct perf_event_attr attr = { 0 };
	long id = -1;
	FILE *f;
	int fd;

	f = fopen("/sys/kernel/tracing/events/syscalls/sys_enter_openat/id", "r");
	if (!f || fscanf(f, "%ld", &id) != 1)
		die("syscalls:sys_enter_openat/id");
	fclose(f);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.sample_period = 1;
	fd = syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		die("perf_event_open");
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		die("PERF_EVENT_IOC_SET_BPF");
	return fd;
}

int main(int argc, char **argv)
{
	int kid, map_fd, prog_fd, tp_fd, status, tp;
	uint64_t val[8];
	uint32_t key = 1;
	pid_t child;

	if (argc < 3 || (strcmp(argv[1], "run") && strcmp(argv[1], "run-tp"))) {
		fprintf(stderr, "usage: bench_copystr run|run-tp PROG [ARG...]\n");
		return 2;
	}
	tp = !strcmp(argv[1], "run-tp");
	kid = kfunc_id();
	map_fd = bpft_array_create(64, 2);
	if (map_fd < 0)
		die("BPF_MAP_CREATE");
	prog_fd = load(map_fd, kid > 0, tp);
	/* the kfunc without sleepable tracepoint programs (0021-0024) */
	if (prog_fd < 0 && tp && kid > 0) {
		kid = 0;
		prog_fd = load(map_fd, 0, tp);
	}
	if (prog_fd < 0) {
		bpft_print_log();
		die("BPF_PROG_LOAD");
	}
	if (tp) {
		tp_fd = tp_attach(prog_fd);
	} else {
		tp_fd = bpf_raw_tracepoint_open("sys_enter", prog_fd);
		if (tp_fd < 0)
			die("BPF_RAW_TRACEPOINT_OPEN sys_enter");
	}
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
	printf("bench_copystr: count=%llu kind=%s%s\n", (unsigned long long)val[0],
	       tp ? "tp-" : "", kid > 0 ? "kfunc" : "probe_read");
	if (!WIFEXITED(status)) {
		fprintf(stderr, "bench_copystr: %s failed (status %#x)\n", argv[2], status);
		return 1;
	}
	return WEXITSTATUS(status);
}
