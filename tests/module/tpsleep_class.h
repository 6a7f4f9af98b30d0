/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A may-sleep event class with several events (tpsleep_class.ko):
 * DECLARE_EVENT_CLASS_MAYSLEEP() and DEFINE_EVENT_MAYSLEEP(), included with
 * CREATE_TRACE_POINTS by tpsleep_class_main.c and without it by
 * tpsleep_class_fire.c, whose call sites are then may-sleep ones.
 *
 * tpsc_plain is a DEFINE_EVENT() of the same class: an ordinary tracepoint,
 * on which the class's probes must be refused.
 */
#ifndef _TPSLEEP_CLASS_FIRE_H
#define _TPSLEEP_CLASS_FIRE_H
/* tpsleep_class_fire.c: calls tpsc_a, tpsc_b and tpsc_plain with @val. */
void tpsc_fire(unsigned long val);
#endif

#undef TRACE_SYSTEM
#define TRACE_SYSTEM tpsleep_class

#if !defined(_TPSLEEP_CLASS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TPSLEEP_CLASS_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS_MAYSLEEP(tpsc_class,
	TP_PROTO(unsigned long val, const char *tag),
	TP_ARGS(val, tag),
	TP_STRUCT__entry(
		__field(unsigned long, val)
		__string(tag, tag)
	),
	TP_fast_assign(
		__entry->val = val;
		__assign_str(tag, tag);
	),
	TP_printk("val=%lu tag=%s", __entry->val, __get_str(tag))
);

DEFINE_EVENT_MAYSLEEP(tpsc_class, tpsc_a,
	TP_PROTO(unsigned long val, const char *tag),
	TP_ARGS(val, tag));

DEFINE_EVENT_MAYSLEEP(tpsc_class, tpsc_b,
	TP_PROTO(unsigned long val, const char *tag),
	TP_ARGS(val, tag));

DEFINE_EVENT(tpsc_class, tpsc_plain,
	TP_PROTO(unsigned long val, const char *tag),
	TP_ARGS(val, tag));

#endif /* _TPSLEEP_CLASS_H */

/* Outside the include guard; Kbuild adds -I$(src). */
#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE tpsleep_class
#include <trace/define_trace.h>
