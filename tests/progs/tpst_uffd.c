// SPDX-License-Identifier: GPL-2.0
/*
 * tpst_uffd resolve|kill|usermode|signal|signal_noprobe|ordinary|hang: a sleepable
 * probe that faults on a userfaultfd page (needs tpsleep_stress.ko and
 * may-sleep sys_enter; signal_noprobe needs neither; resolve also loads
 * /tests/modules/tpsleep_events.ko itself).
 *
 * The probe (tpsleep_stress "fault_arm") copy_from_user()s the filename
 * argument of one openat() whose filename points into an anonymous page
 * registered with UFFDIO_REGISTER_MODE_MISSING: a kernel-mode fault.
 *
 *   resolve  the fault is resolved with UFFDIO_COPY about 1.5 s after the
 *            probe entered (later if the operations below take longer,
 *            BLOCK_MAX_MS after the first of them at the latest);
 *            meanwhile, from other threads: getppid() calls keep being
 *            traced (by the same sys_enter probe, by a sys_exit probe and
 *            a sched_switch probe); the probe is unregistered and
 *            tracepoint_synchronize_unregister() called; then, one after
 *            another, each in a thread of its own and given OP_WAIT_MS
 *            before the next starts, the operations that must not wait for
 *            the blocked probe (no global tracing lock may be held waiting
 *            for it):
 *              prio_unreg     tpsleep_stress "prio_unreg": P, a second
 *                             sleepable sys_enter probe registered before
 *                             the fault with a higher priority (the first
 *                             in the array, data of its own), is
 *                             unregistered while perf's probe is the only
 *                             other one: a 2->1 transition whose first
 *                             data changes
 *              perf_close     close() of a counting perf event on
 *                             syscalls:sys_enter_getppid opened (this
 *                             thread) and enabled before the fault, its
 *                             only perf user: perf_trace_destroy()
 *              first_reg      tpsleep_stress "plain_reg": an unrelated
 *                             ordinary tracepoint gets its first probe
 *                             (0->1, and back)
 *              ftrace_enable, ftrace_disable
 *                             writing 1, then 0, to the enable file of an
 *                             unrelated ftrace event (sched_process_fork)
 *              insmod, rmmod  finit_module() of tpsleep_events.ko (an
 *                             ordinary trace event), then
 *                             delete_module(O_NONBLOCK) (only once insmod
 *                             succeeded)
 *            prio_unreg is timed in the kernel, around
 *            tracepoint_probe_unregister(), the others in user space.
 *            Checks:
 *              entered        the probe ran preemptible, under Tasks Trace
 *                             RCU, and the uffd reported the fault
 *              blocked        at the resolution (1.2 s or more after the
 *                             unregistration started) neither the probe,
 *                             nor the openat(), nor the synchronization
 *                             returned
 *              same_tp_fires  the blocked sys_enter probe kept being
 *                             called for another thread's getppid()
 *              other_tps_fire sys_exit and sched_switch probes kept firing
 *                             while the unregistration waited
 *              unreg_waits    tracepoint_synchronize_unregister() returned
 *                             after the probe, which returned after the
 *                             resolution
 *              copy           the probe then copied the exact bytes
 *              complete       openat() (-ENOENT), the synchronization and
 *                             every operation returned within 10 s of the
 *                             resolution; the 0->1 registration and the
 *                             ftrace enable succeeded
 *              unrelated_free the 0->1 registration and the ftrace enable
 *                             returned before the resolution: the blocked
 *                             probe holds up its own tracepoint's
 *                             teardown, not other tracepoints' first probe
 *              lock_free.OP   for each operation OP above: it succeeded,
 *                             returned before the resolution and took
 *                             less than LOCK_FREE_MS (prio_unreg: and was
 *                             the 2->1 transition: 2 probes before, P
 *                             first, 1 after).  On a kernel where one of
 *                             them waits for the probe these fail; they
 *                             do not hang.
 *            The times they took are also reported ("diag" lines).
 *   kill     a child process makes the openat() and is never resolved; it
 *            gets SIGKILL about 1 s after the unregistration started:
 *              entered, blocked  as above
 *              killed            the child died of SIGKILL within 10 s
 *              unreg_waits       the synchronization returned after the
 *                                probe, which returned after the kill
 *              copy_failed       the probe's copy_from_user() copied
 *                                nothing and saw the fatal signal
 *   usermode the uffd is created with UFFD_USER_MODE_ONLY:
 *              not_blocked   the probe and openat() return at once, no
 *                            uffd message
 *              efault        copy_from_user() copied nothing
 *              syscall       openat() fails with EFAULT
 *   signal   a non-fatal signal (SIGUSR1, with a handler) to the thread
 *            blocked in the probe's fault: the CPU time it uses and the
 *            uffd messages in the next 500 ms are reported ("diag"); a
 *            kernel-mode fault only ends on a fatal signal, so it retries.
 *              completes  after the resolution the probe copied the bytes
 *                         and openat() returned -ENOENT
 *   signal_noprobe  the same without a probe: the fault is openat()'s own
 *            getname() (the kernel's behaviour without the series)
 *   ordinary the 6.1 contract of an ordinary probe on a may-sleep
 *            tracepoint, as lttng-modules relies on it: O, an ordinary
 *            probe on sys_enter after F in the probe array, with kmalloc()ed
 *            data (tpsleep_stress "ord_arm"), is unregistered while F is
 *            blocked in the openat() of this process; synchronize_rcu(),
 *            then its data is poisoned and freed ("ord_unreg"); then the
 *            fault is resolved:
 *              entered       F ran preemptible and the uffd reported it
 *              live          O counted this process's system calls
 *              unreg_prompt  the unregistration and synchronize_rcu()
 *                            returned while F was still blocked (the
 *                            contract costs the caller no Tasks Trace
 *                            wait)
 *              filter_prompt then, in a thread, the filter of
 *                            syscalls:sys_enter_getppid is set, replaced
 *                            and cleared: done in less than 1 s, while F
 *                            is still blocked (the old filters are freed
 *                            after the grace periods, not waited for
 *                            under event_mutex)
 *              no_stale_call once the openat() returned, O had never been
 *                            called with the poisoned data (with KASAN
 *                            the data is freed: a call is a KASAN
 *                            report, which fails the run)
 *              complete      openat() returned ENOENT, F copied the path

 *   hang     tpsleep_stress "hang_arm", then getppid(): the probe never
 *            returns (harness test: the guest must be killed at its
 *            timeout)
 *
 * Prints "check NAME ok|fail WHY" and "diag TEXT" lines.
 */
