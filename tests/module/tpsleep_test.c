// SPDX-License-Identifier: GPL-2.0
/*
 * tpsleep_test - exercise may-sleep ("sleepable") tracepoints.
 *
 * Control file /proc/tpsleep_test: write one command, then read back the
 * result lines of the last command (space separated key=value pairs).  The
 * module judges nothing; the guest check script and the tpst_* programs do.
 *
 *   matrix
 *	First "api maysleep=0|1": was the module built with the may-sleep
 *	API (detected by Kbuild).  Then for each tracepoint (sys_enter,
 *	sys_exit, sched_switch and the two defined here, tpst_plain and
 *	tpst_maysleep) x {normal, sleepable} probe x {plain, prio, may_exist}
 *	registration function, one line
 *	"matrix TP KIND API RET UNREG": RET is the registration's return value
 *	("na" without the may-sleep API), UNREG the return value of the
 *	unregistration done after a successful registration ("none" if
 *	nothing was registered).  tracepoint_synchronize_unregister() is
 *	called after every unregistration.
 *   arm sleepy|nofault ADDR LEN
 *	Register a probe on sys_enter that acts once, on openat() of the
 *	writer's thread group whose filename argument is ADDR (hex).  The
 *	"nofault" probe is a normal probe and reads LEN bytes at ADDR with
 *	copy_from_user_nofault(); the "sleepy" probe is registered with
 *	tracepoint_probe_register_maysleep() and first tries the same
 *	nofault copy, then msleep(20) and copy_from_user().
 *   disarm
 *	Unregister the armed probe, synchronize and report what it saw.
 *   local_nofault ADDR LEN
 *	Fire tpst_plain, an ordinary tracepoint of this module, from this
 *	write with a normal probe attached that does copy_from_user_nofault().
 *   local_maysleep
 *	Fire tpst_maysleep, a may-sleep tracepoint of this module, with a
 *	sleepable probe attached (needs the may-sleep API).
 *   sleeper_arm MS
 *	Register a sleepable probe on sys_enter that acts once, on getppid()
 *	of the writer's thread group: it records its entry time, sleeps MS
 *	milliseconds and records its exit time.
 *   sleeper_wait
 *	Wait (at most 10 s) until that probe has been entered.
 *   sleeper_unreg
 *	Wait as sleeper_wait, then unregister it, synchronize and report the
 *	probe's and the unregistration's timestamps (ktime_get_ns(), that is
 *	CLOCK_MONOTONIC).  If the sleeper is still registered at module exit,
 *	module_exit unregisters and synchronizes, so rmmod must wait for it.
 *   transitions sleepy|normal|mixed CYCLES MAXSEC
 *	With two probes A and B whose data are distinct cookies, go through
 *	{A} -> {A,B} -> {B} -> {} -> {A} (1->2->1->0->1 probes) CYCLES times
 *	(or for at most MAXSEC seconds, 1..1800): sleepable probes on sys_enter, or
 *	normal probes on sched_switch.  After each step but the one to {}
 *	it waits (up to 20 ms) for a call of a probe of the new set.  Each
 *	probe counts its calls and the calls whose data is not its own
 *	cookie.  mixed: on sys_enter, A sleeps (may-sleep API, a higher
 *	priority: first in {A,B}) and B does not (plain API, needs a kernel
 *	that accepts it there); each cycle is
 *	{} -> {X} -> {A,B} -> {Y} -> {}, X and Y taking turns through A and B;
 *	A counts its calls that were not preemptible, B those that were.
 *   idle_sleeper 1|0
 *	Connect (1) or disconnect (0) a probe on sys_enter that sleeps
 *	(may-sleep API) and does nothing: for the benchmarks' "a sleeping
 *	probe is attached" rows.  Reports on= and the return value.
 *   rcuidle MS
 *	Register a normal probe on irq_enable (an rcuidle tracepoint: the idle
 *	loop calls it while RCU is not watching) for MS milliseconds; report
 *	its calls, those from the idle task, and those in which
 *	rcu_is_watching() was false (overall and from the idle task).
 *   park 2to1|1to0to1
 *	(may-sleep API only) Deterministic transitions on tpst_maysleep.  A
 *	"parker" kthread calls the tracepoint by hand, as __DO_TRACE() does:
 *	under rcu_read_lock_trace() it loads funcs[0].data, then parks on a
 *	completion before making the static call with it.  Meanwhile a
 *	"changer" kthread changes the probes: 2to1 starts with probes A
 *	(higher priority, first) and B and unregisters A (2->1, the first
 *	data changes); 1to0to1 starts with A alone, unregisters it and
 *	registers B.  The command waits up to 300 ms for the change, then
 *	releases the parker.  Reports whether the parker loaded A's cookie,
 *	the change's return value and duration, whether it returned before
 *	the release, where the static call pointed then (iterator or the
 *	probe), the probes' calls and wrong-cookie calls, and whether the
 *	static call went direct to the remaining probe within 5 s after the
 *	parker left (the deferred switch).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/rcupdate_trace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include "tpsleep_tps.h"

#define TPST_RESULT_SIZE	4096
#define TPST_CMD_SIZE		128
#define TPST_MAX_LEN		128
#define TPST_MAGIC_A		0x7a7a7a7a1111aaaaUL
#define TPST_MAGIC_B		0x7b7b7b7b2222bbbbUL
#define TPST_MAYSLEEP_VAL	0x5eedUL

/* Ordinary tracepoint of this module, fired from the control file write. */
DECLARE_TRACE(tpst_plain,
	      TP_PROTO(unsigned long uaddr, size_t len),
	      TP_ARGS(uaddr, len));
DEFINE_TRACE(tpst_plain,
	     TP_PROTO(unsigned long uaddr, size_t len),
	     TP_ARGS(uaddr, len));

