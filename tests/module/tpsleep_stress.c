// SPDX-License-Identifier: GPL-2.0
/*
 * tpsleep_stress - probes for the stress suite (tests/stress/run.sh).
 *
 * Control file /proc/tpsleep_stress: write one command, read back its
 * result (space separated key=value pairs).  Every open file has its own
 * result buffer, so that a command that blocks (fault_unreg waits for a
 * probe stuck on a userfaultfd page) and commands that observe it
 * (fault_snap, plain_reg) can run at the same time from other threads,
 * each on its own file.  Times are ktime_get_ns() (CLOCK_MONOTONIC).
 *
 *   fault_arm TGID ADDR LEN
 *	Register three probes: F, a sleepable probe on sys_enter that acts
 *	once, on openat() of thread group TGID whose filename argument is
 *	ADDR (hex): it records its entry, copy_from_user()s LEN bytes from
 *	ADDR (which may block on a userfaultfd page) and records its return;
 *	on any other getppid() it only counts the call.  C, a sleepable probe
 *	on sys_exit, and S, a normal probe on sched_switch, only count
 *	getppid() returns and context switches.
 *   fault_wait
 *	Wait (at most 10 s) until F has entered its copy.
 *   fault_snap
 *	Report F's state and the three counters now.
 *   fault_unreg
 *	Unregister F, then tracepoint_synchronize_unregister(); report the
 *	times around both and F's state when the synchronization returned.
 *   fault_disarm
 *	Unregister whatever of F, C, S is registered, synchronize, report
 *	everything F saw (bytes=HEX of its buffer).
 *   plain_reg
 *	Register and unregister a normal probe on tpss_plain, an ordinary
 *	tracepoint of this module without other probes (a 0->1->0
 *	transition on an unrelated tracepoint), fire it in between; report
 *	the times.
 *   plain_sync
 *	plain_reg, then tracepoint_synchronize_unregister(), timed
 *	(sync_ret_ns): it waits for no probe that sleeps and is still
 *	connected, only for the callers of one that was removed.
 *   prio_reg
 *	Register P, a sleepable probe on sys_enter that only counts its
 *	calls, with TRACEPOINT_DEFAULT_PRIO + 1: it comes before F (and any
 *	other probe of the default priority) in the probe array, with data of
 *	its own.
 *   prio_unreg
 *	Unregister P; report the times around tracepoint_probe_unregister()
 *	and the number of sys_enter probes before and after it (first=1: P
 *	was the first).  With one other probe left (tpst_uffd resolve: perf's)
 *	that is a 2->1 transition whose first data changes.  No
 *	synchronization: P and its data are static, and module_exit
 *	synchronizes.
 *   bad_arm sleepy|nofault
 *	Register a probe B on sys_enter for the writer's thread: on its
 *	openat(), newfstatat() (filename argument) and openat2() (struct
 *	open_how argument) it copies from the argument.  "sleepy" (a
 *	sleepable probe, may-sleep sys_enter): copy_from_user() of 64 bytes
 *	(open_how: its size) and strncpy_from_user(), then
 *	copy_from_user_nofault(); "nofault" (a normal probe, ordinary
 *	sys_enter): copy_from_user_nofault() only.
 *   bad_get
 *	Report what B saw on the last such call.
 *   bad_disarm
 *	Unregister B and synchronize.
 *   ord_arm TGID
 *	Register O, an ordinary probe on sys_enter (tracepoint_probe_register_prio()
 *	with TRACEPOINT_DEFAULT_PRIO - 1: after F in the probe array), as
 *	lttng-modules registers its syscall probe: its data is kmalloc()ed,
 *	carries a magic word and counts the sys_enter calls of TGID.  A call
 *	that finds the magic word poisoned is counted apart.
 *   ord_unreg
 *	As lttng_session_destroy() does: unregister O, synchronize_rcu()
 *	only, then poison its data and free it (with KASAN: kfree(), so
 *	that a later call is reported; without KASAN the poisoned data is
 *	kept until ord_report, so that a later call is counted).
 *   ord_report
 *	Report O's calls seen with poisoned data (poisoned=N) and free what
 *	ord_unreg kept, after tracepoint_synchronize_unregister().
 *   hang_arm
 *	Register a sleepable probe on sys_enter that, on the writer's thread
 *	group's next getppid(), blocks until the task gets a fatal signal or
 *	the module is removed (harness test: a probe that never returns).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/rcupdate_trace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include "tpsleep_tps.h"

#define TPSS_RESULT_SIZE	2048
#define TPSS_CMD_SIZE		128
#define TPSS_MAX_LEN		64
#define TPSS_STR_LEN		256
#define TPSS_OPEN_HOW_SIZE	24	/* sizeof(struct open_how), v0 */