#include "tpst_stress.h"
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#define FPATH "/tpst-uffd-no-such-dir/resolved-by-uffdio-copy"
#define UNRELATED_EVENT "events/sched/sched_process_fork/enable"
#define FILTER_EVENT "events/syscalls/sys_enter_getppid"
#define FILTER_MAX_MS	1000	/* the most the filter writes may take */
#define EVENTS_MOD "tpsleep_events"
#define EVENTS_KO "/tests/modules/" EVENTS_MOD ".ko"

/*
 * The most a lock-free operation may take: a tenth of what waiting for the
 * blocked probe costs (the resolution comes 1.5-3 s after the first one),
 * and under OP_WAIT_MS.  100 ms was too close to what insmod and rmmod take
 * on a KASAN kernel under TCG when the host is loaded: 55-60 ms on x86_64,
 * 103 ms once; 108 and 131 ms on arm64, returning 0.3-0.5 s before the
 * resolution.
 */
#define LOCK_FREE_MS	250
#define OP_WAIT_MS	300	/* each gets this long before the next starts */
#define BLOCK_MAX_MS	3000	/* from the first one to the resolution */

#define STR_(x) #x
#define STR(x) STR_(x)

static long pg;
static char *page;
static size_t flen;

static long long ms_rel(long long ns, long long base)
{
	return ns ? (ns - base) / 1000000 : -1;
}

/* Wait until *flag is set, at most until @end (ns); returns the flag. */
static int wait_until(int *flag, long long end)
{
	while (!flag_get(flag) && tpst_now_ns() < end)
		sleep_ms(5);
	return flag_get(flag);
}

/* Wait until *flag is set, at most @ms; returns the flag. */
static int wait_flag(int *flag, long ms)
{
	return wait_until(flag, tpst_now_ns() + ms * 1000000LL);
}

static int uffd_setup(int flags, char **pagep)
{
	struct uffdio_register reg;
	struct uffdio_api api;
	char *p;
	int uffd;

	uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | flags);
	if (uffd < 0)
		tpst_die("userfaultfd");
	memset(&api, 0, sizeof(api));
	api.api = UFFD_API;
	if (ioctl(uffd, UFFDIO_API, &api))
		tpst_die("UFFDIO_API");
	p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		tpst_die("mmap");
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (uintptr_t)p;
	reg.range.len = pg;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		tpst_die("UFFDIO_REGISTER");
	*pagep = p;
	return uffd;
}

/* Wait up to @ms for a page fault message on @uffd: its address or 0. */
static unsigned long long uffd_msg(int uffd, long ms)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	if (poll(&pfd, 1, ms) != 1)
		return 0;
	if (read(uffd, &msg, sizeof(msg)) != sizeof(msg))
		return 0;
	if (msg.event != UFFD_EVENT_PAGEFAULT)
		return 0;
	printf("uffd: page fault at %#llx flags %#llx\n",
	       (unsigned long long)msg.arg.pagefault.address,
	       (unsigned long long)msg.arg.pagefault.flags);
	return msg.arg.pagefault.address;
}

static int uffd_resolve(int uffd)
{
	struct uffdio_copy copy;
	char *src = calloc(1, pg);

	if (!src)
		tpst_die("calloc");
	strcpy(src, FPATH);
	memset(&copy, 0, sizeof(copy));
	copy.dst = (uintptr_t)page;
	copy.src = (uintptr_t)src;
	copy.len = pg;
	if (ioctl(uffd, UFFDIO_COPY, &copy)) {
		printf("UFFDIO_COPY: %s\n", strerror(errno));
		free(src);
		return -1;
	}
	free(src);
	return 0;
}

/* ---- threads of the resolve case ---- */

static int stop_worker;
static long worker_calls;

static void *worker(void *arg)
{
	(void)arg;
	while (!flag_get(&stop_worker)) {
		syscall(SYS_getppid);
		worker_calls++;
		sleep_ms(2);
	}
	return NULL;
}

struct op {
	pthread_t thread;
	int started;		/* the thread was created (main thread only) */
	long long start_ns, ret_ns;
	long ret;
	int err;
	int done;		/* flag_set() when the operation returned */
	char res[2048];
};

static struct op op_f, op_u, op_o, op_e, op_w;
/* prio_unreg, perf close, ftrace disable, insmod, rmmod */
static struct op op_p, op_c, op_d, op_i, op_r;
static int perf_fd = -1, ko_fd = -1;

static void *op_end(struct op *o, long ret, int err)
{
	o->ret_ns = tpst_now_ns();
	o->ret = ret;
	o->err = err;
	flag_set(&o->done);
	return NULL;
}

static void *faulter(void *arg)
{
	struct op *o = arg;

	o->start_ns = tpst_now_ns();
	o->ret = syscall(SYS_openat, AT_FDCWD, page, O_RDONLY);
	o->err = errno;
	o->ret_ns = tpst_now_ns();
	if (o->ret >= 0)
		close(o->ret);
	flag_set(&o->done);
	return NULL;
}

static void *ctl_op(struct op *o, const char *cmd)
{
	int fd = tpss_open();

	o->start_ns = tpst_now_ns();
	o->ret = tpss_do(fd, o->res, sizeof(o->res), "%s", cmd);
	o->ret_ns = tpst_now_ns();
	close(fd);
	flag_set(&o->done);
	return NULL;
}

static void *unregisterer(void *arg)
{
	return ctl_op(arg, "fault_unreg");
}

static void *plain_registerer(void *arg)
{
	return ctl_op(arg, "plain_reg");
}

static void *prio_unregisterer(void *arg)
{
	return ctl_op(arg, "prio_unreg");
}

static void *ftrace_enabler(void *arg)
{
	struct op *o = arg;
	long r;

	o->start_ns = tpst_now_ns();
	r = tpss_tracefs_write(UNRELATED_EVENT, "1");
	return op_end(o, r, r < 0 ? -r : 0);
}

static void *ftrace_disabler(void *arg)
{
	struct op *o = arg;
	long r;

	o->start_ns = tpst_now_ns();
	r = tpss_tracefs_write(UNRELATED_EVENT, "0");
	return op_end(o, r, r < 0 ? -r : 0);
}

