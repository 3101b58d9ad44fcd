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
 * initial state. When the process (its last thread) or the task exits,
 * or execs, the instance ends: OK in a final state, else INCOMPLETE, a
 * violation too. Unbind, disable and module unload end instances
 * ABORTED, which judges nothing.
 *
 * A violation reacts (the reactor, through tlob_react_logic()) when the
 * binding's tolerance=K/W says so: every judged end of an instance (OK,
 * ORDER, INCOMPLETE) enters the binding's history (tlob_tolerance.h);
 * ABORTED says nothing of the program's order and does not.
 *
 * Instances are preallocated (logic_instances=, default 256) and hashed
 * by their key alone, found by (binding, key): an exit or exec finds a
 * task's and its process's instances of every binding in two buckets. An
 * event that finds neither its instance nor a free one is counted as
 * dropped. An instance keeps no task, only its pid numbers; a reaction
 * finds the pid again (tlob_react_logic()).
 *
 * Locking and context: one raw spinlock, tlob_logic_lock, guards the
 * pool, the hash, every instance and every logical binding's statistics;
 * events are rare next to scheduler events (a program's own calls), so
 * one lock is enough. Callers: the event uprobes (task context),
 * sched_process_exit/exec (task context) and control writes and reads
 * (process context); none holds another tlob lock when it takes this
 * one, and it is taken irqsave. Under it: the tlob:logic trace event and
 * tlob_react_logic(), which only queues (irq_work). Nothing here
 * allocates, sleeps or prints, so the lock stays raw on PREEMPT_RT.
 *
 * Lifetime: a binding's table and probes are allocated with it in
 * process context (tlob_binding.c) and never change. It is freed only
 * after its uprobes are gone (one sync: no handler of it runs any more)
 * and tlob_logic_abort_binding() ended its instances, so neither a
 * handler nor an instance can reach a freed table.
 */
#include <linux/hash.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "tlob.h"
#include "tlob_tolerance.h"
#include "tlob_trace.h"

static unsigned int logic_instances = 256;
module_param(logic_instances, uint, 0444);
MODULE_PARM_DESC(logic_instances,
		 "logical supervision instances at once (default 256)");

struct tlob_logic {
	struct hlist_node hnode;	/* its key's bucket, or the free list */
	struct tlob_binding *b;		/* NULL: free */
	pid_t key;			/* pid (per=task) or tgid (per=process) */
	pid_t tgid;
	char comm[TLOB_COMM_LEN];	/* of the task that began it */
	u64 start_ns;			/* its first event */
	u64 events;			/* allowed events taken */
	u8 state;			/* index into b->table */
};

#define TLOB_LOGIC_HASH_BITS	6

static DEFINE_RAW_SPINLOCK(tlob_logic_lock);
static struct hlist_head tlob_logic_hash[1 << TLOB_LOGIC_HASH_BITS];
static HLIST_HEAD(tlob_logic_free);		/* tlob_logic_lock */
static struct tlob_logic *tlob_logic_pool;
static unsigned int tlob_logic_pool_size;
/* Instances in use; read without the lock by the exit/exec probes. */
static unsigned int tlob_logic_used;
static unsigned int tlob_logic_peak;	/* the most at once, since load */

static struct hlist_head *tlob_logic_bucket(pid_t key)
{
	return &tlob_logic_hash[hash_32((u32)key, TLOB_LOGIC_HASH_BITS)];
}

/* The instance key of @t for @b: its tgid (per=process) or pid. */
static pid_t tlob_logic_key(const struct tlob_binding *b,
			    const struct task_struct *t)
{
	return b->per == TLOB_PER_TASK ? t->pid : t->tgid;
}

static struct tlob_logic *tlob_logic_find(const struct tlob_binding *b,
					  pid_t key)
{
	struct tlob_logic *l;

	hlist_for_each_entry(l, tlob_logic_bucket(key), hnode)
		if (l->b == b && l->key == key)
			return l;
	return NULL;
}

/*
 * A new instance of @b for @key, begun by @t at @now in the table's
 * initial state; NULL when none is free.
 */
static struct tlob_logic *tlob_logic_get(struct tlob_binding *b, pid_t key,
					 const struct task_struct *t, u64 now)
{
	struct tlob_logic *l;

	lockdep_assert_held(&tlob_logic_lock);
	if (hlist_empty(&tlob_logic_free))
		return NULL;
	l = hlist_entry(tlob_logic_free.first, struct tlob_logic, hnode);
	hlist_del(&l->hnode);
	hlist_add_head(&l->hnode, tlob_logic_bucket(key));
	WRITE_ONCE(tlob_logic_used, tlob_logic_used + 1);
	if (tlob_logic_used > tlob_logic_peak)
		WRITE_ONCE(tlob_logic_peak, tlob_logic_used);
	l->b = b;
	l->key = key;
	l->tgid = t->tgid;
	memcpy(l->comm, t->comm, TLOB_COMM_LEN);
	l->start_ns = now;
	l->events = 0;
	l->state = b->table->initial;
	b->lstats.instances++;
	return l;
}

static void tlob_logic_put(struct tlob_logic *l)
{
	lockdep_assert_held(&tlob_logic_lock);
	hlist_del(&l->hnode);
	l->b = NULL;
	hlist_add_head(&l->hnode, &tlob_logic_free);
	WRITE_ONCE(tlob_logic_used, tlob_logic_used - 1);
}

/* A record of @l at @now: @verdict, about @event (TLOB_LOGIC_NONE: none). */
static void tlob_logic_fill(const struct tlob_logic *l,
			    struct tlob_logic_record *r, u64 now,
			    unsigned int verdict, unsigned int event,
			    enum tlob_abort_reason why)
{
	const struct tlob_binding *b = l->b;

	memset(r, 0, sizeof(*r));
	r->start_ns = l->start_ns;
	r->end_ns = now;
	r->events = l->events;
	r->pid = l->key;
	r->tgid = l->tgid;
	r->binding_id = b->id;
	r->verdict = verdict;
	r->state = l->state;
	r->event = event;
	r->abort_reason = why;
	memcpy(r->comm, l->comm, TLOB_COMM_LEN);
	memcpy(r->tag, b->tag, TLOB_TAG_LEN);
}

/* The record as the tlob:logic trace event, with the table's names. */
static void tlob_logic_emit(const struct tlob_logic *l,
			    const struct tlob_logic_record *r)
{
	const struct tlob_logic_table *t = l->b->table;

	trace_logic(r, t->model, t->state[r->state],
		    r->event == TLOB_LOGIC_NONE ? "" : t->event[r->event]);
}

/*
 * A judged end of @l (@r: OK, ORDER or INCOMPLETE): the binding's
 * statistics and history; a violation that passes the tolerance reacts.
 * Then the instance is free.
 */
static void tlob_logic_judged(struct tlob_logic *l,
			      struct tlob_logic_record *r)
{
	struct tlob_binding *b = l->b;
	const struct tlob_logic_table *t = b->table;
	struct tlob_logic_stats *st = &b->lstats;
	u64 history = atomic64_read(&b->history);
	bool bad = r->verdict != TLOB_VERDICT_OK;

	if (bad) {
		r->react = tlob_tolerance_reached(history, b->tol_k, b->tol_w);
		if (r->verdict == TLOB_VERDICT_ORDER)
			st->order++;
		else
			st->incomplete++;
		if (!r->react)
			st->tolerated++;
	} else {
		st->completed++;
	}
	/* Under tlob_logic_lock: the one writer of a logical binding's. */
	atomic64_set(&b->history, (history << 1) | bad);
	tlob_logic_emit(l, r);
	if (r->react)
		tlob_react_logic(r, t->model, t->state[r->state],
				 r->event == TLOB_LOGIC_NONE ? "" :
				 t->event[r->event]);
	tlob_logic_put(l);
}

/*
 * Event @event of logical binding @b was hit by @t (current). Its
 * instance, or a new one, takes the edge of its state; with none there
 * it is an ORDER violation and the instance ends.
 */
void tlob_logic_event(struct tlob_binding *b, unsigned int event,
		      struct task_struct *t)
{
	pid_t key = tlob_logic_key(b, t);
	struct tlob_logic_record r;
	struct tlob_logic *l;
	unsigned long flags;
	u64 now;
	u8 next;

	raw_spin_lock_irqsave(&tlob_logic_lock, flags);
	now = ktime_get_ns();
	l = tlob_logic_find(b, key);
	if (!l)
		l = tlob_logic_get(b, key, t, now);
	if (!l) {
		b->lstats.dropped++;
		goto out;
	}
	next = b->table->next[l->state][event];
	if (next != TLOB_LOGIC_NONE) {
		l->state = next;
		l->events++;
		b->lstats.events++;
		goto out;
	}
	tlob_logic_fill(l, &r, now, TLOB_VERDICT_ORDER, event, TLOB_ABORT_NONE);
	tlob_logic_judged(l, &r);
out:
	raw_spin_unlock_irqrestore(&tlob_logic_lock, flags);
}

/* @l's process or task exited or exec'd (@why): done or incomplete. */
static void tlob_logic_gone(struct tlob_logic *l, enum tlob_abort_reason why,
			    u64 now)
{
	bool done = l->b->table->final & (1U << l->state);
	struct tlob_logic_record r;

	tlob_logic_fill(l, &r, now, done ? TLOB_VERDICT_OK :
			TLOB_VERDICT_INCOMPLETE, TLOB_LOGIC_NONE, why);
	tlob_logic_judged(l, &r);
}

/*
 * Task @t exits or execs (sched_process_exit/exec, in @t's context): its
 * per-task instances end (@pid: its pid before the exec, which may have
 * given it its leader's); its process's too at exec, or when @t is the
 * group's last thread to exit (signal->live is 0 by the time
 * sched_process_exit runs).
 */
void tlob_logic_task_gone(struct task_struct *t, pid_t pid,
			  enum tlob_abort_reason why)
{
	bool group = why == TLOB_ABORT_EXEC || !atomic_read(&t->signal->live);
	struct tlob_logic *l;
	struct hlist_node *tmp;
	unsigned long flags;
	u64 now;

	if (!READ_ONCE(tlob_logic_used))
		return;
	raw_spin_lock_irqsave(&tlob_logic_lock, flags);
	now = ktime_get_ns();
	hlist_for_each_entry_safe(l, tmp, tlob_logic_bucket(pid), hnode)
		if (l->b->per == TLOB_PER_TASK && l->key == pid)
			tlob_logic_gone(l, why, now);
	if (group)
		hlist_for_each_entry_safe(l, tmp, tlob_logic_bucket(t->tgid),
					  hnode)
			if (l->b->per == TLOB_PER_PROCESS && l->key == t->tgid)
				tlob_logic_gone(l, why, now);
	raw_spin_unlock_irqrestore(&tlob_logic_lock, flags);
}

/* End @l for unbind or disable (@why): aborted, not judged. */
static void tlob_logic_end(struct tlob_logic *l, enum tlob_abort_reason why,
			   u64 now)
{
	struct tlob_logic_record r;

	tlob_logic_fill(l, &r, now, TLOB_VERDICT_ABORTED, TLOB_LOGIC_NONE, why);
	l->b->lstats.aborted++;
	tlob_logic_emit(l, &r);
	tlob_logic_put(l);
}

/*
 * End the instances of @b (NULL: every logical binding's), process
 * context, once no event of it can run any more (its uprobes are gone).
 */
void tlob_logic_abort_binding(struct tlob_binding *b,
			      enum tlob_abort_reason why)
{
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < tlob_logic_pool_size; i++) {
		struct tlob_logic *l = &tlob_logic_pool[i];

		raw_spin_lock_irqsave(&tlob_logic_lock, flags);
		if (l->b && (!b || l->b == b))
			tlob_logic_end(l, why, ktime_get_ns());
		raw_spin_unlock_irqrestore(&tlob_logic_lock, flags);
	}
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

/*
 * " logic_size=N logic_used=N logic_peak=N\n" for the pool file (the
 * caller's line goes on); snprintf() semantics within @size.
 */
int tlob_logic_pool_show(char *buf, size_t size)
{
	return scnprintf(buf, size, " logic_size=%u logic_used=%u logic_peak=%u\n",
			 tlob_logic_pool_size, READ_ONCE(tlob_logic_used),
			 READ_ONCE(tlob_logic_peak));
}

/* Module load: the instances, all free. */
int tlob_logic_init(void)
{
	unsigned int i;

	tlob_logic_pool = kcalloc(logic_instances, sizeof(*tlob_logic_pool),
				  GFP_KERNEL);
	if (logic_instances && !tlob_logic_pool)
		return -ENOMEM;
	tlob_logic_pool_size = logic_instances;
	for (i = 0; i < tlob_logic_pool_size; i++)
		hlist_add_head(&tlob_logic_pool[i].hnode, &tlob_logic_free);
	return 0;
}

/* Module exit, after every instance ended and no probe is left. */
void tlob_logic_exit(void)
{
	kfree(tlob_logic_pool);
}
