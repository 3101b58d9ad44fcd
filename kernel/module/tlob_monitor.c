// SPDX-License-Identifier: GPL-2.0
/*
 * The per-window monitor: one instance of the generated automaton per
 * (task, binding) window. What an event does to a window is the engine's
 * (tlob_engine.h, shared with the BPF programs): the generated tables
 * (tlob_model.h) and invariant glue (tlob_model_ha.h), the deadline check,
 * times, counts and the end of a window. This file finds the window,
 * serialises its events under its raw spinlock, and gives the engine its
 * hooks: the hrtimer, the trace events, the reactor and the statistics.
 *
 * Locking and context:
 * - Callers: uprobe handlers (task context), scheduler tracepoints
 *   (sched_switch and sched_wakeup with a runqueue lock held and IRQs
 *   off; exit and exec in task context), the hrtimer callback (hard IRQ,
 *   also on PREEMPT_RT) and control writes (process context).
 * - Order: hash bucket lock -> window lock, then (the window lock
 *   released) hash bucket lock -> a CPU's free-list lock (tlob_pool.c),
 *   all raw spinlocks (a spinlock_t sleeps on PREEMPT_RT, and the
 *   scheduler probes cannot sleep); under the window lock, a CPU's
 *   wait-list lock (tlob_diag.c). The timer callback and the diagnosis'
 *   irq_work (hard IRQ, also on PREEMPT_RT) take only the window lock
 *   (and that wait-list lock).
 * - Under them only: trace events, per-CPU stats, hrtimer_start() and
 *   hrtimer_try_to_cancel() (never hrtimer_cancel(): it would wait for a
 *   callback that waits for our lock) and irq_work_queue() for reactors
 *   and the diagnosis.
 *   Nothing here allocates, sleeps, prints or wakes a task: a wakeup
 *   could need the runqueue lock that sched_switch already holds.
 */
#include <linux/hrtimer.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "tlob.h"
#include "tlob_engine.h"
#include "tlob_trace.h"

struct tlob_window {
	struct tlob_slot slot;		/* first: the pool hands these out */
	raw_spinlock_t lock;		/* the core, and every engine call */
	struct tlob_core core;		/* automaton, times, identity: tlob_engine.h */
	struct hrtimer timer;
	struct tlob_wdiag diag;		/* why it overran: tlob_diag.c */
};

static inline struct tlob_window *to_window(struct tlob_slot *s)
{
	return container_of(s, struct tlob_window, slot);
}

static inline struct tlob_window *core_window(struct tlob_core *c)
{
	return container_of(c, struct tlob_window, core);
}

/* The engine's hooks (tlob_engine.h); the window lock is held. */

static void ha_arm_tlob(struct ha_clocks_tlob *clk, u64 deadline_ns)
{
	struct tlob_core *c = container_of(clk, struct tlob_core, clk);

	tlob_timer_arm(&core_window(c)->timer, deadline_ns);
}

static void ha_cancel_tlob(struct ha_clocks_tlob *clk)
{
	struct tlob_core *c = container_of(clk, struct tlob_core, clk);

	tlob_timer_try_cancel(&core_window(c)->timer);
}

/* Under the window lock: a plain compare and store. */
static bool tlob_cas(u32 *p, u32 old, u32 new)
{
	if (*p != old)
		return false;
	*p = new;
	return true;
}

static u64 tlob_now(void)
{
	return ktime_get_ns();
}

/*
 * Every step of every window: inline, and nothing but the two tracepoints'
 * static keys unless one is enabled.
 */
static __always_inline void tlob_on_step(struct tlob_core *c,
					 unsigned int curr, unsigned int event,
					 unsigned int next)
{
	lockdep_assert_held(&core_window(c)->lock);
	if (next == INVALID_STATE_TLOB) {
		if (trace_error_tlob_enabled())
			trace_error_tlob(c->pid,
					 automaton_tlob.state_names[curr],
					 automaton_tlob.event_names[event]);
	} else if (trace_event_tlob_enabled()) {
		trace_event_tlob(c->pid, automaton_tlob.state_names[curr],
				 automaton_tlob.event_names[event],
				 automaton_tlob.state_names[next],
				 automaton_tlob.final_states[next]);
	}
}

