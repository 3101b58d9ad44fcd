// SPDX-License-Identifier: GPL-2.0
/*
 * v6.10, "tracing/treewide: Remove second parameter of __assign_str()".
 * Only preprocessed (tlob-probe: preprocess): the macro's arity is what
 * is probed, and a wrong arity is a preprocessor error.
 */
#include <linux/tracepoint.h>
#include <trace/stages/stage6_event_callback.h>

void tlob_probe(void);
void tlob_probe(void)
{
	__assign_str(field);
}