/*
 * Set, replace and clear the filter of a syscall event: each old filter
 * must be freed after the probes' grace periods, not waited for under
 * event_mutex.
 */
static void *filter_writer(void *arg)
{
	static const char * const filters[] = {
		"common_pid == 1", "common_pid == 2", "0",
	};
	struct op *o = arg;
	long r = 0, r1;
	size_t i;

	o->start_ns = tpst_now_ns();
	for (i = 0; i < ARRAY_SIZE(filters); i++) {
		/* after a failure, only the last write: the filter cleared */
		if (r && i != ARRAY_SIZE(filters) - 1)
			continue;
		r1 = tpss_tracefs_write(FILTER_EVENT "/filter", filters[i]);
		if (r1 && !r) {
			r = r1;
			snprintf(o->res, sizeof(o->res), "write %zu (\"%s\") failed",
				 i + 1, filters[i]);
		}
	}
	return op_end(o, r, r < 0 ? -r : 0);
}

static void *perf_closer(void *arg)
{
	struct op *o = arg;
	long r;

	o->start_ns = tpst_now_ns();
	r = close(perf_fd);
	return op_end(o, r, r ? errno : 0);
}

static void *module_inserter(void *arg)
{
	struct op *o = arg;
	long r;

	o->start_ns = tpst_now_ns();
	r = syscall(SYS_finit_module, ko_fd, "", 0);
	return op_end(o, r, r ? errno : 0);
}

static void *module_remover(void *arg)
{
	struct op *o = arg;
	long r;

	o->start_ns = tpst_now_ns();
	r = syscall(SYS_delete_module, EVENTS_MOD, O_NONBLOCK);
	return op_end(o, r, r ? errno : 0);
}

/*
 * The operations that must not wait for the blocked probe, in the order
 * they run: prio_unreg before perf_close, so that it is a 2->1 transition
 * (P first, perf's probe after it).
 */
struct lock_free_op {
	const char *name;	/* check lock_free.NAME */
	struct op *op;
	void *(*fn)(void *arg);
	char why[160];		/* its setup's failure, why it was not started */
};

static struct lock_free_op lf_ops[] = {
	{ .name = "prio_unreg", .op = &op_p, .fn = prio_unregisterer },
	{ .name = "perf_close", .op = &op_c, .fn = perf_closer },
	{ .name = "first_reg", .op = &op_o, .fn = plain_registerer },
	{ .name = "ftrace_enable", .op = &op_e, .fn = ftrace_enabler },
	{ .name = "ftrace_disable", .op = &op_d, .fn = ftrace_disabler },
	{ .name = "insmod", .op = &op_i, .fn = module_inserter },
	{ .name = "rmmod", .op = &op_r, .fn = module_remover },
};

static struct lock_free_op *lf_of(struct op *o)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lf_ops); i++)
		if (lf_ops[i].op == o)
			return &lf_ops[i];
	abort();
}

/* Whether @l's operation, which returned, succeeded */
static int lf_succeeded(struct lock_free_op *l)
{
	struct op *o = l->op;

	if (o == &op_p)
		return !o->ret && tpst_num(o->res, "unreg", -1) == 0;
	if (o == &op_o)
		return !o->ret && tpst_num(o->res, "reg", -1) == 0 &&
		       tpst_num(o->res, "unreg", -1) == 0;
	return !o->ret;
}

/* ns @l's operation took, -1 if it did not return; prio_unreg: kernel */
static long long lf_dur(struct lock_free_op *l)
{
	struct op *o = l->op;

	if (!o->started || !flag_get(&o->done))
		return -1;
	if (o == &op_p)
		return tpst_num(o->res, "unreg_ret_ns", 0) -
		       tpst_num(o->res, "unreg_start_ns", 0);
	return o->ret_ns - o->start_ns;
}

/* prio_unreg was the 2->1 transition it is meant to be */
#define PRIO_2TO1 " in a 2->1 transition (probes_before=2 first=1 probes_after=1)"

static int prio_2to1(void)
{
	return tpst_num(op_p.res, "probes_before", -1) == 2 &&
	       tpst_num(op_p.res, "first", 0) == 1 &&
	       tpst_num(op_p.res, "probes_after", -1) == 1;
}

static int lf_all_done(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lf_ops); i++)
		if (lf_ops[i].op->started && !flag_get(&lf_ops[i].op->done))
			return 0;
	return 1;
}

/*
 * Start the operations one after another, each in a thread of its own,
 * giving each up to OP_WAIT_MS to return before the next starts.
 */
static void lf_run(void)
{
	struct lock_free_op *l;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lf_ops); i++) {
		l = &lf_ops[i];
		if (l->op == &op_c && perf_fd < 0)
			continue;	/* why: set by perf_setup() */
		if (l->op == &op_i && ko_fd < 0)
			continue;	/* why: set by do_resolve() */
		if (l->op == &op_r && !(flag_get(&op_i.done) && !op_i.ret)) {
			snprintf(l->why, sizeof(l->why), "not attempted: insmod %s",
				 !op_i.started ? "not attempted" :
				 flag_get(&op_i.done) ? "failed" :
				 "had not returned after " STR(OP_WAIT_MS) " ms");
			continue;
		}
		if (pthread_create(&l->op->thread, NULL, l->fn, l->op))
			tpst_die("pthread_create");
		l->op->started = 1;
		wait_flag(&l->op->done, OP_WAIT_MS);
	}
}

/* "NAME DUR (+START, RET)", ms; START from @enter, RET from @t_res */
static void lf_diag(char *buf, size_t size, long long enter, long long t_res)
{
	struct lock_free_op *l;
	size_t i, n = 0;
	long long dur;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(lf_ops) && n < size; i++) {
		l = &lf_ops[i];
		dur = lf_dur(l);
		if (!l->op->started)
			n += snprintf(buf + n, size - n, "%s%s not run",
				      i ? ", " : "", l->name);
		else if (dur < 0)
			n += snprintf(buf + n, size - n,
				      "%s%s did not return (+%lld, -)",
				      i ? ", " : "", l->name,
				      ms_rel(l->op->start_ns, enter));
		else
			n += snprintf(buf + n, size - n,
				      "%s%s %.1f (+%lld, %+lld)%s",
				      i ? ", " : "", l->name, dur / 1e6,
				      ms_rel(l->op->start_ns, enter),
				      ms_rel(l->op->ret_ns, t_res),
				      lf_succeeded(l) ? "" : " failed");
	}
}