#ifdef TPST_HAVE_MAYSLEEP
/* May-sleep tracepoint of this module: tests the core patch by itself. */
DECLARE_TRACE_MAYSLEEP(tpst_maysleep,
		       TP_PROTO(unsigned long val),
		       TP_ARGS(val));
DEFINE_TRACE_MAYSLEEP(tpst_maysleep,
		      TP_PROTO(unsigned long val),
		      TP_ARGS(val));
#endif

#ifdef TPST_HAVE_MAYSLEEP
static const bool tpst_have_maysleep = true;
#else
static const bool tpst_have_maysleep;
#endif

/* Serializes the commands, the probe registrations and the result buffer. */
static DEFINE_MUTEX(tpst_mutex);
static char tpst_result[TPST_RESULT_SIZE];
static size_t tpst_result_len;

static __printf(1, 2) void tpst_out(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	tpst_result_len += vscnprintf(tpst_result + tpst_result_len,
				      sizeof(tpst_result) - tpst_result_len,
				      fmt, args);
	va_end(args);
}

/* Append " bytes=HEX" for @len bytes of @buf. */
static void tpst_out_hex(const u8 *buf, size_t len)
{
	char hex[2 * TPST_MAX_LEN + 1];

	*bin2hex(hex, buf, len) = '\0';
	tpst_out(" bytes=%s", hex);
}

/* ---- registration through the normal or the may-sleep API ---- */

enum tpst_api { TPST_API_PLAIN, TPST_API_PRIO, TPST_API_MAY_EXIST, TPST_NR_API };
static const char * const tpst_api_name[TPST_NR_API] = {
	"plain", "prio", "may_exist",
};

static int tpst_register(struct tracepoint *tp, void *probe, void *data,
			 bool sleepable, enum tpst_api api)
{
	const int prio = TRACEPOINT_DEFAULT_PRIO;

	if (!sleepable) {
		switch (api) {
		case TPST_API_PLAIN:
			return tracepoint_probe_register(tp, probe, data);
		case TPST_API_PRIO:
			return tracepoint_probe_register_prio(tp, probe, data,
							      prio);
		default:
			return tracepoint_probe_register_prio_may_exist(tp,
						probe, data, prio);
		}
	}
#ifdef TPST_HAVE_MAYSLEEP
	switch (api) {
	case TPST_API_PLAIN:
		return tracepoint_probe_register_maysleep(tp, probe, data);
	case TPST_API_PRIO:
		return tracepoint_probe_register_prio_maysleep(tp, probe, data,
							       prio);
	default:
		return tracepoint_probe_register_prio_may_exist_maysleep(tp,
						probe, data, prio);
	}
#else
	return -EOPNOTSUPP;
#endif
}

/* ---- matrix ---- */

static atomic_long_t tpst_mx_calls;

static void tpst_mx_sys_probe(void *data, struct pt_regs *regs, long id)
{
	atomic_long_inc(&tpst_mx_calls);
}

static void tpst_mx_sched_probe(void *data, bool preempt,
				struct task_struct *prev,
				struct task_struct *next,
				unsigned int prev_state)
{
	atomic_long_inc(&tpst_mx_calls);
}

static void tpst_mx_plain_probe(void *data, unsigned long uaddr, size_t len)
{
	atomic_long_inc(&tpst_mx_calls);
}

static void __maybe_unused tpst_mx_maysleep_probe(void *data,
						  unsigned long val)
{
	atomic_long_inc(&tpst_mx_calls);
}

static void tpst_matrix_tp(const char *name, struct tracepoint *tp,
			   void *probe)
{
	int kind, api, ret, unreg;

	for (kind = 0; kind < 2; kind++) {
		for (api = 0; api < TPST_NR_API; api++) {
			tpst_out("matrix %s %s %s ", name,
				 kind ? "sleepable" : "normal",
				 tpst_api_name[api]);
			if (kind && !tpst_have_maysleep) {
				tpst_out("na none\n");
				continue;
			}
			ret = tpst_register(tp, probe, NULL, kind, api);
			tpst_out("%d ", ret);
			if (ret) {
				tpst_out("none\n");
				continue;
			}
			unreg = tracepoint_probe_unregister(tp, probe, NULL);
			tracepoint_synchronize_unregister();
			tpst_out("%d\n", unreg);
		}
	}
}

static void tpst_cmd_matrix(void)
{
	tpst_out("api maysleep=%d\n", tpst_have_maysleep);
	tpst_matrix_tp("sys_enter", tp_sys_enter, tpst_mx_sys_probe);
	tpst_matrix_tp("sys_exit", tp_sys_exit, tpst_mx_sys_probe);
	tpst_matrix_tp("sched_switch", tp_sched_switch, tpst_mx_sched_probe);
	tpst_matrix_tp("tpst_plain", &__tracepoint_tpst_plain,
		       tpst_mx_plain_probe);
#ifdef TPST_HAVE_MAYSLEEP
	tpst_matrix_tp("tpst_maysleep", &__tracepoint_tpst_maysleep,
		       tpst_mx_maysleep_probe);
#endif
}

/* ---- arm/disarm: a probe on sys_enter for one openat() ---- */

struct tpst_arm {
	/* set before registration */
	pid_t tgid;
	unsigned long uaddr;
	size_t len;
	bool sleepy;
	bool registered;
	/* set by the one probe call that claims the event */
	atomic_t hits;
	int preemptible;
	int rcu_trace_held;
	long nofault_ret;
	unsigned long copy_left;
	s64 slept_ns;
	u8 buf[TPST_MAX_LEN];
};

static struct tpst_arm tpst_arm;

