// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsleep_test refusals|uffd|tp "FEATURES" | pinned: sleepable BPF programs on
 * may-sleep tracepoints (follow-up patches 0017-0021).  Prints one
 * "check NAME ok|fail|skip WHY" line per check (ktap_check_lines).
 *
 * refusals FEATURES (the kernel's /tests/features: each expectation
 * follows the patch that changes it, so every prefix of the series
 * asserts its own side; without the patch, 6.1's behaviour):
 *   rawtp_load         a sleepable raw_tp program: loads with bpfsleepload
 *                      (0019); else refused (EINVAL, "can be sleepable")
 *   rawtp_attach_other (0019) attaching it to sched_switch: EINVAL
 *   rawtp_attach_sys_enter  (0019) attaching it to sys_enter works
 *   tpbtf_other_load   a sleepable tp_btf program for sched_switch: with
 *                      bpfsleepload refused at load (EINVAL, "Sleepable
 *                      program cannot attach to non-faultable
 *                      tracepoint"); with tpbtfnosleep (0007) alone,
 *                      refused (EINVAL, "can be sleepable"); with
 *                      neither, 6.1 loads it: the hole (asserted,
 *                      reported, not attached)
 *   tpbtf_sys_enter    (bpfsleep, 0018) a sleepable tp_btf program for
 *                      sys_enter loads and attaches; with tpbtfnosleep
 *                      (0007) and without bpfsleepload, refused at load
 *                      (EINVAL, "can be sleepable")
 *   helper_nonsleepable  a raw_tp program that is not sleepable calling
 *                      bpf_copy_from_user(): EINVAL, the helper refused
 *                      (all kernels)
 *   kfunc_nonsleepable   calling bpf_copy_from_user_str() from a program
 *                      that is not sleepable: EINVAL, "is sleepable but the
 *                      program is not" (where the kfunc exists)
 *   kfunc_sleepable    a sleepable raw_tp program calling it loads
 *   test_run_sleepable (0019) BPF_PROG_TEST_RUN of a sleepable raw_tp
 *                      program: EINVAL (it would run with preemption off)
 *   prog_array_sleepable  (progarraysleep, 0008) a prog array takes the
 *                      kind of its first program: a sleepable raw_tp
 *                      program into one owned by a program that is not,
 *                      and the other way round: EINVAL; a caller that is
 *                      not sleepable loads with the first array and is
 *                      refused (EINVAL) with the second
 *   prog_array_kprobe  a sleepable kprobe program (what a sleepable uprobe
 *                      program is) into a prog array owned by a kprobe
 *                      program that is not: EINVAL with progarraysleep
 *                      (0008), accepted without (6.1's hole)
 *   kfunc_null_dst     (0021) a sleepable program passes a map value that
 *                      is NULL at run time (6.1's verifier lets a maybe-NULL
 *                      map value through) to the kfunc: -EINVAL, no oops
 *   link_detach        BPF_LINK_DETACH of a raw_tp link: with rawtpdetach
 *                      (0017) 0 and the program stops running; else
 *                      EOPNOTSUPP
 *   copy_str_edge      (ustrcopy, 0021) the sleepable program copies with
 *                      the kfunc a path that ends in the last byte before
 *                      a PROT_NONE page, in a page never touched: whole
 *   copy_str_long      (0021) a resident 100-byte path: the 64-byte copy
 *                      returns 64 with its first 63 bytes, and the map
 *                      value after the copy (a 0xff canary) is untouched
 *   copy_str_cut_edge  (0021) 63 bytes without a NUL end the page before a
 *                      PROT_NONE page: the 64-byte copy is cut to them
 *                      (64, no -EFAULT: the kfunc reads no byte past the
 *                      63 it needs where that byte is on another page)
 *
 * uffd: a sleepable raw_tp program on sys_enter copies openat()'s path
 * with bpf_copy_from_user(); the path is on a userfaultfd page, so the
 * run of task A blocks.  Meanwhile, on A's CPU, task B makes 2000
 * getppid() calls, which the program counts:
 *   uffd_blocked       the fault reached the userfaultfd
 *   uffd_other_task    B's 2000 calls are all counted while A is blocked
 *   uffd_misses        the program's recursion_misses is 0
 *   uffd_close         closing the link and the program fd while A is
 *                      blocked returns within 1 s
 *   uffd_resolved      after UFFDIO_COPY, A's openat() returns and the
 *                      program's run completes (its copy counted)
 *   uffd_copy_word_edge  (0021) a path that ends before a userfaultfd
 *                      page: the kfunc's copy does not touch the page
 *                      (see uffd_word_edge())
 *   uffd_perf_close    (perfbpfput, 0024) closing a perf event with a
 *                      tracepoint program (syscalls:sys_enter_getppid,
 *                      not sleepable) while A is blocked returns within
 *                      1 s; 6.1 waits for A's Tasks Trace read-side
 *                      section (skipped without the patch, with how long
 *                      it waited as a diagnostic)
 *   uffd_hop           then A moves to CPU 1 when it asks to: the run
 *                      slept with migration disabled, which pins a task to
 *                      its CPU until migrate_enable() restores its mask
 *
 * tp FEATURES: sleepable tracepoint programs (BPF_PROG_TYPE_TRACEPOINT)
 * on the syscall events, through perf (bpftpsleep, 0025; without it 6.1's
 * refusal at load is asserted and the rest skipped):
 *   tp_load            a sleepable tracepoint program loads; without the
 *                      patch EINVAL, "can be sleepable"
 *   tp_attach_other    attaching it to sched:sched_switch and to
 *                      raw_syscalls:sys_enter: EINVAL (upstream's rule)
 *   tp_ctx_past_args   one that reads its sys_enter_openat context past
 *                      the four arguments: EACCES at attach; one that
 *                      reads the last of them (offset 40) attaches
 *   tp_openat          on syscalls:sys_enter_openat it copies the path of
 *                      N openat() calls whose paths are in pages never
 *                      touched, with the kfunc (0021, before 0025): N of
 *                      N whole, no miss
 *   tp_mixed           a program that is not sleepable on the same event
 *                      runs for each of the N calls too
 *   tp_enter_nostr     on syscalls:sys_enter_getcwd, an event without
 *                      strings (perf's probe sleeps for the program
 *                      only), it copies a path in a page never touched:
 *                      N of N
 *   tp_exit_getcwd     on syscalls:sys_exit_getcwd it reads the buffer
 *                      getcwd() filled, and a path in a page never
 *                      touched: N of N
 *   tp_filter          the return value of a sleepable program decides
 *                      whether perf records the event (bit 0, as for the
 *                      programs that do not sleep): of 2N openat() calls,
 *                      the N the program lets through are counted by its
 *                      perf event, alone and with a program that does not
 *                      sleep (and lets all through) attached to the same
 *                      event, which still runs for all 2N
 *   tp_uffd_close      tp_openat blocked on a userfaultfd page: closing
 *                      its perf event returns within 1 s, and the run
 *                      completes when the page is filled
 *
 * pinned: a sleepable raw_tp program on sys_enter counts getppid() and
 * copies openat()'s path while 4 threads hop between CPU 0 and CPU 1
 * (sched_setaffinity() before each batch of calls, 2 threads per CPU):
 *   pinned_runs        every getppid() is counted, no recursion miss
 *   pinned_offline     task D's run sleeps on CPU 1 on a userfaultfd page,
 *                      migration disabled: taking CPU 1 offline still waits
 *                      after 1 s (until no task pinned to it is left), and
 *                      ends with CPU 1 back online within 20 s once D is
 *                      resumed (a count of pinned tasks that leaked would
 *                      make it wait forever)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <linux/userfaultfd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bpf_test.h"
#include "bpfsleep.skel.h"
#include "bpfsleep_kfunc.skel.h"

static long pg;

static void check(const char *name, int ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("check %s ok\n", name);
	} else {
		printf("check %s fail ", name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
	fflush(stdout);
}

static void skip(const char *name, const char *why)
{
	printf("check %s skip %s\n", name, why);
	fflush(stdout);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * Load program @name of progs/bpf/bpfsleep.bpf.c (@kfunc: of its kfunc
 * build, bpfsleep_kfunc.bpf.c) alone, for this process, sleepable or
 * not, on the maps @counts and @buf (-1: the object's own); the verifier
 * log in bpft_log.  The program's fd or -errno.
 */
static int load_prog(const char *name, int sleepable, int kfunc, int counts,
		     int buf)
{
	static const char *const maps[] = { "counts", "buf", NULL };
	const int fds[] = { counts, buf };
	__u32 flags = sleepable ? BPF_F_SLEEPABLE : 0;
	int fd;

	if (kfunc) {
		struct bpfsleep_kfunc_bpf *skel = bpfsleep_kfunc_bpf__open();

		if (!skel)
			return -errno;
		skel->rodata->tgid = getpid();
		fd = bpft_load_one(skel->obj, name, flags, maps, fds);
		bpfsleep_kfunc_bpf__destroy(skel);
	} else {
		struct bpfsleep_bpf *skel = bpfsleep_bpf__open();

		if (!skel)
			return -errno;
		skel->rodata->tgid = getpid();
		fd = bpft_load_one(skel->obj, name, flags, maps, fds);
		bpfsleep_bpf__destroy(skel);
	}
	return fd;
}

/* a prog array whose slot 0 holds PROG (its owner), or -errno */
static int prog_array_owned(int prog)
{
	__u32 zero = 0;
	int pa;

	if (prog < 0)
		return prog;
	pa = bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY, "bpfsleep_pa", 4, 4, 2, NULL);
	if (pa < 0)
		return -errno;
	if (bpf_map_update_elem(pa, &zero, &prog, BPF_ANY)) {
		int err = -errno;

		close(pa);
		return err;
	}
	return pa;
}

/* tail_caller, not sleepable, tail calling through prog array PA */
static int load_tail_caller(int pa)
{
	static const char *const maps[] = { "jmp", NULL };
	const int fds[] = { pa };
	struct bpfsleep_bpf *skel;
	int fd;

	if (pa < 0)
		return pa;
	skel = bpfsleep_bpf__open();
	if (!skel)
		return -errno;
	fd = bpft_load_one(skel->obj, "tail_caller", 0, maps, fds);
	bpfsleep_bpf__destroy(skel);
	return fd;
}

/* PROG into slot 1 of prog array PA: 0 or -errno */
static int prog_array_add(int pa, int prog)
{
	__u32 one = 1;

	if (pa < 0 || prog < 0)
		return pa < 0 ? pa : prog;
	return bpf_map_update_elem(pa, &one, &prog, BPF_ANY) ? -errno : 0;
}

static int tp_open(const char *name, int prog_fd)
{
	int fd = bpf_raw_tracepoint_open(name, prog_fd);

	return fd < 0 ? -errno : fd;
}

/* Last line of the verifier log, for a failure message. */
static const char *log_tail(void)
{
	size_t len = strlen(bpft_log);
	char *p;

	while (len && bpft_log[len - 1] == '\n')
		bpft_log[--len] = 0;
	p = strrchr(bpft_log, '\n');
	return p ? p + 1 : bpft_log;
}

/*
 * Check NAME: the load of a sleepable program (@fd) was refused because
 * its kind can not be sleepable (EINVAL, "... can be sleepable").
 */
static void check_refused_kind(const char *name, int fd)
{
	check(name, fd == -EINVAL && strstr(bpft_log, "can be sleepable"),
	      "expected EINVAL and 'can be sleepable', got %s: %s",
	      fd >= 0 ? "a program" : strerror(-fd), log_tail());
}

static __u64 counter_at(int map_fd, __u32 key, int m)
{
	__u64 v[2] = { 0, 0 };

	bpf_map_lookup_elem(map_fd, &key, v);
	return v[m];
}

static __u64 counter(int map_fd, __u32 key)
{
	return counter_at(map_fd, key, 0);
}

/* Zero the @n values (of @size bytes) of array map @map_fd */
static void reset(int map_fd, __u32 n, size_t size)
{
	char zero[64] = { 0 };
	__u32 k;

	for (k = 0; k < n && size <= sizeof(zero); k++)
		bpf_map_update_elem(map_fd, &k, zero, BPF_ANY);
}

/*
 * bpfsleep.bpf.c's copy program for sys_enter (see there), with the kfunc
 * if @kfunc, else with bpf_copy_from_user().
 */
static int copy_prog(int counts_fd, int buf_fd, int kfunc, int sleepable)
{
	return load_prog("copy", sleepable, kfunc, counts_fd, buf_fd);
}

/*
 * A perf event on tracepoint @sys:@name, for all tasks on CPU 0 (a BPF
 * program attached to it runs on every CPU), or -errno.
 */
static int perf_tp(const char *sys, const char *name)
{
	struct perf_event_attr attr = { 0 };
	char path[256];
	long id = -1;
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/%s/id",
		 sys, name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (fscanf(f, "%ld", &id) != 1)
		id = -1;
	fclose(f);
	if (id < 0)
		return -EINVAL;
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.sample_period = 1;
	fd = syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Attach program @prog to perf event @pfd and enable it: 0 or -errno */
static int perf_set_bpf(int pfd, int prog)
{
	if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog))
		return -errno;
	return ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) ? -errno : 0;
}

/* perf_tp() of @sys:@name with @prog attached: the event's fd or -errno */
static int perf_tp_bpf(const char *sys, const char *name, int prog)
{
	int pfd = perf_tp(sys, name), ret;

	if (pfd < 0)
		return pfd;
	ret = perf_set_bpf(pfd, prog);
	if (ret) {
		close(pfd);
		return ret;
	}
	return pfd;
}

static int array(__u32 value_size, __u32 n)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "bpfsleep", 4, value_size,
				n, NULL);

	if (fd < 0) {
		perror("bpf_map_create");
		exit(1);
	}
	return fd;
}

static int kfunc_id(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int id;

	if (!btf)
		return -1;
	id = btf__find_by_name_kind(btf, "bpf_copy_from_user_str",
				    BTF_KIND_FUNC);
	btf__free(btf);
	return id;
}

/*
 * @len bytes of @bytes ending in the last byte before a PROT_NONE page,
 * in a page never touched.
 */
static const char *edge_place(const char *bytes, size_t len)
{
	char file[] = "/tmp/bpfsleep-edge-XXXXXX";
	char *img = calloc(1, pg), *base;
	int fd = mkstemp(file);

	base = mmap(NULL, 2 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fd < 0 || !img || base == MAP_FAILED) {
		perror("edge_path");
		exit(1);
	}
	memcpy(img + pg - len, bytes, len);
	if (write(fd, img, pg) != pg ||
	    mmap(base, pg, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) != base) {
		perror("edge_path map");
		exit(1);
	}
	close(fd);
	unlink(file);
	free(img);
	return base + pg - len;
}

/* A path ending in the last byte before a PROT_NONE page, never touched. */
static const char *edge_path(const char *path)
{
	return edge_place(path, strlen(path) + 1);
}

/*
 * One openat() of @path with copy_prog() @fd on sys_enter: the program's
 * return value (counts[1].n) in @ret, its copy (buf[0]) in @got (64
 * bytes).  Returns the link fd (closed) or -errno.
 */
static int copy_once(int fd, int counts, int buf, const char *path,
		     __s64 *ret, char *got)
{
	__u32 zero = 0;
	int lfd = tp_open("sys_enter", fd);

	if (lfd >= 0) {
		syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
		close(lfd);
	}
	*ret = (__s64)counter(counts, 1);
	memset(got, 0, 64);
	bpf_map_lookup_elem(buf, &zero, got);
	return lfd;
}

/*
 * copy_str_long: program @fd copies a resident path longer than its 64
 * bytes into buf[0]; buf[1], right after it, holds a 0xff canary.
 */
static void copy_str_long(int fd, int counts, int buf)
{
	static const char path[] = "/tmp/bpfsleep-long/a-path-of-one-hundred-bytes-"
		"that-the-sixty-four-byte-copy-cuts-after-63-of-them-x";
	char got[64], canary[64], after[64];
	__u32 one = 1;
	__s64 ret;
	int lfd;

	_Static_assert(sizeof(path) == 101, "path: 100 bytes and a NUL");
	memset(canary, 0xff, sizeof(canary));
	bpf_map_update_elem(buf, &one, canary, BPF_ANY);
	lfd = copy_once(fd, counts, buf, path, &ret, got);
	memset(after, 0, sizeof(after));
	bpf_map_lookup_elem(buf, &one, after);
	check("copy_str_long", lfd >= 0 && (int)ret == 64 && got[63] == '\0' &&
	      !strncmp(got, path, 63) && !memcmp(after, canary, sizeof(after)),
	      "link %d, ret %d (64), got \"%.63s\", canary %s", lfd, (int)ret, got,
	      memcmp(after, canary, sizeof(after)) ? "overwritten" : "intact");
}

static const char *features;

/*
 * kfunc_null_dst: bpfsleep.bpf.c's null_dst, for getppid() of this
 * process: the kfunc into a map value that is NULL at run time, its
 * return value in counts[2].n.  The verifier may refuse the program
 * (EACCES/EINVAL); if it loads, the call must return -EINVAL.
 */
static void kfunc_null_dst(int counts, int buf)
{
	int fd, lfd;
	__s64 ret;

	fd = load_prog("null_dst", 1, 1, counts, buf);
	if (fd < 0) {
		check("kfunc_null_dst", fd == -EACCES || fd == -EINVAL,
		      "load: %s: %s", strerror(-fd), log_tail());
		printf("diag: kfunc_null_dst: the verifier refused it: %s\n", log_tail());
		return;
	}
	lfd = tp_open("sys_enter", fd);
	if (lfd < 0) {
		check("kfunc_null_dst", 0, "attach: %s", strerror(-lfd));
		close(fd);
		return;
	}
	syscall(SYS_getppid);
	close(lfd);
	close(fd);
	/* an int kfunc: its return value, sign-extended to the u64 */
	ret = (__s32)counter(counts, 2);
	check("kfunc_null_dst", ret == -EINVAL, "the kfunc returned %lld for a NULL dst",
	      (long long)ret);
}

static int has(const char *f)
{
	size_t n = strlen(f);
	const char *p = features;

	while ((p = strstr(p, f))) {
		if ((p == features || p[-1] == ' ' || p[-1] == '\n') &&
		    (!p[n] || p[n] == ' ' || p[n] == '\n'))
			return 1;
		p += n;
	}
	return 0;
}

static void refusals(void)
{
	int new = has("bpfsleepload");
	int fd, lfd, counts, buf, kid, tpid;
	/* 63 bytes: what a 64-byte copy keeps of a longer string */
	static const char cut_want[] =
		"/tmp/bpfsleep-edge/63-bytes-that-end-the-page-with-no-NUL-bytes";
	const char *want, *p, *cut;
	char got[64];

	_Static_assert(sizeof(cut_want) == 64, "cut_want: 63 bytes and a NUL");
	__u64 before;

	/* rawtp_load */
	fd = load_prog("ret0", 1, 0, -1, -1);
	if (new)
		check("rawtp_load", fd >= 0, "load: %s: %s", strerror(-fd), log_tail());
	else
		check_refused_kind("rawtp_load", fd);
	if (new && fd >= 0) {
		lfd = tp_open("sched_switch", fd);
		check("rawtp_attach_other", lfd == -EINVAL,
		      "attach to sched_switch: expected EINVAL, got %s",
		      lfd >= 0 ? "a link" : strerror(-lfd));
		if (lfd >= 0)
			close(lfd);
		lfd = tp_open("sys_enter", fd);
		check("rawtp_attach_sys_enter", lfd >= 0, "attach to sys_enter: %s",
		      strerror(-lfd));
		if (lfd >= 0)
			close(lfd);
	} else {
		skip("rawtp_attach_other", new ? "no program" : "no sleepable raw_tp programs here (patch 0019)");
		skip("rawtp_attach_sys_enter", new ? "no program" : "no sleepable raw_tp programs here (patch 0019)");
	}
	if (new && fd >= 0) {
		LIBBPF_OPTS(bpf_test_run_opts, topts);
		__u64 ctx[2] = { 0, 0 };
		int pa, pb, nfd, cfd, cfd_b, ret, ret_b;

		topts.ctx_in = ctx;
		topts.ctx_size_in = sizeof(ctx);
		ret = bpf_prog_test_run_opts(fd, &topts) ? -errno : 0;
		check("test_run_sleepable", ret == -EINVAL,
		      "BPF_PROG_TEST_RUN: expected EINVAL, got %s", ret ? strerror(-ret) : "a run");
		/*
		 * An array owned by a program that is not sleepable refuses
		 * a sleepable one; one owned by a sleepable program refuses
		 * the other kind (upstream's map->owner->sleepable)
		 */
		nfd = load_prog("ret0", 0, 0, -1, -1);
		pa = prog_array_owned(nfd);
		ret = prog_array_add(pa, fd);
		pb = prog_array_owned(fd);
		ret_b = prog_array_add(pb, nfd);
		/* the load of a caller checks the array's owner too */
		cfd = load_tail_caller(pa);
		cfd_b = load_tail_caller(pb);
		if (!has("progarraysleep"))
			skip("prog_array_sleepable", "sleepable programs in prog arrays: patch 0008");
		else
			check("prog_array_sleepable", nfd >= 0 && pa >= 0 && ret == -EINVAL &&
			      pb >= 0 && ret_b == -EINVAL && cfd >= 0 && cfd_b == -EINVAL,
			      "a sleepable program into an array of one that is not: %s (want EINVAL); the other way round: %s (want EINVAL); a caller that is not sleepable on the first array: %s (want a program), on the second: %s (want EINVAL); setup: %s, %s, %s",
			      ret ? strerror(-ret) : "success", ret_b ? strerror(-ret_b) : "success",
			      cfd >= 0 ? "a program" : strerror(-cfd),
			      cfd_b >= 0 ? "a program" : strerror(-cfd_b),
			      nfd < 0 ? strerror(-nfd) : "loaded", pa < 0 ? strerror(-pa) : "owned",
			      pb < 0 ? strerror(-pb) : "owned");
		if (cfd >= 0)
			close(cfd);
		if (cfd_b >= 0)
			close(cfd_b);
		if (pa >= 0)
			close(pa);
		if (pb >= 0)
			close(pb);
		if (nfd >= 0)
			close(nfd);
	} else {
		skip("test_run_sleepable", "no sleepable raw_tp programs here (patch 0019)");
		skip("prog_array_sleepable", "no sleepable raw_tp programs here (patch 0019)");
	}
	if (fd >= 0)
		close(fd);

	/* prog_array_kprobe: runs without sleepable raw_tp programs */
	{
		int kfd = load_prog("kp_ret0", 0, 0, -1, -1);
		int skfd = load_prog("kp_ret0", 1, 0, -1, -1);
		int pk = prog_array_owned(kfd);
		int ret = prog_array_add(pk, skfd);

		if (kfd < 0 || skfd < 0 || pk < 0)
			check("prog_array_kprobe", 0, "setup: kprobe program %s, sleepable %s, array %s",
			      kfd < 0 ? strerror(-kfd) : "loaded", skfd < 0 ? strerror(-skfd) : "loaded",
			      pk < 0 ? strerror(-pk) : "owned");
		else if (has("progarraysleep"))
			check("prog_array_kprobe", ret == -EINVAL,
			      "a sleepable kprobe program into an array of one that is not: %s (want EINVAL)",
			      ret ? strerror(-ret) : "success");
		else
			check("prog_array_kprobe", ret == 0,
			      "6.1 takes a sleepable kprobe program into an array of one that is not: %s (want success)",
			      ret ? strerror(-ret) : "success");
		if (!ret && !has("progarraysleep"))
			printf("diag: this kernel lets a kprobe program tail call a sleepable one\n");
		if (pk >= 0)
			close(pk);
		if (skfd >= 0)
			close(skfd);
		if (kfd >= 0)
			close(kfd);
	}

	/* tpbtf_other_load */
	tpid = libbpf_find_vmlinux_btf_id("sched_switch", BPF_TRACE_RAW_TP);
	if (tpid < 0) {
		check("tpbtf_other_load", 0, "no BTF id for btf_trace_sched_switch: %s (no BTF?)",
		      strerror(-tpid));
	} else {
		fd = load_prog("ret0_other", 1, 0, -1, -1);
		if (new)
			check("tpbtf_other_load", fd == -EINVAL &&
			      strstr(bpft_log, "Sleepable program cannot attach to non-faultable tracepoint"),
			      "expected EINVAL and the log line, got %s: %s",
			      fd >= 0 ? "a program" : strerror(-fd), log_tail());
		else if (has("tpbtfnosleep"))
			/* the fix alone: no sleepable tp_btf program at all */
			check_refused_kind("tpbtf_other_load", fd);
		else {
			/* the hole: 6.1 loads it (it would run with preemption disabled) */
			check("tpbtf_other_load", fd >= 0,
			      "expected 6.1 to load it, got %s: %s", strerror(-fd), log_tail());
			if (fd >= 0)
				printf("diag: this kernel loads a sleepable tp_btf program for sched_switch (not attached)\n");
		}
		if (fd >= 0)
			close(fd);
	}
	/* tpbtf_sys_enter */
	tpid = libbpf_find_vmlinux_btf_id("sys_enter", BPF_TRACE_RAW_TP);
	if (!has("bpfsleep")) {
		skip("tpbtf_sys_enter", "no sleepable tp_btf programs on sys_enter here (patch 0018)");
	} else if (tpid < 0) {
		check("tpbtf_sys_enter", 0, "no BTF id for btf_trace_sys_enter");
	} else {
		fd = load_prog("ret0_sys_enter", 1, 0, -1, -1);
		lfd = fd >= 0 ? tp_open(NULL, fd) : fd;
		if (has("tpbtfnosleep") && !new)
			/* the fix without 0019: refused at load, like any */
			check_refused_kind("tpbtf_sys_enter", fd);
		else
			check("tpbtf_sys_enter", lfd >= 0, "load/attach: %s: %s",
			      strerror(-lfd), log_tail());
		if (lfd >= 0)
			close(lfd);
		if (fd >= 0)
			close(fd);
	}

	counts = array(16, 4);
	/* [1]: a canary after the copy's 64 bytes (copy_str_long) */
	buf = array(64, 2);
	/* helper_nonsleepable */
	fd = copy_prog(counts, buf, 0, 0);
	check("helper_nonsleepable", fd == -EINVAL && strstr(bpft_log, "bpf_copy_from_user#"),
	      "expected EINVAL and bpf_copy_from_user refused, got %s: %s",
	      fd >= 0 ? "a program" : strerror(-fd), log_tail());
	if (fd >= 0)
		close(fd);

	kid = kfunc_id();
	if (!has("ustrcopy")) {
		skip("kfunc_nonsleepable", "no bpf_copy_from_user_str kfunc here (patch 0021)");
		skip("kfunc_sleepable", "no bpf_copy_from_user_str kfunc here (patch 0021)");
		skip("copy_str_edge", "no bpf_copy_from_user_str kfunc here (patch 0021)");
		skip("copy_str_cut_edge", "no bpf_copy_from_user_str kfunc here (patch 0021)");
		skip("copy_str_long", "no bpf_copy_from_user_str kfunc here (patch 0021)");
		skip("kfunc_null_dst", "no bpf_copy_from_user_str kfunc here (patch 0021)");
	} else if (kid < 0) {
		check("kfunc_null_dst", 0, "no bpf_copy_from_user_str in the kernel's BTF");
		check("kfunc_nonsleepable", 0, "no bpf_copy_from_user_str in the kernel's BTF");
		check("kfunc_sleepable", 0, "no bpf_copy_from_user_str in the kernel's BTF");
		check("copy_str_edge", 0, "no bpf_copy_from_user_str in the kernel's BTF");
		check("copy_str_cut_edge", 0, "no bpf_copy_from_user_str in the kernel's BTF");
		check("copy_str_long", 0, "no bpf_copy_from_user_str in the kernel's BTF");
	} else {
		fd = copy_prog(counts, buf, 1, 0);
		check("kfunc_nonsleepable", fd == -EINVAL &&
		      strstr(bpft_log, "is sleepable but the program is not"),
		      "expected EINVAL and 'is sleepable but the program is not', got %s: %s",
		      fd >= 0 ? "a program" : strerror(-fd), log_tail());
		if (fd >= 0)
			close(fd);
		fd = copy_prog(counts, buf, 1, 1);
		check("kfunc_sleepable", fd >= 0, "load: %s: %s", strerror(-fd), log_tail());
		kfunc_null_dst(counts, buf);
		/* copy_str_edge: the mapping first (mkstemp() opens a file) */
		want = "/tmp/bpfsleep-edge/a-path-that-ends-on-the-last-byte";
		p = edge_path(want);
		/* 63 bytes, no NUL before the PROT_NONE page */
		cut = edge_place(cut_want, strlen(cut_want));
		if (fd < 0) {
			check("copy_str_edge", 0, "no program: %s", strerror(-fd));
			check("copy_str_cut_edge", 0, "no program: %s", strerror(-fd));
			check("copy_str_long", 0, "no program: %s", strerror(-fd));
		} else {
			__s64 ret;

			lfd = copy_once(fd, counts, buf, p, &ret, got);
			check("copy_str_edge", lfd >= 0 && ret == (__s64)strlen(want) + 1 &&
			      !strcmp(got, want) && counter_at(counts, 1, 1) == 1,
			      "link %d, copies %llu, ret %lld, got \"%.64s\"", lfd,
			      (unsigned long long)counter_at(counts, 1, 1), (long long)ret, got);
			/* the kernel's getname() then fails: EFAULT, not our business */
			lfd = copy_once(fd, counts, buf, cut, &ret, got);
			check("copy_str_cut_edge", lfd >= 0 && ret == 64 &&
			      !strcmp(got, cut_want) && counter_at(counts, 1, 1) == 2,
			      "link %d, copies %llu, ret %d (64: cut to the 63 bytes), got \"%.64s\"",
			      lfd, (unsigned long long)counter_at(counts, 1, 1), (int)ret, got);
			copy_str_long(fd, counts, buf);
		}
		if (fd >= 0)
			close(fd);
	}

	/* link_detach */
	/* tests/lib/bpf/count.bpf.c's counter: adds 1 to counts[3].n */
	fd = bpft_count_load(BPF_PROG_TYPE_RAW_TRACEPOINT, counts, 3);
	if (fd < 0)
		bpft_print_log();
	lfd = fd >= 0 ? tp_open("sys_enter", fd) : fd;
	if (lfd < 0) {
		check("link_detach", 0, "count program on sys_enter: %s",
		      strerror(-lfd));
	} else {
		int ret = bpf_link_detach(lfd) ? -errno : 0;

		getppid();
		before = counter(counts, 3);
		getppid();
		getppid();
		if (has("rawtpdetach"))
			check("link_detach", ret == 0 && counter(counts, 3) == before,
			      "detach: %s, runs after it: %llu", strerror(-ret),
			      (unsigned long long)(counter(counts, 3) - before));
		else
			check("link_detach", ret == -EOPNOTSUPP,
			      "expected EOPNOTSUPP, got %s", strerror(-ret));
		close(lfd);
	}
	if (fd >= 0)
		close(fd);
}

/* ---- uffd ---- */

static char *upage;
static volatile int a_done, b_go, b_done;
static long a_ret;
static int a_cpu = -1;

static void pin0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *task_a(void *arg)
{
	cpu_set_t set;

	(void)arg;
	pin0();
	a_ret = syscall(SYS_openat, AT_FDCWD, upage, O_RDONLY);
	/*
	 * The run slept with migration disabled, so the scheduler pinned A
	 * to CPU 0 for it: it must be free to move again.
	 */
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	a_cpu = sched_setaffinity(0, sizeof(set), &set) ? -errno : sched_getcpu();
	a_done = 1;
	return NULL;
}

static void *task_b(void *arg)
{
	int i;

	(void)arg;
	pin0();
	while (!b_go)
		usleep(1000);
	for (i = 0; i < 2000; i++)
		syscall(SYS_getppid);
	b_done = 1;
	return NULL;
}

static int close_fds[2];
static volatile int closed;
static long long closed_ms;
static int perf_close_fd;
static volatile int perf_closed;
static long long perf_closed_ms;

static void *perf_closer(void *arg)
{
	(void)arg;
	close(perf_close_fd);
	perf_closed_ms = now_ms();
	perf_closed = 1;
	return NULL;
}

static void *closer(void *arg)
{
	(void)arg;
	close(close_fds[0]);
	close(close_fds[1]);
	closed_ms = now_ms();
	closed = 1;
	return NULL;
}

/*
 * A sleepable copy_prog() of this process on sys_enter, with its maps
 * (*counts, a 64-byte buf): the link fd, or -errno after a failed check
 * line for @name (with the verifier log's last line).
 */
static int copy_on_sys_enter(int kid, int *counts, int *fd, const char *name)
{
	int lfd, buf;

	*counts = array(16, 4);
	buf = array(64, 1);
	*fd = copy_prog(*counts, buf, kid > 0, 1);
	lfd = *fd >= 0 ? tp_open("sys_enter", *fd) : *fd;
	if (lfd < 0)
		check(name, 0, "sleepable copy program on sys_enter: %s: %s",
		      strerror(-lfd), log_tail());
	return lfd;
}

/*
 * A private anonymous mapping of @pages pages whose last page is
 * registered with a new userfaultfd (*ufdp) and never touched: the page,
 * or NULL (errno says why).
 */
static char *uffd_page(int *ufdp, int pages)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	char *p;
	int ufd;

	ufd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (ufd < 0 || ioctl(ufd, UFFDIO_API, &api))
		return NULL;
	p = mmap(NULL, pages * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	p += (pages - 1) * pg;
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (unsigned long)p;
	reg.range.len = pg;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(ufd, UFFDIO_REGISTER, &reg))
		return NULL;
	*ufdp = ufd;
	return p;
}

/* Wait up to @ms for a page fault message on @ufd */
static int uffd_wait(int ufd, int ms)
{
	struct pollfd pfd = { .fd = ufd, .events = POLLIN };
	struct uffd_msg msg;

	return poll(&pfd, 1, ms) == 1 && read(ufd, &msg, sizeof(msg)) == sizeof(msg) &&
	       msg.event == UFFD_EVENT_PAGEFAULT;
}

/* Fill @page (registered on @ufd) with a path, waking who faulted on it */
static int uffd_fill(int ufd, char *page, const char *path)
{
	struct uffdio_copy copy;
	char *src = calloc(1, pg);

	strcpy(src, path);
	memset(&copy, 0, sizeof(copy));
	copy.dst = (unsigned long)page;
	copy.src = (unsigned long)src;
	copy.len = pg;
	return ioctl(ufd, UFFDIO_COPY, &copy) ? -errno : 0;
}

static char *e_path;

static void *task_e(void *arg)
{
	(void)arg;
	syscall(SYS_openat, AT_FDCWD, e_path, O_RDONLY);
	return NULL;
}

/*
 * uffd_copy_word_edge (ustrcopy, 0021): a 56-character path whose NUL is
 * the last byte before a userfaultfd page, so that the 64th byte from its
 * start is at offset 6 of that page: the last offset where a word read
 * ending there still starts on the page before.  The kfunc's 64-byte copy
 * needs no byte of the uffd page (upstream's count reads the tail byte by
 * byte and stops at the NUL), so the first fault on it must come from
 * openat() itself (its word-at-a-time getname() reads across), after the
 * program's copy returned 57; a copy that read a word across the page
 * would block in the program, before its count.
 */
static void uffd_word_edge(void)
{
	int kid = kfunc_id(), ufd, counts, fd, lfd, blocked;
	unsigned long long copies, ret;
	pthread_t e;
	char *upg;

	if (kid <= 0) {
		printf("check uffd_copy_word_edge skip no bpf_copy_from_user_str() kfunc (patch 0021)\n");
		return;
	}
	upg = uffd_page(&ufd, 2);
	if (!upg) {
		check("uffd_copy_word_edge", 0, "userfaultfd page: %s", strerror(errno));
		return;
	}
	e_path = upg - 57;
	memset(e_path, 'w', 56);
	e_path[0] = '/';
	e_path[56] = '\0';
	lfd = copy_on_sys_enter(kid, &counts, &fd, "uffd_copy_word_edge");
	if (lfd < 0)
		return;
	pthread_create(&e, NULL, task_e, NULL);
	blocked = uffd_wait(ufd, 10000);
	copies = counter_at(counts, 1, 1);
	ret = counter(counts, 1);
	check("uffd_copy_word_edge", blocked && copies == 1 && ret == 57,
	      "at the first fault on the page after the path (%s), the program's copies: %llu, copy ret %lld (want 1, 57)",
	      blocked ? "seen" : "none in 10 s", copies, (long long)ret);
	if (blocked)
		uffd_fill(ufd, upg, "");
	/* closing the userfaultfd wakes a fault that came later */
	close(ufd);
	close(lfd);
	close(fd);
	pthread_join(e, NULL);
}

static void uffd(void)
{
	pthread_t a, b, c, pc;
	int ufd, counts, fd, lfd, blocked, i, ret, pfd_prog, have_pc = 0;
	long long t0, t_close;
	__u64 misses;

	upage = uffd_page(&ufd, 1);
	if (!upage) {
		check("uffd_blocked", 0, "userfaultfd page: %s", strerror(errno));
		return;
	}
	/* uffd_perf_close's event and program, before the program counts openat() */
	pfd_prog = load_prog("tp_ret0", 0, 0, -1, -1);
	perf_close_fd = perf_tp("syscalls", "sys_enter_getppid");
	lfd = copy_on_sys_enter(0, &counts, &fd, "uffd_blocked");
	if (lfd < 0)
		return;
	pthread_create(&b, NULL, task_b, NULL);
	pthread_create(&a, NULL, task_a, NULL);
	blocked = uffd_wait(ufd, 10000);
	check("uffd_blocked", blocked && !a_done, "no fault message in 10 s (done %d)", a_done);
	if (!blocked)
		return;
	b_go = 1;
	for (i = 0; i < 300 && !b_done; i++)
		usleep(100000);
	check("uffd_other_task", b_done && counter(counts, 0) == 2000 && !a_done,
	      "task B: done %d, %llu of 2000 getppid() counted, A done %d",
	      b_done, (unsigned long long)counter(counts, 0), a_done);
	misses = bpft_prog_misses(fd);
	check("uffd_misses", misses == 0, "recursion_misses %llu", (unsigned long long)misses);
	printf("diag: recursion_misses %llu while A is blocked\n", (unsigned long long)misses);

	/*
	 * uffd_perf_close: a perf event with a tracepoint program, closed
	 * in a thread of its own (on 6.1 it waits for A), joined after A
	 * is resumed
	 */
	if (pfd_prog < 0)
		perf_close_fd = pfd_prog;
	else if (perf_close_fd >= 0 && (i = perf_set_bpf(perf_close_fd, pfd_prog)))
		perf_close_fd = i;
	if (perf_close_fd < 0) {
		check("uffd_perf_close", 0, "a tracepoint program on sys_enter_getppid: %s (%s)",
		      strerror(-perf_close_fd), log_tail());
	} else {
		close(pfd_prog);
		syscall(SYS_getppid);
		t0 = now_ms();
		pthread_create(&pc, NULL, perf_closer, NULL);
		have_pc = 1;
		for (i = 0; i < 100 && !perf_closed; i++)
			usleep(10000);
		t_close = perf_closed ? perf_closed_ms - t0 : -1;
		if (has("perfbpfput"))
			check("uffd_perf_close", perf_closed && t_close < 1000 && !a_done,
			      "closing the perf event: %s after %lld ms (A done %d)",
			      perf_closed ? "returned" : "still blocked",
			      perf_closed ? t_close : now_ms() - t0, a_done);
		else
			printf("check uffd_perf_close skip the detach of a perf event's program waits for the Tasks Trace readers (patch 0024): %s after %lld ms\n",
			       perf_closed ? "returned" : "still blocked",
			       perf_closed ? t_close : now_ms() - t0);
		printf("diag: closing a perf event with a tracepoint program: %s after %lld ms while A is blocked\n",
		       perf_closed ? "returned" : "still blocked", perf_closed ? t_close : now_ms() - t0);
	}

	/*
	 * Close in a thread of its own: a close() that waited for A's run
	 * would otherwise wait for the UFFDIO_COPY below forever.
	 */
	close_fds[0] = lfd;
	close_fds[1] = fd;
	t0 = now_ms();
	pthread_create(&c, NULL, closer, NULL);
	for (i = 0; i < 200 && !closed; i++)
		usleep(10000);
	t_close = closed ? closed_ms - t0 : -1;
	check("uffd_close", closed && t_close < 1000 && !a_done,
	      "closing: %s after %lld ms (A done %d)",
	      closed ? "returned" : "still blocked", closed ? t_close : now_ms() - t0, a_done);
	printf("diag: closing the link and the program took %lld ms while A is blocked\n", t_close);

	ret = uffd_fill(ufd, upage, "/bpfsleep-uffd/resolved");
	if (ret)
		printf("diag: UFFDIO_COPY: %s\n", strerror(-ret));
	for (i = 0; i < 100 && !a_done; i++)
		usleep(100000);
	check("uffd_resolved", a_done && a_ret < 0 && counter_at(counts, 1, 1) == 1 &&
	      counter(counts, 1) == 0,
	      "A done %d (ret %ld), copies %llu, copy ret %lld", a_done, a_ret,
	      (unsigned long long)counter_at(counts, 1, 1), (long long)counter(counts, 1));
	if (a_done)
		pthread_join(a, NULL);
	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2)
		check("uffd_hop", a_done && a_cpu == 1,
		      "after its run A asked for CPU 1 and is on %d (A done %d)",
		      a_cpu, a_done);
	else
		printf("check uffd_hop skip fewer than 2 CPUs online\n");
	pthread_join(b, NULL);
	pthread_join(c, NULL);
	if (have_pc)
		pthread_join(pc, NULL);
	uffd_word_edge();
}