/* Ordinary tracepoint of this module that nothing else attaches to. */
DECLARE_TRACE(tpss_plain,
	      TP_PROTO(unsigned long val),
	      TP_ARGS(val));
DEFINE_TRACE(tpss_plain,
	     TP_PROTO(unsigned long val),
	     TP_ARGS(val));

#ifdef TPST_HAVE_MAYSLEEP
#define tpss_have_maysleep()	true
#else
#define tpss_have_maysleep()	false
#endif

/* One result buffer per open file. */
struct tpss_file {
	struct mutex lock;	/* one command at a time on this file */
	size_t len;
	char buf[TPSS_RESULT_SIZE];
};

static __printf(2, 3) void tpss_out(struct tpss_file *tf, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	tf->len += vscnprintf(tf->buf + tf->len, sizeof(tf->buf) - tf->len,
			      fmt, args);
	va_end(args);
}

static int tpss_register(struct tracepoint *tp, void *probe, void *data,
			 bool sleepable)
{
	if (!sleepable)
		return tracepoint_probe_register(tp, probe, data);
#ifdef TPST_HAVE_MAYSLEEP
	return tracepoint_probe_register_maysleep(tp, probe, data);
#else
	return -EOPNOTSUPP;
#endif
}

/* ---- fault: a sleepable probe blocked on a userfaultfd page ---- */

struct tpss_fault {
	/* set under tpss_fault_mutex, before the probes are registered */
	pid_t tgid;
	unsigned long uaddr;
	size_t len;
	/* under tpss_fault_mutex */
	bool reg_f, reg_c, reg_s;
	/* written by the one call of F that claims the openat() */
	atomic_t claimed;
	pid_t pid;
	int preemptible;
	int rcu_trace_held;
	s64 enter_ns;
	int entered;		/* smp_store_release() after the above */
	unsigned long left;
	int fatal;
	s64 ret_ns;
	int returned;		/* smp_store_release() after the above */
	u8 buf[TPSS_MAX_LEN];
	/* counters */
	atomic_long_t enter_getppid;
	atomic_long_t exit_getppid;
	atomic_long_t switches;
};

static struct tpss_fault tpss_fault;
static DEFINE_MUTEX(tpss_fault_mutex);
static DECLARE_WAIT_QUEUE_HEAD(tpss_fault_wq);

static void tpss_fault_enter_probe(void *data, struct pt_regs *regs, long id)
{
	struct tpss_fault *f = data;
	unsigned long args[6];

	if (id == __NR_getppid) {
		atomic_long_inc(&f->enter_getppid);
		return;
	}
	if (id != __NR_openat || current->tgid != f->tgid)
		return;
	syscall_get_arguments(current, regs, args);
	if (args[1] != f->uaddr || atomic_inc_return(&f->claimed) != 1)
		return;
	f->pid = current->pid;
	f->preemptible = preemptible();
	f->rcu_trace_held = rcu_read_lock_trace_held();
	f->enter_ns = ktime_get_ns();
	/* Publishes the above; pairs with tpss_fault_entered(). */
	smp_store_release(&f->entered, 1);
	wake_up(&tpss_fault_wq);
	/* Never fault in atomic context: the check reports preemptible=0. */
	if (f->preemptible)
		f->left = copy_from_user(f->buf, (const void __user *)f->uaddr,
					 f->len);
	else
		f->left = f->len;
	f->fatal = fatal_signal_pending(current);
	f->ret_ns = ktime_get_ns();
	/* Publishes left, fatal, ret_ns; pairs with tpss_fault_returned(). */
	smp_store_release(&f->returned, 1);
}

static void tpss_fault_exit_probe(void *data, struct pt_regs *regs, long ret)
{
	struct tpss_fault *f = data;

	if (syscall_get_nr(current, regs) == __NR_getppid)
		atomic_long_inc(&f->exit_getppid);
}

static void tpss_fault_sched_probe(void *data, bool preempt,
				   struct task_struct *prev,
				   struct task_struct *next,
				   unsigned int prev_state)
{
	struct tpss_fault *f = data;

	atomic_long_inc(&f->switches);
}

static bool tpss_fault_entered(void)
{
	/* Pairs with the probe's first smp_store_release(). */
	return smp_load_acquire(&tpss_fault.entered);
}

static bool tpss_fault_returned(void)
{
	/* Pairs with the probe's second smp_store_release(). */
	return smp_load_acquire(&tpss_fault.returned);
}