/* Is this the openat() the armed probe waits for?  Claims it if so. */
static bool tpst_arm_match(struct tpst_arm *a, struct pt_regs *regs, long id)
{
	unsigned long args[6];

	if (id != __NR_openat || current->tgid != a->tgid)
		return false;
	syscall_get_arguments(current, regs, args);
	if (args[1] != a->uaddr)
		return false;
	if (atomic_inc_return(&a->hits) != 1)
		return false;
	a->preemptible = preemptible();
	a->rcu_trace_held = rcu_read_lock_trace_held();
	return true;
}

static void tpst_arm_nofault_probe(void *data, struct pt_regs *regs, long id)
{
	struct tpst_arm *a = data;

	if (!tpst_arm_match(a, regs, id))
		return;
	a->nofault_ret = copy_from_user_nofault(a->buf, (const void __user *)a->uaddr,
						a->len);
}

static void tpst_arm_sleepy_probe(void *data, struct pt_regs *regs, long id)
{
	struct tpst_arm *a = data;
	const void __user *uptr;
	ktime_t t0;

	if (!tpst_arm_match(a, regs, id))
		return;
	uptr = (const void __user *)a->uaddr;
	/* The page is not resident yet: this must fail. */
	a->nofault_ret = copy_from_user_nofault(a->buf, uptr, a->len);
	memset(a->buf, 0, sizeof(a->buf));
	/* Do not turn a context bug into a splat: the check reports it. */
	if (!a->preemptible)
		return;
	t0 = ktime_get();
	msleep(20);
	a->slept_ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	a->copy_left = copy_from_user(a->buf, uptr, a->len);
}

static void *tpst_arm_probe(void)
{
	return tpst_arm.sleepy ? (void *)tpst_arm_sleepy_probe :
				 (void *)tpst_arm_nofault_probe;
}

static int tpst_arm_disarm(void)
{
	int ret;

	if (!tpst_arm.registered)
		return -ENOENT;
	ret = tracepoint_probe_unregister(tp_sys_enter, tpst_arm_probe(),
					  &tpst_arm);
	tracepoint_synchronize_unregister();
	tpst_arm.registered = false;
	return ret;
}

static void tpst_cmd_arm(const char *mode, unsigned long uaddr, size_t len)
{
	int ret;

	if (tpst_arm.registered)
		tpst_arm_disarm();
	memset(&tpst_arm, 0, sizeof(tpst_arm));
	tpst_arm.tgid = current->tgid;
	tpst_arm.uaddr = uaddr;
	tpst_arm.len = len;
	tpst_arm.sleepy = !strcmp(mode, "sleepy");
	ret = tpst_register(tp_sys_enter, tpst_arm_probe(), &tpst_arm,
			    tpst_arm.sleepy, TPST_API_PLAIN);
	tpst_arm.registered = !ret;
	tpst_out("arm mode=%s reg=%d\n", mode, ret);
}

static void tpst_cmd_disarm(void)
{
	struct tpst_arm *a = &tpst_arm;
	bool sleepy = a->sleepy;
	int unreg;

	unreg = tpst_arm_disarm();
	tpst_out("disarm mode=%s unreg=%d hits=%d", sleepy ? "sleepy" : "nofault",
		 unreg, atomic_read(&a->hits));
	tpst_out(" preemptible=%d rcu_trace_held=%d", a->preemptible,
		 a->rcu_trace_held);
	tpst_out(" nofault_ret=%ld copy_left=%lu slept_ns=%lld", a->nofault_ret,
		 a->copy_left, a->slept_ns);
	tpst_out_hex(a->buf, a->len);
	tpst_out("\n");
}

/* ---- local_nofault / local_maysleep: the module's own tracepoints ---- */

struct tpst_local {
	int hits;
	int preemptible;
	int rcu_trace_held;
	long ret;
	unsigned long val;
	s64 slept_ns;
	u8 buf[TPST_MAX_LEN];
};

static void tpst_local_nofault_probe(void *data, unsigned long uaddr,
				     size_t len)
{
	struct tpst_local *l = data;

	l->hits++;
	l->preemptible = preemptible();
	l->rcu_trace_held = rcu_read_lock_trace_held();
	l->ret = copy_from_user_nofault(l->buf, (const void __user *)uaddr,
					len);
}

static void tpst_cmd_local_nofault(unsigned long uaddr, size_t len)
{
	struct tpst_local l = { };
	int ret, unreg = 0;

	ret = register_trace_tpst_plain(tpst_local_nofault_probe, &l);
	if (!ret) {
		trace_tpst_plain(uaddr, len);
		unreg = unregister_trace_tpst_plain(tpst_local_nofault_probe,
						    &l);
		tracepoint_synchronize_unregister();
	}
	tpst_out("local_nofault reg=%d unreg=%d hits=%d", ret, unreg, l.hits);
	tpst_out(" preemptible=%d rcu_trace_held=%d nofault_ret=%ld",
		 l.preemptible, l.rcu_trace_held, l.ret);
	tpst_out_hex(l.buf, len);
	tpst_out("\n");
}

#ifdef TPST_HAVE_MAYSLEEP
static void tpst_local_maysleep_probe(void *data, unsigned long val)
{
	struct tpst_local *l = data;
	ktime_t t0;

	l->hits++;
	l->val = val;
	l->preemptible = preemptible();
	l->rcu_trace_held = rcu_read_lock_trace_held();
	if (!l->preemptible)
		return;
	t0 = ktime_get();
	usleep_range(1000, 2000);
	l->slept_ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
}