/* ---- pinned ---- */

#define HOPPERS		4
#define HOPS		150
#define HOP_CALLS	10

static volatile int hop_go;
static int hop_bad[HOPPERS];

static void *hopper(void *arg)
{
	long id = (long)arg;
	cpu_set_t set;
	int i, j, cpu;

	while (!hop_go)
		usleep(1000);
	for (i = 0; i < HOPS; i++) {
		cpu = (i + id) % 2;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) || sched_getcpu() != cpu)
			hop_bad[id]++;
		for (j = 0; j < HOP_CALLS; j++)
			syscall(SYS_getppid);
		syscall(SYS_openat, AT_FDCWD, "/bpfsleep-pinned/no-such-file", O_RDONLY);
	}
	return NULL;
}

static int cpu1_online_fd = -1;
static volatile int cpu1_done;

static void *cpu1_cycle(void *arg)
{
	(void)arg;
	if (pwrite(cpu1_online_fd, "0", 1, 0) == 1 &&
	    pwrite(cpu1_online_fd, "1", 1, 0) == 1)
		cpu1_done = 1;
	else
		cpu1_done = -errno;
	return NULL;
}

static char *d_page;
static volatile int d_done;

/* On CPU 1, a run of the program that blocks on d_page */
static void *task_d(void *arg)
{
	cpu_set_t set;

	(void)arg;
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || sched_getcpu() != 1) {
		d_done = -1;
		return NULL;
	}
	syscall(SYS_openat, AT_FDCWD, d_page, O_RDONLY);
	d_done = 1;
	return NULL;
}

