// SPDX-License-Identifier: GPL-2.0
/*
 * tpsleep_class - a may-sleep event class with several events, and a BPF
 * program's lifetime on a may-sleep tracepoint.
 *
 * Built when the kernel has DEFINE_EVENT_MAYSLEEP() (patch 2).  Its events
 * (tpsleep_class.h): tpsc_a and tpsc_b, DEFINE_EVENT_MAYSLEEP()s of the
 * may-sleep class tpsc_class, and tpsc_plain, a DEFINE_EVENT() of the same
 * class, thus an ordinary tracepoint.  Their call sites are in
 * tpsleep_class_fire.c, compiled without CREATE_TRACE_POINTS.
 *
 * Control file /proc/tpsleep_class: write one command, read back one
 * result line of key=value pairs.
 *
 *   info
 *	Which of the three tracepoints are may-sleep.
 *   fire N
 *	Call tpsc_a, tpsc_b and tpsc_plain with val = 0..N-1 (N <= 1000).
 *   local
 *	Register a sleeping probe on tpsc_b and fire once: the probe must
 *	run preemptible, under rcu_read_lock_trace(), and sleep 1-2 ms.  Also
 *	try a normal probe on tpsc_a and a may-sleep probe on tpsc_plain
 *	(both must be refused with -EINVAL).
 *   park
 *	A "parker" kthread does what the tracepoint's iterator does, under
 *	rcu_read_lock_trace(): it loads tpsc_a's first entry, then parks on
 *	a completion before calling its probe.  Returns once it has loaded
 *	it ("sleeps" says whether the probe sleeps).  Where probes that
 *	sleep and probes that do not share a may-sleep tracepoint
 *	(TPST_HAVE_TPMODE), that is the sleep iterator, which only runs while
 *	a probe that sleeps is connected: a sleeping probe of lower priority
 *	is connected to tpsc_a first.  As that iterator does, the parker then
 *	calls a sleeping probe with the data of the entry it loaded, and a
 *	probe that does not sleep only through its entry in the array that
 *	is current after the release, with preemption disabled, or not at
 *	all if it was removed meanwhile.  tpst_bpflife attaches a BPF raw_tp
 *	program to tpsc_a, parks a caller on it, closes the link and the
 *	program's fd, then releases the caller: the program must not be run
 *	freed.
 *   release
 *	Release the parker (it calls the probe, see park) and wait for it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/rcupdate_trace.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define CREATE_TRACE_POINTS
#include "tpsleep_class.h"

#define TPSC_RESULT_SIZE	512
#define TPSC_CMD_SIZE		64
#define TPSC_PARK_VAL		4242

static DEFINE_MUTEX(tpsc_mutex);
static char tpsc_result[TPSC_RESULT_SIZE];

/* ---- local: a sleeping probe on a DEFINE_EVENT_MAYSLEEP() tracepoint ---- */

static struct {
	int hits, preemptible, rcu_trace_held;
	u64 slept_ns;
} tpsc_local;

static void tpsc_local_probe(void *data, unsigned long val, const char *tag)
{
	u64 t0 = ktime_get_ns();

	tpsc_local.hits++;
	tpsc_local.preemptible = preemptible();
	tpsc_local.rcu_trace_held = rcu_read_lock_trace_held();
	usleep_range(1000, 2000);
	tpsc_local.slept_ns = ktime_get_ns() - t0;
}

static void tpsc_normal_probe(void *data, unsigned long val, const char *tag)
{
}

static void tpsc_cmd_local(void)
{
	int reg, unreg = -1, normal_on_a, maysleep_on_plain;

	memset(&tpsc_local, 0, sizeof(tpsc_local));
	normal_on_a = register_trace_tpsc_a(tpsc_normal_probe, NULL);
	if (!normal_on_a)
		unregister_trace_tpsc_a(tpsc_normal_probe, NULL);
	maysleep_on_plain = register_trace_maysleep_tpsc_plain(tpsc_normal_probe,
							       NULL);
	if (!maysleep_on_plain)
		unregister_trace_tpsc_plain(tpsc_normal_probe, NULL);
	reg = register_trace_maysleep_tpsc_b(tpsc_local_probe, NULL);
	if (!reg) {
		tpsc_fire(1);
		unreg = unregister_trace_tpsc_b(tpsc_local_probe, NULL);
	}
	tracepoint_synchronize_unregister();
	snprintf(tpsc_result, sizeof(tpsc_result),
		 "local reg=%d unreg=%d hits=%d preemptible=%d rcu_trace_held=%d slept_us=%llu normal_on_a=%d maysleep_on_plain=%d\n",
		 reg, unreg, tpsc_local.hits, tpsc_local.preemptible,
		 tpsc_local.rcu_trace_held, tpsc_local.slept_ns / 1000,
		 normal_on_a, maysleep_on_plain);
}