/* Unregister what is registered, then synchronize.  tpss_fault_mutex held. */
static int tpss_fault_unregister_all(void)
{
	struct tpss_fault *f = &tpss_fault;
	int ret = 0, r;

	if (f->reg_f) {
		r = tracepoint_probe_unregister(tp_sys_enter,
						tpss_fault_enter_probe, f);
		ret = ret ?: r;
		f->reg_f = false;
	}
	if (f->reg_c) {
		r = tracepoint_probe_unregister(tp_sys_exit,
						tpss_fault_exit_probe, f);
		ret = ret ?: r;
		f->reg_c = false;
	}
	if (f->reg_s) {
		r = tracepoint_probe_unregister(tp_sched_switch,
						tpss_fault_sched_probe, f);
		ret = ret ?: r;
		f->reg_s = false;
	}
	tracepoint_synchronize_unregister();
	return ret;
}

static void tpss_out_fault_state(struct tpss_file *tf)
{
	struct tpss_fault *f = &tpss_fault;
	bool entered = tpss_fault_entered();
	bool returned = tpss_fault_returned();

	tpss_out(tf, " entered=%d returned=%d", entered, returned);
	if (entered)
		tpss_out(tf, " pid=%d preemptible=%d rcu_trace_held=%d enter_ns=%lld",
			 f->pid, f->preemptible, f->rcu_trace_held, f->enter_ns);
	if (returned)
		tpss_out(tf, " left=%lu fatal=%d ret_ns=%lld", f->left, f->fatal,
			 f->ret_ns);
	tpss_out(tf, " enter_getppid=%ld exit_getppid=%ld switches=%ld",
		 atomic_long_read(&f->enter_getppid),
		 atomic_long_read(&f->exit_getppid),
		 atomic_long_read(&f->switches));
}

static int tpss_cmd_fault_arm(struct tpss_file *tf, pid_t tgid,
			      unsigned long uaddr, size_t len)
{
	struct tpss_fault *f = &tpss_fault;
	int rf, rc = 0, rs = 0;

	if (!tpss_have_maysleep())
		return -EOPNOTSUPP;
	mutex_lock(&tpss_fault_mutex);
	/* No probe call can still use the old state after this. */
	tpss_fault_unregister_all();
	f->tgid = tgid;
	f->uaddr = uaddr;
	f->len = len;
	atomic_set(&f->claimed, 0);
	f->pid = 0;
	f->preemptible = 0;
	f->rcu_trace_held = 0;
	f->enter_ns = 0;
	f->entered = 0;
	f->left = 0;
	f->fatal = 0;
	f->ret_ns = 0;
	f->returned = 0;
	memset(f->buf, 0, sizeof(f->buf));
	atomic_long_set(&f->enter_getppid, 0);
	atomic_long_set(&f->exit_getppid, 0);
	atomic_long_set(&f->switches, 0);

	rf = tpss_register(tp_sys_enter, tpss_fault_enter_probe, f, true);
	f->reg_f = !rf;
	if (!rf) {
		rc = tpss_register(tp_sys_exit, tpss_fault_exit_probe, f, true);
		f->reg_c = !rc;
	}
	if (!rf && !rc) {
		rs = tpss_register(tp_sched_switch, tpss_fault_sched_probe, f,
				   false);
		f->reg_s = !rs;
	}
	if (rf || rc || rs)
		tpss_fault_unregister_all();
	mutex_unlock(&tpss_fault_mutex);
	tpss_out(tf, "fault_arm reg=%d reg_exit=%d reg_sched=%d\n", rf, rc, rs);
	return 0;
}

static void tpss_cmd_fault_wait(struct tpss_file *tf)
{
	wait_event_interruptible_timeout(tpss_fault_wq, tpss_fault_entered(),
					 10 * HZ);
	tpss_out(tf, "fault_wait now_ns=%lld", ktime_get_ns());
	tpss_out_fault_state(tf);
	tpss_out(tf, "\n");
}

static void tpss_cmd_fault_snap(struct tpss_file *tf)
{
	tpss_out(tf, "fault_snap now_ns=%lld", ktime_get_ns());
	tpss_out_fault_state(tf);
	tpss_out(tf, "\n");
}

static void tpss_cmd_fault_unreg(struct tpss_file *tf)
{
	struct tpss_fault *f = &tpss_fault;
	s64 start, unreg_ns, sync_ns;
	int unreg = -ENOENT;

	mutex_lock(&tpss_fault_mutex);
	start = ktime_get_ns();
	if (f->reg_f) {
		unreg = tracepoint_probe_unregister(tp_sys_enter,
						    tpss_fault_enter_probe, f);
		f->reg_f = false;
	}
	unreg_ns = ktime_get_ns();
	tracepoint_synchronize_unregister();
	sync_ns = ktime_get_ns();
	mutex_unlock(&tpss_fault_mutex);
	tpss_out(tf, "fault_unreg unreg=%d unreg_start_ns=%lld unreg_ret_ns=%lld sync_ret_ns=%lld",
		 unreg, start, unreg_ns, sync_ns);
	tpss_out_fault_state(tf);
	tpss_out(tf, "\n");
}

