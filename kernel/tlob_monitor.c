// SPDX-License-Identifier: GPL-2.0
/*
 * The per-window monitor: one instance of the generated automaton per
 * (task, binding) window. What is allowed, when the clock resets and when
 * the deadline timer is armed or cancelled come from the generated tables
 * (tlob_model.h) and invariant glue (tlob_model_ha.h); the entry points
 * below only translate kernel events into model events.
 *
 * Locking and context:
 * - Callers: uprobe handlers (task context), scheduler tracepoints
 *   (sched_switch and sched_wakeup with a runqueue lock held and IRQs
 *   off; exit and exec in task context), the hrtimer callback (hard IRQ,
 *   also on PREEMPT_RT) and control writes (process context).
 * - Order: hash bucket lock -> window lock -> pool free-list lock, all raw
 *   spinlocks (a spinlock_t sleeps on PREEMPT_RT, and the scheduler probes
 *   cannot sleep). The timer callback takes only the window lock.
 * - Under them only: trace events, per-CPU stats, hrtimer_start() and
 *   hrtimer_try_to_cancel() (never hrtimer_cancel(): it would wait for a
 *   callback that waits for our lock) and irq_work_queue() for reactors.
 *   Nothing here allocates, sleeps, prints or wakes a task: a wakeup
 *   could need the runqueue lock that sched_switch already holds.
 */
#include <linux/hrtimer.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "tlob.h"
#include "tlob_trace.h"

struct ha_clocks_tlob;
static inline u64 tlob_budget(const struct ha_clocks_tlob *clk);
/* The bound of the model's invariant: the window's budget. */
#define BUDGET_NS(clk) tlob_budget(clk)
#include "tlob_model_ha.h"

struct tlob_window {
	struct tlob_slot slot;		/* first: the pool hands these out */
	raw_spinlock_t lock;		/* everything below */
	bool active;
	bool violated;
	u8 state;			/* enum states_tlob */
	u64 budget_ns;
	u64 last_ns;			/* time of the last transition */
	u64 time_ns[state_max_tlob];	/* time spent in each state */
	struct tlob_record rec;		/* identity, counters, verdict */
	struct ha_clocks_tlob clk;
	struct hrtimer timer;
};

const size_t tlob_window_size = sizeof(struct tlob_window);

static inline struct tlob_window *to_window(struct tlob_slot *s)
{
	return container_of(s, struct tlob_window, slot);
}

static inline u64 tlob_budget(const struct ha_clocks_tlob *clk)
{
	return container_of(clk, struct tlob_window, clk)->budget_ns;
}

static void ha_arm_tlob(struct ha_clocks_tlob *clk, u64 deadline_ns)
{
	tlob_timer_arm(&container_of(clk, struct tlob_window, clk)->timer,
		       deadline_ns);
}

static void ha_cancel_tlob(struct ha_clocks_tlob *clk)
{
	tlob_timer_try_cancel(&container_of(clk, struct tlob_window, clk)->timer);
}

/* The window as a record at @now: identity, counters and time per state. */
static void __tlob_snapshot(struct tlob_window *w, struct tlob_record *r,
			    enum tlob_record_kind kind, u64 now)
{
	u64 t[state_max_tlob];

	memcpy(t, w->time_ns, sizeof(t));
	t[w->state] += now - w->last_ns;
	*r = w->rec;
	r->kind = kind;
	r->end_ns = now;
	r->elapsed_ns = now - r->start_ns;
	r->running_ns = t[running_tlob];
	r->waiting_ns = t[waiting_tlob];
	r->sleeping_ns = t[sleeping_tlob];
	r->state = w->state;
}

/* The deadline passed while the window was open: report it once. */
static void __tlob_violation(struct tlob_window *w, u64 now,
			     enum tlob_detector detector, u8 event)
{
	const char *state = automaton_tlob.state_names[w->state];
	struct tlob_record r;