/* ---- park: a caller between loading a probe and calling it ---- */

struct tpsc_park {
	struct completion parked, release, done;
	void *func, *data;
	unsigned int flags;
	bool called;
	int sleeper;		/* registration of tpsc_park_sleeper */
};

#ifdef TPST_HAVE_TPMODE
static void tpsc_park_sleeper(void *data, unsigned long val, const char *tag)
{
	might_sleep();
}
#endif

static struct tpsc_park *tpsc_park;

/* Whether the probe the parker loaded sleeps: every probe of the six does */
static int tpsc_park_sleeps(const struct tpsc_park *pk)
{
#ifdef TPST_HAVE_TPMODE
	return !!(pk->flags & TP_PROBE_SLEEPS);
#else
	return 1;
#endif
}

typedef void (*tpsc_probe_t)(void *, unsigned long, const char *);

static int tpsc_parker(void *arg)
{
	struct tpsc_park *pk = arg;
	struct tracepoint_func *funcs;
#ifdef TPST_HAVE_TPMODE
	struct tracepoint_func *cur;
#endif

	/* __traceiter_tpsc_a(), with a pause before the call. */
	rcu_read_lock_trace();
	funcs = rcu_dereference_raw(__tracepoint_tpsc_a.funcs);
	if (funcs) {
		pk->func = READ_ONCE(funcs->func);
		pk->data = funcs->data;
#ifdef TPST_HAVE_TPMODE
		pk->flags = funcs->flags;
#endif
	}
	complete(&pk->parked);
	wait_for_completion(&pk->release);
	if (!pk->func)
		goto out;
#ifdef TPST_HAVE_TPMODE
	/* __traceiter_sleep_tpsc_a(): the current entry of an ordinary probe */
	if (!tpsc_park_sleeps(pk)) {
		preempt_disable_notrace();
		cur = tracepoint_sleep_iter_probe(&__tracepoint_tpsc_a, funcs);
		if (cur && !(cur->flags & TP_PROBE_SLEEPS)) {
			((tpsc_probe_t)READ_ONCE(cur->func))(cur->data,
							     TPSC_PARK_VAL,
							     "park");
			pk->called = true;
		}
		preempt_enable_notrace();
		if (!cur || pk->called)
			goto out;
		/* replaced by a probe that sleeps: call that one preemptible */
		pk->func = READ_ONCE(cur->func);
		pk->data = cur->data;
	}
#endif
	((tpsc_probe_t)pk->func)(pk->data, TPSC_PARK_VAL, "park");
	pk->called = true;
out:
	rcu_read_unlock_trace();
	complete(&pk->done);
	return 0;
}

static void tpsc_park_release(void)
{
	complete(&tpsc_park->release);
	wait_for_completion(&tpsc_park->done);
#ifdef TPST_HAVE_TPMODE
	if (!tpsc_park->sleeper)
		unregister_trace_tpsc_a(tpsc_park_sleeper, NULL);
#endif
}

