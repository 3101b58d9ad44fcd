// SPDX-License-Identifier: GPL-2.0
/*
 * Uprobes at a binding's START and STOP file offsets.
 *
 * Both are entry probes (a mistyped STOP can only miss a stop, never
 * corrupt a stack). A `ret` STOP is a return probe on the START function
 * instead: the same consumer carries the entry and the return handler.
 * An alive binding has one entry probe, its checkpoint, at START; a
 * logical binding one entry probe per event of its table (the first at
 * START), each consumer naming its event.
 *
 * Context: handlers run in the probed task (current), in task context
 * with preemption enabled (6.1 calls them from the int3 return path
 * under the uprobe's register_rwsem). Nothing is allocated there: the
 * monitor takes a preallocated window.
 *
 * Unregistering does not wait: after tlob_uprobe_unregister_nosync() of
 * every binding it removes, a caller syncs once (tlob_uprobe_sync(), one
 * grace period on 6.12+, where each is slow), and from then on no handler
 * of those bindings runs any more.
 */
#include <linux/sched.h>

#include "tlob.h"

/* pid= filters threads, tgid= processes; no filter: every task. */
static bool tlob_wants(const struct tlob_binding *b, const struct task_struct *t)
{
	switch (b->filter) {
	case TLOB_FILTER_PID:
		return t->pid == b->filter_id;
	case TLOB_FILTER_TGID:
		return t->tgid == b->filter_id;
	default:
		return true;
	}
}

static TLOB_UPROBE_HANDLER(tlob_start_handler)
{
	struct tlob_binding *b = container_of(uc, struct tlob_binding, start_uc);

	/* READ_ONCE: set by the committing write while probes may run */
	if (!READ_ONCE(b->live) || !tlob_wants(b, current))
		return 0;
	if (b->alive)
		tlob_alive_checkpoint(b, current);
	else
		tlob_window_start(b, current);
	return 0;
}

static TLOB_UPROBE_HANDLER(tlob_stop_handler)
{
	tlob_window_stop(container_of(uc, struct tlob_binding, stop_uc),
			 current);
	return 0;
}

static TLOB_URETPROBE_HANDLER(tlob_ret_handler)
{
	tlob_window_stop(container_of(uc, struct tlob_binding, start_uc),
			 current);
	return 0;
}

static TLOB_UPROBE_HANDLER(tlob_logic_handler)
{
	struct tlob_logic_probe *p = container_of(uc, struct tlob_logic_probe,
						  uc);

	/* READ_ONCE: set by the committing write while probes may run */
	if (READ_ONCE(p->b->live) && tlob_wants(p->b, current))
		tlob_logic_event(p->b, p->event, current);
	return 0;
}

/* Remove the first @n event probes of logical binding @b, without waiting. */
static void tlob_uprobe_del_logic(struct tlob_binding *b, unsigned int n)
{
	unsigned int e;

	for (e = 0; e < n; e++)
		tlob_uprobe_del_nosync(&b->lprobes[e].up,
				       b->inodes[b->table->file[e]],
				       b->table->offset[e], &b->lprobes[e].uc);
}

/* A logical binding's probes, one per event: all or nothing. */
static int tlob_uprobe_register_logic(struct tlob_binding *b)
{
	unsigned int e;
	int ret = 0;

	for (e = 0; e < b->table->nevents; e++) {
		b->lprobes[e].uc.handler = tlob_logic_handler;
		ret = tlob_uprobe_add(&b->lprobes[e].up,
				      b->inodes[b->table->file[e]],
				      b->table->offset[e], &b->lprobes[e].uc);
		if (ret)
			break;
	}
	if (ret) {
		tlob_uprobe_del_logic(b, e);
		if (e)
			tlob_uprobe_sync();
		return ret;
	}
	b->registered = true;
	return 0;
}

/* Process context, tlob_ctl_mutex held. All or nothing. */
int tlob_uprobe_register(struct tlob_binding *b)
{
	int ret;

	if (b->logic)
		return tlob_uprobe_register_logic(b);
	b->start_uc.handler = tlob_start_handler;
	if (b->stop_ret)
		b->start_uc.ret_handler = tlob_ret_handler;
	ret = tlob_uprobe_add(&b->start_up, b->inode, b->start, &b->start_uc);
	if (ret)
		return ret;
	if (!b->stop_ret && !b->alive) {
		b->stop_uc.handler = tlob_stop_handler;
		ret = tlob_uprobe_add(&b->stop_up, b->inode, b->stop,
				      &b->stop_uc);
		if (ret) {
			tlob_uprobe_del_nosync(&b->start_up, b->inode, b->start,
					       &b->start_uc);
			tlob_uprobe_sync();
			return ret;
		}
	}
	b->registered = true;
	return 0;
}

/*
 * Every probe of @b, without waiting: true if there were any, and the
 * caller then owes a tlob_uprobe_sync() (a binding never registered, e.g.
 * bound while disabled, needs none).
 */
bool tlob_uprobe_unregister_nosync(struct tlob_binding *b)
{
	if (!b->registered)
		return false;
	b->registered = false;
	if (b->logic) {
		tlob_uprobe_del_logic(b, b->table->nevents);
		return true;
	}
	tlob_uprobe_del_nosync(&b->start_up, b->inode, b->start, &b->start_uc);
	if (!b->stop_ret && !b->alive)
		tlob_uprobe_del_nosync(&b->stop_up, b->inode, b->stop,
				       &b->stop_uc);
	return true;
}

