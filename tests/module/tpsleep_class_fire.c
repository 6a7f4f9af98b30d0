// SPDX-License-Identifier: GPL-2.0
/*
 * The call sites of tpsleep_class.ko's events, in a compilation unit that
 * includes the trace header without CREATE_TRACE_POINTS: the declarations
 * of DEFINE_EVENT_MAYSLEEP() must make them may-sleep call sites.
 */
#include "tpsleep_class.h"

void tpsc_fire(unsigned long val)
{
	trace_tpsc_a(val, "a");
	trace_tpsc_b(val, "b");
	trace_tpsc_plain(val, "plain");
}
