// SPDX-License-Identifier: GPL-2.0
/*
 * tpsleep_events - a module with an ordinary trace event and nothing else.
 *
 * tpst_uffd resolve loads it with finit_module() and removes it with
 * delete_module() while a may-sleep probe on sys_enter is blocked on a
 * userfaultfd page: both add or remove trace events (tracefs files,
 * event_mutex) and tracepoints (tracepoints_mutex), and must not wait for
 * the blocked probe.
 */
#include <linux/module.h>

#define CREATE_TRACE_POINTS
#include "tpsleep_events.h"

static int __init tpse_init(void)
{
	trace_tpse_state(1);
	return 0;
}

static void __exit tpse_exit(void)
{
	trace_tpse_state(0);
}

module_init(tpse_init);
module_exit(tpse_exit);

MODULE_DESCRIPTION("A trace event in a module (may-sleep tracepoint stress tests)");
MODULE_AUTHOR("tpsleep test suite");
MODULE_LICENSE("GPL");