static void tpst_cmd_local_maysleep(void)
{
	struct tpst_local l = { };
	int ret, unreg = 0;

	ret = register_trace_maysleep_tpst_maysleep(tpst_local_maysleep_probe,
						    &l);
	if (!ret) {
		trace_tpst_maysleep(TPST_MAYSLEEP_VAL);
		unreg = unregister_trace_tpst_maysleep(tpst_local_maysleep_probe,
						       &l);
		tracepoint_synchronize_unregister();
	}
	tpst_out("local_maysleep reg=%d unreg=%d hits=%d", ret, unreg, l.hits);
	tpst_out(" preemptible=%d rcu_trace_held=%d", l.preemptible,
		 l.rcu_trace_held);
	tpst_out(" val_ok=%d slept_ns=%lld\n", l.val == TPST_MAYSLEEP_VAL,
		 l.slept_ns);
}
#else
static void tpst_cmd_local_maysleep(void)
{
	tpst_out("local_maysleep reg=%d\n", -EOPNOTSUPP);
}
#endif

/* ---- sleeper: a sleepable probe that sleeps in getppid() ---- */

struct tpst_sleeper {
	pid_t tgid;
	unsigned int sleep_ms;
	bool registered;
	atomic_t hits;
	int entered;		/* smp_store_release() by the probe */
	int preemptible;
	s64 enter_ns;
	s64 exit_ns;
};

static struct tpst_sleeper tpst_sleeper;
static DECLARE_WAIT_QUEUE_HEAD(tpst_sleeper_wq);

static void tpst_sleeper_probe(void *data, struct pt_regs *regs, long id)
{
	struct tpst_sleeper *s = data;

	if (id != __NR_getppid || current->tgid != s->tgid)
		return;
	if (atomic_inc_return(&s->hits) != 1)
		return;
	s->preemptible = preemptible();
	s->enter_ns = ktime_get_ns();
	/* Publish enter_ns and preemptible; pairs with tpst_sleeper_wait(). */
	smp_store_release(&s->entered, 1);
	wake_up(&tpst_sleeper_wq);
	if (!s->preemptible)
		return;
	msleep(s->sleep_ms);
	WRITE_ONCE(s->exit_ns, ktime_get_ns());
}

static int tpst_sleeper_unregister(void)
{
	int ret;

	if (!tpst_sleeper.registered)
		return -ENOENT;
	ret = tracepoint_probe_unregister(tp_sys_enter, tpst_sleeper_probe,
					  &tpst_sleeper);
	tracepoint_synchronize_unregister();
	tpst_sleeper.registered = false;
	return ret;
}

static void tpst_cmd_sleeper_arm(unsigned int ms)
{
	int ret;

	if (tpst_sleeper.registered)
		tpst_sleeper_unregister();
	memset(&tpst_sleeper, 0, sizeof(tpst_sleeper));
	tpst_sleeper.tgid = current->tgid;
	tpst_sleeper.sleep_ms = ms;
	ret = tpst_register(tp_sys_enter, tpst_sleeper_probe, &tpst_sleeper,
			    true, TPST_API_PLAIN);
	tpst_sleeper.registered = !ret;
	tpst_out("sleeper_arm reg=%d sleep_ms=%u\n", ret, ms);
}

static bool tpst_sleeper_entered(void)
{
	/* Pairs with the probe's smp_store_release(): enter_ns is valid. */
	return smp_load_acquire(&tpst_sleeper.entered);
}

static bool tpst_sleeper_wait(void)
{
	if (!tpst_sleeper.registered)
		return false;
	wait_event_interruptible_timeout(tpst_sleeper_wq,
					 tpst_sleeper_entered(), 10 * HZ);
	return tpst_sleeper_entered();
}

static void tpst_cmd_sleeper_wait(void)
{
	bool entered = tpst_sleeper_wait();

	tpst_out("sleeper_wait entered=%d enter_ns=%lld sleep_ms=%u preemptible=%d\n",
		 entered, entered ? tpst_sleeper.enter_ns : 0,
		 tpst_sleeper.sleep_ms, tpst_sleeper.preemptible);
}

static void tpst_cmd_sleeper_unreg(void)
{
	struct tpst_sleeper *s = &tpst_sleeper;
	s64 start_ns, ret_ns;
	bool entered;
	int unreg;

	entered = tpst_sleeper_wait();
	start_ns = ktime_get_ns();
	unreg = tpst_sleeper_unregister();
	ret_ns = ktime_get_ns();
	tpst_out("sleeper_unreg entered=%d unreg=%d preemptible=%d sleep_ms=%u",
		 entered, unreg, s->preemptible, s->sleep_ms);
	tpst_out(" enter_ns=%lld exit_ns=%lld", entered ? s->enter_ns : 0,
		 READ_ONCE(s->exit_ns));
	tpst_out(" unreg_start_ns=%lld sync_ret_ns=%lld\n", start_ns, ret_ns);
}

/* ---- transitions ---- */

struct tpst_cookie {
	unsigned long magic;
};

static const struct tpst_cookie tpst_cookie[2] = {
	{ .magic = TPST_MAGIC_A },
	{ .magic = TPST_MAGIC_B },
};

static atomic_long_t tpst_tr_calls[2];
static atomic_long_t tpst_tr_bad[2];
static atomic_long_t tpst_tr_atomic;	/* sleepable probe not preemptible */
static atomic_long_t tpst_tr_slept;

/* Is @data probe @i's own cookie?  Counts the call either way. */
static bool tpst_tr_check(int i, void *data)
{
	const struct tpst_cookie *c = data;
	const unsigned long magic = i ? TPST_MAGIC_B : TPST_MAGIC_A;

	atomic_long_inc(&tpst_tr_calls[i]);
	if (c != &tpst_cookie[i] || READ_ONCE(c->magic) != magic) {
		atomic_long_inc(&tpst_tr_bad[i]);
		return false;
	}
	return true;
}

