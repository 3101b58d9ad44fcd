// SPDX-License-Identifier: GPL-2.0
/*
 * The instances of alive and logical supervision (tlob_alive.c,
 * tlob_logic.c): one per binding and process (per=process, keyed by the
 * tgid) or task (per=task, keyed by the pid), preallocated at module load
 * and found by key in a small hash. Each kind embeds struct tlob_inst at
 * the start of its own instance and keeps a pool of its own; this is the
 * one implementation of the pool: find, take, give back, the walks at
 * exit or exec and at unbind, the pool file's figures.
 *
 * An instance keeps no task, only its pid numbers. It ends at that task's
 * exit (per task) or its group's (per process: the last thread's exit),
 * or an exec, and at unbind or disable: the kind's gone() and end() say
 * what is recorded, and give the instance back.
 *
 * Locking and context: a pool belongs to its kind's raw spinlock
 * (pool->lock), taken irqsave. tlob_inst_find(), _take() and _give() run
 * with it held; the walks take it themselves; init, exit and show need
 * none (load, unload, and figures read once each). `used` is read without
 * the lock by the exit/exec probes, so that a pool with nothing in it
 * costs them one load. Nothing here sleeps, prints or allocates but
 * tlob_inst_pool_init(), at load.
 */
#include <linux/hash.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "tlob.h"

/* The @i-th instance of @p's array (its struct tlob_inst: the first member). */
struct tlob_inst *tlob_inst_at(struct tlob_inst_pool *p, unsigned int i)
{
	return (struct tlob_inst *)((char *)p->mem + (size_t)i * p->stride);
}

static struct hlist_head *tlob_inst_bucket(struct tlob_inst_pool *p,
					   pid_t key)
{
	return &p->hash[hash_32((u32)key, TLOB_INST_HASH_BITS)];
}

/* The instance key of @t for @b: its tgid (per=process) or pid. */
static pid_t tlob_inst_key(const struct tlob_binding *b,
			   const struct task_struct *t)
{
	return b->per == TLOB_PER_TASK ? t->pid : t->tgid;
}

/* @b's instance for @t, NULL when it has none. */
struct tlob_inst *tlob_inst_find(struct tlob_inst_pool *p,
				 const struct tlob_binding *b,
				 const struct task_struct *t)
{
	pid_t key = tlob_inst_key(b, t);
	struct tlob_inst *in;

	lockdep_assert_held(p->lock);
	hlist_for_each_entry(in, tlob_inst_bucket(p, key), hnode)
		if (in->b == b && in->key == key)
			return in;
	return NULL;
}

/*
 * A new instance of @b for @t (its key, tgid and comm filled in; the rest
 * is the kind's to set), NULL when none is free.
 */
struct tlob_inst *tlob_inst_take(struct tlob_inst_pool *p,
				 struct tlob_binding *b,
				 const struct task_struct *t)
{
	pid_t key = tlob_inst_key(b, t);
	struct tlob_inst *in;

	lockdep_assert_held(p->lock);
	if (hlist_empty(&p->free))
		return NULL;
	in = hlist_entry(p->free.first, struct tlob_inst, hnode);
	hlist_del(&in->hnode);
	hlist_add_head(&in->hnode, tlob_inst_bucket(p, key));
	WRITE_ONCE(p->used, p->used + 1);
	if (p->used > p->peak)
		WRITE_ONCE(p->peak, p->used);
	in->b = b;
	in->key = key;
	in->tgid = t->tgid;
	memcpy(in->comm, t->comm, TLOB_COMM_LEN);
	return in;
}

/* @in is free again. */
void tlob_inst_give(struct tlob_inst_pool *p, struct tlob_inst *in)
{
	lockdep_assert_held(p->lock);
	hlist_del(&in->hnode);
	in->b = NULL;
	hlist_add_head(&in->hnode, &p->free);
	WRITE_ONCE(p->used, p->used - 1);
}

/*
 * Task @t exits or execs (sched_process_exit/exec, in @t's context): its
 * per-task instances go (@pid: its pid before the exec, which may have
 * given it its leader's); its process's too at exec, or when @t is the
 * group's last thread to exit (signal->live is 0 by the time
 * sched_process_exit runs). p->gone() records and gives each back.
 */
void tlob_inst_task_gone(struct tlob_inst_pool *p, struct task_struct *t,
			 pid_t pid, enum tlob_abort_reason why)
{
	bool group = why == TLOB_ABORT_EXEC || !atomic_read(&t->signal->live);
	struct hlist_node *tmp;
	struct tlob_inst *in;
	unsigned long flags;
	u64 now;

	if (!READ_ONCE(p->used))
		return;
	raw_spin_lock_irqsave(p->lock, flags);
	now = ktime_get_ns();
	hlist_for_each_entry_safe(in, tmp, tlob_inst_bucket(p, pid), hnode)
		if (in->b->per == TLOB_PER_TASK && in->key == pid)
			p->gone(in, why, now);
	if (group)
		hlist_for_each_entry_safe(in, tmp, tlob_inst_bucket(p, t->tgid),
					  hnode)
			if (in->b->per == TLOB_PER_PROCESS && in->key == t->tgid)
				p->gone(in, why, now);
	raw_spin_unlock_irqrestore(p->lock, flags);
}

/*
 * End the instances of @b (NULL: every binding's of the pool's kind),
 * process context, once no event of it can run any more (its uprobes are
 * gone): p->end() records and gives each back. The lock is taken per
 * instance, so IRQs are off for one at a time.
 */
void tlob_inst_abort_binding(struct tlob_inst_pool *p, struct tlob_binding *b,
			     enum tlob_abort_reason why)
{
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < p->size; i++) {
		struct tlob_inst *in = tlob_inst_at(p, i);

		raw_spin_lock_irqsave(p->lock, flags);
		if (in->b && (!b || in->b == b))
			p->end(in, why, ktime_get_ns());
		raw_spin_unlock_irqrestore(p->lock, flags);
	}
}

/*
 * " NAME_size=N NAME_used=N NAME_peak=N\n" for the pool file (the
 * caller's line goes on); snprintf() semantics within @size.
 */
int tlob_inst_pool_show(struct tlob_inst_pool *p, char *buf, size_t size)
{
	return scnprintf(buf, size, " %s_size=%u %s_used=%u %s_peak=%u\n",
			 p->name, p->size, p->name, READ_ONCE(p->used),
			 p->name, READ_ONCE(p->peak));
}

/*
 * Module load: @n instances of @stride bytes each (the kind's struct, its
 * struct tlob_inst first), zeroed, all free.
 */
int tlob_inst_pool_init(struct tlob_inst_pool *p, unsigned int n,
			size_t stride)
{
	unsigned int i;

	if (n > TLOB_PREALLOC_MAX)
		return -EINVAL;
	p->mem = kvcalloc(n, stride, GFP_KERNEL);
	if (n && !p->mem)
		return -ENOMEM;
	p->stride = stride;
	p->size = n;
	INIT_HLIST_HEAD(&p->free);
	for (i = 0; i < ARRAY_SIZE(p->hash); i++)
		INIT_HLIST_HEAD(&p->hash[i]);
	for (i = 0; i < n; i++)
		hlist_add_head(&tlob_inst_at(p, i)->hnode, &p->free);
	return 0;
}

/* Module exit, after every instance ended and no probe or timer runs. */
void tlob_inst_pool_exit(struct tlob_inst_pool *p)
{
	kvfree(p->mem);
	p->mem = NULL;
	p->size = 0;
}