static void tpss_cmd_fault_disarm(struct tpss_file *tf)
{
	struct tpss_fault *f = &tpss_fault;
	char hex[2 * TPSS_MAX_LEN + 1];
	int unreg;

	mutex_lock(&tpss_fault_mutex);
	unreg = tpss_fault_unregister_all();
	tpss_out(tf, "fault_disarm unreg=%d now_ns=%lld", unreg,
		 ktime_get_ns());
	tpss_out_fault_state(tf);
	*bin2hex(hex, f->buf, min_t(size_t, f->len, TPSS_MAX_LEN)) = '\0';
	tpss_out(tf, " bytes=%s\n", hex);
	mutex_unlock(&tpss_fault_mutex);
}

/* ---- ord: an ordinary probe whose data is freed as lttng-modules does ---- */

#define TPSS_ORD_MAGIC	0x74706f72646d6167ULL
#define TPSS_ORD_POISON	0x6b

struct tpss_ord {
	u64 magic;
	pid_t tgid;
	atomic_long_t calls;
};

static DEFINE_MUTEX(tpss_ord_mutex);
static struct tpss_ord *tpss_ord;	/* registered, under tpss_ord_mutex */
static struct tpss_ord *tpss_ord_kept;	/* poisoned, freed by ord_report */
static atomic_long_t tpss_ord_poisoned;

static void tpss_ord_probe(void *data, struct pt_regs *regs, long id)
{
	struct tpss_ord *o = data;

	/* Freed data: a KASAN report here; poisoned data: counted. */
	if (READ_ONCE(o->magic) != TPSS_ORD_MAGIC) {
		atomic_long_inc(&tpss_ord_poisoned);
		return;
	}
	if (current->tgid == o->tgid)
		atomic_long_inc(&o->calls);
}

static void tpss_cmd_ord_arm(struct tpss_file *tf, pid_t tgid)
{
	struct tpss_ord *o;
	int ret = -EBUSY;

	mutex_lock(&tpss_ord_mutex);
	if (!tpss_ord) {
		o = kzalloc(sizeof(*o), GFP_KERNEL);
		ret = -ENOMEM;
		if (o) {
			o->magic = TPSS_ORD_MAGIC;
			o->tgid = tgid;
			atomic_long_set(&tpss_ord_poisoned, 0);
			ret = tracepoint_probe_register_prio(tp_sys_enter,
							     tpss_ord_probe, o,
							     TRACEPOINT_DEFAULT_PRIO - 1);
			if (ret)
				kfree(o);
			else
				tpss_ord = o;
		}
	}
	mutex_unlock(&tpss_ord_mutex);
	tpss_out(tf, "ord_arm reg=%d\n", ret);
}

static void tpss_cmd_ord_unreg(struct tpss_file *tf)
{
	struct tpss_ord *o;
	s64 start = 0, end = 0;
	long calls = -1;
	int unreg = -ENOENT;

	mutex_lock(&tpss_ord_mutex);
	o = tpss_ord;
	if (o) {
		start = ktime_get_ns();
		unreg = tracepoint_probe_unregister(tp_sys_enter,
						    tpss_ord_probe, o);
		/* All that lttng_session_destroy() waits for. */
		synchronize_rcu();
		end = ktime_get_ns();
		calls = atomic_long_read(&o->calls);
		memset(o, TPSS_ORD_POISON, sizeof(*o));
		tpss_ord = NULL;
		if (IS_ENABLED(CONFIG_KASAN)) {
			kfree(o);
		} else {
			kfree(tpss_ord_kept);
			tpss_ord_kept = o;
		}
	}
	mutex_unlock(&tpss_ord_mutex);
	tpss_out(tf, "ord_unreg unreg=%d calls=%ld kasan=%d unreg_start_ns=%lld sync_ret_ns=%lld\n",
		 unreg, calls, IS_ENABLED(CONFIG_KASAN), start, end);
}

static void tpss_cmd_ord_report(struct tpss_file *tf)
{
	mutex_lock(&tpss_ord_mutex);
	tpss_out(tf, "ord_report poisoned=%ld registered=%d\n",
		 atomic_long_read(&tpss_ord_poisoned), !!tpss_ord);
	if (tpss_ord_kept) {
		tracepoint_synchronize_unregister();
		kfree(tpss_ord_kept);
		tpss_ord_kept = NULL;
	}
	mutex_unlock(&tpss_ord_mutex);
}

