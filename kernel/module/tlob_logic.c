// SPDX-License-Identifier: GPL-2.0
/*
 * Logical supervision (`l` lines): a user's deterministic automaton
 * (struct tlob_logic_table, which tlob_logic_check() accepted when its
 * line was parsed) whose events are uprobes in one binary, one consumer
 * per event (tlob_uprobe.c). An instance is one process (per=process,
 * keyed by its tgid) or one task (per=task, keyed by its pid); the first
 * event of its binding it takes creates it in the table's initial state.
 * An event its state has an edge for moves it on; one it has none for is
 * a violation (verdict ORDER, the record names the state and the event)
 * and ends the instance, so the next event begins a new one from the
 * initial state. A model with a clock (clock=) times its edges: the
 * clock starts at the instance's first event, an edge that resets it
 * restarts it, and an edge with a guard is taken only while the clock
 * reads within it; outside, the event is a violation (TIMING, the record
 * gives the clock's reading) and ends the instance. Guards are read at
 * the event. A state with an invariant (inv[]) may be held only while
 * the clock reads below it: while an instance is in such a state its
 * hard hrtimer (tlob_timer.c) is armed for the moment the clock reaches
 * the bound, and re-armed when an edge resets the clock or enters
 * another such state. At that moment the instance ends TIMING with no
 * event (the record names the state held and the clock's reading). An
 * event that comes after that moment before the timer ran (a late timer)
 * first ends the instance so, then begins a new one, as if the timer had
 * been on time. The step itself (edge, guard, reset, the invariant's
 * end) is the table's alone, in kernel/shared/tlob_logic_step.h, which
 * the host tests run too; this file keeps the instances, the lock, the
 * timers and the records. When the process (its last thread) or the
 * task exits, or execs, the instance ends: OK in a final state, else
 * INCOMPLETE, a violation too. Unbind, disable and module unload end
 * instances ABORTED, which judges nothing.
 *
 * A violation reacts (the reactor, through tlob_react_logic()) when the
 * binding's tolerance=K/W says so: every judged end of an instance (OK,
 * ORDER, INCOMPLETE) enters the binding's history (tlob_tolerance.h);
 * ABORTED says nothing of the program's order and does not.
 *
 * Instances are preallocated (logic_instances=, default 256) in a pool
 * of their own (tlob_instances.c: hashed by key, found by binding and
 * key). An event that finds neither its instance nor a free one is
 * counted as dropped. An instance keeps no task, only its pid numbers; a
 * reaction finds the pid again (tlob_react_logic()).
 *
 * Locking and context: one raw spinlock, tlob_logic_lock, guards the
 * pool, the hash, every instance and every logical binding's statistics;
 * events are rare next to scheduler events (a program's own calls), so
 * one lock is enough. Callers: the event uprobes (task context),
 * sched_process_exit/exec (task context), the invariant timer (hard IRQ,
 * also on PREEMPT_RT) and control writes and reads (process context);
 * none holds another tlob lock when it takes this one, and it is taken
 * irqsave. Under it: the tlob:logic trace event, hrtimer_start() and
 * hrtimer_try_to_cancel() (never hrtimer_cancel(), which would wait for
 * a callback that waits for this lock) and tlob_react_logic(), which
 * only queues (irq_work). Nothing here allocates, sleeps or prints, so
 * the lock stays raw on PREEMPT_RT.
 *
 * Lifetime: a binding's table and probes are allocated with it in
 * process context (tlob_binding.c) and never change. It is freed only
 * after its uprobes are gone (one sync: no handler of it runs any more)
 * and tlob_logic_abort_binding() ended its instances, so neither a
 * handler nor an instance can reach a freed table. A timer that fires
 * for an instance that ended, or for its slot's next instance, finds no
 * instance or one whose own invariant it checks: it judges nothing
 * else; the timers are synced before the pool is freed.
 */
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "tlob.h"
#include "tlob_logic_step.h"
#include "tlob_tolerance.h"
#include "tlob_trace.h"

