/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Prints every table of a committed model header, compiled as userspace
 * C11 (the header must build unchanged here), one fact per line for
 * tests/unit/rvgen/cells.t to compare with the DOT edges:
 *   initial STATE
 *   state INDEX NAME final=0|1 inv=ENV|- le=0|1
 *   event INDEX NAME
 *   cell STATE EVENT NEXT|- reset=ENV|- timer=keep|arm|cancel
 * The includer includes MON_model.h, then defines MON (the monitor's
 * name) and INVALID (its INVALID_STATE_MON), then includes this.
 */
#include <stdio.h>

#define MT_CAT_(a, b) a##_##b
#define MT_CAT(a, b) MT_CAT_(a, b)
/* NAME_MON */
#define M(name) MT_CAT(name, MON)

static const char *state_name(unsigned int s)
{
	return s < M(state_max) ? M(automaton).state_names[s] : "-";
}

int main(void)
{
	static const char * const timer[] = { "keep", "arm", "cancel" };
	const struct M(automaton) *a = MT_CAT(M(automaton), get)();
	unsigned int s, e;

	printf("initial %s\n", state_name(a->initial_state));
	for (s = 0; s < M(state_max); s++)
		printf("state %u %s final=%u inv=%s le=%u\n", s, a->state_names[s],
		       a->final_states[s],
		       a->invariant_env[s] < M(env_max) ?
		       a->env_names[a->invariant_env[s]] : "-",
		       a->invariant_le[s]);
	for (e = 0; e < M(event_max); e++)
		printf("event %u %s\n", e, a->event_names[e]);
	for (s = 0; s < M(state_max); s++) {
		for (e = 0; e < M(event_max); e++) {
			unsigned int r = a->reset_env[s][e];
			unsigned int t = a->timer[s][e];

			printf("cell %s %s %s reset=%s timer=%s\n",
			       a->state_names[s], a->event_names[e],
			       a->function[s][e] == INVALID ? "-" :
			       state_name(a->function[s][e]),
			       r < M(env_max) ? a->env_names[r] : "-",
			       t <= M(timer_cancel) ? timer[t] : "BAD");
		}
	}
	return 0;
}
