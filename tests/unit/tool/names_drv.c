// SPDX-License-Identifier: GPL-2.0
/*
 * Prints what a record shows of the model, as the tool names it
 * (user/backend/names.c): "time FIELD STATE" for each state a window is open in,
 * "count FIELD EVENT" for each event inside a window. 14-trace-fields.t
 * holds the module's trace event (kernel/module/tlob_trace.h) against it.
 */
#include <stdio.h>

#include "backend/names.h"

int main(void)
{
	char name[64];

	for (unsigned int s = 0; s < tlob_nr_states(); s++)
		if (tlob_state_timed(s))
			printf("time %s %s\n", tlob_time_field(s, name, sizeof(name)),
			       tlob_state_name(s));
	for (unsigned int e = 0; e < tlob_nr_events(); e++)
		if (tlob_event_counted(e))
			printf("count %s %s\n", tlob_count_field(e, name, sizeof(name)),
			       tlob_event_name(e));
	return 0;
}