static void pinned(void)
{
	pthread_t t[HOPPERS], c, d;
	int counts, fd, lfd, i, bad = 0, kid, ufd, blocked, waited;
	__u64 misses, runs, want = (__u64)HOPPERS * HOPS * HOP_CALLS;
	long long t0;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		check("pinned_runs", 0, "fewer than 2 CPUs online");
		check("pinned_offline", 0, "fewer than 2 CPUs online");
		return;
	}
	kid = kfunc_id();
	lfd = copy_on_sys_enter(kid > 0 ? kid : 0, &counts, &fd, "pinned_runs");
	if (lfd < 0) {
		check("pinned_offline", 0, "no program");
		return;
	}
	for (i = 0; i < HOPPERS; i++)
		pthread_create(&t[i], NULL, hopper, (void *)(long)i);
	hop_go = 1;
	for (i = 0; i < HOPPERS; i++) {
		pthread_join(t[i], NULL);
		bad += hop_bad[i];
	}
	runs = counter(counts, 0);
	misses = bpft_prog_misses(fd);
	check("pinned_runs", runs == want && misses == 0,
	      "%llu of %llu getppid() counted, recursion_misses %llu",
	      (unsigned long long)runs, (unsigned long long)want,
	      (unsigned long long)misses);
	printf("diag: pinned: %llu runs, %llu copies, %llu recursion misses\n",
	       (unsigned long long)runs, (unsigned long long)counter_at(counts, 1, 1),
	       (unsigned long long)misses);
	printf("diag: pinned: %d of %d sched_setaffinity() calls left the thread on another CPU\n",
	       bad, HOPPERS * HOPS);

	/*
	 * Task D's run sleeps on CPU 1 with migration disabled: taking CPU 1
	 * offline must wait for it, and end once it is resumed.  The
	 * hotplug runs in a thread of its own: one that never ends does not
	 * return.
	 */
	cpu1_online_fd = open("/sys/devices/system/cpu/cpu1/online", O_WRONLY);
	d_page = uffd_page(&ufd, 1);
	if (cpu1_online_fd < 0 || !d_page) {
		check("pinned_offline", 0, "cpu1/online or userfaultfd: %s", strerror(errno));
		return;
	}
	pthread_create(&d, NULL, task_d, NULL);
	blocked = uffd_wait(ufd, 10000);
	if (!blocked) {
		/* no hotplug: a fault that came later would block it for good */
		check("pinned_offline", 0, "task D's run on CPU 1 did not block on the userfaultfd page in 10 s (D %s)",
		      d_done < 0 ? "not on CPU 1" : d_done ? "done" : "running");
		close(ufd);
		pthread_join(d, NULL);
		close(lfd);
		close(fd);
		return;
	}
	t0 = now_ms();
	pthread_create(&c, NULL, cpu1_cycle, NULL);
	usleep(1000000);
	waited = !cpu1_done;
	uffd_fill(ufd, d_page, "/bpfsleep-pinned/resolved");
	for (i = 0; i < 2000 && !cpu1_done; i++)
		usleep(10000);
	printf("diag: CPU 1 offline and online: %lld ms, 1 s of it with task D pinned there\n",
	       now_ms() - t0);
	for (i = 0; i < 500 && cpu1_done && !d_done; i++)
		usleep(10000);
	if (cpu1_done)
		check("pinned_offline", waited && cpu1_done == 1 && d_done == 1,
		      "the offline waited for D %d, D done %d, offline/online: %s",
		      waited, d_done, strerror(cpu1_done < 0 ? -cpu1_done : 0));
	else
		check("pinned_offline", 0,
		      "CPU 1 offline/online still waiting after %lld ms (D done %d: a count of pinned tasks leaked?)",
		      now_ms() - t0, d_done);
	close(lfd);
	close(fd);
	if (cpu1_done) {
		pthread_join(c, NULL);
		pthread_join(d, NULL);
	}
}