static void tpss_ord_exit(void)
{
	mutex_lock(&tpss_ord_mutex);
	if (tpss_ord)
		tracepoint_probe_unregister(tp_sys_enter, tpss_ord_probe,
					    tpss_ord);
	tracepoint_synchronize_unregister();
	kfree(tpss_ord);
	tpss_ord = NULL;
	kfree(tpss_ord_kept);
	tpss_ord_kept = NULL;
	mutex_unlock(&tpss_ord_mutex);
}

/* ---- plain_reg: a 0->1->0 transition on an unrelated tracepoint ---- */

static DEFINE_MUTEX(tpss_plain_mutex);
static atomic_long_t tpss_plain_hits;

static void tpss_plain_probe(void *data, unsigned long val)
{
	atomic_long_inc(&tpss_plain_hits);
}

static void tpss_cmd_plain_reg(struct tpss_file *tf, bool sync)
{
	s64 start, reg_ns, end, sync_ns = 0;
	int reg, unreg = 0;

	mutex_lock(&tpss_plain_mutex);
	atomic_long_set(&tpss_plain_hits, 0);
	start = ktime_get_ns();
	reg = register_trace_tpss_plain(tpss_plain_probe, NULL);
	reg_ns = ktime_get_ns();
	if (!reg) {
		trace_tpss_plain(1);
		unreg = unregister_trace_tpss_plain(tpss_plain_probe, NULL);
	}
	end = ktime_get_ns();
	/*
	 * plain_reg: no tracepoint_synchronize_unregister() here, it would
	 * wait for a blocked probe that was unregistered (tpst_uffd resolve
	 * unregisters F first).  The probe is code of this module, and
	 * module_exit synchronizes.  plain_sync: it is called, and must not
	 * wait for a sleeping probe that is still connected (tpst_fuse).
	 */
	if (sync) {
		tracepoint_synchronize_unregister();
		sync_ns = ktime_get_ns();
	}
	mutex_unlock(&tpss_plain_mutex);
	tpss_out(tf, "%s reg=%d unreg=%d hits=%ld",
		 sync ? "plain_sync" : "plain_reg", reg, unreg,
		 atomic_long_read(&tpss_plain_hits));
	tpss_out(tf, " start_ns=%lld reg_ret_ns=%lld end_ns=%lld sync_ret_ns=%lld\n",
		 start, reg_ns, end, sync_ns);
}

/* ---- prio: a second sleepable probe on sys_enter, first in the array ---- */

struct tpss_prio {
	atomic_long_t hits;
};

static struct tpss_prio tpss_prio;
static DEFINE_MUTEX(tpss_prio_mutex);
static bool tpss_prio_registered;	/* under tpss_prio_mutex */

static void tpss_prio_probe(void *data, struct pt_regs *regs, long id)
{
	struct tpss_prio *p = data;

	atomic_long_inc(&p->hits);
}

/*
 * The number of probes sys_enter has now (-1 if unknown); *@first (if not
 * NULL) tells whether P is the first.  For the report only: the array can
 * change right after.  Old arrays are freed after a Tasks Trace grace
 * period (may-sleep tracepoints) or an RCU one.
 */
static int tpss_sys_enter_probes(bool *first)
{
	int n = -1;
#ifdef TPST_HAVE_MAYSLEEP
	struct tracepoint_func *funcs;

	rcu_read_lock_trace();
	rcu_read_lock();
	funcs = rcu_dereference_raw(tp_sys_enter->funcs);
	if (first)
		*first = funcs && funcs[0].func == (void *)tpss_prio_probe &&
			 funcs[0].data == &tpss_prio;
	for (n = 0; funcs && funcs[n].func; n++)
		;
	rcu_read_unlock();
	rcu_read_unlock_trace();
#else
	if (first)
		*first = false;
#endif
	return n;
}

static void tpss_cmd_prio_reg(struct tpss_file *tf)
{
	int ret = -EBUSY;

	mutex_lock(&tpss_prio_mutex);
	if (!tpss_prio_registered) {
		atomic_long_set(&tpss_prio.hits, 0);
#ifdef TPST_HAVE_MAYSLEEP
		ret = tracepoint_probe_register_prio_maysleep(tp_sys_enter,
							      tpss_prio_probe,
							      &tpss_prio,
							      TRACEPOINT_DEFAULT_PRIO + 1);
#else
		ret = -EOPNOTSUPP;
#endif
		tpss_prio_registered = !ret;
	}
	mutex_unlock(&tpss_prio_mutex);
	tpss_out(tf, "prio_reg reg=%d prio=%d\n", ret,
		 TRACEPOINT_DEFAULT_PRIO + 1);
}

