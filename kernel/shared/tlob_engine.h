/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tlob engine: everything between "a model event happened to this
 * window" and "the window's record is ready", written once for the module
 * (../module/tlob_monitor.c), the BPF programs (../bpf/tlob_common.bpf.h)
 * and the host unit test (tests/unit/engine/). Plain C on struct tlob_core: no lock, no
 * kernel or BPF call, bounded work, and table indexes the BPF verifier can
 * follow.
 *
 * For each event, as the model says (tlob_model.h, tlob_model_ha.h):
 * - an event the model does not allow ends the window as a model error,
 *   never as an overrun, and cancels its deadline timer;
 * - any allowed event first checks the deadline, so a late or lost timer
 *   never hides an overrun (a violation record, once per window), and
 *   then the transition's guard: one that does not hold (STOP before the
 *   minimum) is a violation too, reported the same way, and the
 *   transition is still taken (the event did happen);
 * - ha_step_tlob() resets the clock and arms or cancels the timer;
 * - the time since the last transition goes to the state left, and the
 *   event is counted;
 * - a final state ends the window: verdict (an overrun seen before
 *   decides it), the window record, the statistics.
 *
 * The backend keeps the rest: finding the window, the translation of
 * kernel events into model events, and how the events of one window are
 * kept apart. Two words of struct tlob_core are claimed with tlob_cas():
 * ->active, which the end of a window takes from 1 to 0 (exactly one end
 * per window), and ->reported, which the first detector of an overrun
 * takes from 0 to 1 (exactly one violation record). The module holds the
 * window's raw spinlock around every call, so its tlob_cas() is a plain
 * compare and store; the BPF programs share windows without a lock (a
 * uprobe program is preemptible on PREEMPT_RT, the detectors run on other
 * CPUs: bpf/tlob_common.bpf.h), so theirs is a compare-and-swap.
 *
 * The includer provides READ_ONCE(), WRITE_ONCE() and __always_inline
 * (the kernel's; bpf/tlob_common.bpf.h and the unit test define them) and,
 * after including, defines these hooks (and ha_arm_tlob()/ha_cancel_tlob()
 * of tlob_model_ha.h, which reach the timer of the window):
 *
 *	static bool tlob_cas(__u32 *p, __u32 old, __u32 new);
 *		*p = new if *p == old; false, and nothing written, if not
 *	static __u64 tlob_now(void);
 *		the clock of every timestamp (CLOCK_MONOTONIC ns)
 *	static void tlob_emit(struct tlob_core *w, unsigned int kind,
 *			      unsigned int event, __u64 now);
 *		a record of @kind is ready: tlob_record_fill() it and send it
 *	static void tlob_account(struct tlob_core *w, __u64 elapsed_ns);
 *		the window ended (its verdict in w->verdict): its statistics
 *		and its binding's history (tlob_tolerance.h)
 *	static bool tlob_react_due(struct tlob_core *w);
 *		a violation is being reported: whether it passes the
 *		binding's tolerance (tlob_tolerance_reached())
 *	static void tlob_on_step(struct tlob_core *w, unsigned int curr,
 *				 unsigned int event, unsigned int next);
 *		curr x event -> next taken, or refused (next is
 *		INVALID_STATE_TLOB): for tracing
 */
#ifndef TLOB_ENGINE_H
#define TLOB_ENGINE_H

#include "tlob_abi.h"

struct ha_clocks_tlob;
static __always_inline __u64 tlob_core_budget(const struct ha_clocks_tlob *clk);
static __always_inline __u64 tlob_core_min(const struct ha_clocks_tlob *clk);
/* The bound of the model's invariant: the window's budget. */
#define BUDGET_NS(clk) tlob_core_budget(clk)
/* The bound of the guard on stop: the window's minimum (0: none). */
#define MIN_NS(clk) tlob_core_min(clk)
#include "tlob_model_ha.h"
#include "tlob_tolerance.h"

/*
 * An index the BPF verifier must see bounded: the barrier keeps the
 * compiler from folding the range check into other tests of the value,
 * whose arithmetic the verifier cannot follow (bpf_helpers.h has it).
 */
#ifndef barrier_var
#define barrier_var(var)	((void)(var))
#endif

/*
 * The engine's part of an open window; the backend embeds it in its own
 * window and fills pid, tgid, binding_id, comm and tag before
 * tlob_open().
 */
struct tlob_core {
	struct ha_clocks_tlob clk;	/* clk.start[clk_elapsed_tlob]: START */
	__u64 budget_ns;
	__u64 min_ns;			/* 0: none */
	__u64 last_ns;			/* the last transition */
	__s64 detect_latency_ns;	/* of the reported overrun */
	__u64 time_ns[state_max_tlob];	/* booked per state, up to last_ns */
	__u32 count[event_max_tlob];	/* transitions taken per event */
	__u32 pid;
	__u32 tgid;
	__u32 binding_id;
	__u32 active;			/* set last at open, claimed 1 -> 0 by the end */
	__u32 reported;			/* claimed 0 -> 1 by the first detector */
	__u8 state;			/* enum states_tlob */
	__u8 verdict;			/* enum tlob_verdict, final once ended */
	__u8 abort_reason;		/* enum tlob_abort_reason */
	__u8 detector;			/* enum tlob_detector of the report */
	__u8 violation;			/* enum tlob_verdict of the report */
	__u8 react;			/* the report passed the tolerance */
	char comm[TLOB_COMM_LEN];
	char tag[TLOB_TAG_LEN];
};

/* What tlob_step() did. */
enum tlob_step_result {
	TLOB_STEP_NONE,		/* nothing: not open, or its end was claimed elsewhere */
	TLOB_STEP_OPEN,		/* taken; the window stays open */
	TLOB_STEP_ENDED,	/* the window ended here: its record is out */
};

static bool tlob_cas(__u32 *p, __u32 old, __u32 new);
static __u64 tlob_now(void);
static void tlob_emit(struct tlob_core *w, unsigned int kind,
		      unsigned int event, __u64 now);
static void tlob_account(struct tlob_core *w, __u64 elapsed_ns);
static bool tlob_react_due(struct tlob_core *w);
static void tlob_on_step(struct tlob_core *w, unsigned int curr,
			 unsigned int event, unsigned int next);

static __always_inline __u64 tlob_core_budget(const struct ha_clocks_tlob *clk)
{
	const char *p = (const char *)clk - __builtin_offsetof(struct tlob_core, clk);

	return ((const struct tlob_core *)p)->budget_ns;
}

static __always_inline __u64 tlob_core_min(const struct ha_clocks_tlob *clk)
{
	const char *p = (const char *)clk - __builtin_offsetof(struct tlob_core, clk);

	return ((const struct tlob_core *)p)->min_ns;
}

/* The ended window had a violation its binding's tolerance held back. */
static __always_inline bool tlob_core_tolerated(const struct tlob_core *w)
{
	return (w->verdict == TLOB_VERDICT_OVER_BUDGET ||
		w->verdict == TLOB_VERDICT_EARLY) && !READ_ONCE(w->react);
}

static __always_inline bool tlob_core_active(const struct tlob_core *w)
{
	return READ_ONCE(w->active);
}

/* The state as a table index the verifier can bound; state_max_tlob if not. */
static __always_inline unsigned int tlob_core_state(const struct tlob_core *w)
{
	unsigned int state = READ_ONCE(w->state);

	barrier_var(state);
	return state < state_max_tlob ? state : state_max_tlob;
}

static __always_inline __u64 tlob_core_start(const struct tlob_core *w)
{
	return w->clk.start[clk_elapsed_tlob];
}

/*
 * The window as a record at @now: identity, time per state (the open
 * part of the current one included), counts, verdict. Every byte of @r
 * is written (a ring buffer slot is not zeroed). A detector that runs
 * beside the window's own events may see a transition half-booked; the
 * window record, written by the event that ended it, is exact.
 */
static __always_inline void tlob_record_fill(struct tlob_record *r,
					     const struct tlob_core *w,
					     unsigned int kind,
					     unsigned int event, __u64 now)
{
	unsigned int state = tlob_core_state(w), i;
	__u64 start = tlob_core_start(w), last = READ_ONCE(w->last_ns);
	bool violation = kind == TLOB_REC_VIOLATION;

	r->start_ns = start;
	r->end_ns = now;
	r->budget_ns = w->budget_ns;
	r->min_ns = w->min_ns;
	r->elapsed_ns = now - start;
	r->detect_latency_ns = w->detect_latency_ns;
	/*
	 * Indexed by the loop's own counter, never by state: 6.1's verifier
	 * loses a bound the compiler checked on a copy of the register it
	 * then indexes with (a 32-bit move drops the link between them).
	 */
	for (i = 0; i < state_max_tlob; i++)
		r->time_ns[i] = w->time_ns[i] +
				(i == state && now > last ? now - last : 0);
	r->pid = w->pid;
	r->tgid = w->tgid;
	r->binding_id = w->binding_id;
	__builtin_memcpy(r->count, w->count, sizeof(r->count));
	r->kind = kind;
	r->verdict = violation ? w->violation : w->verdict;
	r->abort_reason = violation ? TLOB_ABORT_NONE : w->abort_reason;
	r->detector = w->detector;
	r->react = w->react;
	r->state = state;
	r->event = event;
	__builtin_memset(r->pad, 0, sizeof(r->pad));
	__builtin_memcpy(r->comm, w->comm, sizeof(r->comm));
	__builtin_memcpy(r->tag, w->tag, sizeof(r->tag));
}

/*
 * A START that found no window free: not a window (no times, no verdict),
 * but a record all the same, so that no START is lost silently. The
 * caller sets comm and tag.
 */
static __always_inline void tlob_record_dropped(struct tlob_record *r, __u64 now,
						__u64 budget_ns, __u32 pid,
						__u32 tgid, __u32 binding_id)
{
	__builtin_memset(r, 0, sizeof(*r));
	r->start_ns = now;
	r->end_ns = now;
	r->budget_ns = budget_ns;
	r->pid = pid;
	r->tgid = tgid;
	r->binding_id = binding_id;
	r->kind = TLOB_REC_DROPPED;
	r->state = automaton_tlob.initial_state;
	r->event = start_tlob;
}

/*
 * Claim the window's one violation report (the first constraint found
 * broken: the deadline or a guard) and emit its record.
 */
static __always_inline bool tlob_report(struct tlob_core *w, __u64 now,
					unsigned int detector,
					unsigned int event,
					unsigned int verdict, __s64 latency)
{
	if (!tlob_cas(&w->reported, 0, 1))
		return false;
	w->detect_latency_ns = latency;
	w->detector = detector;
	w->violation = verdict;
	w->react = tlob_react_due(w);
	tlob_emit(w, TLOB_REC_VIOLATION, event, now);
	return true;
}

/*
 * The deadline check every detector shares (the timer, a sampler, every
 * event): if the invariant of the window's state no longer holds at @now
 * and nobody reported it yet, claim the report, note who found it and how
 * late, and emit the violation record. @event: the model event being
 * handled, event_max_tlob for none (a timer).
 */
static __always_inline bool tlob_check(struct tlob_core *w, __u64 now,
				       unsigned int detector,
				       unsigned int event)
{
	unsigned int state = tlob_core_state(w);

	if (state >= state_max_tlob || READ_ONCE(w->reported))
		return false;
	if (ha_invariant_holds_tlob(&w->clk, state, now))
		return false;
	return tlob_report(w, now, detector, event, TLOB_VERDICT_OVER_BUDGET,
			   (__s64)(now - ha_deadline_tlob(&w->clk, state)));
}

/*
 * Open @w at @now for @budget_ns (its identity filled in). The start
 * transition is taken before the window is published, so an event that
 * interrupts the opener (a uprobe program is preemptible on PREEMPT_RT)
 * finds no window or one already running, never one still stopped; the
 * deadline is armed once it is published.
 */
static __always_inline void tlob_open(struct tlob_core *w, __u64 budget_ns,
				      __u64 min_ns, __u64 now)
{
	unsigned int init = automaton_tlob.initial_state;
	unsigned int next = automaton_tlob.function[init][start_tlob];

	__builtin_memset(w->time_ns, 0, sizeof(w->time_ns));
	__builtin_memset(w->count, 0, sizeof(w->count));
	w->clk.start[clk_elapsed_tlob] = now;
	w->budget_ns = budget_ns;
	w->min_ns = min_ns;
	w->last_ns = now;
	w->detect_latency_ns = 0;
	w->reported = 0;
	w->verdict = TLOB_VERDICT_OK;
	w->abort_reason = TLOB_ABORT_NONE;
	w->detector = TLOB_DETECT_NONE;
	w->violation = TLOB_VERDICT_OK;
	w->react = 0;
	w->state = next;
	w->count[start_tlob] = 1;
	tlob_on_step(w, init, start_tlob, next);
	WRITE_ONCE(w->active, 1);
	ha_step_tlob(&w->clk, init, start_tlob, now);
}

/*
 * The window ends (claimed): its verdict, the one window record, the
 * statistics. A violation reported before (an overrun, or a guard at
 * this very event) decides the verdict, whatever ended the window; the
 * abort reason is kept for an aborted window only.
 */
static __always_inline void tlob_end(struct tlob_core *w, unsigned int event,
				     __u64 now, unsigned int verdict,
				     unsigned int reason)
{
	/*
	 * A guard is reported by the event that ends the window, here, in
	 * this context; a detector on another CPU (BPF) may have claimed the
	 * overrun and not yet written ->violation: that one is an overrun.
	 */
	if (READ_ONCE(w->reported))
		verdict = READ_ONCE(w->violation) == TLOB_VERDICT_EARLY ?
			  TLOB_VERDICT_EARLY : TLOB_VERDICT_OVER_BUDGET;
	if (verdict != TLOB_VERDICT_ABORTED)
		reason = TLOB_ABORT_NONE;
	w->verdict = verdict;
	w->abort_reason = reason;
	tlob_emit(w, TLOB_REC_WINDOW, event, now);
	tlob_account(w, now - tlob_core_start(w));
}

/*
 * Feed one model event to an open window. @detector names who notices an
 * overrun on the way (every event is a chance to); @reason is the abort
 * reason when @event is abort_tlob.
 *
 * @now == 0: the event comes from the window's own task in a context that
 * may be interrupted by that task's scheduler events (BPF on PREEMPT_RT:
 * STOP, or a START inside the window). A time taken before such an
 * interruption would end the window before time already booked to it, so
 * the window is claimed first, which freezes it (the others skip a window
 * that is not active), and only then is the time taken. Both such events
 * end a window in tlob's model; one that did not would publish the window
 * again (events in between are not seen).
 */
static __always_inline int tlob_step(struct tlob_core *w, unsigned int event,
				     __u64 now, unsigned int detector,
				     unsigned int reason)
{
	unsigned int curr, next;
	bool claimed = false;

	if (!tlob_core_active(w))
		return TLOB_STEP_NONE;
	if (!now) {
		if (!tlob_cas(&w->active, 1, 0))
			return TLOB_STEP_NONE;
		claimed = true;
		now = tlob_now();
	}
	curr = tlob_core_state(w);
	barrier_var(event);
	if (curr >= state_max_tlob || event >= event_max_tlob) {
		if (claimed)
			WRITE_ONCE(w->active, 1);
		return TLOB_STEP_NONE;
	}
	next = automaton_tlob.function[curr][event];
	if (next >= state_max_tlob) {
		/* Not allowed by the model: a model error, never an overrun. */
		if (!claimed && !tlob_cas(&w->active, 1, 0))
			return TLOB_STEP_NONE;
		tlob_on_step(w, curr, event, INVALID_STATE_TLOB);
		/* The table cancels on stop/abort; a model error has no cell. */
		ha_cancel_tlob(&w->clk);
		tlob_end(w, event, now, TLOB_VERDICT_MODEL_ERROR, TLOB_ABORT_NONE);
		return TLOB_STEP_ENDED;
	}
	tlob_check(w, now, detector, event);
	/* On the clocks before this transition's reset, as the model reads it. */
	if (!ha_guard_holds_tlob(&w->clk, curr, event, now) &&
	    !READ_ONCE(w->reported))
		tlob_report(w, now, detector, event, TLOB_VERDICT_EARLY, 0);
	if (automaton_tlob.final_states[next] && !claimed &&
	    !tlob_cas(&w->active, 1, 0))
		return TLOB_STEP_NONE;
	ha_step_tlob(&w->clk, curr, event, now);
	tlob_on_step(w, curr, event, next);
	w->time_ns[curr] += now - w->last_ns;
	w->last_ns = now;
	w->state = next;
	w->count[event]++;
	if (!automaton_tlob.final_states[next]) {
		if (claimed)
			WRITE_ONCE(w->active, 1);
		return TLOB_STEP_OPEN;
	}
	tlob_end(w, event, now, event == abort_tlob ? TLOB_VERDICT_ABORTED :
		 TLOB_VERDICT_OK, reason);
	return TLOB_STEP_ENDED;
}

#endif /* TLOB_ENGINE_H */
