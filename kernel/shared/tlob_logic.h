/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules a logical binding's automaton (struct tlob_logic_table, an
 * `l` line, tlob_parse.h) must keep before anything uses it, checked by
 * one function the module's parser, the tool and the host tests all run
 * (tlob_parse.c calls it on every `l` line; the tool may call it on a
 * table it built itself). Plain C: no allocation, no lock, nothing but
 * the table and a few words of stack.
 *
 * The module relies on every rule: next[][] is read straight by the
 * event's uprobe (an index out of range would read past the table), each
 * event is a uprobe (one at an offset another event has would make one
 * probe two events, one on no edge could only ever report), and a state
 * no event reaches could never be left nor entered. A guard no clock
 * value meets would make its edge a violation whenever taken, a reset or
 * guard where there is no edge, or an invariant where there is no state,
 * would never be read (a table that says one thing and does another),
 * and a clock that nothing resets, guards nor bounds, or time with no
 * clock to name, would leave a record's clock reading meaningless.
 */
#ifndef TLOB_LOGIC_H
#define TLOB_LOGIC_H

#include "tlob_parse.h"

/*
 * A set of states is a u32 (final, the states reached), of events a u32
 * too; the messages below name the maxima.
 */
static_assert(TLOB_LOGIC_STATES_MAX == 32 && TLOB_LOGIC_EVENTS_MAX == 16 &&
	      TLOB_LOGIC_NAME_MAX == 23 && TLOB_LOGIC_FILES_MAX == 4,
	      "tlob_logic.h: sets and messages");

/* Which rule a table broke (tlob_logic_check(), and the parser's own). */
enum tlob_logic_rule {
	TLOB_LOGIC_RULE_NONE,
	TLOB_LOGIC_RULE_NSTATES,	/* not 1..TLOB_LOGIC_STATES_MAX states */
	TLOB_LOGIC_RULE_NEVENTS,	/* not 1..TLOB_LOGIC_EVENTS_MAX events */
	TLOB_LOGIC_RULE_NEDGES,		/* nedges is not the edges next[][] holds */
	TLOB_LOGIC_RULE_NAME,		/* a name not [A-Za-z_][A-Za-z0-9_]*, 1..23 */
	TLOB_LOGIC_RULE_STATE_DUP,	/* two states of one name (at: the second) */
	TLOB_LOGIC_RULE_EVENT_DUP,	/* two events of one name (at: the second) */
	TLOB_LOGIC_RULE_OFFSET_DUP,	/* two events at one offset of one file (at: the second) */
	TLOB_LOGIC_RULE_FILES,		/* not 1..4 files, or one without events (at) */
	TLOB_LOGIC_RULE_INITIAL,	/* initial= is not a state */
	TLOB_LOGIC_RULE_FINAL,		/* final= empty, repeated or not a state */
	TLOB_LOGIC_RULE_EDGE,		/* an edge names no such state or event */
	TLOB_LOGIC_RULE_NONDET,		/* two edges for one (FROM,EVENT) */
	TLOB_LOGIC_RULE_UNREACHABLE,	/* at: a state initial does not lead to */
	TLOB_LOGIC_RULE_UNUSED_EVENT,	/* at: an event on no edge */
	TLOB_LOGIC_RULE_GUARD,		/* at: a state with an empty guard, or one on no edge */
	TLOB_LOGIC_RULE_CLOCK,		/* time and no clock=, or the reverse */
	TLOB_LOGIC_RULE_INVARIANT,	/* at: a state beyond the model's, with an invariant */
};

/* @rule in words, for the tool's message (the index is the caller's). */
static inline const char *tlob_logic_rule_text(enum tlob_logic_rule rule)
{
	switch (rule) {
	case TLOB_LOGIC_RULE_NSTATES:
		return "the model must have 1..32 states";
	case TLOB_LOGIC_RULE_NEVENTS:
		return "the model must have 1..16 events";
	case TLOB_LOGIC_RULE_NEDGES:
		return "the edge count does not match the edges";
	case TLOB_LOGIC_RULE_NAME:
		return "a name must be [A-Za-z_][A-Za-z0-9_]*, 1..23 characters";
	case TLOB_LOGIC_RULE_STATE_DUP:
		return "two states have one name";
	case TLOB_LOGIC_RULE_EVENT_DUP:
		return "two events have one name";
	case TLOB_LOGIC_RULE_OFFSET_DUP:
		return "two events are at one offset of one file";
	case TLOB_LOGIC_RULE_FILES:
		return "the events must lie in 1..4 files, each file holding one at least";
	case TLOB_LOGIC_RULE_INITIAL:
		return "the initial state is not a state of the model";
	case TLOB_LOGIC_RULE_FINAL:
		return "final states must be one or more states of the model, each once";
	case TLOB_LOGIC_RULE_EDGE:
		return "an edge names a state or an event the model does not have";
	case TLOB_LOGIC_RULE_NONDET:
		return "two edges leave one state on one event (the model must be deterministic)";
	case TLOB_LOGIC_RULE_UNREACHABLE:
		return "a state is not reachable from the initial state";
	case TLOB_LOGIC_RULE_UNUSED_EVENT:
		return "an event is on no edge";
	case TLOB_LOGIC_RULE_GUARD:
		return "a guard no clock value meets, or a guard or reset on no edge";
	case TLOB_LOGIC_RULE_CLOCK:
		return "resets, guards and invariants need a clock, and a clock one of them";
	case TLOB_LOGIC_RULE_INVARIANT:
		return "an invariant on a state the model does not have";
	default:
		return "no rule broken";
	}
}