	lockdep_assert_held(&w->lock);
	w->violated = true;
	w->rec.verdict = TLOB_VERDICT_OVER_BUDGET;
	w->rec.detector = detector;
	w->rec.detect_latency_ns = now - ha_deadline_tlob(&w->clk, w->state);
	__tlob_snapshot(w, &r, TLOB_REC_VIOLATION, now);
	r.event = event;
	if (trace_error_env_tlob_enabled()) {
		char env[40];

		snprintf(env, sizeof(env), "%s=%llu",
			 automaton_tlob.env_names[clk_elapsed_tlob],
			 r.elapsed_ns);
		trace_error_env_tlob(r.pid, state, "budget_exceeded", env);
	}
	trace_detail_env_tlob(r.pid, r.budget_ns, r.running_ns, r.waiting_ns,
			      r.sleeping_ns);
	trace_violation(&r);
	tlob_react(w->slot.task, &r);
}

/* The window ends: one record, the statistics, and the slot goes back. */
static void __tlob_end(struct tlob_window *w, u8 event, u64 now)
{
	struct tlob_record r;

	lockdep_assert_held(&w->lock);
	/* The table cancels on stop/abort; a model error has no table entry. */
	tlob_timer_try_cancel(&w->timer);
	if (w->violated)
		w->rec.verdict = TLOB_VERDICT_OVER_BUDGET;
	if (w->rec.verdict != TLOB_VERDICT_ABORTED)
		w->rec.abort_reason = TLOB_ABORT_NONE;
	__tlob_snapshot(w, &r, TLOB_REC_WINDOW, now);
	r.event = event;
	trace_window(&r);
	if (r.verdict == TLOB_VERDICT_MODEL_ERROR)
		tlob_react(w->slot.task, &r);
	tlob_stats_account(w->slot.binding->stats, &r);
	w->active = false;
}

/*
 * One model event for one window. Returns true when the window ended and
 * its slot must go back to the pool (the caller holds the bucket lock).
 */
static bool __tlob_step(struct tlob_window *w, enum events_tlob event,
			u64 now, enum tlob_detector late)
{
	unsigned int curr = w->state;
	unsigned int next = automaton_tlob.function[curr][event];

	lockdep_assert_held(&w->lock);
	if (next == INVALID_STATE_TLOB) {
		trace_error_tlob(w->rec.pid, automaton_tlob.state_names[curr],
				 automaton_tlob.event_names[event]);
		w->rec.verdict = TLOB_VERDICT_MODEL_ERROR;
		__tlob_end(w, event, now);
		return true;
	}
	/* A late or lost timer never hides an overrun. */
	if (!w->violated && !ha_invariant_holds_tlob(&w->clk, curr, now))
		__tlob_violation(w, now, late, event);
	ha_step_tlob(&w->clk, curr, event, now);
	trace_event_tlob(w->rec.pid, automaton_tlob.state_names[curr],
			 automaton_tlob.event_names[event],
			 automaton_tlob.state_names[next],
			 automaton_tlob.final_states[next]);
	w->time_ns[curr] += now - w->last_ns;
	w->last_ns = now;
	w->state = next;
	if (event == preempt_tlob)
		w->rec.preemptions++;
	else if (event == sleep_tlob)
		w->rec.sleeps++;
	else if (event == wakeup_tlob)
		w->rec.wakeups++;
	if (!automaton_tlob.final_states[next])
		return false;
	__tlob_end(w, event, now);
	return true;
}

static void __tlob_open(struct tlob_window *w, struct tlob_binding *b,
			struct task_struct *t, u64 now)
{
	struct tlob_record *r = &w->rec;

	memset(r, 0, sizeof(*r));
	memset(w->time_ns, 0, sizeof(w->time_ns));
	w->state = automaton_tlob.initial_state;
	w->budget_ns = b->budget_ns;
	w->last_ns = now;
	w->violated = false;
	w->active = true;
	r->start_ns = now;
	r->budget_ns = b->budget_ns;
	r->pid = t->pid;
	r->tgid = t->tgid;
	r->binding_id = b->id;
	r->verdict = TLOB_VERDICT_OK;
	memcpy(r->comm, t->comm, TLOB_COMM_LEN);
	r->comm[TLOB_COMM_LEN - 1] = '\0';
	memcpy(r->tag, b->tag, TLOB_TAG_LEN);
}

