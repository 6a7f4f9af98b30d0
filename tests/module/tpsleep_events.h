/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One ordinary trace event (events/tpsleep_events/tpse_state) of a module
 * that tpst_uffd loads and removes while a may-sleep probe is blocked:
 * loading and removing a module adds and removes trace events under
 * event_mutex.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tpsleep_events

#if !defined(_TPSLEEP_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TPSLEEP_EVENTS_H

#include <linux/tracepoint.h>

TRACE_EVENT(tpse_state,
	    TP_PROTO(int loaded),
	    TP_ARGS(loaded),
	    TP_STRUCT__entry(__field(int, loaded)),
	    TP_fast_assign(__entry->loaded = loaded;),
	    TP_printk("loaded=%d", __entry->loaded)
);
#endif

/* Must be outside the include guard; Kbuild adds -I$(src). */
#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE tpsleep_events
#include <trace/define_trace.h>