/* Whether the @len bytes at @s are a name of the model, a state or an event. */
static inline bool tlob_logic_name_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || len > TLOB_LOGIC_NAME_MAX)
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];
		bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     c == '_';

		if (!alpha && (!i || c < '0' || c > '9'))
			return false;
	}
	return true;
}

/* A NUL-terminated name held in a table's char[TLOB_LOGIC_NAME_MAX + 1]. */
static inline bool tlob_logic_table_name_ok(const char *name)
{
	size_t len = 0;

	while (len <= TLOB_LOGIC_NAME_MAX && name[len])
		len++;
	return tlob_logic_name_ok(name, len);
}

/*
 * Say which rule broke (@at: the state or event it is about); the errno:
 * more states or events than the maxima is -ERANGE, any other -EINVAL.
 */
static inline int tlob_logic_broke(enum tlob_logic_rule rule, unsigned int at,
				   enum tlob_logic_rule *why, unsigned int *why_at)
{
	if (why)
		*why = rule;
	if (why_at)
		*why_at = rule == TLOB_LOGIC_RULE_NONE ? 0 : at;
	if (rule == TLOB_LOGIC_RULE_NONE)
		return 0;
	return (rule == TLOB_LOGIC_RULE_NSTATES || rule == TLOB_LOGIC_RULE_NEVENTS) &&
	       at ? -ERANGE : -EINVAL;
}

/*
 * The names: every one well formed, states' and events' each unique
 * among their kind (a record names them: two alike would be one to a
 * reader). Returns the rule broken, @at the index.
 */
static inline enum tlob_logic_rule
tlob_logic_check_names(const struct tlob_logic_table *t, unsigned int *at)
{
	unsigned int i, j;

	*at = 0;
	if (!tlob_logic_table_name_ok(t->model))
		return TLOB_LOGIC_RULE_NAME;
	if (t->clock[0] && !tlob_logic_table_name_ok(t->clock))
		return TLOB_LOGIC_RULE_NAME;
	for (i = 0; i < t->nstates; i++) {
		*at = i;
		if (!tlob_logic_table_name_ok(t->state[i]))
			return TLOB_LOGIC_RULE_NAME;
		for (j = 0; j < i; j++)
			if (!strcmp(t->state[i], t->state[j]))
				return TLOB_LOGIC_RULE_STATE_DUP;
	}
	for (i = 0; i < t->nevents; i++) {
		*at = i;
		if (!tlob_logic_table_name_ok(t->event[i]))
			return TLOB_LOGIC_RULE_NAME;
		for (j = 0; j < i; j++) {
			if (!strcmp(t->event[i], t->event[j]))
				return TLOB_LOGIC_RULE_EVENT_DUP;
			if (t->offset[i] == t->offset[j] &&
			    t->file[i] == t->file[j])
				return TLOB_LOGIC_RULE_OFFSET_DUP;
		}
	}
	return TLOB_LOGIC_RULE_NONE;
}

/*
 * The files: 1..TLOB_LOGIC_FILES_MAX, every event in one of them, every
 * one holding an event (a file= no event uses would be a binding's file
 * that does nothing). Returns the rule broken, @at the file or event.
 */
static inline enum tlob_logic_rule
tlob_logic_check_files(const struct tlob_logic_table *t, unsigned int *at)
{
	unsigned int e, f;
	u32 used = 0;

	*at = t->nfiles;
	if (!t->nfiles || t->nfiles > TLOB_LOGIC_FILES_MAX)
		return TLOB_LOGIC_RULE_FILES;
	for (e = 0; e < t->nevents; e++) {
		*at = e;
		if (t->file[e] >= t->nfiles)
			return TLOB_LOGIC_RULE_FILES;
		used |= 1U << t->file[e];
	}
	for (f = 0; f < t->nfiles; f++) {
		*at = f;
		if (!(used & (1U << f)))
			return TLOB_LOGIC_RULE_FILES;
	}
	return TLOB_LOGIC_RULE_NONE;
}

/*
 * The edges: each leads to a state, as many as nedges says, every event
 * on one at least. Returns the rule broken, @at the state or event.
 */