static void tpss_cmd_prio_unreg(struct tpss_file *tf)
{
	int unreg = -ENOENT, before = -1, after = -1;
	s64 start = 0, end = 0;
	bool first = false;

	mutex_lock(&tpss_prio_mutex);
	if (tpss_prio_registered) {
		before = tpss_sys_enter_probes(&first);
		start = ktime_get_ns();
		unreg = tracepoint_probe_unregister(tp_sys_enter,
						    tpss_prio_probe, &tpss_prio);
		end = ktime_get_ns();
		after = tpss_sys_enter_probes(NULL);
		tpss_prio_registered = false;
	}
	/*
	 * No tracepoint_synchronize_unregister(): it would wait for the
	 * blocked probe.  P and its data are static; module_exit
	 * synchronizes.
	 */
	mutex_unlock(&tpss_prio_mutex);
	tpss_out(tf, "prio_unreg unreg=%d probes_before=%d first=%d probes_after=%d hits=%ld",
		 unreg, before, first, after, atomic_long_read(&tpss_prio.hits));
	tpss_out(tf, " unreg_start_ns=%lld unreg_ret_ns=%lld\n", start, end);
}

/* ---- bad: copies from the pointer arguments a thread passes ---- */

struct tpss_bad {
	/* under tpss_bad_mutex, before registration */
	pid_t pid;
	bool sleepy;
	bool registered;
	/*
	 * Written by the probe, which only acts in thread @pid, read by
	 * bad_get from the same thread after the system call returned.
	 */
	int calls;
	long nr;
	unsigned long addr;
	size_t len;
	int preemptible;
	long copy_left;		/* copy_from_user(): bytes not copied */
	long str_ret;		/* strncpy_from_user() */
	long nf_ret;		/* copy_from_user_nofault() */
	u8 buf[TPSS_MAX_LEN];
	char str[TPSS_STR_LEN];
};

static struct tpss_bad tpss_bad;
static DEFINE_MUTEX(tpss_bad_mutex);

static void tpss_bad_probe(void *data, struct pt_regs *regs, long id)
{
	struct tpss_bad *b = data;
	unsigned long args[6];
	u8 tmp[TPSS_MAX_LEN];
	const void __user *uptr;
	size_t len;
	int idx;

	if (current->pid != b->pid)
		return;
	switch (id) {
	case __NR_openat:
	case __NR_newfstatat:
		idx = 1;
		len = TPSS_MAX_LEN;
		break;
	case __NR_openat2:
		idx = 2;
		len = TPSS_OPEN_HOW_SIZE;
		break;
	default:
		return;
	}
	syscall_get_arguments(current, regs, args);
	uptr = (const void __user *)args[idx];
	b->calls++;
	b->nr = id;
	b->addr = args[idx];
	b->len = len;
	b->preemptible = preemptible();
	memset(b->buf, 0, sizeof(b->buf));
	memset(b->str, 0, sizeof(b->str));
	b->copy_left = -1;
	b->str_ret = 0;
	if (b->sleepy && b->preemptible) {
		b->copy_left = copy_from_user(b->buf, uptr, len);
		b->str_ret = strncpy_from_user(b->str, uptr, sizeof(b->str));
		/* bytes= shows what copy_from_user() copied */
		b->nf_ret = copy_from_user_nofault(tmp, uptr, len);
	} else {
		b->nf_ret = copy_from_user_nofault(b->buf, uptr, len);
	}
}

static int tpss_bad_unregister(void)
{
	int ret;

	if (!tpss_bad.registered)
		return -ENOENT;
	ret = tracepoint_probe_unregister(tp_sys_enter, tpss_bad_probe,
					  &tpss_bad);
	tracepoint_synchronize_unregister();
	tpss_bad.registered = false;
	return ret;
}

static int tpss_cmd_bad_arm(struct tpss_file *tf, const char *mode)
{
	struct tpss_bad *b = &tpss_bad;
	bool sleepy = !strcmp(mode, "sleepy");
	int ret;

	if (!sleepy && strcmp(mode, "nofault"))
		return -EINVAL;
	tpss_ord_exit();
	mutex_lock(&tpss_bad_mutex);
	tpss_bad_unregister();
	memset(b, 0, sizeof(*b));
	b->pid = current->pid;
	b->sleepy = sleepy;
	ret = tpss_register(tp_sys_enter, tpss_bad_probe, b, sleepy);
	b->registered = !ret;
	mutex_unlock(&tpss_bad_mutex);
	tpss_out(tf, "bad_arm mode=%s reg=%d\n", mode, ret);
	return 0;
}