/* A check lock_free.NAME for each operation; @before: done at t_res. */
static void lf_check(const int *before, long long t_res)
{
	struct lock_free_op *l;
	struct op *o;
	char name[64], res[256], when[128];
	long long dur;
	size_t i;
	int ok;

	for (i = 0; i < ARRAY_SIZE(lf_ops); i++) {
		l = &lf_ops[i];
		o = l->op;
		snprintf(name, sizeof(name), "lock_free.%s", l->name);
		if (!o->started) {
			tpst_check(name, 0, "%s", l->why);
			continue;
		}
		dur = lf_dur(l);
		if (dur < 0) {
			snprintf(when, sizeof(when), "not returned after %.1f ms",
				 (tpst_now_ns() - o->start_ns) / 1e6);
			snprintf(res, sizeof(res), "-");
		} else {
			snprintf(when, sizeof(when),
				 "took %.1f ms, returned %+lld ms from it",
				 dur / 1e6, ms_rel(o->ret_ns, t_res));
			if (o == &op_p || o == &op_o)
				snprintf(res, sizeof(res), "%.*s",
					 (int)strcspn(o->res, "\n"), o->res);
			else
				snprintf(res, sizeof(res), "ret=%ld (%s)",
					 o->ret, strerror(o->err));
		}
		ok = before[i] && dur >= 0 && dur < LOCK_FREE_MS * 1000000LL &&
		     lf_succeeded(l) && (o != &op_p || prio_2to1());
		tpst_check(name, ok,
			   "want success%s before the resolution in less than %d ms: %s; %s%s%s",
			   o == &op_p ? PRIO_2TO1 : "", LOCK_FREE_MS, when, res,
			   l->why[0] ? "; " : "", l->why);
	}
}

static int check_entered(const char *res, unsigned long long fault_addr)
{
	int ok = tpst_num(res, "entered", 0) == 1 &&
		 tpst_num(res, "preemptible", 0) == 1 &&
		 tpst_num(res, "rcu_trace_held", 0) == 1;

	tpst_check("entered", ok && fault_addr == (uintptr_t)page,
		   "want entered=1 preemptible=1 rcu_trace_held=1 and a uffd fault at %p (got %#llx): %s",
		   (void *)page, fault_addr, res);
	return ok;
}

static int expect_bytes(const char *res)
{
	char want[2 * 64 + 1], got[2 * 64 + 1];

	tpst_hex(FPATH, flen, want);
	tpst_str(res, "bytes", got, sizeof(got));
	return !strcmp(want, got);
}

/*
 * A counting perf event on syscalls:sys_enter_getppid for this thread,
 * enabled: the event's only perf user, so closing it unregisters perf's
 * probe from sys_enter.  Its fd, or -1 with the reason in @why.
 */
#define PERF_EVENT "syscalls:sys_enter_getppid"

static int perf_setup(char *why, size_t size)
{
	long id = tpss_event_id("syscalls", "sys_enter_getppid");
	struct perf_event_attr attr;
	unsigned long long count = 0;
	int fd, i;

	if (id < 0) {
		snprintf(why, size, "not attempted: no id for %s", PERF_EVENT);
		return -1;
	}
	tpss_perf_attr(&attr, id);
	attr.disabled = 1;
	fd = tpss_perf_open(&attr, 0, -1);
	if (fd < 0) {
		snprintf(why, size, "not attempted: perf_event_open(%s): %s",
			 PERF_EVENT, strerror(errno));
		return -1;
	}
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		snprintf(why, size, "not attempted: PERF_EVENT_IOC_ENABLE: %s",
			 strerror(errno));
		close(fd);
		return -1;
	}
	for (i = 0; i < 3; i++)
		syscall(SYS_getppid);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		count = 0;
	printf("perf: %s (id %ld) on this thread counted %llu of 3 getppid()\n",
	       PERF_EVENT, id, count);
	return fd;
}

/* Undo what the resolve case set up and did not undo. */
static void resolve_cleanup(int fd)
{
	char res[2048];

	if (perf_fd >= 0 && !op_c.started)
		close(perf_fd);
	if (!op_p.started)
		tpss_do(fd, res, sizeof(res), "prio_unreg");
	tpss_tracefs_write(UNRELATED_EVENT, "0");
	if (op_i.started && !op_i.ret && !(op_r.started && !op_r.ret) &&
	    syscall(SYS_delete_module, EVENTS_MOD, O_NONBLOCK))
		printf("delete_module(%s): %s\n", EVENTS_MOD, strerror(errno));
	if (ko_fd >= 0)
		close(ko_fd);
}