static void tpst_tr_sleepy(int i, void *data)
{
	if (!tpst_tr_check(i, data))
		return;
	if (!preemptible()) {
		atomic_long_inc(&tpst_tr_atomic);
		return;
	}
	/* Now and then, sleep inside the tracepoint. */
	if (!(atomic_long_read(&tpst_tr_calls[i]) & 63)) {
		usleep_range(20, 50);
		atomic_long_inc(&tpst_tr_slept);
	}
}

static void tpst_tr_sleepy_a(void *data, struct pt_regs *regs, long id)
{
	tpst_tr_sleepy(0, data);
}

static void tpst_tr_sleepy_b(void *data, struct pt_regs *regs, long id)
{
	tpst_tr_sleepy(1, data);
}

/* A probe that does not sleep, on sys_enter next to a sleeping one */
static atomic_long_t tpst_tr_preemptible;	/* it ran preemptible */

static void tpst_tr_atomic_b(void *data, struct pt_regs *regs, long id)
{
	if (!tpst_tr_check(1, data))
		return;
	if (preemptible())
		atomic_long_inc(&tpst_tr_preemptible);
}

static void tpst_tr_normal_a(void *data, bool preempt,
			     struct task_struct *prev,
			     struct task_struct *next, unsigned int prev_state)
{
	tpst_tr_check(0, data);
}

static void tpst_tr_normal_b(void *data, bool preempt,
			     struct task_struct *prev,
			     struct task_struct *next, unsigned int prev_state)
{
	tpst_tr_check(1, data);
}

struct tpst_tr {
	struct tracepoint *tp;
	bool sleepy[2];		/* probe i is registered as sleeping */
	bool first[2];		/* probe i goes before the other (priority) */
	void *probe[2];
	bool on[2];		/* probe i is registered */
};

static int tpst_tr_reg(struct tpst_tr *t, int i)
{
	int ret;

#ifdef TPST_HAVE_MAYSLEEP
	if (t->first[i] && t->sleepy[i])
		ret = tracepoint_probe_register_prio_maysleep(t->tp,
				t->probe[i], (void *)&tpst_cookie[i],
				TRACEPOINT_DEFAULT_PRIO + 1);
	else
#endif
		ret = tpst_register(t->tp, t->probe[i],
				    (void *)&tpst_cookie[i], t->sleepy[i],
				    TPST_API_PLAIN);

	if (!ret)
		t->on[i] = true;
	return ret;
}

static int tpst_tr_unreg(struct tpst_tr *t, int i)
{
	int ret = tracepoint_probe_unregister(t->tp, t->probe[i],
					      (void *)&tpst_cookie[i]);

	if (!ret)
		t->on[i] = false;
	return ret;
}

/*
 * Stay in the new state until probe @i has been called there (at most
 * 20 ms): a state can otherwise be too short-lived to see any call.
 */
static void tpst_tr_dwell(int i)
{
	long calls = atomic_long_read(&tpst_tr_calls[i]);
	unsigned long end = jiffies + msecs_to_jiffies(20);

	while (atomic_long_read(&tpst_tr_calls[i]) == calls &&
	       time_before(jiffies, end))
		usleep_range(50, 100);
}

/*
 * Whether @tp's static call selects its sleep iterator now (0012: while a
 * sleeping probe is connected).  Without HAVE_STATIC_CALL (arm64, riscv)
 * the key is only read by __DO_TRACE_CALL_MAYSLEEP() to choose between the
 * two iterators: the generic fallback this tells the checks ran.
 */
static bool tpst_tr_sleep_key(struct tracepoint *tp)
{
#ifdef TPST_HAVE_TPMODE
	return tp->sleep_iterator &&
	       READ_ONCE(tp->static_call_key->func) == tp->sleep_iterator;
#else
	return false;
#endif
}