static void tpsc_cmd_park(void)
{
	struct task_struct *t;
	struct tpsc_park *pk;

	if (tpsc_park) {
		snprintf(tpsc_result, sizeof(tpsc_result),
			 "park error=%d\n", -EBUSY);
		return;
	}
	pk = kzalloc(sizeof(*pk), GFP_KERNEL);
	if (!pk) {
		snprintf(tpsc_result, sizeof(tpsc_result),
			 "park error=%d\n", -ENOMEM);
		return;
	}
	init_completion(&pk->parked);
	init_completion(&pk->release);
	init_completion(&pk->done);
#ifdef TPST_HAVE_TPMODE
	pk->sleeper = register_trace_prio_maysleep_tpsc_a(tpsc_park_sleeper,
				NULL, TRACEPOINT_DEFAULT_PRIO - 1);
	if (pk->sleeper) {
		snprintf(tpsc_result, sizeof(tpsc_result),
			 "park error=%d\n", pk->sleeper);
		kfree(pk);
		return;
	}
#endif
	t = kthread_run(tpsc_parker, pk, "tpsc_parker");
	if (IS_ERR(t)) {
#ifdef TPST_HAVE_TPMODE
		unregister_trace_tpsc_a(tpsc_park_sleeper, NULL);
#endif
		snprintf(tpsc_result, sizeof(tpsc_result),
			 "park error=%ld\n", PTR_ERR(t));
		kfree(pk);
		return;
	}
	wait_for_completion(&pk->parked);
	tpsc_park = pk;
	snprintf(tpsc_result, sizeof(tpsc_result),
		 "park error=0 loaded=%d sleeps=%d func=%ps\n", !!pk->func,
		 tpsc_park_sleeps(pk), pk->func);
}

static void tpsc_cmd_release(void)
{
	u64 t0 = ktime_get_ns();

	if (!tpsc_park) {
		snprintf(tpsc_result, sizeof(tpsc_result),
			 "release error=%d\n", -ENOENT);
		return;
	}
	tpsc_park_release();
	snprintf(tpsc_result, sizeof(tpsc_result),
		 "release error=0 called=%d call_us=%llu\n", tpsc_park->called,
		 (ktime_get_ns() - t0) / 1000);
	kfree(tpsc_park);
	tpsc_park = NULL;
}

/* ---- control file ---- */

static int tpsc_run(char *cmd)
{
	unsigned int n, i;

	if (!strcmp(cmd, "info")) {
		snprintf(tpsc_result, sizeof(tpsc_result),
			 "info a_maysleep=%d b_maysleep=%d plain_maysleep=%d\n",
			 tracepoint_is_maysleep(&__tracepoint_tpsc_a),
			 tracepoint_is_maysleep(&__tracepoint_tpsc_b),
			 tracepoint_is_maysleep(&__tracepoint_tpsc_plain));
	} else if (sscanf(cmd, "fire %u", &n) == 1) {
		if (n > 1000)
			return -EINVAL;
		for (i = 0; i < n; i++)
			tpsc_fire(i);
		snprintf(tpsc_result, sizeof(tpsc_result), "fire n=%u\n", n);
	} else if (!strcmp(cmd, "local")) {
		tpsc_cmd_local();
	} else if (!strcmp(cmd, "park")) {
		tpsc_cmd_park();
	} else if (!strcmp(cmd, "release")) {
		tpsc_cmd_release();
	} else {
		return -EINVAL;
	}
	return 0;
}

static ssize_t tpsc_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	char cmd[TPSC_CMD_SIZE];
	int ret;

	if (count == 0 || count >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, count))
		return -EFAULT;
	cmd[count] = '\0';
	strim(cmd);
	mutex_lock(&tpsc_mutex);
	tpsc_result[0] = '\0';
	ret = tpsc_run(cmd);
	mutex_unlock(&tpsc_mutex);
	return ret ? ret : count;
}

static ssize_t tpsc_read(struct file *file, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&tpsc_mutex);
	ret = simple_read_from_buffer(ubuf, count, ppos, tpsc_result,
				      strlen(tpsc_result));
	mutex_unlock(&tpsc_mutex);
	return ret;
}

static const struct proc_ops tpsc_proc_ops = {
	.proc_write = tpsc_write,
	.proc_read = tpsc_read,
	.proc_lseek = default_llseek,
};

static int __init tpsc_init(void)
{
	if (!proc_create("tpsleep_class", 0600, NULL, &tpsc_proc_ops))
		return -ENOMEM;
	return 0;
}

static void __exit tpsc_exit(void)
{
	remove_proc_entry("tpsleep_class", NULL);
	/* The parker must not outlive the module's text. */
	if (tpsc_park) {
		tpsc_park_release();
		kfree(tpsc_park);
	}
}

module_init(tpsc_init);
module_exit(tpsc_exit);

MODULE_DESCRIPTION("May-sleep event class with several events; BPF program lifetime");
MODULE_AUTHOR("tpsleep test suite");
MODULE_LICENSE("GPL");