static int do_resolve(void)
{
	char wait_res[2048], s1[2048], s2[2048], s3[2048], fin[2048];
	char prio_res[256], lf_buf[1024];
	int before[ARRAY_SIZE(lf_ops)];
	unsigned long long fault_addr;
	long long enter, t_u, t_lf, t_res, f_ret, end;
	int fd, uffd, blocked, ok;
	pthread_t wthread;
	size_t i;

	uffd = uffd_setup(0, &page);
	fd = tpss_open();
	if (tpss_do(fd, s1, sizeof(s1), "fault_arm %d %lx %zu", getpid(),
		    (unsigned long)page, flen) || tpst_num(s1, "reg", -1) ||
	    tpst_num(s1, "reg_exit", -1) || tpst_num(s1, "reg_sched", -1)) {
		tpst_check("entered", 0, "fault_arm: %s", s1);
		return 1;
	}
	/* The lock-free operations' setup: P first on sys_enter, perf after F. */
	if (tpss_do(fd, prio_res, sizeof(prio_res), "prio_reg") ||
	    tpst_num(prio_res, "reg", -1))
		snprintf(lf_of(&op_p)->why, sizeof(lf_of(&op_p)->why),
			 "prio_reg: %.*s", (int)strcspn(prio_res, "\n"),
			 prio_res);
	perf_fd = perf_setup(lf_of(&op_c)->why, sizeof(lf_of(&op_c)->why));
	/* Left loaded by an earlier run that did not finish? */
	syscall(SYS_delete_module, EVENTS_MOD, O_NONBLOCK);
	ko_fd = open(EVENTS_KO, O_RDONLY | O_CLOEXEC);
	if (ko_fd < 0)
		snprintf(lf_of(&op_i)->why, sizeof(lf_of(&op_i)->why),
			 "not attempted: open " EVENTS_KO ": %s", strerror(errno));

	if (pthread_create(&wthread, NULL, worker, NULL) ||
	    pthread_create(&op_f.thread, NULL, faulter, &op_f))
		tpst_die("pthread_create");
	tpss_do(fd, wait_res, sizeof(wait_res), "fault_wait");
	fault_addr = uffd_msg(uffd, 5000);
	if (!check_entered(wait_res, fault_addr)) {
		uffd_resolve(uffd);
		goto out;
	}
	enter = tpst_num(wait_res, "enter_ns", 0);
	tpss_do(fd, s1, sizeof(s1), "fault_snap");
	sleep_ms(300);
	tpss_do(fd, s2, sizeof(s2), "fault_snap");
	t_u = tpst_now_ns();
	if (pthread_create(&op_u.thread, NULL, unregisterer, &op_u))
		tpst_die("pthread_create");
	op_u.started = 1;
	sleep_ms(200);
	t_lf = tpst_now_ns();
	lf_run();
	/*
	 * The fault stays unresolved until every operation returned, 1.2 s
	 * after the unregistration started at the earliest, BLOCK_MAX_MS
	 * after the first operation started at the latest.
	 */
	end = t_lf + BLOCK_MAX_MS * 1000000LL;
	while (tpst_now_ns() < end &&
	       (tpst_now_ns() < t_u + 1200000000LL || !lf_all_done()))
		sleep_ms(5);
	tpss_do(fd, s3, sizeof(s3), "fault_snap");
	blocked = tpst_num(s3, "returned", 1) == 0 && !flag_get(&op_f.done) &&
		  !flag_get(&op_u.done);
	for (i = 0; i < ARRAY_SIZE(lf_ops); i++)
		before[i] = flag_get(&lf_ops[i].op->done);
	printf("before the resolution: probe returned=%lld, openat done=%d, unregistration done=%d, 0->1 registration done=%d, ftrace enable done=%d\n",
	       tpst_num(s3, "returned", -1), flag_get(&op_f.done),
	       flag_get(&op_u.done), flag_get(&op_o.done), flag_get(&op_e.done));
	t_res = tpst_now_ns();
	if (uffd_resolve(uffd))
		tpst_die("UFFDIO_COPY");

	/* Everything returns within 10 s of the resolution. */
	end = t_res + 10000000000LL;
	ok = wait_until(&op_f.done, end) & wait_until(&op_u.done, end);
	for (i = 0; i < ARRAY_SIZE(lf_ops); i++)
		if (lf_ops[i].op->started)
			ok &= wait_until(&lf_ops[i].op->done, end);
	flag_set(&stop_worker);
	tpss_do(fd, fin, sizeof(fin), "fault_disarm");
	f_ret = tpst_num(fin, "ret_ns", 0);

	printf("diag uffd timeline, ms from the probe's entry: unregistration started %+lld, unregister returned %+lld, 0->1 registration started %+lld, ftrace enable started %+lld, fault resolved %+lld, probe's copy returned %+lld, synchronization returned %+lld, 0->1 registration returned %+lld, ftrace enable returned %+lld, openat returned %+lld\n",
	       ms_rel(tpst_num(op_u.res, "unreg_start_ns", 0), enter),
	       ms_rel(tpst_num(op_u.res, "unreg_ret_ns", 0), enter),
	       ms_rel(op_o.start_ns, enter), ms_rel(op_e.start_ns, enter),
	       ms_rel(t_res, enter), ms_rel(f_ret, enter),
	       ms_rel(tpst_num(op_u.res, "sync_ret_ns", 0), enter),
	       ms_rel(op_o.ret_ns, enter), ms_rel(op_e.ret_ns, enter),
	       ms_rel(op_f.ret_ns, enter));
	printf("diag uffd: probe blocked %lld ms in copy_from_user(); tracepoint_probe_unregister() took %lld ms, tracepoint_synchronize_unregister() returned %lld ms after the resolution\n",
	       (f_ret - enter) / 1000000,
	       (tpst_num(op_u.res, "unreg_ret_ns", 0) -
		tpst_num(op_u.res, "unreg_start_ns", 0)) / 1000000,
	       ms_rel(tpst_num(op_u.res, "sync_ret_ns", 0), t_res));
	printf("diag uffd: while blocked, a 0->1 registration on an unrelated ordinary tracepoint took %lld ms (returned %+lld ms after the resolution) and enabling ftrace event sched_process_fork took %lld ms (%+lld ms after the resolution, ret %ld)\n",
	       ms_rel(op_o.ret_ns, op_o.start_ns), ms_rel(op_o.ret_ns, t_res),
	       ms_rel(op_e.ret_ns, op_e.start_ns), ms_rel(op_e.ret_ns, t_res),
	       op_e.ret);
	lf_diag(lf_buf, sizeof(lf_buf), enter, t_res);
	/* ms taken (start from the probe's entry, return from the resolution) */
	printf("diag uffd lock_free, ms taken (+start, return): %s\n",
	       lf_buf);
	printf("diag uffd prio_unreg: sys_enter probes %lld -> %lld, P first %lld, hits %lld\n",
	       tpst_num(op_p.res, "probes_before", -1),
	       tpst_num(op_p.res, "probes_after", -1),
	       tpst_num(op_p.res, "first", -1), tpst_num(op_p.res, "hits", -1));

	tpst_check("blocked", blocked,
		   "%lld ms after the fault: probe returned=%lld, openat done=%d, unregistration done=%d",
		   ms_rel(t_res, enter), tpst_num(s3, "returned", -1),
		   flag_get(&op_f.done), flag_get(&op_u.done));
	tpst_check("same_tp_fires",
		   tpst_num(s2, "enter_getppid", 0) > tpst_num(s1, "enter_getppid", 0),
		   "sys_enter probe calls for getppid(): %lld then %lld",
		   tpst_num(s1, "enter_getppid", 0), tpst_num(s2, "enter_getppid", 0));
	tpst_check("other_tps_fire",
		   tpst_num(s3, "exit_getppid", 0) > tpst_num(s2, "exit_getppid", 0) &&
		   tpst_num(s3, "switches", 0) > tpst_num(s2, "switches", 0),
		   "during the unregistration: sys_exit %lld -> %lld, sched_switch %lld -> %lld",
		   tpst_num(s2, "exit_getppid", 0), tpst_num(s3, "exit_getppid", 0),
		   tpst_num(s2, "switches", 0), tpst_num(s3, "switches", 0));
	tpst_check("unreg_waits",
		   flag_get(&op_u.done) && tpst_num(op_u.res, "unreg", -1) == 0 &&
		   tpst_num(op_u.res, "returned", 0) == 1 && f_ret >= t_res &&
		   tpst_num(op_u.res, "sync_ret_ns", 0) >= f_ret,
		   "want resolution (%lld) <= probe return (%lld) <= synchronize return: %s",
		   t_res, f_ret, op_u.res);
	tpst_check("copy", tpst_num(fin, "left", -1) == 0 && expect_bytes(fin),
		   "want left=0 and the bytes of \"%s\": %s", FPATH, fin);
	tpst_check("complete",
		   ok && op_f.ret == -1 && op_f.err == ENOENT && op_o.ret == 0 &&
		   tpst_num(op_o.res, "reg", -1) == 0 && op_e.ret == 0,
		   "within 10 s of the resolution: openat done=%d (%ld, %s), unregistration done=%d, 0->1 registration done=%d (%s), ftrace enable done=%d (%ld); all operations: %s",
		   flag_get(&op_f.done), op_f.ret, strerror(op_f.err),
		   flag_get(&op_u.done), flag_get(&op_o.done), op_o.res,
		   flag_get(&op_e.done), op_e.ret, lf_buf);
	tpst_check("unrelated_free",
		   op_o.ret_ns && op_o.ret_ns < t_res && op_e.ret_ns &&
		   op_e.ret_ns < t_res,
		   "0->1 registration returned %+lld ms, ftrace enable %+lld ms after the resolution (want both before it)",
		   ms_rel(op_o.ret_ns, t_res), ms_rel(op_e.ret_ns, t_res));
	lf_check(before, t_res);
	if (!ok)
		/* Something is stuck in the kernel: do not join it. */
		_exit(1);
out:
	flag_set(&stop_worker);
	pthread_join(wthread, NULL);
	pthread_join(op_f.thread, NULL);
	if (op_u.started)
		pthread_join(op_u.thread, NULL);
	for (i = 0; i < ARRAY_SIZE(lf_ops); i++)
		if (lf_ops[i].op->started)
			pthread_join(lf_ops[i].op->thread, NULL);
	resolve_cleanup(fd);
	tpss_do(fd, fin, sizeof(fin), "fault_disarm");
	close(fd);
	return tpst_failed;
}

