/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A custom trace event (events/custom/sys_enter) attached to the sys_enter
 * tracepoint, modelled on samples/trace_events/trace_custom_sched.h.
 */
#if !defined(_TPSLEEP_CUSTOM_H) || defined(TRACE_CUSTOM_MULTI_READ)
#define _TPSLEEP_CUSTOM_H

#include <linux/trace_events.h>

/* TP_PROTO() and TP_ARGS() are those of the sys_enter tracepoint. */
TRACE_CUSTOM_EVENT(sys_enter,
		   TP_PROTO(struct pt_regs *regs, long id),
		   TP_ARGS(regs, id),
		   TP_STRUCT__entry(__field(long, id)
				    __field(pid_t, pid)),
		   TP_fast_assign(__entry->id = id;
				  __entry->pid = current->pid;),
		   TP_printk("tpst_custom nr=%ld pid=%d",
			     __entry->id, __entry->pid)
)
#endif

/* Must be outside the include guard; Kbuild adds -I$(src). */
#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE tpsleep_custom
#include <trace/define_custom_trace.h>
