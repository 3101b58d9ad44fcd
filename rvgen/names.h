/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The identifiers rvgen generates besides the enumerators of the model's
 * own names (STATE_MON, EVENT_MON, ENV_MON), in one table: the emitters
 * print them from it, and validate.c refuses a model name whose
 * enumerator would equal one of them, so the two cannot drift apart.
 * Tags (struct and enum names) have a name space of their own and are not
 * listed; the C outputs share one scope (the glue includes the header),
 * Promela is apart.
 */
#ifndef RVGEN_NAMES_H
#define RVGEN_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* A format is at most 20 characters plus two names of 64 (model.h). */
#define RV_ID_LEN	160

enum rv_id {
	RV_ID_STATE_MAX,
	RV_ID_EVENT_MAX,
	RV_ID_ENV_MAX,
	RV_ID_INVALID_STATE,
	RV_ID_TIMER_KEEP,	/* the three in enum rv_timer order */
	RV_ID_TIMER_ARM,
	RV_ID_TIMER_CANCEL,
	RV_ID_AUTOMATON,
	RV_ID_AUTOMATON_GET,
	RV_ID_HA_ARM,
	RV_ID_HA_CANCEL,
	RV_ID_HA_DEADLINE,
	RV_ID_HA_HOLDS,
	RV_ID_HA_GUARD,
	RV_ID_HA_STEP,
	RV_ID_HA_GET_ENV,
	RV_ID_GUARD_HEADER,
	RV_ID_GUARD_HA,
	RV_NIDS
};

/* Promela's macros per event: "ev_EVENT_MON" and "en_EVENT_MON". */
enum rv_event_id { RV_EID_EV, RV_EID_EN, RV_NEIDS };

enum rv_scope { RV_SCOPE_C = 1, RV_SCOPE_PML = 2 };

struct rv_id_def {
	const char *fmt;	/* of the monitor name (event ids: event, name) */
	bool upper;		/* the name upper-cased */
	unsigned int scope;	/* enum rv_scope bits */
	const char *what;	/* for messages */
};

extern const struct rv_id_def rv_ids[RV_NIDS];
extern const struct rv_id_def rv_event_ids[RV_NEIDS];

/* Identifier ID of monitor NAME into BUF (RV_ID_LEN bytes); returns BUF. */
const char *rv_id_format(char *buf, enum rv_id id, const char *name);
/* Promela's identifier ID for EVENT of monitor NAME into BUF. */
const char *rv_event_id(char *buf, enum rv_event_id id, const char *event,
			const char *name);

#endif /* RVGEN_NAMES_H */