static void tpst_cmd_transitions(const char *mode, unsigned int cycles,
				 unsigned int maxsec)
{
	long sleep_key = 0;
	unsigned long deadline = jiffies + maxsec * HZ;
	ktime_t t0 = ktime_get();
	unsigned int done = 0;
	struct tpst_tr t = { };
	int err = 0, unreg = 0, i, ret;
	bool mixed = !strcmp(mode, "mixed");

	if (!strcmp(mode, "sleepy")) {
		t.tp = tp_sys_enter;
		t.sleepy[0] = t.sleepy[1] = true;
		t.probe[0] = tpst_tr_sleepy_a;
		t.probe[1] = tpst_tr_sleepy_b;
	} else if (mixed) {
		/*
		 * A sleeps, B does not: every order of 0->1->2->1->0.  A goes
		 * first in {A,B}: a caller still on B's direct call would get
		 * A's data, one on the iterator would call A atomically.
		 */
		t.tp = tp_sys_enter;
		t.sleepy[0] = true;
		t.first[0] = true;
		t.probe[0] = tpst_tr_sleepy_a;
		t.probe[1] = tpst_tr_atomic_b;
	} else {
		t.tp = tp_sched_switch;
		t.probe[0] = tpst_tr_normal_a;
		t.probe[1] = tpst_tr_normal_b;
	}
	for (i = 0; i < 2; i++) {
		atomic_long_set(&tpst_tr_calls[i], 0);
		atomic_long_set(&tpst_tr_bad[i], 0);
	}
	atomic_long_set(&tpst_tr_atomic, 0);
	atomic_long_set(&tpst_tr_slept, 0);
	atomic_long_set(&tpst_tr_preemptible, 0);

	/*
	 * mixed: {} -> {X} -> {A,B} -> {Y} -> {}, X and Y each of A and B
	 * (the sleeping probe first in or not, first out or not).
	 */
	while (mixed && !err && done < cycles &&
	       !time_after(jiffies, deadline)) {
		int first = done & 1, last = (done >> 1) & 1;

		err = tpst_tr_reg(&t, first);
		if (err)
			break;
		tpst_tr_dwell(first);
		sleep_key += t.on[0] && tpst_tr_sleep_key(t.tp);
		err = tpst_tr_reg(&t, !first);
		if (err)
			break;
		tpst_tr_dwell(!first);
		err = tpst_tr_unreg(&t, !last);
		if (err)
			break;
		tpst_tr_dwell(last);
		err = tpst_tr_unreg(&t, last);
		if (!err)
			done++;
	}

	/* {} -> {A} */
	if (!mixed)
		err = tpst_tr_reg(&t, 0);
	while (!mixed && !err && done < cycles &&
	       !time_after(jiffies, deadline)) {
		tpst_tr_dwell(0);
		/* {A} -> {A,B}: 1->2 */
		err = tpst_tr_reg(&t, 1);
		if (err)
			break;
		tpst_tr_dwell(1);
		/* {A,B} -> {B}: 2->1, the remaining probe's data changes */
		err = tpst_tr_unreg(&t, 0);
		if (err)
			break;
		tpst_tr_dwell(1);
		/* {B} -> {}: 1->0 */
		err = tpst_tr_unreg(&t, 1);
		/* {} -> {A}: 0->1, another probe than the last one */
		if (!err)
			err = tpst_tr_reg(&t, 0);
		if (!err)
			done++;
	}
	for (i = 0; i < 2; i++) {
		if (!t.on[i])
			continue;
		ret = tpst_tr_unreg(&t, i);
		if (ret && !unreg)
			unreg = ret;
	}
	tracepoint_synchronize_unregister();
	tpst_out("transitions mode=%s tp=%s cycles=%u err=%d unreg=%d",
		 mode, t.tp->name, done, err, unreg);
	tpst_out(" calls_a=%ld calls_b=%ld",
		 atomic_long_read(&tpst_tr_calls[0]),
		 atomic_long_read(&tpst_tr_calls[1]));
	tpst_out(" bad_a=%ld bad_b=%ld",
		 atomic_long_read(&tpst_tr_bad[0]),
		 atomic_long_read(&tpst_tr_bad[1]));
	tpst_out(" not_preemptible=%ld slept=%ld atomic_preemptible=%ld",
		 atomic_long_read(&tpst_tr_atomic),
		 atomic_long_read(&tpst_tr_slept),
		 atomic_long_read(&tpst_tr_preemptible));
	tpst_out(" static_call=%d sleep_key=%ld",
		 IS_ENABLED(CONFIG_HAVE_STATIC_CALL), sleep_key);
	tpst_out(" ms=%lld\n", ktime_ms_delta(ktime_get(), t0));
}

/* ---- park: a caller parked between loading the data and the call ---- */

#ifdef TPST_HAVE_MAYSLEEP
struct tpst_park {
	struct completion parked, release, parker_done, changer_done;
	bool two_to_one;
	bool loaded_a;		/* the parker loaded A's cookie */
	bool called;		/* the parker made the static call */
	int change_ret;
	s64 change_ns;
	atomic_long_t calls[2], bad[2];
	atomic_long_t not_preemptible;
};

static struct tpst_park *tpst_park;

static void tpst_park_probe(int i, void *data)
{
	struct tpst_park *pk = READ_ONCE(tpst_park);

	if (!pk)
		return;
	atomic_long_inc(&pk->calls[i]);
	if (data != &tpst_cookie[i])
		atomic_long_inc(&pk->bad[i]);
	if (!preemptible())
		atomic_long_inc(&pk->not_preemptible);
}

static void tpst_park_probe_a(void *data, unsigned long val)
{
	tpst_park_probe(0, data);
}

static void tpst_park_probe_b(void *data, unsigned long val)
{
	tpst_park_probe(1, data);
}

/* A before B: A is the first probe, whose data the parker loads. */
static int tpst_park_reg(int i)
{
	void (*probe)(void *, unsigned long) = i ? tpst_park_probe_b :
						   tpst_park_probe_a;
	int prio = TRACEPOINT_DEFAULT_PRIO + (i ? 0 : 1);

	return register_trace_prio_maysleep_tpst_maysleep(probe,
			(void *)&tpst_cookie[i], prio);
}

static int tpst_parker(void *arg)
{
	struct tpst_park *pk = arg;
	struct tracepoint_func *funcs;
	void *data = NULL;

	rcu_read_lock_trace();
	funcs = rcu_dereference_raw(__tracepoint_tpst_maysleep.funcs);
	if (funcs)
		data = funcs->data;
	pk->loaded_a = data == &tpst_cookie[0];
	complete(&pk->parked);
	wait_for_completion_timeout(&pk->release, 10 * HZ);
	if (funcs) {
		static_call(tp_func_tpst_maysleep)(data, TPST_MAYSLEEP_VAL);
		pk->called = true;
	}
	rcu_read_unlock_trace();
	complete(&pk->parker_done);
	return 0;
}

static int tpst_park_changer(void *arg)
{
	struct tpst_park *pk = arg;
	u64 t0 = ktime_get_ns();
	int ret;

	ret = unregister_trace_tpst_maysleep(tpst_park_probe_a,
					     (void *)&tpst_cookie[0]);
	if (!ret && !pk->two_to_one)
		ret = tpst_park_reg(1);
	pk->change_ns = ktime_get_ns() - t0;
	pk->change_ret = ret;
	complete(&pk->changer_done);
	return 0;
}

/* Where tpst_maysleep's static call points: "iterator", "a", "b" or "?". */
static const char *tpst_park_target(void)
{
	void *f = READ_ONCE(__tracepoint_tpst_maysleep.static_call_key->func);

	if (f == __tracepoint_tpst_maysleep.iterator)
		return "iterator";
	if (f == tpst_park_probe_a)
		return "a";
	if (f == tpst_park_probe_b)
		return "b";
	return "?";
}

