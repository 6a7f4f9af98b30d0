// SPDX-License-Identifier: GPL-2.0
/*
 * tp_perfuser user|root N: what a perf event on syscalls:sys_enter_openat
 * records of the path, opened by a user without capabilities (user: UID
 * and GID 65534, no supplementary group) or by root.
 *
 * As root it reads the event's id and the offsets of "filename" and
 * "__filename_val" from tracefs, then (user) opens root's counting events
 * on syscalls:sys_enter_execve of this task and on sys_enter_openat of a
 * sleeping child (a privileged tracer elsewhere must not make the user's
 * records fault), drops every privilege,
 * opens the event on itself (per task, exclude_kernel: what
 * perf_event_paranoid 2 allows a user; syscall events are
 * TRACE_EVENT_FL_CAP_ANY) with raw samples, and makes N + 1 openat()
 * calls: N whose path lives in a page it never touched (a fresh private
 * mapping of a file of its own, checked not present in /proc/self/pagemap),
 * then one whose path is on its stack.  It prints each call and each
 * sample, and one line per assertion ("check NAME ok|fail WHY"):
 *
 *   user  nonres    every non-resident path recorded as an empty string,
 *                   each call exactly once: the probe did not fault the
 *                   page in for a user who may not hold sys_enter
 *         resident  the path on the stack recorded exactly
 *   root  nonres    every non-resident path recorded exactly: a tracer
 *                   with CAP_PERFMON gets the page faulted in
 *         resident  as for the user
 *
 * Exit 0 when every assertion passed, 1 when one failed, 2 on a test
 * error.  The paths do not exist: openat() fails with ENOENT, after the
 * event.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "tpst_common.h"

#define EV "/sys/kernel/tracing/events/syscalls/sys_enter_openat/"
#define EXECVE_EV "/sys/kernel/tracing/events/syscalls/sys_enter_execve/"
#define USER_ID 65534
#define MAX_CALLS 64
#define RB_PAGES 16

struct call {
	uint64_t ptr;
	char path[128];
	int seen, exact, empty;
};

static struct call calls[MAX_CALLS + 1];
static int ncalls;
static long page;

static long read_num(const char *path)
{
	char buf[32] = "";
	FILE *f = fopen(path, "r");

	if (!f || !fgets(buf, sizeof(buf), f))
		tpst_die(path);
	fclose(f);
	return strtol(buf, NULL, 10);
}

/* The offset of field @name in the event's format, or die. */
static int field_offset(const char *name)
{
	char line[256], want[64];
	FILE *f = fopen(EV "format", "r");
	int off = -1;

	if (!f)
		tpst_die(EV "format");
	snprintf(want, sizeof(want), " %s;", name);
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, want), *o = strstr(line, "offset:");

		if (p && o && strncmp(line, "\tfield:", 7) == 0) {
			off = atoi(o + 7);
			break;
		}
	}
	fclose(f);
	if (off < 0) {
		fprintf(stderr, "no field %s in the format\n", name);
		exit(2);
	}
	return off;
}

static void drop_privileges(void)
{
	char line[128];
	FILE *f;
	int capeff_zero = 0;

	if (setgroups(0, NULL) || setresgid(USER_ID, USER_ID, USER_ID) ||
	    setresuid(USER_ID, USER_ID, USER_ID))
		tpst_die("drop privileges");
	/* the change of credentials made /proc/self root's: pagemap */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		tpst_die("PR_SET_DUMPABLE");
	f = fopen("/proc/self/status", "r");
	if (!f)
		tpst_die("/proc/self/status");
	while (fgets(line, sizeof(line), f))
		if (!strcmp(line, "CapEff:\t0000000000000000\n"))
			capeff_zero = 1;
	fclose(f);
	if (!capeff_zero || geteuid() != USER_ID) {
		fprintf(stderr, "privileges not dropped\n");
		exit(2);
	}
}