static struct tlob_slot *__tlob_find(struct tlob_bucket *bkt,
				     struct task_struct *t,
				     struct tlob_binding *b)
{
	struct tlob_slot *s;

	hlist_for_each_entry(s, &bkt->head, hnode)
		if (s->task == t && s->binding == b)
			return s;
	return NULL;
}

/* Feed @event to one window of the bucket; the bucket lock is held. */
static void __tlob_feed(struct tlob_bucket *bkt, struct tlob_slot *s,
			enum events_tlob event, u64 now,
			enum tlob_detector late)
{
	struct tlob_window *w = to_window(s);
	bool ended;

	raw_spin_lock(&w->lock);
	ended = __tlob_step(w, event, now, late);
	raw_spin_unlock(&w->lock);
	if (ended)
		__tlob_pool_put(bkt, s);
}

/*
 * A START found no free window. Not a window (no window record, nothing
 * in the statistics of ended windows), but never silent: a dropped record
 * for every reader, the binding's dropped count and the pool's.
 */
static void tlob_start_dropped(struct tlob_binding *b, struct task_struct *t,
			       u64 now)
{
	struct tlob_record r = {
		.start_ns = now,
		.end_ns = now,
		.budget_ns = b->budget_ns,
		.pid = t->pid,
		.tgid = t->tgid,
		.binding_id = b->id,
		.kind = TLOB_REC_DROPPED,
		.state = automaton_tlob.initial_state,
		.event = start_tlob,
	};

	memcpy(r.comm, t->comm, TLOB_COMM_LEN);
	r.comm[TLOB_COMM_LEN - 1] = '\0';
	memcpy(r.tag, b->tag, TLOB_TAG_LEN);
	tlob_pool_dropped();
	tlob_stats_dropped(b->stats);
	trace_dropped(&r);
}

/* START (uprobe, task context): open a window, or feed it `start`. */
void tlob_window_start(struct tlob_binding *b, struct task_struct *t)
{
	struct tlob_bucket *bkt = tlob_bucket_of(t);
	u64 now = ktime_get_ns();
	struct tlob_window *w;
	struct tlob_slot *s;
	unsigned long flags;

	raw_spin_lock_irqsave(&bkt->lock, flags);
	s = __tlob_find(bkt, t, b);
	if (s) {
		/* The model decides what a START inside the window means. */
		__tlob_feed(bkt, s, start_tlob, now, TLOB_DETECT_STOP);
	} else {
		s = __tlob_pool_get(bkt, t, b);
		if (s) {
			w = to_window(s);
			raw_spin_lock(&w->lock);
			__tlob_open(w, b, t, now);
			__tlob_step(w, start_tlob, now, TLOB_DETECT_STOP);
			raw_spin_unlock(&w->lock);
		}
	}
	raw_spin_unlock_irqrestore(&bkt->lock, flags);
	if (!s)
		tlob_start_dropped(b, t, now);
}

/* STOP (uprobe or uretprobe, task context). */
void tlob_window_stop(struct tlob_binding *b, struct task_struct *t)
{
	struct tlob_bucket *bkt = tlob_bucket_of(t);
	struct tlob_slot *s;
	unsigned long flags;

	raw_spin_lock_irqsave(&bkt->lock, flags);
	s = __tlob_find(bkt, t, b);
	/* A STOP outside a window (e.g. a first call) is not an event. */
	if (s)
		__tlob_feed(bkt, s, stop_tlob, ktime_get_ns(), TLOB_DETECT_STOP);
	raw_spin_unlock_irqrestore(&bkt->lock, flags);
}

static void __tlob_abort(struct tlob_bucket *bkt, struct tlob_slot *s,
			 enum tlob_abort_reason why, u64 now)
{
	struct tlob_window *w = to_window(s);

	raw_spin_lock(&w->lock);
	w->rec.verdict = TLOB_VERDICT_ABORTED;
	w->rec.abort_reason = why;
	raw_spin_unlock(&w->lock);
	__tlob_feed(bkt, s, abort_tlob, now, TLOB_DETECT_STOP);
}