static void tpst_cmd_park(const char *mode)
{
	struct task_struct *parker, *changer;
	struct tpst_park *pk;
	bool early, a_on = false, b_on = false;
	const char *target;
	unsigned long end;
	int reg, unreg = 0;

	pk = kzalloc(sizeof(*pk), GFP_KERNEL);
	if (!pk) {
		tpst_out("park error=%d\n", -ENOMEM);
		return;
	}
	init_completion(&pk->parked);
	init_completion(&pk->release);
	init_completion(&pk->parker_done);
	init_completion(&pk->changer_done);
	pk->two_to_one = !strcmp(mode, "2to1");
	WRITE_ONCE(tpst_park, pk);

	reg = tpst_park_reg(0);
	a_on = !reg;
	if (!reg && pk->two_to_one) {
		reg = tpst_park_reg(1);
		b_on = !reg;
	}
	if (reg)
		goto out_err;

	parker = kthread_run(tpst_parker, pk, "tpst_parker");
	if (IS_ERR(parker)) {
		reg = PTR_ERR(parker);
		goto out_err;
	}
	wait_for_completion(&pk->parked);
	changer = kthread_run(tpst_park_changer, pk, "tpst_changer");
	if (IS_ERR(changer)) {
		/* The parker must not stay parked. */
		complete(&pk->release);
		wait_for_completion(&pk->parker_done);
		reg = PTR_ERR(changer);
		goto out_err;
	}
	early = wait_for_completion_timeout(&pk->changer_done,
					    msecs_to_jiffies(300));
	target = tpst_park_target();
	complete(&pk->release);
	wait_for_completion(&pk->parker_done);
	/* A completion counts: the first wait consumed it if it returned. */
	if (!early)
		wait_for_completion(&pk->changer_done);
	/* The changer unregistered A, then (1to0to1) registered B. */
	if (!pk->change_ret) {
		a_on = false;
		b_on = true;
	} else if (!pk->two_to_one) {
		a_on = false;	/* only B's registration can have failed */
	}

	/* The direct call comes back after a Tasks Trace grace period. */
	end = jiffies + 5 * HZ;
	while (strcmp(tpst_park_target(), "b") && time_before(jiffies, end))
		msleep(20);

	tpst_out("park mode=%s reg=0 loaded_a=%d change_ret=%d change_us=%lld",
		 mode, pk->loaded_a, pk->change_ret, pk->change_ns / 1000);
	tpst_out(" returned_early=%d target_at_release=%s called=%d",
		 early, target, pk->called);
	tpst_out(" calls_a=%ld calls_b=%ld bad_a=%ld bad_b=%ld",
		 atomic_long_read(&pk->calls[0]),
		 atomic_long_read(&pk->calls[1]),
		 atomic_long_read(&pk->bad[0]), atomic_long_read(&pk->bad[1]));
	tpst_out(" not_preemptible=%ld target_after=%s",
		 atomic_long_read(&pk->not_preemptible), tpst_park_target());
	reg = 0;
	goto out_unreg;

out_err:
	tpst_out("park mode=%s reg=%d", mode, reg);
out_unreg:
	if (a_on)
		unreg = unregister_trace_tpst_maysleep(tpst_park_probe_a,
						       (void *)&tpst_cookie[0]);
	if (b_on && !unreg)
		unreg = unregister_trace_tpst_maysleep(tpst_park_probe_b,
						       (void *)&tpst_cookie[1]);
	tpst_out(" unreg=%d\n", unreg);

	tracepoint_synchronize_unregister();
	WRITE_ONCE(tpst_park, NULL);
	kfree(pk);
}
#else
static void tpst_cmd_park(const char *mode)
{
	tpst_out("park mode=%s na=1\n", mode);
}
#endif

/* ---- rcuidle: is RCU watching in the probes of an rcuidle tracepoint? ---- */

static atomic_long_t tpst_ri_calls, tpst_ri_idle, tpst_ri_off, tpst_ri_idle_off;

/*
 * On irq_enable, which local_irq_enable() calls through
 * trace_irq_enable_rcuidle(), also from the idle loop where RCU is not
 * watching: the tracepoint must make it watch around its probes.
 */
static void tpst_ri_probe(void *data, unsigned long ip, unsigned long pip)
{
	bool idle = is_idle_task(current), off = !rcu_is_watching();

	atomic_long_inc(&tpst_ri_calls);
	if (idle)
		atomic_long_inc(&tpst_ri_idle);
	if (off)
		atomic_long_inc(&tpst_ri_off);
	if (idle && off)
		atomic_long_inc(&tpst_ri_idle_off);
}

/* ---- idle_sleeper: a probe that sleeps, connected, doing nothing ---- */

static bool tpst_idle_registered;

static void tpst_idle_probe(void *data, struct pt_regs *regs, long id)
{
	might_sleep();
}

static void tpst_cmd_idle_sleeper(bool on)
{
	int ret = 0;

	if (on && !tpst_idle_registered) {
		ret = tpst_register(tp_sys_enter, tpst_idle_probe, NULL, true,
				    TPST_API_PLAIN);
		tpst_idle_registered = !ret;
	} else if (!on && tpst_idle_registered) {
		ret = tracepoint_probe_unregister(tp_sys_enter, tpst_idle_probe,
						  NULL);
		tpst_idle_registered = false;
		tracepoint_synchronize_unregister();
	}
	tpst_out("idle_sleeper on=%d ret=%d\n", tpst_idle_registered, ret);
}