/* ---- tp ---- */

#define TP_CALLS	20

/* A page never touched, mapped from a file, that ends with @path */
static const char *tp_path(const char *fmt, int i)
{
	char path[64];

	snprintf(path, sizeof(path), fmt, getpid(), i);
	return edge_path(path);
}

/* Whether the page of @p is present in this process's page table */
static int resident(const void *p)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	__u64 entry = 0;

	if (fd < 0)
		return -1;
	if (pread(fd, &entry, sizeof(entry),
		  (unsigned long)p / pg * sizeof(entry)) != sizeof(entry))
		entry = 0;
	close(fd);
	return !!(entry >> 63);
}

/* tp_openat, tp_mixed */
static void tp_openat_calls(int fd, int nfd, int counts, int buf)
{
	int pfd = perf_tp("syscalls", "sys_enter_openat");
	int nsp = perf_tp("syscalls", "sys_enter_openat");
	int i, ok = 0, was_resident = 0, err = 0;
	const char *paths[TP_CALLS];
	__u64 misses;
	char got[64], first_bad[160] = "";
	__u32 zero = 0;
	__s64 ret;

	/* everything that opens a file first: the programs count openat() */
	for (i = 0; i < TP_CALLS; i++) {
		paths[i] = tp_path("/tmp/bpfsleep-tp/%d-open-%d", i);
		was_resident += resident(paths[i]);
	}
	if (pfd < 0 || nsp < 0)
		err = pfd < 0 ? pfd : nsp;
	else
		err = perf_set_bpf(pfd, fd) ?: perf_set_bpf(nsp, nfd);
	if (err) {
		check("tp_openat", 0, "attach to syscalls:sys_enter_openat: %s",
		      strerror(-err));
		check("tp_mixed", 0, "not attached");
		goto out;
	}
	reset(counts, 4, 16);
	for (i = 0; i < TP_CALLS; i++) {
		const char *path = paths[i];

		syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
		ret = (__s64)counter(counts, 1);
		memset(got, 0, sizeof(got));
		bpf_map_lookup_elem(buf, &zero, got);
		if (ret == (__s64)strlen(path) + 1 && !strcmp(got, path))
			ok++;
		else if (!first_bad[0])
			snprintf(first_bad, sizeof(first_bad), "call %d: ret %lld, \"%.63s\"",
				 i, (long long)ret, got);
	}
	printf("diag: tp_openat: %d of %d paths copied (%d of them present in the page table before the calls, /proc/self/pagemap)\n",
	       ok, TP_CALLS, was_resident);
	misses = bpft_prog_misses(fd);
	check("tp_openat", ok == TP_CALLS && counter_at(counts, 1, 1) == TP_CALLS &&
	      !misses,
	      "%d of %d paths copied whole, %llu runs, %llu misses; first bad: %s", ok,
	      TP_CALLS, (unsigned long long)counter_at(counts, 1, 1),
	      (unsigned long long)misses, first_bad);
	check("tp_mixed", counter_at(counts, 2, 1) == TP_CALLS,
	      "the program that does not sleep ran %llu times for %d calls",
	      (unsigned long long)counter_at(counts, 2, 1), TP_CALLS);
out:
	if (pfd >= 0)
		close(pfd);
	if (nsp >= 0)
		close(nsp);
}