static void tpss_cmd_bad_get(struct tpss_file *tf)
{
	struct tpss_bad *b = &tpss_bad;
	char hex[2 * TPSS_MAX_LEN + 1];

	mutex_lock(&tpss_bad_mutex);
	*bin2hex(hex, b->buf, min_t(size_t, b->len, TPSS_MAX_LEN)) = '\0';
	tpss_out(tf, "bad_get calls=%d nr=%ld addr=%lx len=%zu preemptible=%d",
		 b->calls, b->nr, b->addr, b->len, b->preemptible);
	tpss_out(tf, " copy_left=%ld str_ret=%ld nf_ret=%ld bytes=%s\n",
		 b->copy_left, b->str_ret, b->nf_ret, hex);
	mutex_unlock(&tpss_bad_mutex);
}

static void tpss_cmd_bad_disarm(struct tpss_file *tf)
{
	int ret;

	mutex_lock(&tpss_bad_mutex);
	ret = tpss_bad_unregister();
	mutex_unlock(&tpss_bad_mutex);
	tpss_out(tf, "bad_disarm unreg=%d\n", ret);
}

/* ---- hang: a sleepable probe that does not return ---- */

static DEFINE_MUTEX(tpss_hang_mutex);
static DECLARE_WAIT_QUEUE_HEAD(tpss_hang_wq);
static bool tpss_hang_registered;	/* under tpss_hang_mutex */
static bool tpss_hang_release;
static pid_t tpss_hang_tgid;
static atomic_t tpss_hang_hits;

static void tpss_hang_probe(void *data, struct pt_regs *regs, long id)
{
	if (id != __NR_getppid || current->tgid != READ_ONCE(tpss_hang_tgid))
		return;
	if (atomic_inc_return(&tpss_hang_hits) != 1 || !preemptible())
		return;
	pr_info("hang probe entered in %s[%d]: blocks until the task is killed or the module removed\n",
		current->comm, current->pid);
	/* TASK_KILLABLE: a wait that is meant to be long, not a hung task. */
	if (wait_event_killable(tpss_hang_wq, READ_ONCE(tpss_hang_release)))
		pr_info("hang probe: fatal signal, leaving\n");
	else
		pr_info("hang probe: released, leaving\n");
}

static void tpss_hang_unregister(void)
{
	if (!tpss_hang_registered)
		return;
	WRITE_ONCE(tpss_hang_release, true);
	wake_up_all(&tpss_hang_wq);
	tracepoint_probe_unregister(tp_sys_enter, tpss_hang_probe, NULL);
	tracepoint_synchronize_unregister();
	tpss_hang_registered = false;
}

static void tpss_cmd_hang_arm(struct tpss_file *tf)
{
	int ret;

	mutex_lock(&tpss_hang_mutex);
	tpss_hang_unregister();
	WRITE_ONCE(tpss_hang_release, false);
	WRITE_ONCE(tpss_hang_tgid, current->tgid);
	atomic_set(&tpss_hang_hits, 0);
	ret = tpss_register(tp_sys_enter, tpss_hang_probe, NULL, true);
	tpss_hang_registered = !ret;
	mutex_unlock(&tpss_hang_mutex);
	tpss_out(tf, "hang_arm reg=%d\n", ret);
}

/* ---- control file ---- */

