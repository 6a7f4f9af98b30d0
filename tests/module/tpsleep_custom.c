// SPDX-License-Identifier: GPL-2.0
/*
 * tpsleep_custom - a TRACE_CUSTOM_EVENT() on sys_enter.
 *
 * Its probe is an ordinary ftrace probe, not written for a tracepoint
 * whose probes may sleep: once sys_enter is a may-sleep tracepoint,
 * enabling events/custom/sys_enter must fail (and record nothing); on a
 * kernel where sys_enter is ordinary it must work like any custom event.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/sched.h>
#include <linux/trace_events.h>

/* The event the custom event attaches to, included from the C file. */
#include <trace/events/syscalls.h>

#define CREATE_CUSTOM_TRACE_EVENTS
#include "tpsleep_custom.h"

static bool tpsc_found;

/* sys_enter is not exported: find it among the kernel's tracepoints. */
static void tpsc_find_tp(struct tracepoint *tp, void *priv)
{
	if (trace_custom_event_sys_enter_update(tp))
		tpsc_found = true;
}

static int __init tpsc_init(void)
{
	for_each_kernel_tracepoint(tpsc_find_tp, NULL);
	if (!tpsc_found) {
		pr_err("tracepoint sys_enter not found\n");
		return -ENODEV;
	}
	return 0;
}

static void __exit tpsc_exit(void)
{
}

module_init(tpsc_init);
module_exit(tpsc_exit);

MODULE_DESCRIPTION("Custom trace event on sys_enter (may-sleep tracepoint tests)");
MODULE_AUTHOR("tpsleep test suite");
MODULE_LICENSE("GPL");