/*
 * tp_enter_nostr, tp_exit_getcwd: N getcwd() calls; for each, the enter
 * program copies path P1 and the exit program the buffer getcwd() filled
 * and path P2, both paths in pages never touched (counts[0].m: P1,
 * counts[3]: the buffer and P2)
 */
static void tp_getcwd_calls(int efd, int xfd, int counts, int buf)
{
	int epfd = perf_tp("syscalls", "sys_enter_getcwd");
	int xpfd = perf_tp("syscalls", "sys_exit_getcwd");
	const char *p1[TP_CALLS], *p2[TP_CALLS];
	char got0[64], got1[64], first_bad[240] = "", first_bad_e[120] = "";
	__u32 zero = 0, one = 1, three = 3;
	int i, ok = 0, ok_e = 0, err;
	char want[64], *cwd[TP_CALLS];
	__u64 emiss, xmiss;

	if (!getcwd(want, sizeof(want)))
		strcpy(want, "?");
	for (i = 0; i < TP_CALLS; i++) {
		p1[i] = tp_path("/tmp/bpfsleep-tp/%d-enter-%d", i);
		p2[i] = tp_path("/tmp/bpfsleep-tp/%d-exit-%d", i);
		cwd[i] = mmap(NULL, pg, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	}
	if (epfd < 0 || xpfd < 0)
		err = epfd < 0 ? epfd : xpfd;
	else
		err = perf_set_bpf(epfd, efd) ?: perf_set_bpf(xpfd, xfd);
	if (err) {
		check("tp_enter_nostr", 0, "attach: %s", strerror(-err));
		check("tp_exit_getcwd", 0, "attach: %s", strerror(-err));
		goto out;
	}
	reset(counts, 4, 16);
	for (i = 0; i < TP_CALLS; i++) {
		__u64 where[2] = { (unsigned long)cwd[i], (unsigned long)p2[i] };
		__u64 enter[2] = { 0, (unsigned long)p1[i] };
		__s64 eret;
		long n;

		bpf_map_update_elem(counts, &three, where, BPF_ANY);
		bpf_map_update_elem(counts, &zero, enter, BPF_ANY);
		n = syscall(SYS_getcwd, cwd[i], pg);
		memset(got0, 0, sizeof(got0));
		memset(got1, 0, sizeof(got1));
		bpf_map_lookup_elem(buf, &zero, got0);
		bpf_map_lookup_elem(buf, &one, got1);
		eret = (__s64)counter(counts, 2);
		if (eret == (__s64)strlen(p1[i]) + 1)
			ok_e++;
		else if (!first_bad_e[0])
			snprintf(first_bad_e, sizeof(first_bad_e),
				 "call %d: the enter copy returned %lld, want %zu",
				 i, (long long)eret, strlen(p1[i]) + 1);
		if (n > 0 && !strcmp(got0, want) && !strcmp(got1, p2[i]) &&
		    (__s64)counter(counts, 0) == (__s64)strlen(p2[i]) + 1)
			ok++;
		else if (!first_bad[0])
			snprintf(first_bad, sizeof(first_bad),
				 "call %d: getcwd %ld, buffer \"%.63s\", path ret %lld \"%.63s\"",
				 i, n, got0, (long long)counter(counts, 0), got1);
	}
	printf("diag: tp_getcwd: %d of %d enters copied a non-resident path, %d of %d exits read the cwd and a non-resident path\n",
	       ok_e, TP_CALLS, ok, TP_CALLS);
	emiss = bpft_prog_misses(efd);
	xmiss = bpft_prog_misses(xfd);
	check("tp_enter_nostr", ok_e == TP_CALLS && counter_at(counts, 2, 1) == TP_CALLS &&
	      !emiss, "%d of %d, %llu runs, %llu misses; first bad: %s", ok_e, TP_CALLS,
	      (unsigned long long)counter_at(counts, 2, 1), (unsigned long long)emiss,
	      first_bad_e);
	check("tp_exit_getcwd", ok == TP_CALLS && counter_at(counts, 1, 1) == TP_CALLS &&
	      !xmiss, "%d of %d, %llu runs, %llu misses; first bad: %s", ok, TP_CALLS,
	      (unsigned long long)counter_at(counts, 1, 1), (unsigned long long)xmiss,
	      first_bad);
out:
	if (epfd >= 0)
		close(epfd);
	if (xpfd >= 0)
		close(xpfd);
	for (i = 0; i < TP_CALLS; i++)
		munmap(cwd[i], pg);
}

static __u64 perf_count(int pfd)
{
	__u64 n = 0;

	if (read(pfd, &n, sizeof(n)) != sizeof(n))
		return ~0ULL;
	return n;
}

/*
 * tp_filter: N openat() calls with mode 0 and N with mode 1 from CPU 0
 * (libbpf's events, as perf_tp()'s, are bound to it); the perf event of
 * the sleepable program counts the records it let through
 */
static void tp_filter(void)
{
	int counts = array(16, 4), buf = array(64, 2), fd, nfd, pfd, npfd = -1;
	__u64 alone = 0, mixed = 0, other = 0, other0, runs, nruns = 0;
	cpu_set_t was;
	int i, k;

	CPU_ZERO(&was);
	sched_getaffinity(0, sizeof(was), &was);
	pin0();
	fd = load_prog("tp_openat_mode0", 1, 0, counts, buf);
	nfd = load_prog("tp_openat_pass", 0, 0, counts, buf);
	if (sched_getcpu() != 0) {
		check("tp_filter", 0, "not on CPU 0 (sched_setaffinity)");
		npfd = pfd = -1;
		goto out;
	}
	/* both events opened first: opening one is an openat() too */
	npfd = perf_tp("syscalls", "sys_enter_openat");
	pfd = fd < 0 ? fd : perf_tp_bpf("syscalls", "sys_enter_openat", fd);
	if (nfd < 0 || npfd < 0 || pfd < 0) {
		check("tp_filter", 0, "load or attach: %s",
		      strerror(-(nfd < 0 ? nfd : npfd < 0 ? npfd : pfd)));
		goto out;
	}
	reset(counts, 4, 16);
	/* (it counted the other's opening) */
	other0 = perf_count(npfd);
	for (k = 0; k < 2; k++) {
		if (k == 1 && (i = perf_set_bpf(npfd, nfd))) {
			check("tp_filter", 0, "attach of the program that does not sleep: %s",
			      strerror(-i));
			goto out;
		}
		for (i = 0; i < 2 * TP_CALLS; i++)
			syscall(SYS_openat, AT_FDCWD, "/bpfsleep-tp/filter",
				O_RDONLY, i & 1);
		if (k == 0) {
			/* the verdict is the record's: both events count it */
			alone = perf_count(pfd);
			other = perf_count(npfd) - other0;
		} else {
			mixed = perf_count(pfd) - alone;
			nruns = counter_at(counts, 2, 1);
		}
	}
	runs = counter_at(counts, 1, 1);
	check("tp_filter", alone == TP_CALLS && other == TP_CALLS &&
	      mixed == TP_CALLS && runs == 4 * TP_CALLS && nruns == 2 * TP_CALLS,
	      "records %llu with the sleepable program alone (%llu on the other event), %llu with a program that does not sleep too (want %d each, of %d calls); runs %llu (want %d), the other program's %llu (want %d)",
	      (unsigned long long)alone, (unsigned long long)other,
	      (unsigned long long)mixed, TP_CALLS, 2 * TP_CALLS,
	      (unsigned long long)runs, 4 * TP_CALLS,
	      (unsigned long long)nruns, 2 * TP_CALLS);
out:
	if (pfd >= 0)
		close(pfd);
	if (npfd >= 0)
		close(npfd);
	if (nfd >= 0)
		close(nfd);
	if (fd >= 0)
		close(fd);
	close(counts);
	close(buf);
	sched_setaffinity(0, sizeof(was), &was);
}

static char *tpu_page;
static volatile int tpu_done;

static void *tpu_task(void *arg)
{
	(void)arg;
	syscall(SYS_openat, AT_FDCWD, tpu_page, O_RDONLY);
	tpu_done = 1;
	return NULL;
}

/* tp_uffd_close */
static void tp_uffd_close(int fd, int buf)
{
	int pfd, ufd, blocked, i, in_time = 0;
	long long t0, t_close = -1;
	char got[64];
	__u32 zero = 0;
	pthread_t t, tc;

	tpu_page = uffd_page(&ufd, 1);
	if (!tpu_page) {
		check("tp_uffd_close", 0, "userfaultfd page: %s", strerror(errno));
		return;
	}
	pfd = perf_tp_bpf("syscalls", "sys_enter_openat", fd);
	if (pfd < 0) {
		check("tp_uffd_close", 0, "attach: %s", strerror(-pfd));
		return;
	}
	pthread_create(&t, NULL, tpu_task, NULL);
	blocked = uffd_wait(ufd, 10000);
	if (blocked) {
		perf_close_fd = pfd;
		perf_closed = 0;
		t0 = now_ms();
		pthread_create(&tc, NULL, perf_closer, NULL);
		for (i = 0; i < 100 && !perf_closed; i++)
			usleep(10000);
		t_close = perf_closed ? perf_closed_ms - t0 : -1;
		in_time = perf_closed && t_close >= 0 && t_close < 1000;
		uffd_fill(ufd, tpu_page, "/bpfsleep-tp/uffd-resolved");
		pthread_join(tc, NULL);
	} else {
		close(pfd);
	}
	for (i = 0; i < 100 && !tpu_done; i++)
		usleep(100000);
	if (tpu_done)
		pthread_join(t, NULL);
	memset(got, 0, sizeof(got));
	bpf_map_lookup_elem(buf, &zero, got);
	check("tp_uffd_close", blocked && in_time && tpu_done &&
	      !strcmp(got, "/bpfsleep-tp/uffd-resolved"),
	      "blocked %d, close %s within 1 s (%lld ms), openat done %d, the run copied \"%.63s\"",
	      blocked, in_time ? "returned" : "did not return", t_close, tpu_done, got);
	printf("diag: tp_uffd_close: closing the perf event took %lld ms while the run was blocked\n",
	       t_close);
	close(ufd);
}

/*
 * Load program @name sleepable (its own maps), attach it to perf event
 * @sys:@event, close both: 0 or the first error (-errno)
 */
static int tp_try_attach(const char *name, const char *sys, const char *event)
{
	int fd = load_prog(name, 1, 0, -1, -1), pfd, err;

	if (fd < 0)
		return fd;
	pfd = perf_tp(sys, event);
	err = pfd < 0 ? pfd : perf_set_bpf(pfd, fd);
	if (pfd >= 0)
		close(pfd);
	close(fd);
	return err;
}

static void tp(void)
{
	int kfunc = kfunc_id() > 0, counts, buf, fd, nfd, other, err, err2;

	counts = array(16, 4);
	buf = array(64, 2);
	fd = load_prog("tp_openat", 1, kfunc, counts, buf);
	if (!has("bpftpsleep")) {
		check_refused_kind("tp_load", fd);
		printf("check tp_attach_other skip no sleepable tracepoint programs (patch 0025)\n");
		printf("check tp_ctx_past_args skip no sleepable tracepoint programs (patch 0025)\n");
		printf("check tp_openat skip no sleepable tracepoint programs (patch 0025)\n");
		printf("check tp_mixed skip no sleepable tracepoint programs (patch 0025)\n");
		printf("check tp_enter_nostr skip no sleepable tracepoint programs (patch 0025)\n");
		printf("check tp_exit_getcwd skip no sleepable tracepoint programs (patch 0025)\n");
		printf("check tp_filter skip no sleepable tracepoint programs (patch 0025)\n");
		printf("check tp_uffd_close skip no sleepable tracepoint programs (patch 0025)\n");
		return;
	}
	check("tp_load", fd >= 0, "load: %s: %s", strerror(-fd), log_tail());
	if (fd < 0)
		return;
	printf("diag: tp: the programs copy with %s\n",
	       kfunc ? "bpf_copy_from_user_str()" : "bpf_copy_from_user()");

	/* tp_attach_other */
	err = tp_try_attach("tp_ret0", "sched", "sched_switch");
	err2 = tp_try_attach("tp_ret0", "raw_syscalls", "sys_enter");
	check("tp_attach_other", err == -EINVAL && err2 == -EINVAL,
	      "sched:sched_switch: %s, raw_syscalls:sys_enter: %s (want EINVAL)",
	      strerror(-err), strerror(-err2));

	/* tp_ctx_past_args */
	err = tp_try_attach("tp_past_args", "syscalls", "sys_enter_openat");
	err2 = tp_try_attach("tp_last_arg", "syscalls", "sys_enter_openat");
	check("tp_ctx_past_args", err == -EACCES && !err2,
	      "offset 48: %s (want EACCES), the last argument: %s (want 0)",
	      strerror(-err), strerror(-err2));

	nfd = load_prog("tp_openat_count", 0, 0, counts, buf);
	if (nfd < 0) {
		check("tp_openat", 0, "load of the program that does not sleep: %s",
		      strerror(-nfd));
	} else {
		tp_openat_calls(fd, nfd, counts, buf);
		close(nfd);
	}

	nfd = load_prog("tp_getcwd_enter", 1, kfunc, counts, buf);
	other = load_prog("tp_getcwd", 1, kfunc, counts, buf);
	if (nfd < 0 || other < 0) {
		check("tp_enter_nostr", 0, "load: %s: %s",
		      strerror(-(nfd < 0 ? nfd : other)), log_tail());
		check("tp_exit_getcwd", 0, "not loaded");
	} else {
		tp_getcwd_calls(nfd, other, counts, buf);
	}
	if (nfd >= 0)
		close(nfd);
	if (other >= 0)
		close(other);

	tp_filter();
	tp_uffd_close(fd, buf);
	close(fd);
}

int main(int argc, char **argv)
{
	pg = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 3 && !strcmp(argv[1], "refusals")) {
		features = argv[2];
		refusals();
		return 0;
	}
	features = argc >= 3 ? argv[2] : "";
	if (argc >= 2 && !strcmp(argv[1], "uffd")) {
		uffd();
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "tp")) {
		tp();
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "pinned")) {
		pinned();
		return 0;
	}
	fprintf(stderr, "usage: bpfsleep_test refusals FEATURES | uffd [FEATURES] | tp FEATURES | pinned\n");
	return 2;
}