static inline enum tlob_logic_rule
tlob_logic_check_edges(const struct tlob_logic_table *t, unsigned int *at)
{
	unsigned int s, e, edges = 0;
	u32 used = 0;

	for (s = 0; s < t->nstates; s++)
		for (e = 0; e < t->nevents; e++) {
			*at = s;
			if (t->next[s][e] == TLOB_LOGIC_NONE)
				continue;
			if (t->next[s][e] >= t->nstates)
				return TLOB_LOGIC_RULE_EDGE;
			used |= 1U << e;
			edges++;
		}
	*at = 0;
	if (edges != t->nedges)
		return TLOB_LOGIC_RULE_NEDGES;
	for (e = 0; e < t->nevents; e++) {
		*at = e;
		if (!(used & (1U << e)))
			return TLOB_LOGIC_RULE_UNUSED_EVENT;
	}
	return TLOB_LOGIC_RULE_NONE;
}

/*
 * Every state reachable from initial: the states reached so far as a
 * bit set, grown by one step of every event until it stops growing (at
 * most nstates rounds; the edges are checked first, so every next[][]
 * is a state). Returns the rule broken, @at the first state left out.
 */
static inline enum tlob_logic_rule
tlob_logic_check_reach(const struct tlob_logic_table *t, unsigned int *at)
{
	u32 reached = 1U << t->initial, before;
	unsigned int s, e;

	do {
		before = reached;
		for (s = 0; s < t->nstates; s++) {
			if (!(before & (1U << s)))
				continue;
			for (e = 0; e < t->nevents; e++)
				if (t->next[s][e] != TLOB_LOGIC_NONE)
					reached |= 1U << t->next[s][e];
		}
	} while (reached != before);
	for (s = 0; s < t->nstates; s++) {
		*at = s;
		if (!(reached & (1U << s)))
			return TLOB_LOGIC_RULE_UNREACHABLE;
	}
	return TLOB_LOGIC_RULE_NONE;
}

/*
 * The clock: resets and guards only on edges the table has, every guard
 * met by some clock value (lo below hi, or no hi), invariants only on
 * states it has, and a clock named exactly when something resets, guards
 * or bounds it. Returns the rule broken, @at the state.
 */
static inline enum tlob_logic_rule
tlob_logic_check_clock(const struct tlob_logic_table *t, unsigned int *at)
{
	bool timed = false;
	unsigned int s, e;

	for (s = 0; s < TLOB_LOGIC_STATES_MAX; s++) {
		*at = s;
		if (t->inv[s] && s >= t->nstates)
			return TLOB_LOGIC_RULE_INVARIANT;
		if (t->inv[s])
			timed = true;
		for (e = 0; e < TLOB_LOGIC_EVENTS_MAX; e++) {
			bool edge = s < t->nstates && e < t->nevents &&
				    t->next[s][e] != TLOB_LOGIC_NONE;
			bool reset = t->reset[s] & (1U << e);

			if (!reset && !t->lo[s][e] && !t->hi[s][e])
				continue;
			if (!edge || (t->hi[s][e] && t->lo[s][e] >= t->hi[s][e]))
				return TLOB_LOGIC_RULE_GUARD;
			timed = true;
		}
	}
	*at = 0;
	if (timed != !!t->clock[0])
		return TLOB_LOGIC_RULE_CLOCK;
	return TLOB_LOGIC_RULE_NONE;
}

/*
 * Check @t: 0, or -ERANGE for more states or events than the maxima,
 * -EINVAL for any other rule; then *@why (if not NULL) says which rule
 * and *@at (if not NULL) the state or event it is about.
 */
static inline int tlob_logic_check(const struct tlob_logic_table *t,
				   enum tlob_logic_rule *why, unsigned int *at)
{
	enum tlob_logic_rule rule;
	unsigned int i = 0;

	if (!t->nstates || t->nstates > TLOB_LOGIC_STATES_MAX)
		return tlob_logic_broke(TLOB_LOGIC_RULE_NSTATES, t->nstates,
					why, at);
	if (!t->nevents || t->nevents > TLOB_LOGIC_EVENTS_MAX)
		return tlob_logic_broke(TLOB_LOGIC_RULE_NEVENTS, t->nevents,
					why, at);
	if (t->initial >= t->nstates)
		return tlob_logic_broke(TLOB_LOGIC_RULE_INITIAL, t->initial,
					why, at);
	/* final: not empty, and only states of the model */
	if (!t->final || (t->nstates < 32 && t->final >> t->nstates))
		return tlob_logic_broke(TLOB_LOGIC_RULE_FINAL, 0, why, at);
	rule = tlob_logic_check_files(t, &i);
	if (rule == TLOB_LOGIC_RULE_NONE)
		rule = tlob_logic_check_names(t, &i);
	if (rule == TLOB_LOGIC_RULE_NONE)
		rule = tlob_logic_check_edges(t, &i);
	if (rule == TLOB_LOGIC_RULE_NONE)
		rule = tlob_logic_check_reach(t, &i);
	if (rule == TLOB_LOGIC_RULE_NONE)
		rule = tlob_logic_check_clock(t, &i);
	return tlob_logic_broke(rule, i, why, at);
}

#endif /* TLOB_LOGIC_H */
