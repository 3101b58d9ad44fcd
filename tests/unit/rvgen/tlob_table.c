// SPDX-License-Identifier: GPL-2.0
/*
 * Prints every table of the committed kernel/shared/tlob_model.h, compiled as
 * userspace C11 (the header must build unchanged here), one fact per line
 * for tests/unit/rvgen/cells.t to compare with the DOT edges:
 *   initial STATE
 *   state INDEX NAME final=0|1 inv=ENV|- le=0|1
 *   event INDEX NAME
 *   cell STATE EVENT NEXT|- reset=ENV|- timer=keep|arm|cancel
 */
#include <stdio.h>

#include "tlob_model.h"

static const char *state_name(unsigned int s)
{
	return s < state_max_tlob ? automaton_tlob.state_names[s] : "-";
}

int main(void)
{
	static const char * const timer[] = { "keep", "arm", "cancel" };
	const struct automaton_tlob *a = automaton_tlob_get();
	unsigned int s, e;

	printf("initial %s\n", state_name(a->initial_state));
	for (s = 0; s < state_max_tlob; s++)
		printf("state %u %s final=%u inv=%s le=%u\n", s, a->state_names[s],
		       a->final_states[s],
		       a->invariant_env[s] < env_max_tlob ?
		       a->env_names[a->invariant_env[s]] : "-",
		       a->invariant_le[s]);
	for (e = 0; e < event_max_tlob; e++)
		printf("event %u %s\n", e, a->event_names[e]);
	for (s = 0; s < state_max_tlob; s++) {
		for (e = 0; e < event_max_tlob; e++) {
			unsigned int r = a->reset_env[s][e];
			unsigned int t = a->timer[s][e];

			printf("cell %s %s %s reset=%s timer=%s\n",
			       a->state_names[s], a->event_names[e],
			       a->function[s][e] == INVALID_STATE_TLOB ? "-" :
			       state_name(a->function[s][e]),
			       r < env_max_tlob ? a->env_names[r] : "-",
			       t <= timer_cancel_tlob ? timer[t] : "BAD");
		}
	}
	return 0;
}