/*
 * A violation: upstream's two events, the record, the reactor. A broken
 * guard (STOP before min=) names the event whose guard broke, as an HA
 * monitor's error_env does; it has no threshold to detail.
 */
static void tlob_emit_violation(struct tlob_window *w,
				const struct tlob_record *r)
{
	bool early = r->verdict == TLOB_VERDICT_EARLY;

	if (trace_error_env_tlob_enabled()) {
		char env[40];

		snprintf(env, sizeof(env), "%s=%llu",
			 automaton_tlob.env_names[clk_elapsed_tlob],
			 r->elapsed_ns);
		trace_error_env_tlob(r->pid,
				     automaton_tlob.state_names[r->state],
				     early ? automaton_tlob.event_names[r->event] :
				     "budget_exceeded", env);
	}
	/* Upstream's event: its three states, by name, whatever the model adds. */
	if (!early)
		trace_detail_env_tlob(r->pid, r->budget_ns,
				      r->time_ns[running_tlob],
				      r->time_ns[waiting_tlob],
				      r->time_ns[sleeping_tlob]);
	trace_violation(r);
	tlob_notify_readers();
	/* Held back by the binding's tolerance=: recorded, not reacted to. */
	if (r->react)
		tlob_react(w->slot.task, r);
}

static void tlob_emit(struct tlob_core *c, unsigned int kind,
		      unsigned int event, u64 now)
{
	struct tlob_window *w = core_window(c);
	struct tlob_record r;

	lockdep_assert_held(&w->lock);
	tlob_record_fill(&r, c, kind, event, now);
	if (kind == TLOB_REC_VIOLATION) {
		tlob_emit_violation(w, &r);
		tlob_wdiag_violation(&w->diag, w->slot.task, &r, event);
		return;
	}
	/* A violation's detail still pending goes out before the window. */
	tlob_wdiag_end(&w->diag, w->slot.task, event, now);
	trace_window(&r);
	if (r.verdict == TLOB_VERDICT_MODEL_ERROR)
		tlob_react(w->slot.task, &r);
}

/*
 * The binding's history takes the window's verdict by compare-and-swap:
 * windows of one binding end on several CPUs under their own locks.
 */
static void tlob_account(struct tlob_core *c, u64 elapsed_ns)
{
	struct tlob_binding *b = core_window(c)->slot.binding;
	s64 old = atomic64_read(&b->history);

	if (tlob_tolerance_judged(c->verdict))
		while (!atomic64_try_cmpxchg(&b->history, &old,
					     tlob_history_push(old, c->verdict)))
			;
	tlob_stats_account(b->stats, c->verdict, tlob_core_tolerated(c),
			   elapsed_ns);
}