static int tpss_run(struct tpss_file *tf, char *cmd)
{
	char mode[16];
	unsigned long addr;
	size_t len;
	int tgid;

	if (sscanf(cmd, "fault_arm %d %lx %zu", &tgid, &addr, &len) == 3) {
		if (tgid <= 0 || len == 0 || len > TPSS_MAX_LEN)
			return -EINVAL;
		return tpss_cmd_fault_arm(tf, tgid, addr, len);
	} else if (!strcmp(cmd, "fault_wait")) {
		tpss_cmd_fault_wait(tf);
	} else if (!strcmp(cmd, "fault_snap")) {
		tpss_cmd_fault_snap(tf);
	} else if (!strcmp(cmd, "fault_unreg")) {
		tpss_cmd_fault_unreg(tf);
	} else if (!strcmp(cmd, "fault_disarm")) {
		tpss_cmd_fault_disarm(tf);
	} else if (sscanf(cmd, "ord_arm %d", &tgid) == 1) {
		if (tgid <= 0)
			return -EINVAL;
		tpss_cmd_ord_arm(tf, tgid);
	} else if (!strcmp(cmd, "ord_unreg")) {
		tpss_cmd_ord_unreg(tf);
	} else if (!strcmp(cmd, "ord_report")) {
		tpss_cmd_ord_report(tf);
	} else if (!strcmp(cmd, "plain_reg")) {
		tpss_cmd_plain_reg(tf, false);
	} else if (!strcmp(cmd, "plain_sync")) {
		tpss_cmd_plain_reg(tf, true);
	} else if (!strcmp(cmd, "prio_reg")) {
		tpss_cmd_prio_reg(tf);
	} else if (!strcmp(cmd, "prio_unreg")) {
		tpss_cmd_prio_unreg(tf);
	} else if (sscanf(cmd, "bad_arm %15s", mode) == 1) {
		return tpss_cmd_bad_arm(tf, mode);
	} else if (!strcmp(cmd, "bad_get")) {
		tpss_cmd_bad_get(tf);
	} else if (!strcmp(cmd, "bad_disarm")) {
		tpss_cmd_bad_disarm(tf);
	} else if (!strcmp(cmd, "hang_arm")) {
		tpss_cmd_hang_arm(tf);
	} else {
		return -EINVAL;
	}
	return 0;
}

static int tpss_open(struct inode *inode, struct file *file)
{
	struct tpss_file *tf = kzalloc(sizeof(*tf), GFP_KERNEL);

	if (!tf)
		return -ENOMEM;
	mutex_init(&tf->lock);
	file->private_data = tf;
	return 0;
}

static int tpss_release(struct inode *inode, struct file *file)
{
	struct tpss_file *tf = file->private_data;

	mutex_destroy(&tf->lock);
	kfree(tf);
	return 0;
}

static ssize_t tpss_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	struct tpss_file *tf = file->private_data;
	char cmd[TPSS_CMD_SIZE];
	int ret;

	if (count >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, count))
		return -EFAULT;
	cmd[count] = '\0';

	if (mutex_lock_interruptible(&tf->lock))
		return -EINTR;
	tf->len = 0;
	tf->buf[0] = '\0';
	ret = tpss_run(tf, strim(cmd));
	if (ret)
		tpss_out(tf, "error=%d\n", ret);
	mutex_unlock(&tf->lock);
	return ret ? ret : count;
}

static ssize_t tpss_read(struct file *file, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	struct tpss_file *tf = file->private_data;
	ssize_t ret;

	if (mutex_lock_interruptible(&tf->lock))
		return -EINTR;
	ret = simple_read_from_buffer(ubuf, count, ppos, tf->buf, tf->len);
	mutex_unlock(&tf->lock);
	return ret;
}

static const struct proc_ops tpss_proc_ops = {
	.proc_open	= tpss_open,
	.proc_release	= tpss_release,
	.proc_read	= tpss_read,
	.proc_write	= tpss_write,
	.proc_lseek	= default_llseek,
};

static struct proc_dir_entry *tpss_proc;

static int __init tpss_init(void)
{
	int ret = tpsleep_module_init("tpsleep_stress", &tpss_proc_ops, &tpss_proc);

	if (!ret)
		pr_info("loaded (may-sleep API: %s)\n",
			tpss_have_maysleep() ? "yes" : "no");
	return ret;
}

static void __exit tpss_exit(void)
{
	/* Waits for the commands in flight; none can start afterwards. */
	proc_remove(tpss_proc);

	/* Each waits for the probe calls in progress (Tasks Trace too). */
	mutex_lock(&tpss_hang_mutex);
	tpss_hang_unregister();
	mutex_unlock(&tpss_hang_mutex);
	mutex_lock(&tpss_fault_mutex);
	tpss_fault_unregister_all();
	mutex_unlock(&tpss_fault_mutex);
	mutex_lock(&tpss_bad_mutex);
	tpss_bad_unregister();
	mutex_unlock(&tpss_bad_mutex);
	mutex_lock(&tpss_prio_mutex);
	if (tpss_prio_registered)
		tracepoint_probe_unregister(tp_sys_enter, tpss_prio_probe,
					    &tpss_prio);
	tpss_prio_registered = false;
	mutex_unlock(&tpss_prio_mutex);
	/*
	 * plain_reg and prio_unreg do not synchronize: their probes may still
	 * be running.
	 */
	tracepoint_synchronize_unregister();
	pr_info("unloaded\n");
}

module_init(tpss_init);
module_exit(tpss_exit);

MODULE_DESCRIPTION("Stress probes for may-sleep (sleepable) tracepoints");
MODULE_AUTHOR("tpsleep test suite");
MODULE_LICENSE("GPL");