static unsigned int logic_instances = 256;
module_param(logic_instances, uint, 0444);
MODULE_PARM_DESC(logic_instances,
		 "logical supervision instances at once (default 256)");

struct tlob_logic {
	struct tlob_inst in;		/* first: the pool's (tlob_instances.c) */
	u64 start_ns;			/* its first event */
	struct tlob_logic_pos pos;	/* its state and clock (tlob_logic_step.h) */
	u64 events;			/* allowed events taken */
	struct hrtimer timer;		/* the invariant of its state, if any */
};

static DEFINE_RAW_SPINLOCK(tlob_logic_lock);

static void tlob_logic_gone(struct tlob_inst *in, enum tlob_abort_reason why,
			    u64 now);
static void tlob_logic_end(struct tlob_inst *in, enum tlob_abort_reason why,
			   u64 now);

static struct tlob_inst_pool tlob_logic_pool = {
	.name = "logic",
	.lock = &tlob_logic_lock,
	.gone = tlob_logic_gone,
	.end = tlob_logic_end,
};

static struct tlob_logic *logic_of(struct tlob_inst *in)
{
	return container_of(in, struct tlob_logic, in);
}

/*
 * @b's instance for @t, or a new one begun by @t at @now in the table's
 * initial state; NULL when it has none and none is free.
 */
static struct tlob_logic *tlob_logic_get(struct tlob_binding *b,
					 const struct task_struct *t, u64 now)
{
	struct tlob_inst *in = tlob_inst_find(&tlob_logic_pool, b, t);
	struct tlob_logic *l;

	if (in)
		return logic_of(in);
	in = tlob_inst_take(&tlob_logic_pool, b, t);
	if (!in)
		return NULL;
	l = logic_of(in);
	l->start_ns = now;
	l->pos.clock_ns = now;
	l->events = 0;
	l->pos.state = b->table->initial;
	b->lstats.instances++;
	return l;
}

/* A record of @l at @now: @verdict, about @event (TLOB_LOGIC_NONE: none). */
static void tlob_logic_fill(const struct tlob_logic *l,
			    struct tlob_logic_record *r, u64 now,
			    unsigned int verdict, unsigned int event,
			    enum tlob_abort_reason why)
{
	const struct tlob_binding *b = l->in.b;

	memset(r, 0, sizeof(*r));
	r->start_ns = l->start_ns;
	r->end_ns = now;
	r->events = l->events;
	if (b->table->clock[0])
		r->clock_ns = now - l->pos.clock_ns;
	r->pid = l->in.key;
	r->tgid = l->in.tgid;
	r->binding_id = b->id;
	r->verdict = verdict;
	r->state = l->pos.state;
	r->event = event;
	r->abort_reason = why;
	memcpy(r->comm, l->in.comm, TLOB_COMM_LEN);
	memcpy(r->tag, b->tag, TLOB_TAG_LEN);
}

/* The record as the tlob:logic trace event, with the table's names. */
static void tlob_logic_emit(const struct tlob_logic *l,
			    const struct tlob_logic_record *r)
{
	const struct tlob_logic_table *t = l->in.b->table;

	trace_logic(r, t->model, t->state[r->state],
		    r->event == TLOB_LOGIC_NONE ? "" : t->event[r->event]);
	/* A violation: its readers are woken at once (the others batch). */
	if (r->verdict >= TLOB_VERDICT_ORDER && r->verdict <= TLOB_VERDICT_TIMING)
		tlob_notify_readers();
}

/* Whether @l, at @now, has held its state as long as its invariant allows. */
static bool tlob_logic_late(const struct tlob_logic *l, u64 now)
{
	return tlob_logic_overdue(l->in.b->table, &l->pos, now);
}

/*
 * After @l took an edge (its state or clock may have changed): the timer
 * set for its state's invariant, or cancelled when it has none or it is
 * past KTIME_MAX (a table may say up to 2^64 - 1 ns): never reached.
 */