/* 1 if the page at @addr is present in this process's page table */
static int present(const void *addr)
{
	uint64_t ent = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	off_t off = (uintptr_t)addr / page * sizeof(ent);

	if (fd < 0 || pread(fd, &ent, sizeof(ent), off) != sizeof(ent))
		tpst_die("/proc/self/pagemap");
	close(fd);
	return !!(ent >> 63);
}

/* A path in a page never touched: a fresh private mapping of a file. */
static __attribute__((noinline)) char *
fresh_path(const char *dir, int i, char *path, size_t size)
{
	char file[128];
	char *p;
	int fd;

	snprintf(path, size, "%s/nonres-%d-%d", dir, getpid(), i);
	snprintf(file, sizeof(file), "%s/page-%d-%d", dir, getpid(), i);
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || pwrite(fd, path, strlen(path) + 1, 0) < 0 ||
	    ftruncate(fd, page))
		tpst_die(file);
	p = mmap(NULL, page, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	unlink(file);
	if (p == MAP_FAILED)
		tpst_die("mmap");
	if (present(p)) {
		fprintf(stderr, "the page of %s is present before the call\n",
			path);
		exit(2);
	}
	return p;
}

static void record_call(const char *path, const char *ptr)
{
	struct call *c = &calls[ncalls++];
	long ret;

	c->ptr = (uintptr_t)ptr;
	snprintf(c->path, sizeof(c->path), "%s", path);
	ret = syscall(SYS_openat, AT_FDCWD, ptr, O_RDONLY | O_CLOEXEC);
	printf("call ptr=%llx path=%s ret=%ld\n", (unsigned long long)c->ptr,
	       c->path, ret < 0 ? -errno : ret);
	if (ret >= 0)
		close(ret);
}

/*
 * root's counting events, kept open while the user traces: one on another
 * syscall of this task, one on sys_enter_openat of a child that sleeps
 * (on no CPU's list while it sleeps).  Neither may make the user's
 * records fault: only a privileged event the record goes to on its CPU,
 * or a BPF program, does.  The child exits when this process does.
 */