/*
 * Feed @event to every window @t has open (@why: the abort's reason). A
 * task outside any window costs this one bucket walk.
 */
static void tlob_task_feed(struct task_struct *t, enum events_tlob event,
			   enum tlob_abort_reason why)
{
	struct tlob_bucket *bkt = tlob_bucket_of(t);
	struct tlob_slot *s;
	struct hlist_node *tmp;
	unsigned long flags;
	u64 now = 0;

	/*
	 * Lockless pre-check, so that a task outside any window costs a hash
	 * and one load, no lock: windows of @t are only added by @t itself
	 * (START runs in its context) and that is ordered before any later
	 * scheduler event, exit or exec of @t by the runqueue locks. An empty
	 * bucket therefore means @t has no window.
	 */
	if (hlist_empty(&bkt->head))
		return;
	raw_spin_lock_irqsave(&bkt->lock, flags);
	hlist_for_each_entry_safe(s, tmp, &bkt->head, hnode) {
		if (s->task != t)
			continue;
		if (!now)
			now = ktime_get_ns();
		if (event == abort_tlob)
			__tlob_abort(bkt, s, why, now);
		else
			__tlob_feed(bkt, s, event, now, TLOB_DETECT_SCHED);
	}
	raw_spin_unlock_irqrestore(&bkt->lock, flags);
}

/* A scheduler event for @t (rq lock held, IRQs off). */
void tlob_task_event(struct task_struct *t, enum events_tlob event)
{
	tlob_task_feed(t, event, TLOB_ABORT_NONE);
}

/* Exit or exec of @t (task context): its windows end without STOP. */
void tlob_task_abort(struct task_struct *t, enum tlob_abort_reason why)
{
	tlob_task_feed(t, abort_tlob, why);
}

/*
 * Unbind or disable (process context): end the windows of @b, or of every
 * binding when @b is NULL. The caller has unregistered the uprobes first,
 * so no window of @b opens while this walks the pool.
 */
void tlob_abort_binding(struct tlob_binding *b, enum tlob_abort_reason why)
{
	unsigned int i, n = tlob_pool_size();

	for (i = 0; i < n; i++) {
		struct tlob_slot *s = tlob_pool_slot(i);
		/* Only hashed and compared until the bucket lock confirms it. */
		struct task_struct *t = READ_ONCE(s->task);
		struct tlob_bucket *bkt;
		unsigned long flags;

		if (!t)
			continue;
		bkt = tlob_bucket_of(t);
		raw_spin_lock_irqsave(&bkt->lock, flags);
		if (s->task == t && (!b || s->binding == b))
			__tlob_abort(bkt, s, why, ktime_get_ns());
		raw_spin_unlock_irqrestore(&bkt->lock, flags);
	}
}

/* The deadline timer (hard IRQ): report the overrun while still inside. */
static enum hrtimer_restart tlob_window_expired(struct hrtimer *timer)
{
	struct tlob_window *w = container_of(timer, struct tlob_window, timer);
	u64 now = ktime_get_ns();

	raw_spin_lock(&w->lock);
	/*
	 * The window may have ended (or the slot been reused) while this
	 * callback waited for the lock: act only on an open window whose
	 * invariant no longer holds.
	 */
	if (w->active && !w->violated &&
	    !ha_invariant_holds_tlob(&w->clk, w->state, now))
		__tlob_violation(w, now, TLOB_DETECT_HRTIMER, event_max_tlob);
	raw_spin_unlock(&w->lock);
	return HRTIMER_NORESTART;
}

void tlob_window_init(struct tlob_slot *s)
{
	struct tlob_window *w = to_window(s);

	raw_spin_lock_init(&w->lock);
	tlob_timer_init(&w->timer, tlob_window_expired);
}

/* Process context, after the slot left every lock: no callback runs on. */
void tlob_window_sync(struct tlob_slot *s)
{
	tlob_timer_sync(&to_window(s)->timer);
}