static void tpst_cmd_rcuidle(unsigned int ms)
{
	int reg, unreg = -1;

	if (!tp_irq_enable) {
		tpst_out("rcuidle reg=%d\n", -ENODEV);
		return;
	}
	atomic_long_set(&tpst_ri_calls, 0);
	atomic_long_set(&tpst_ri_idle, 0);
	atomic_long_set(&tpst_ri_off, 0);
	atomic_long_set(&tpst_ri_idle_off, 0);
	reg = tracepoint_probe_register(tp_irq_enable, tpst_ri_probe, NULL);
	if (!reg) {
		msleep(ms);
		unreg = tracepoint_probe_unregister(tp_irq_enable, tpst_ri_probe,
						    NULL);
		tracepoint_synchronize_unregister();
	}
	tpst_out("rcuidle reg=%d unreg=%d calls=%ld idle_calls=%ld not_watching=%ld idle_not_watching=%ld\n",
		 reg, unreg, atomic_long_read(&tpst_ri_calls),
		 atomic_long_read(&tpst_ri_idle), atomic_long_read(&tpst_ri_off),
		 atomic_long_read(&tpst_ri_idle_off));
}

/* ---- control file ---- */

static int tpst_run(char *cmd)
{
	char mode[16];
	unsigned long addr;
	unsigned int a, b;
	size_t len;

	if (!strcmp(cmd, "matrix")) {
		tpst_cmd_matrix();
	} else if (sscanf(cmd, "arm %15s %lx %zu", mode, &addr, &len) == 3) {
		if (len == 0 || len > TPST_MAX_LEN ||
		    (strcmp(mode, "sleepy") && strcmp(mode, "nofault")))
			return -EINVAL;
		tpst_cmd_arm(mode, addr, len);
	} else if (!strcmp(cmd, "disarm")) {
		tpst_cmd_disarm();
	} else if (sscanf(cmd, "local_nofault %lx %zu", &addr, &len) == 2) {
		if (len == 0 || len > TPST_MAX_LEN)
			return -EINVAL;
		tpst_cmd_local_nofault(addr, len);
	} else if (!strcmp(cmd, "local_maysleep")) {
		tpst_cmd_local_maysleep();
	} else if (sscanf(cmd, "sleeper_arm %u", &a) == 1) {
		if (a > 5000)
			return -EINVAL;
		tpst_cmd_sleeper_arm(a);
	} else if (!strcmp(cmd, "sleeper_wait")) {
		tpst_cmd_sleeper_wait();
	} else if (!strcmp(cmd, "sleeper_unreg")) {
		tpst_cmd_sleeper_unreg();
	} else if (sscanf(cmd, "transitions %15s %u %u", mode, &a, &b) == 3) {
		if ((strcmp(mode, "sleepy") && strcmp(mode, "normal") &&
		     strcmp(mode, "mixed")) ||
		    b == 0 || b > 1800)
			return -EINVAL;
		tpst_cmd_transitions(mode, a, b);
	} else if (sscanf(cmd, "rcuidle %u", &a) == 1) {
		if (a == 0 || a > 5000)
			return -EINVAL;
		tpst_cmd_rcuidle(a);
	} else if (sscanf(cmd, "idle_sleeper %u", &a) == 1) {
		tpst_cmd_idle_sleeper(a);
	} else if (sscanf(cmd, "park %15s", mode) == 1) {
		if (strcmp(mode, "2to1") && strcmp(mode, "1to0to1"))
			return -EINVAL;
		tpst_cmd_park(mode);
	} else {
		return -EINVAL;
	}
	return 0;
}

static ssize_t tpst_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	char cmd[TPST_CMD_SIZE];
	int ret;

	if (count >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, count))
		return -EFAULT;
	cmd[count] = '\0';

	if (mutex_lock_interruptible(&tpst_mutex))
		return -EINTR;
	tpst_result_len = 0;
	tpst_result[0] = '\0';
	ret = tpst_run(strim(cmd));
	if (ret)
		tpst_out("error=%d\n", ret);
	mutex_unlock(&tpst_mutex);
	return ret ? ret : count;
}

static ssize_t tpst_read(struct file *file, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	ssize_t ret;

	if (mutex_lock_interruptible(&tpst_mutex))
		return -EINTR;
	ret = simple_read_from_buffer(ubuf, count, ppos, tpst_result,
				      tpst_result_len);
	mutex_unlock(&tpst_mutex);
	return ret;
}

static const struct proc_ops tpst_proc_ops = {
	.proc_read	= tpst_read,
	.proc_write	= tpst_write,
	.proc_lseek	= default_llseek,
};

static struct proc_dir_entry *tpst_proc;

static int __init tpst_init(void)
{
	int ret = tpsleep_module_init("tpsleep_test", &tpst_proc_ops, &tpst_proc);

	if (!ret)
		pr_info("loaded (may-sleep API: %s)\n",
			tpst_have_maysleep ? "yes" : "no");
	return ret;
}

static void __exit tpst_exit(void)
{
	/* Waits for writers in flight; no command can start afterwards. */
	proc_remove(tpst_proc);

	mutex_lock(&tpst_mutex);
	/* Both synchronize: waits for a probe sleeping in the tracepoint. */
	if (tpst_arm.registered)
		tpst_arm_disarm();
	if (tpst_sleeper.registered)
		tpst_sleeper_unregister();
	if (tpst_idle_registered)
		tpst_cmd_idle_sleeper(false);
	mutex_unlock(&tpst_mutex);
	tracepoint_synchronize_unregister();
	pr_info("unloaded\n");
}

module_init(tpst_init);
module_exit(tpst_exit);

MODULE_DESCRIPTION("Tests for may-sleep (sleepable) tracepoints");
MODULE_AUTHOR("tpsleep test suite");
MODULE_LICENSE("GPL");