static void tlob_logic_arm(struct tlob_logic *l)
{
	u64 due = tlob_logic_due(l->in.b->table, &l->pos, KTIME_MAX);

	if (due)
		tlob_timer_arm(&l->timer, due);
	else
		tlob_timer_try_cancel(&l->timer);
}

/*
 * A judged end of @l (@r: OK, ORDER, TIMING or INCOMPLETE): the binding's
 * statistics and history; a violation that passes the tolerance reacts.
 * Then the instance is free.
 */
static void tlob_logic_judged(struct tlob_logic *l,
			      struct tlob_logic_record *r)
{
	struct tlob_binding *b = l->in.b;
	const struct tlob_logic_table *t = b->table;
	struct tlob_logic_stats *st = &b->lstats;
	u64 history = atomic64_read(&b->history);
	bool bad = r->verdict != TLOB_VERDICT_OK;

	if (bad) {
		r->react = tlob_tolerance_reached(history, b->tol_k, b->tol_w);
		if (r->verdict == TLOB_VERDICT_ORDER)
			st->order++;
		else if (r->verdict == TLOB_VERDICT_TIMING)
			st->timing++;
		else
			st->incomplete++;
		if (!r->react)
			st->tolerated++;
	} else {
		st->completed++;
	}
	/* Under tlob_logic_lock: the one writer of a logical binding's. */
	atomic64_set(&b->history, (history << 1) | bad);
	tlob_timer_try_cancel(&l->timer);
	tlob_logic_emit(l, r);
	if (r->react)
		tlob_react_logic(r, t->model, t->state[r->state],
				 r->event == TLOB_LOGIC_NONE ? "" :
				 t->event[r->event]);
	tlob_inst_give(&tlob_logic_pool, &l->in);
}

/* @l held its state past its invariant (@now): TIMING, no event; it ends. */
static void tlob_logic_expire(struct tlob_logic *l, u64 now)
{
	struct tlob_logic_record r;

	tlob_logic_fill(l, &r, now, TLOB_VERDICT_TIMING, TLOB_LOGIC_NONE,
			TLOB_ABORT_NONE);
	tlob_logic_judged(l, &r);
}

/* The invariant timer (hard IRQ, also on PREEMPT_RT). */
static enum hrtimer_restart tlob_logic_expired(struct hrtimer *timer)
{
	struct tlob_logic *l = container_of(timer, struct tlob_logic, timer);
	u64 now;

	raw_spin_lock(&tlob_logic_lock);
	now = ktime_get_ns();
	/*
	 * The instance may have ended, or its slot begun another, while this
	 * callback waited for the lock: only the invariant of the instance
	 * there now, if it no longer holds.
	 */
	if (l->in.b && tlob_logic_late(l, now))
		tlob_logic_expire(l, now);
	raw_spin_unlock(&tlob_logic_lock);
	return HRTIMER_NORESTART;
}

/*
 * Event @event of logical binding @b was hit by @t (current). Its
 * instance, or a new one, takes the edge of its state; with none there
 * it is an ORDER violation, outside the edge's guard a TIMING one, and
 * the instance ends. An instance past its state's invariant (its timer
 * late) ends first, and the event begins a new one.
 */
void tlob_logic_event(struct tlob_binding *b, unsigned int event,
		      struct task_struct *t)
{
	struct tlob_logic_record r;
	struct tlob_logic *l;
	unsigned int verdict;
	unsigned long flags;
	u64 now;