/* ---- kill ---- */

static int do_kill(void)
{
	char res[2048], s1[2048], fin[2048];
	int fd, ready[2], go[2], status = 0, reaped = 0, blocked;
	unsigned long addr;
	long long t_kill, t_reap = 0, f_ret;
	pid_t child, w;
	char c = 0;

	if (pipe(ready) || pipe(go))
		tpst_die("pipe");
	child = fork();
	if (child < 0)
		tpst_die("fork");
	if (child == 0) {
		long r;

		uffd_setup(0, &page);
		addr = (uintptr_t)page;
		if (write(ready[1], &addr, sizeof(addr)) != sizeof(addr) ||
		    read(go[0], &c, 1) != 1)
			_exit(10);
		/* Nobody resolves this fault. */
		r = syscall(SYS_openat, AT_FDCWD, page, O_RDONLY);
		printf("child: openat returned %ld (%s)\n", r, strerror(errno));
		_exit(3);
	}
	if (read(ready[0], &addr, sizeof(addr)) != sizeof(addr))
		tpst_die("read ready pipe");
	page = (char *)addr;
	fd = tpss_open();
	if (tpss_do(fd, res, sizeof(res), "fault_arm %d %lx %zu", child, addr,
		    flen) || tpst_num(res, "reg", -1)) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		tpst_check("entered", 0, "fault_arm: %s", res);
		return 1;
	}
	if (write(go[1], &c, 1) != 1)
		tpst_die("write go pipe");
	tpss_do(fd, res, sizeof(res), "fault_wait");
	/* The child's uffd is its own: the probe's entry says it faults. */
	tpst_check("entered", tpst_num(res, "entered", 0) == 1 &&
		   tpst_num(res, "preemptible", 0) == 1 &&
		   tpst_num(res, "rcu_trace_held", 0) == 1,
		   "want entered=1 preemptible=1 rcu_trace_held=1: %s", res);
	if (pthread_create(&op_u.thread, NULL, unregisterer, &op_u))
		tpst_die("pthread_create");
	sleep_ms(1000);
	tpss_do(fd, s1, sizeof(s1), "fault_snap");
	blocked = tpst_num(s1, "returned", 1) == 0 && !flag_get(&op_u.done);
	t_kill = tpst_now_ns();
	kill(child, SIGKILL);
	while (tpst_now_ns() < t_kill + 10000000000LL) {
		w = waitpid(child, &status, WNOHANG);
		if (w == child) {
			reaped = 1;
			t_reap = tpst_now_ns();
			break;
		}
		sleep_ms(5);
	}
	wait_flag(&op_u.done, 10000);
	tpss_do(fd, fin, sizeof(fin), "fault_disarm");
	f_ret = tpst_num(fin, "ret_ns", 0);
	printf("diag uffd kill timeline, ms from the kill: probe's copy returned %+lld, child reaped %+lld, synchronization returned %+lld (unregistration started %+lld)\n",
	       ms_rel(f_ret, t_kill), ms_rel(t_reap, t_kill),
	       ms_rel(tpst_num(op_u.res, "sync_ret_ns", 0), t_kill),
	       ms_rel(tpst_num(op_u.res, "unreg_start_ns", 0), t_kill));
	printf("diag uffd kill: copy_from_user() left %lld of %zu bytes, fatal signal pending %lld; synchronization returned %lld ms after SIGKILL\n",
	       tpst_num(fin, "left", -1), flen, tpst_num(fin, "fatal", -1),
	       ms_rel(tpst_num(op_u.res, "sync_ret_ns", 0), t_kill));
	tpst_check("blocked", blocked,
		   "1 s after the unregistration started: probe returned=%lld, unregistration done=%d",
		   tpst_num(s1, "returned", -1), flag_get(&op_u.done));
	tpst_check("killed", reaped && WIFSIGNALED(status) &&
		   WTERMSIG(status) == SIGKILL,
		   "child reaped=%d status=%#x", reaped, status);
	tpst_check("unreg_waits",
		   flag_get(&op_u.done) && tpst_num(op_u.res, "unreg", -1) == 0 &&
		   tpst_num(op_u.res, "returned", 0) == 1 && f_ret >= t_kill &&
		   tpst_num(op_u.res, "sync_ret_ns", 0) >= f_ret,
		   "want kill (%lld) <= probe return (%lld) <= synchronize return: %s",
		   t_kill, f_ret, op_u.res);
	tpst_check("copy_failed", tpst_num(fin, "left", -1) == (long long)flen &&
		   tpst_num(fin, "fatal", 0) == 1,
		   "want left=%zu fatal=1: %s", flen, fin);
	if (!flag_get(&op_u.done) || !reaped)
		_exit(1);
	pthread_join(op_u.thread, NULL);
	close(fd);
	return tpst_failed;
}

