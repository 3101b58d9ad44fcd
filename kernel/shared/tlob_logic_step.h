/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One event of a logical instance against its table (struct
 * tlob_logic_table, tlob_logic_table.h): the edge of its state, the edge's
 * guard, the clock's reset, and whether the state's invariant passed
 * before the event came. What the module's tlob_logic.c does around it
 * (the instance, its lock, its timer, the record) is the caller's; this
 * is the automaton alone, so that any backend that runs a user's model
 * runs the same rules, and the host tests run them too
 * (tests/unit/kmod/logic-step-test.c).
 *
 * Plain C on a checked table (tlob_logic_check()): no lock, no
 * allocation. The state and event are bounded here again all the same,
 * so that a reader of the table indexes within it whatever it is handed.
 */
#ifndef TLOB_LOGIC_STEP_H
#define TLOB_LOGIC_STEP_H

#include "tlob_logic_table.h"

/* Where a logical instance is: what the step reads and moves. */
struct tlob_logic_pos {
	u64 clock_ns;		/* when the model's clock last started */
	u8 state;		/* index into the table's states */
};

/* What one event did (tlob_logic_step()). */
enum tlob_logic_step_result {
	TLOB_LOGIC_TOOK,	/* its edge was taken: state and clock moved */
	TLOB_LOGIC_NO_EDGE,	/* the state has no edge on it: an ORDER violation */
	TLOB_LOGIC_OFF_GUARD,	/* the clock is outside the edge's guard: TIMING */
};

/* The invariant of state @s: the clock must read less; 0: none. */
static inline u64 tlob_logic_inv_of(const struct tlob_logic_table *t,
				    unsigned int s)
{
	return s < TLOB_LOGIC_STATES_MAX ? t->inv[s] : 0;
}

/*
 * Whether @p, at @now, has held its state as long as the state's
 * invariant allows: then it has ended TIMING with no event, whatever
 * event comes now (a timer that ran late, or none armed yet).
 */
static inline bool tlob_logic_overdue(const struct tlob_logic_table *t,
				      const struct tlob_logic_pos *p, u64 now)
{
	u64 inv = tlob_logic_inv_of(t, p->state);

	return inv && now - p->clock_ns >= inv;
}

/*
 * When @p's state's invariant runs out (CLOCK_MONOTONIC ns), 0 when it
 * has none or it is past @max (a bound of up to 2^64 - 1 ns is never
 * reached: no timer for it).
 */
static inline u64 tlob_logic_due(const struct tlob_logic_table *t,
				 const struct tlob_logic_pos *p, u64 max)
{
	u64 inv = tlob_logic_inv_of(t, p->state);

	if (!inv || p->clock_ns > max || inv > max - p->clock_ns)
		return 0;
	return p->clock_ns + inv;
}

/*
 * Event @event at @now on @p (not overdue: tlob_logic_overdue() first).
 * Taken only when @p's state has an edge on it and the clock reads
 * lo <= clock < hi there (hi 0: no upper bound); then the clock restarts
 * at @now if the edge resets it, and @p is in the edge's state. Not
 * taken, @p is left as it was: the caller ends the instance.
 */
static inline enum tlob_logic_step_result
tlob_logic_step(const struct tlob_logic_table *t, struct tlob_logic_pos *p,
		unsigned int event, u64 now)
{
	unsigned int s = p->state;
	u64 clock = now - p->clock_ns, hi;
	u8 next;

	if (s >= TLOB_LOGIC_STATES_MAX || event >= TLOB_LOGIC_EVENTS_MAX)
		return TLOB_LOGIC_NO_EDGE;
	next = t->next[s][event];
	if (next == TLOB_LOGIC_NONE)
		return TLOB_LOGIC_NO_EDGE;
	hi = t->hi[s][event];
	if (clock < t->lo[s][event] || (hi && clock >= hi))
		return TLOB_LOGIC_OFF_GUARD;
	if (t->reset[s] & (1U << event))
		p->clock_ns = now;
	p->state = next;
	return TLOB_LOGIC_TOOK;
}

#endif /* TLOB_LOGIC_STEP_H */
