// SPDX-License-Identifier: GPL-2.0
/* The generated identifiers, see names.h. */
#include <ctype.h>
#include <stdio.h>

#include "names.h"

#define C RV_SCOPE_C

const struct rv_id_def rv_ids[RV_NIDS] = {
	[RV_ID_STATE_MAX] = { "state_max_%s", false, C, "the number of states" },
	[RV_ID_EVENT_MAX] = { "event_max_%s", false, C, "the number of events" },
	[RV_ID_ENV_MAX] = { "env_max_%s", false, C, "the number of clocks and variables" },
	[RV_ID_INVALID_STATE] = { "INVALID_STATE_%s", true, C, "the invalid next state" },
	[RV_ID_TIMER_KEEP] = { "timer_keep_%s", false, C, "a timer action" },
	[RV_ID_TIMER_ARM] = { "timer_arm_%s", false, C, "a timer action" },
	[RV_ID_TIMER_CANCEL] = { "timer_cancel_%s", false, C, "a timer action" },
	[RV_ID_AUTOMATON] = { "automaton_%s", false, C, "the automaton's tables" },
	[RV_ID_AUTOMATON_GET] = { "automaton_%s_get", false, C, "the tables' accessor" },
	[RV_ID_HA_ARM] = { "ha_arm_%s", false, C, "a function of the invariant glue" },
	[RV_ID_HA_CANCEL] = { "ha_cancel_%s", false, C, "a function of the invariant glue" },
	[RV_ID_HA_DEADLINE] = { "ha_deadline_%s", false, C, "a function of the invariant glue" },
	[RV_ID_HA_HOLDS] = { "ha_invariant_holds_%s", false, C, "a function of the invariant glue" },
	[RV_ID_HA_GUARD] = { "ha_guard_holds_%s", false, C, "a function of the guard glue" },
	[RV_ID_HA_STEP] = { "ha_step_%s", false, C, "a function of the invariant glue" },
	[RV_ID_HA_GET_ENV] = { "ha_get_env_%s", false, C, "a function of the guard glue" },
	[RV_ID_GUARD_HEADER] = { "_%s_MODEL_H", true, C, "an include guard" },
	[RV_ID_GUARD_HA] = { "_%s_MODEL_HA_H", true, C, "an include guard" },
};

const struct rv_id_def rv_event_ids[RV_NEIDS] = {
	[RV_EID_EV] = { "ev_%s_%s", false, RV_SCOPE_PML, "Promela's number of event '%s'" },
	[RV_EID_EN] = { "en_%s_%s", false, RV_SCOPE_PML, "Promela's test whether event '%s' is enabled" },
};

static const char *upper(char *buf, const char *name)
{
	size_t i;

	for (i = 0; name[i] && i < RV_ID_LEN - 1; i++)
		buf[i] = toupper((unsigned char)name[i]);
	buf[i] = '\0';
	return buf;
}

const char *rv_id_format(char *buf, enum rv_id id, const char *name)
{
	char up[RV_ID_LEN];

	snprintf(buf, RV_ID_LEN, rv_ids[id].fmt,
		 rv_ids[id].upper ? upper(up, name) : name);
	return buf;
}

const char *rv_event_id(char *buf, enum rv_event_id id, const char *event,
			const char *name)
{
	snprintf(buf, RV_ID_LEN, rv_event_ids[id].fmt, event, name);
	return buf;
}