/* ---- ordinary ---- */

static int do_ordinary(void)
{
	char res[2048], arm[256], unreg[512], rep[256], fin[2048];
	unsigned long long fault_addr;
	int fd, uffd, blocked;
	long long dur;

	uffd = uffd_setup(0, &page);
	fd = tpss_open();
	if (tpss_do(fd, res, sizeof(res), "fault_arm %d %lx %zu", getpid(),
		    (unsigned long)(uintptr_t)page, flen) ||
	    tpst_num(res, "reg", -1)) {
		tpst_check("entered", 0, "fault_arm: %s", res);
		return 1;
	}
	if (tpss_do(fd, arm, sizeof(arm), "ord_arm %d", getpid()) ||
	    tpst_num(arm, "reg", -1)) {
		tpst_check("live", 0, "ord_arm: %s", arm);
		tpss_do(fd, fin, sizeof(fin), "fault_disarm");
		return 1;
	}
	if (pthread_create(&op_f.thread, NULL, faulter, &op_f))
		tpst_die("pthread_create");
	fault_addr = uffd_msg(uffd, 10000);
	tpss_do(fd, res, sizeof(res), "fault_wait");
	check_entered(res, fault_addr);
	/* As lttng_session_destroy(): unregister, synchronize_rcu(), free. */
	tpss_do(fd, unreg, sizeof(unreg), "ord_unreg");
	tpss_do(fd, res, sizeof(res), "fault_snap");
	blocked = tpst_num(res, "returned", 1) == 0 && !flag_get(&op_f.done);
	tpst_check("live", tpst_num(unreg, "calls", 0) > 0,
		   "O saw no system call of this process: %s", unreg);
	tpst_check("unreg_prompt", tpst_num(unreg, "unreg", -1) == 0 && blocked,
		   "want unreg=0 returned while F is blocked (F returned=%lld, openat done=%d): %s",
		   tpst_num(res, "returned", -1), flag_get(&op_f.done), unreg);
	/* A filter update while F is blocked: in a thread, it may wait. */
	if (pthread_create(&op_w.thread, NULL, filter_writer, &op_w))
		tpst_die("pthread_create");
	op_w.started = 1;
	wait_flag(&op_w.done, FILTER_MAX_MS);
	tpss_do(fd, res, sizeof(res), "fault_snap");
	blocked = tpst_num(res, "returned", 1) == 0 && !flag_get(&op_f.done);
	dur = flag_get(&op_w.done) ? op_w.ret_ns - op_w.start_ns : -1;
	printf("diag filter writes took %s%.1f ms while F was blocked\n",
	       dur < 0 ? "more than " : "",
	       (dur < 0 ? tpst_now_ns() - op_w.start_ns : dur) / 1e6);
	tpst_check("filter_prompt",
		   dur >= 0 && dur < FILTER_MAX_MS * 1000000LL && !op_w.ret &&
		   blocked,
		   "want 3 writes to " FILTER_EVENT "/filter done in less than %d ms while F is blocked: %s (ret %ld, %s%s%s; F returned=%lld)",
		   FILTER_MAX_MS, dur < 0 ? "not returned" : "returned",
		   op_w.ret, strerror(op_w.err), op_w.res[0] ? "; " : "",
		   op_w.res, tpst_num(res, "returned", -1));
	sleep_ms(200);
	if (uffd_resolve(uffd))
		tpst_check("complete", 0, "UFFDIO_COPY failed");
	if (!wait_flag(&op_f.done, 10000)) {
		tpst_check("complete", 0, "openat() did not return within 10 s of the resolution");
		_exit(1);
	}
	pthread_join(op_f.thread, NULL);
	if (!wait_flag(&op_w.done, 10000)) {
		tpst_check("complete", 0, "the filter writes did not return within 10 s of the resolution");
		_exit(1);
	}
	pthread_join(op_w.thread, NULL);
	tpss_do(fd, fin, sizeof(fin), "fault_disarm");
	tpss_do(fd, rep, sizeof(rep), "ord_report");
	tpst_check("no_stale_call", tpst_num(rep, "poisoned", -1) == 0,
		   "O was called %lld times with the data freed after its unregistration and synchronize_rcu() (kasan=%lld)",
		   tpst_num(rep, "poisoned", -1), tpst_num(unreg, "kasan", -1));
	tpst_check("complete", op_f.ret == -1 && op_f.err == ENOENT &&
		   expect_bytes(fin),
		   "openat() = %ld (%s), want ENOENT and F's exact bytes: %s",
		   op_f.ret, strerror(op_f.err), fin);
	close(fd);
	close(uffd);
	return tpst_failed;
}

/* ---- usermode ---- */