static void root_events(void)
{
	struct perf_event_attr rattr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(rattr),
	};
	int pipefd[2];
	char c;
	pid_t child;

	rattr.config = read_num(EXECVE_EV "id");
	if (syscall(SYS_perf_event_open, &rattr, 0, -1, -1,
		    PERF_FLAG_FD_CLOEXEC) < 0)
		tpst_die("perf_event_open of sys_enter_execve");

	if (pipe2(pipefd, O_CLOEXEC))
		tpst_die("pipe2");
	child = fork();
	if (child < 0)
		tpst_die("fork");
	if (!child) {
		close(pipefd[1]);
		while (read(pipefd[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(pipefd[0]);	/* the write end stays open until exit */
	rattr.config = read_num(EV "id");
	if (syscall(SYS_perf_event_open, &rattr, child, -1, -1,
		    PERF_FLAG_FD_CLOEXEC) < 0)
		tpst_die("perf_event_open of the child's sys_enter_openat");
}

static void read_samples(void *rb, int off_ptr, int off_str)
{
	struct perf_event_mmap_page *meta = rb;
	char *data = (char *)rb + page;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t size = (uint64_t)RB_PAGES * page, tail = meta->data_tail;
	char rec[4096];

	if (head - tail > size) {
		fprintf(stderr, "the perf buffer wrapped: %llu bytes\n",
			(unsigned long long)(head - tail));
		exit(2);
	}

	while (tail < head) {
		struct perf_event_header h;
		char *raw, str[256] = "";
		uint64_t i, ptr;
		uint32_t loc;
		int n;

		for (i = 0; i < sizeof(h); i++)
			((char *)&h)[i] = data[(tail + i) % size];
		if (h.size > sizeof(rec) || h.size < sizeof(h)) {
			fprintf(stderr, "a perf record of %u bytes\n", h.size);
			exit(2);
		}
		for (i = 0; i < h.size; i++)
			rec[i] = data[(tail + i) % size];
		tail += h.size;
		if (h.type == PERF_RECORD_LOST) {
			fprintf(stderr, "perf lost samples\n");
			exit(2);
		}
		if (h.type != PERF_RECORD_SAMPLE)
			continue;

		/* PERF_SAMPLE_RAW: u32 size, then the record */
		raw = rec + sizeof(h) + sizeof(uint32_t);
		memcpy(&ptr, raw + off_ptr, sizeof(ptr));
		memcpy(&loc, raw + off_str, sizeof(loc));
		n = loc >> 16;
		if (n > 0 && n < (int)sizeof(str))
			memcpy(str, raw + (loc & 0xffff), n);
		str[sizeof(str) - 1] = '\0';
		printf("sample ptr=%llx str=\"%s\"\n", (unsigned long long)ptr,
		       str);
		for (n = 0; n < ncalls; n++) {
			if (calls[n].ptr != ptr)
				continue;
			calls[n].seen++;
			calls[n].exact += !strcmp(str, calls[n].path);
			calls[n].empty += !str[0];
		}
	}
	meta->data_tail = tail;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr = { 0 };
	char dir[32], path[128], stack_path[128];
	int user, n, i, fd, off_ptr, off_str, bad;
	void *rb;

	if (argc != 3 || (strcmp(argv[1], "user") && strcmp(argv[1], "root")))
		goto usage;
	user = !strcmp(argv[1], "user");
	n = atoi(argv[2]);
	if (n < 1 || n > MAX_CALLS)
		goto usage;
	page = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);

	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = read_num(EV "id");
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.sample_period = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	off_ptr = field_offset("filename");
	off_str = field_offset("__filename_val");

	snprintf(dir, sizeof(dir), "/tmp/tp_perfuser-%d", getpid());
	if (mkdir(dir, 0777) || chmod(dir, 0777))
		tpst_die(dir);
	if (user) {
		root_events();
		drop_privileges();
	}

	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		tpst_die("perf_event_open");
	rb = mmap(NULL, (RB_PAGES + 1) * page, PROT_READ | PROT_WRITE,
		  MAP_SHARED, fd, 0);
	if (rb == MAP_FAILED)
		tpst_die("mmap of the perf buffer");

	/*
	 * Written before the other calls, so that no other buffer of theirs
	 * (fresh_path()'s file name, opened too) shares its stack slot: its
	 * pointer identifies its samples.
	 */
	snprintf(stack_path, sizeof(stack_path), "%s/resident-%d", dir,
		 getpid());
	for (i = 0; i < n; i++) {
		char *p = fresh_path(dir, i, path, sizeof(path));

		record_call(path, p);
	}
	record_call(stack_path, stack_path);
	close(fd);	/* no more samples: the mapping keeps the buffer */
	read_samples(rb, off_ptr, off_str);

	for (i = 0, bad = 0; i < n; i++) {
		struct call *c = &calls[i];

		if (c->seen != 1 || (user ? c->empty : c->exact) != 1) {
			if (!bad++)
				printf("first wrong: ptr=%llx path=%s seen=%d exact=%d empty=%d\n",
				       (unsigned long long)c->ptr, c->path,
				       c->seen, c->exact, c->empty);
		}
	}
	tpst_check("nonres", !bad, "%d of %d non-resident paths not recorded %s exactly once",
		   bad, n, user ? "empty" : "with the path");
	tpst_check("resident", calls[n].seen == 1 && calls[n].exact == 1,
		   "the path on the stack: %d sample(s), %d exact", calls[n].seen,
		   calls[n].exact);
	rmdir(dir);	/* fails as the user: the guest's /tmp is cleaned up */
	return tpst_failed;
usage:
	fprintf(stderr, "usage: %s user|root N\n", argv[0]);
	return 2;
}