	raw_spin_lock_irqsave(&tlob_logic_lock, flags);
	now = ktime_get_ns();
	l = tlob_logic_get(b, t, now);
	if (l && tlob_logic_late(l, now)) {
		tlob_logic_expire(l, now);
		l = tlob_logic_get(b, t, now);
	}
	if (!l) {
		b->lstats.dropped++;
		goto out;
	}
	switch (tlob_logic_step(b->table, &l->pos, event, now)) {
	case TLOB_LOGIC_TOOK:
		l->events++;
		b->lstats.events++;
		tlob_logic_arm(l);
		goto out;
	case TLOB_LOGIC_NO_EDGE:
		verdict = TLOB_VERDICT_ORDER;
		break;
	default:
		verdict = TLOB_VERDICT_TIMING;
		break;
	}
	tlob_logic_fill(l, &r, now, verdict, event, TLOB_ABORT_NONE);
	tlob_logic_judged(l, &r);
out:
	raw_spin_unlock_irqrestore(&tlob_logic_lock, flags);
}

/* @in's process or task exited or exec'd (@why): done or incomplete. */
static void tlob_logic_gone(struct tlob_inst *in, enum tlob_abort_reason why,
			    u64 now)
{
	struct tlob_logic *l = logic_of(in);
	bool done = l->in.b->table->final & (1U << l->pos.state);
	struct tlob_logic_record r;

	tlob_logic_fill(l, &r, now, done ? TLOB_VERDICT_OK :
			TLOB_VERDICT_INCOMPLETE, TLOB_LOGIC_NONE, why);
	tlob_logic_judged(l, &r);
}

/* Task @t exits or execs: its instances and its process's (tlob_instances.c). */
void tlob_logic_task_gone(struct task_struct *t, pid_t pid,
			  enum tlob_abort_reason why)
{
	tlob_inst_task_gone(&tlob_logic_pool, t, pid, why);
}

/* End @in for unbind or disable (@why): aborted, not judged. */
static void tlob_logic_end(struct tlob_inst *in, enum tlob_abort_reason why,
			   u64 now)
{
	struct tlob_logic *l = logic_of(in);
	struct tlob_logic_record r;

	tlob_logic_fill(l, &r, now, TLOB_VERDICT_ABORTED, TLOB_LOGIC_NONE, why);
	l->in.b->lstats.aborted++;
	tlob_timer_try_cancel(&l->timer);
	tlob_logic_emit(l, &r);
	tlob_inst_give(&tlob_logic_pool, &l->in);
}

/*
 * End the instances of @b (NULL: every logical binding's), process
 * context, once no event of it can run any more (its uprobes are gone).
 */
void tlob_logic_abort_binding(struct tlob_binding *b,
			      enum tlob_abort_reason why)
{
	tlob_inst_abort_binding(&tlob_logic_pool, b, why);
}

/* A copy of @b's statistics, consistent (process context). */
void tlob_logic_stats_get(const struct tlob_binding *b,
			  struct tlob_logic_stats *st)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&tlob_logic_lock, flags);
	*st = b->lstats;
	raw_spin_unlock_irqrestore(&tlob_logic_lock, flags);
}

/* The pool file's " logic_size=N logic_used=N logic_peak=N\n". */
int tlob_logic_pool_show(char *buf, size_t size)
{
	return tlob_inst_pool_show(&tlob_logic_pool, buf, size);
}

/* Module load: the instances, each with its hard timer, all free. */
int tlob_logic_init(void)
{
	unsigned int i;
	int ret;

	BUILD_BUG_ON(offsetof(struct tlob_logic, in));
	ret = tlob_inst_pool_init(&tlob_logic_pool, logic_instances,
				  sizeof(struct tlob_logic));
	if (ret)
		return ret;
	for (i = 0; i < tlob_logic_pool.size; i++)
		tlob_timer_init(&logic_of(tlob_inst_at(&tlob_logic_pool, i))->timer,
				tlob_logic_expired);
	return 0;
}

/*
 * Module exit, after every instance ended and no probe is left: no timer
 * callback may still run when the pool goes.
 */
void tlob_logic_exit(void)
{
	unsigned int i;

	for (i = 0; i < tlob_logic_pool.size; i++)
		tlob_timer_sync(&logic_of(tlob_inst_at(&tlob_logic_pool, i))->timer);
	tlob_inst_pool_exit(&tlob_logic_pool);
}