static bool tlob_react_due(struct tlob_core *c)
{
	const struct tlob_binding *b = core_window(c)->slot.binding;

	return tlob_tolerance_reached(atomic64_read(&b->history), b->tol_k,
				      b->tol_w);
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

/*
 * Feed @event to one window of the bucket; the bucket lock is held.
 * Inline: every scheduler event of a task inside a window comes here.
 */
static __always_inline void __tlob_feed(struct tlob_bucket *bkt,
					struct tlob_slot *s,
					enum events_tlob event, u64 now,
					enum tlob_detector late,
					enum tlob_abort_reason why)
{
	struct tlob_window *w = to_window(s);
	int ret;

	raw_spin_lock(&w->lock);
	ret = tlob_step(&w->core, event, now, late, why);
	if (ret == TLOB_STEP_OPEN)
		tlob_wdiag_event(&w->diag, s->task, event, w->core.state, now);
	raw_spin_unlock(&w->lock);
	if (ret == TLOB_STEP_ENDED)
		__tlob_pool_put(bkt, s);
}

/* A new window of @b for @t; the bucket lock is held. */
static void __tlob_open(struct tlob_window *w, struct tlob_binding *b,
			struct task_struct *t, u64 now)
{
	struct tlob_core *c = &w->core;

	raw_spin_lock(&w->lock);
	c->pid = t->pid;
	c->tgid = t->tgid;
	c->binding_id = b->id;
	memcpy(c->comm, t->comm, TLOB_COMM_LEN);
	c->comm[TLOB_COMM_LEN - 1] = '\0';
	memcpy(c->tag, b->tag, TLOB_TAG_LEN);
	tlob_wdiag_open(&w->diag);
	tlob_open(c, b->budget_ns, b->min_ns, now);
	raw_spin_unlock(&w->lock);
}

/*
 * A START found no free window. Not a window (no window record, nothing
 * in the statistics of ended windows), but never silent: a dropped record
 * for every reader, the binding's dropped count and the pool's.
 */
static void tlob_start_dropped(struct tlob_binding *b, struct task_struct *t,
			       u64 now)
{
	struct tlob_record r;

	tlob_record_dropped(&r, now, b->budget_ns, t->pid, t->tgid, b->id);
	memcpy(r.comm, t->comm, TLOB_COMM_LEN);
	r.comm[TLOB_COMM_LEN - 1] = '\0';
	memcpy(r.tag, b->tag, TLOB_TAG_LEN);
	tlob_pool_dropped();
	tlob_stats_dropped(b->stats);
	trace_dropped(&r);
	tlob_notify_readers();
}

/* START (uprobe, task context): open a window, or feed it `start`. */
void tlob_window_start(struct tlob_binding *b, struct task_struct *t)
{
	struct tlob_bucket *bkt = tlob_bucket_of(t);
	u64 now = ktime_get_ns();
	struct tlob_slot *s;
	unsigned long flags;

	raw_spin_lock_irqsave(&bkt->lock, flags);
	s = __tlob_find(bkt, t, b);
	if (s) {
		/* The model decides what a START inside the window means. */
		__tlob_feed(bkt, s, start_tlob, now, TLOB_DETECT_STOP,
			    TLOB_ABORT_NONE);
	} else {
		s = __tlob_pool_get(bkt, t, b);
		if (s)
			__tlob_open(to_window(s), b, t, now);
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
		__tlob_feed(bkt, s, stop_tlob, ktime_get_ns(), TLOB_DETECT_STOP,
			    TLOB_ABORT_NONE);
	raw_spin_unlock_irqrestore(&bkt->lock, flags);
}

/*
 * Feed @event to every window @t has open (@why: the abort's reason); the
 * bucket lock is held. @now is the event's time, 0 if not read yet: it is
 * read at the first window that needs it, and returned, so a scheduler
 * event that feeds two tasks (sched_switch) reads the clock once. (By
 * value, not through a pointer: a local whose address is taken costs the
 * probe a stack canary on every call.)
 */
static __always_inline u64 __tlob_task_feed(struct tlob_bucket *bkt,
					    struct task_struct *t,
					    enum events_tlob event,
					    enum tlob_abort_reason why, u64 now)
{
	struct tlob_slot *s;
	struct hlist_node *tmp;

	hlist_for_each_entry_safe(s, tmp, &bkt->head, hnode) {
		if (s->task != t)
			continue;
		if (!now)
			now = ktime_get_ns();
		__tlob_feed(bkt, s, event, now,
			    event == abort_tlob ? TLOB_DETECT_STOP :
			    TLOB_DETECT_SCHED, why);
	}
	return now;
}

/*
 * A scheduler event for @t at @now (0: not read yet); returns the time it
 * used, for the other task of the same event. The probes call it only
 * when tlob_task_may_have_window(@t), a lockless look at @t's bucket:
 * windows of @t are only added by @t itself (START runs in its context)
 * and that is ordered before any later scheduler event of @t by the
 * runqueue locks, so an empty bucket means @t has no window. IRQs are off
 * (sched_switch and sched_wakeup: a runqueue lock; sched_waking: @t's
 * pi_lock), so the bucket lock is taken as it is.
 */
u64 tlob_task_event(struct task_struct *t, enum events_tlob event, u64 now)
{
	struct tlob_bucket *bkt = tlob_bucket_of(t);

	lockdep_assert_irqs_disabled();
	raw_spin_lock(&bkt->lock);
	now = __tlob_task_feed(bkt, t, event, TLOB_ABORT_NONE, now);
	raw_spin_unlock(&bkt->lock);
	return now;
}

/*
 * sched_waking (the waker's context, @t's pi_lock held, IRQs off): current
 * wakes @t; its windows' diagnoses note the waker. Called as
 * tlob_task_event() is, when @t's bucket is not empty.
 */
void tlob_task_waking(struct task_struct *t)
{
	struct tlob_bucket *bkt = tlob_bucket_of(t);
	struct tlob_slot *s;

	lockdep_assert_irqs_disabled();
	raw_spin_lock(&bkt->lock);
	hlist_for_each_entry(s, &bkt->head, hnode) {
		struct tlob_window *w = to_window(s);

		if (s->task != t)
			continue;
		raw_spin_lock(&w->lock);
		if (tlob_core_active(&w->core))
			tlob_wdiag_waking(&w->diag);
		raw_spin_unlock(&w->lock);
	}
	raw_spin_unlock(&bkt->lock);
}

/*
 * Exit or exec of @t (task context, IRQs on): its windows end without
 * STOP. The same lockless look at the bucket first as for a scheduler
 * event: exit and exec run in @t's own context.
 */
void tlob_task_abort(struct task_struct *t, enum tlob_abort_reason why)
{
	struct tlob_bucket *bkt = tlob_bucket_of(t);
	unsigned long flags;

	if (!tlob_task_may_have_window(t))
		return;
	raw_spin_lock_irqsave(&bkt->lock, flags);
	__tlob_task_feed(bkt, t, abort_tlob, why, 0);
	raw_spin_unlock_irqrestore(&bkt->lock, flags);
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
			__tlob_feed(bkt, s, abort_tlob, ktime_get_ns(),
				    TLOB_DETECT_STOP, why);
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
	 * callback waited for the lock: only an open window is checked, and
	 * tlob_check() reports only an invariant that no longer holds.
	 */
	if (tlob_core_active(&w->core))
		tlob_check(&w->core, now, TLOB_DETECT_HRTIMER, event_max_tlob);
	raw_spin_unlock(&w->lock);
	return HRTIMER_NORESTART;
}

/*
 * The window's irq_work (hard IRQ, also on PREEMPT_RT), queued at its
 * task's switch-in while its violation waits for the user stack: the
 * task may be current now. The slot may hold another window by then:
 * only an open window is looked at, and only its own pending detail.
 */
static void tlob_window_current(struct irq_work *work)
{
	struct tlob_window *w = container_of(work, struct tlob_window,
					     diag.work);

	raw_spin_lock(&w->lock);
	if (tlob_core_active(&w->core))
		tlob_wdiag_current(&w->diag, READ_ONCE(w->slot.task), false);
	raw_spin_unlock(&w->lock);
}

/*
 * The IPI sent at the deadline to the CPU the window's task ran on (hard
 * IRQ, also on PREEMPT_RT): it may still be current there. As above.
 */
static void tlob_window_on_cpu(void *info)
{
	struct tlob_window *w = info;

	raw_spin_lock(&w->lock);
	if (tlob_core_active(&w->core))
		tlob_wdiag_current(&w->diag, READ_ONCE(w->slot.task), true);
	tlob_wdiag_ipi_done();
	raw_spin_unlock(&w->lock);
}

/* Module load: the pool's windows, each with its lock and hard timer. */
int tlob_monitor_init(void)
{
	unsigned int i;
	int ret;

	ret = tlob_pool_init(sizeof(struct tlob_window));
	if (ret)
		return ret;
	tlob_diag_init();
	for (i = 0; i < tlob_pool_size(); i++) {
		struct tlob_window *w = to_window(tlob_pool_slot(i));

		raw_spin_lock_init(&w->lock);
		tlob_timer_init(&w->timer, tlob_window_expired);
		tlob_wdiag_init(&w->diag, tlob_window_current,
				tlob_window_on_cpu, w);
	}
	return 0;
}

/*
 * Module exit, in process context, after every window ended and no probe
 * is left: make sure no timer callback, diagnosis irq_work or IPI still
 * runs, then free the pool.
 */
void tlob_monitor_exit(void)
{
	unsigned int i;

	for (i = 0; i < tlob_pool_size(); i++) {
		struct tlob_window *w = to_window(tlob_pool_slot(i));

		tlob_timer_sync(&w->timer);
		tlob_wdiag_sync(&w->diag);
	}
	tlob_diag_exit();
	tlob_pool_exit();
}
