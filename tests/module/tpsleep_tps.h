/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel tracepoints that tpsleep_test.ko and tpsleep_stress.ko
 * attach their probes to, found by name (none of them is exported as a
 * __tracepoint_* symbol to modules), and the modules' common init.
 */
#ifndef TPSLEEP_TPS_H
#define TPSLEEP_TPS_H

#include <linux/printk.h>
#include <linux/proc_fs.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

static struct tracepoint *tp_sys_enter;
static struct tracepoint *tp_sys_exit;
static struct tracepoint *tp_sched_switch;
static struct tracepoint *tp_irq_enable;	/* NULL without preemptirq events */

static void tpsleep_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sys_enter"))
		tp_sys_enter = tp;
	else if (!strcmp(tp->name, "sys_exit"))
		tp_sys_exit = tp;
	else if (!strcmp(tp->name, "sched_switch"))
		tp_sched_switch = tp;
	else if (!strcmp(tp->name, "irq_enable"))
		tp_irq_enable = tp;
}

/* Find them: 0, or -ENODEV if sys_enter, sys_exit or sched_switch is missing */
static inline int tpsleep_find_tps(void)
{
	for_each_kernel_tracepoint(tpsleep_find_tp, NULL);
	if (tp_sys_enter && tp_sys_exit && tp_sched_switch)
		return 0;
	pr_err("tracepoint not found: sys_enter=%d sys_exit=%d sched_switch=%d\n",
	       !!tp_sys_enter, !!tp_sys_exit, !!tp_sched_switch);
	return -ENODEV;
}

/* Find them and create the module's control file /proc/@name: 0 or -errno */
static inline int tpsleep_module_init(const char *name,
				      const struct proc_ops *ops,
				      struct proc_dir_entry **proc)
{
	int ret = tpsleep_find_tps();

	if (ret)
		return ret;
	*proc = proc_create(name, 0600, NULL, ops);
	return *proc ? 0 : -ENOMEM;
}

#endif /* TPSLEEP_TPS_H */