static int do_usermode(void)
{
	char res[2048];
	unsigned long long fault_addr;
	int fd, uffd, done;
	long long dur;

	uffd = uffd_setup(UFFD_USER_MODE_ONLY, &page);
	fd = tpss_open();
	if (tpss_do(fd, res, sizeof(res), "fault_arm %d %lx %zu", getpid(),
		    (unsigned long)page, flen) || tpst_num(res, "reg", -1)) {
		tpst_check("not_blocked", 0, "fault_arm: %s", res);
		return 1;
	}
	if (pthread_create(&op_f.thread, NULL, faulter, &op_f))
		tpst_die("pthread_create");
	fault_addr = uffd_msg(uffd, 3000);
	if (fault_addr)
		uffd_resolve(uffd);	/* unexpected: unblock it */
	done = wait_flag(&op_f.done, 10000);
	tpss_do(fd, res, sizeof(res), "fault_disarm");
	dur = tpst_num(res, "ret_ns", 0) - tpst_num(res, "enter_ns", 0);
	printf("diag uffd usermode: copy_from_user() left %lld of %zu bytes after %lld us, openat returned %ld (%s), uffd message: %s\n",
	       tpst_num(res, "left", -1), flen, dur / 1000, op_f.ret,
	       strerror(op_f.err), fault_addr ? "yes" : "none");
	tpst_check("not_blocked", done && !fault_addr &&
		   tpst_num(res, "returned", 0) == 1 && dur < 1000000000LL,
		   "openat done=%d, uffd message at %#llx, probe returned=%lld after %lld ns",
		   done, fault_addr, tpst_num(res, "returned", -1), dur);
	tpst_check("efault", tpst_num(res, "left", -1) == (long long)flen,
		   "want left=%zu: %s", flen, res);
	tpst_check("syscall", op_f.ret == -1 && op_f.err == EFAULT,
		   "openat returned %ld (%s), want EFAULT", op_f.ret,
		   strerror(op_f.err));
	if (!done)
		_exit(1);
	pthread_join(op_f.thread, NULL);
	close(fd);
	close(uffd);
	return tpst_failed;
}

/* ---- signal ---- */

static int faulter_tid;

static void *faulter_tid_thread(void *arg)
{
	__atomic_store_n(&faulter_tid, gettid(), __ATOMIC_RELEASE);
	return faulter(arg);
}

static void on_signal(int sig)
{
	(void)sig;
}

/* utime + stime of thread @tid, in ms */
static long long thread_cpu_ms(pid_t tid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut = 0, st = 0;
	int i;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	if (tpst_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	/* after the command: state is field 3, utime 14, stime 15 */
	p = strrchr(buf, ')');
	for (i = 3; p && i <= 14; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu %llu", &ut, &st) != 2)
		return -1;
	return (ut + st) * 1000 / sysconf(_SC_CLK_TCK);
}

/* Drain the uffd for @ms: how many page fault messages came. */
static long count_msgs(int uffd, long ms)
{
	long long end = tpst_now_ns() + ms * 1000000LL;
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;
	long n = 0;
	int left;

	while ((left = (end - tpst_now_ns()) / 1000000) > 0) {
		if (poll(&pfd, 1, left) != 1)
			continue;
		while (read(uffd, &msg, sizeof(msg)) == sizeof(msg))
			n++;
	}
	return n;
}

/*
 * A non-fatal signal to a task blocked in a kernel-mode userfault: with
 * @probe the sleepable probe faults, else the system call's own
 * getname().  Reports the CPU time the task used and the uffd messages
 * that came in the next 500 ms; checks that everything completes once
 * the fault is resolved.
 */
static int do_signal(int probe)
{
	struct sigaction sa;
	char res[2048];
	unsigned long long fault_addr;
	long long c0, c1;
	long msgs;
	int fd = -1, uffd, done, tid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART */
	if (sigaction(SIGUSR1, &sa, NULL))
		tpst_die("sigaction");
	uffd = uffd_setup(0, &page);
	if (probe) {
		fd = tpss_open();
		if (tpss_do(fd, res, sizeof(res), "fault_arm %d %lx %zu",
			    getpid(), (unsigned long)page, flen) ||
		    tpst_num(res, "reg", -1)) {
			tpst_check("completes", 0, "fault_arm: %s", res);
			return 1;
		}
	}
	if (pthread_create(&op_f.thread, NULL, faulter_tid_thread, &op_f))
		tpst_die("pthread_create");
	fault_addr = uffd_msg(uffd, 5000);
	sleep_ms(200);
	tid = __atomic_load_n(&faulter_tid, __ATOMIC_ACQUIRE);
	c0 = thread_cpu_ms(tid);
	syscall(SYS_tgkill, getpid(), tid, SIGUSR1);
	msgs = count_msgs(uffd, 500);
	c1 = thread_cpu_ms(tid);
	printf("diag uffd signal (%s): in the 500 ms after SIGUSR1 the thread blocked in the kernel-mode fault used %lld ms of CPU and the uffd got %ld more fault messages (it was %s when the signal came)\n",
	       probe ? "fault in a sleepable probe" : "fault in openat()'s getname(), no probe",
	       c1 - c0, msgs, flag_get(&op_f.done) ? "done" : "blocked");
	uffd_resolve(uffd);
	done = wait_flag(&op_f.done, 10000);
	if (probe) {
		tpss_do(fd, res, sizeof(res), "fault_disarm");
		close(fd);
	}
	tpst_check("completes", fault_addr == (uintptr_t)page && done &&
		   op_f.ret == -1 && op_f.err == ENOENT &&
		   (!probe || (tpst_num(res, "left", -1) == 0 && expect_bytes(res))),
		   "fault at %#llx (want %p), openat done=%d ret=%ld (%s), want ENOENT%s%s",
		   fault_addr, (void *)page, done, op_f.ret, strerror(op_f.err),
		   probe ? "; probe: " : "", probe ? res : "");
	if (!done)
		_exit(1);
	pthread_join(op_f.thread, NULL);
	close(uffd);
	return tpst_failed;
}

static int do_hang(void)
{
	char res[256];
	int fd = tpss_open();

	if (tpss_do(fd, res, sizeof(res), "hang_arm") || tpst_num(res, "reg", -1)) {
		printf("hang_arm failed: %s", res);
		return 1;
	}
	printf("tpst_uffd: calling getppid(), whose probe never returns\n");
	fflush(stdout);
	syscall(SYS_getppid);
	printf("tpst_uffd: getppid() returned: the hang did not happen\n");
	return 1;
}

int main(int argc, char **argv)
{
	const char *mode = argc == 2 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	pg = sysconf(_SC_PAGESIZE);
	flen = strlen(FPATH) + 1;
	if (!strcmp(mode, "resolve"))
		return do_resolve();
	if (!strcmp(mode, "kill"))
		return do_kill();
	if (!strcmp(mode, "usermode"))
		return do_usermode();
	if (!strcmp(mode, "ordinary"))
		return do_ordinary();
	if (!strcmp(mode, "hang"))
		return do_hang();
	if (!strcmp(mode, "signal"))
		return do_signal(1);
	if (!strcmp(mode, "signal_noprobe"))
		return do_signal(0);
	fprintf(stderr, "usage: tpst_uffd resolve|kill|usermode|signal|signal_noprobe|ordinary|hang\n");
	return 2;
}
