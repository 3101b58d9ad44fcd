// SPDX-License-Identifier: GPL-2.0
/*
 * The control core: the binding table and the enable switch, and which
 * probes are attached when. The sysfs files (tlob_sysfs.c) sit in front
 * of it and module init/exit (tlob_main.c) call it; it calls down only
 * (bindings, uprobes, scheduler probes, windows), never back up.
 *
 * A monitor write is all or nothing: every line is parsed and checked
 * (paths resolved, duplicates, unknown removals, capacity) before anything
 * changes, and a uprobe that fails to register rolls the whole write
 * back. Binding ids count up and are never reused.
 *
 * Attach order matters both ways. The scheduler tracepoints are attached
 * only while the monitor is enabled and has at least one binding, uprobes
 * only while enabled: scheduler probes before the uprobes that open
 * windows; on the way down uprobes first (no new window), then every
 * window ends, then the scheduler probes go.
 *
 * Locking and context: process context only (sysfs, module exit).
 * tlob_ctl_mutex serialises every control operation and guards
 * tlob_bindings, the count, the enable state and the fields a binding may
 * change (registered). Probe paths reach a binding only through its
 * uprobe consumer or an open window; removal first unregisters the
 * uprobes (and waits for running handlers), then ends the binding's
 * windows, and only then frees it.
 */
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "tlob.h"

static unsigned int max_bindings = 1024;
module_param(max_bindings, uint, 0444);
MODULE_PARM_DESC(max_bindings, "bindings at once (default 1024)");

DEFINE_MUTEX(tlob_ctl_mutex);	/* every control operation */
LIST_HEAD(tlob_bindings);	/* tlob_ctl_mutex */
static unsigned int tlob_nbindings;	/* tlob_ctl_mutex */
static u32 tlob_next_id = 1;		/* tlob_ctl_mutex */
static bool tlob_on;			/* tlob_ctl_mutex; read lock-free */
static bool tlob_sched_on;		/* tlob_ctl_mutex; read lock-free */

bool tlob_enabled(void)
{
	return READ_ONCE(tlob_on);
}

/* Whether the scheduler probes are attached (shown in the pool file). */
bool tlob_sched_attached(void)
{
	return READ_ONCE(tlob_sched_on);
}

unsigned int tlob_nr_bindings(void)
{
	lockdep_assert_held(&tlob_ctl_mutex);
	return tlob_nbindings;
}

/* Attach or detach the scheduler probes to match enable and bindings. */
static int tlob_sync_locked(void)
{
	bool want = tlob_on && tlob_nbindings;
	int ret;

	lockdep_assert_held(&tlob_ctl_mutex);
	if (want && !tlob_sched_on) {
		ret = tlob_sched_attach();
		if (ret)
			return ret;
		WRITE_ONCE(tlob_sched_on, true);
	} else if (!want && tlob_sched_on) {
		tlob_sched_detach();
		WRITE_ONCE(tlob_sched_on, false);
	}
	return 0;
}

/* One line of a write: its request, and what it adds or removes. */
struct tlob_op {
	struct tlob_req req;
	struct tlob_binding *add;	/* a new binding */
	struct tlob_binding *del;	/* an existing one to remove */
};

/* Is an existing binding already the target of an earlier removal? */
static bool tlob_removed(const struct tlob_op *ops, int n,
			 const struct tlob_binding *b)
{
	int i;

	for (i = 0; i < n; i++)
		if (ops[i].del == b)
			return true;
	return false;
}

/* Check op @i against the table and the ops before it. */
static int tlob_check(struct tlob_op *ops, int i, int *count)
{
	struct tlob_op *op = &ops[i];
	struct inode *inode = op->add ? op->add->inode : NULL;
	struct tlob_binding *b;
	int j;

	if (op->req.remove) {
		int best = 0, m;

		inode = tlob_binding_inode_of(op->req.path);
		/* The binding written with this path, else the one of this file. */
		list_for_each_entry(b, &tlob_bindings, node) {
			m = tlob_binding_same(b, inode, op->req.path,
					      op->req.start);
			if (m > best && !tlob_removed(ops, i, b)) {
				op->del = b;
				best = m;
			}
		}
		if (!best)
			return -ENOENT;
		(*count)--;
		return 0;
	}
	list_for_each_entry(b, &tlob_bindings, node)
		if (tlob_binding_same(b, inode, op->add->path, op->add->start) &&
		    !tlob_removed(ops, i, b))
			return -EEXIST;
	for (j = 0; j < i; j++)
		if (ops[j].add &&
		    tlob_binding_same(ops[j].add, inode, op->add->path,
				      op->add->start))
			return -EEXIST;
	if (*count >= max_bindings)
		return -ENOSPC;
	(*count)++;
	return 0;
}

/* Make the checked ops real; on a uprobe error undo the adds. */
static int tlob_commit(struct tlob_op *ops, int n)
{
	bool sync = false;
	int i, ret = 0;

	for (i = 0; i < n && !ret; i++) {
		struct tlob_binding *b = ops[i].add;

		if (!b)
			continue;
		/* Before the uprobes: a window opened at once names it. */
		b->id = tlob_next_id++;
		list_add_tail(&b->node, &tlob_bindings);
		tlob_nbindings++;
		ret = tlob_sync_locked();
		if (!ret && tlob_enabled())
			ret = tlob_uprobe_register(b);
		if (ret) {
			list_del(&b->node);
			tlob_nbindings--;
		}
	}
	if (ret) {
		/* i - 1 failed and is unlinked; undo the ones before it. */
		for (i -= 2; i >= 0; i--) {
			if (!ops[i].add)
				continue;
			sync |= tlob_uprobe_unregister_nosync(ops[i].add);
			list_del(&ops[i].add->node);
			tlob_nbindings--;
		}
		/* One grace period for all of them (tlob_compat.h). */
		if (sync)
			tlob_uprobe_sync();
		tlob_sync_locked();
		return ret;
	}
	/*
	 * Every line succeeded: only now do the new bindings open windows.
	 * Until here their uprobes ignored hits, so a write that failed half
	 * way left no window and no record behind (all or nothing).
	 */
	for (i = 0; i < n; i++)
		if (ops[i].add)
			WRITE_ONCE(ops[i].add->live, true);
	/*
	 * Removed bindings: every probe first, one grace period for all of
	 * them (tlob_compat.h), and only then, with no handler left that
	 * could open one, their windows are aborted.
	 */
	for (i = 0; i < n; i++) {
		if (!ops[i].del)
			continue;
		list_del(&ops[i].del->node);
		tlob_nbindings--;
		sync |= tlob_uprobe_unregister_nosync(ops[i].del);
	}
	if (sync)
		tlob_uprobe_sync();
	for (i = 0; i < n; i++) {
		if (!ops[i].del)
			continue;
		tlob_abort_binding(ops[i].del, TLOB_ABORT_UNBIND);
		tlob_binding_free(ops[i].del);
	}
	tlob_sync_locked();
	return 0;
}

static int tlob_count_lines(const char *s)
{
	int n = 1;

	while ((s = strchr(s, '\n'))) {
		s++;
		n++;
	}
	return n;
}

int tlob_monitor_write(const char *buf, size_t len)
{
	char *copy, *line, *next;
	struct tlob_op *ops;
	int i, n = 0, count, ret = 0;

	/*
	 * The lines are split as C strings: a NUL inside the write would
	 * silently drop what follows it while the write "succeeds".
	 */
	while (len && !buf[len - 1])
		len--;
	if (memchr(buf, '\0', len))
		return -EINVAL;
	copy = kmemdup_nul(buf, len, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	ops = kcalloc(tlob_count_lines(copy), sizeof(*ops), GFP_KERNEL);
	if (!ops) {
		kfree(copy);
		return -ENOMEM;
	}
	for (line = copy; line && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ret = tlob_parse_line(line, &ops[n].req);
		if (ret == 1) {
			ret = 0;
			continue;
		}
		if (!ret && !ops[n].req.remove)
			ret = tlob_binding_new(&ops[n].req, &ops[n].add);
		n++;
	}
	if (ret)
		goto out;
	mutex_lock(&tlob_ctl_mutex);
	count = tlob_nbindings;
	for (i = 0; i < n && !ret; i++)
		ret = tlob_check(ops, i, &count);
	if (!ret)
		ret = tlob_commit(ops, n);
	mutex_unlock(&tlob_ctl_mutex);
out:
	if (ret)
		for (i = 0; i < n; i++)
			tlob_binding_free(ops[i].add);
	kfree(ops);
	kfree(copy);
	return ret;
}

/* Enable: all or nothing. */
static void tlob_bindings_unregister_all(void);

static int tlob_bindings_register_all(void)
{
	struct tlob_binding *b;
	int ret;

	lockdep_assert_held(&tlob_ctl_mutex);
	list_for_each_entry(b, &tlob_bindings, node) {
		ret = tlob_uprobe_register(b);
		if (ret) {
			tlob_bindings_unregister_all();
			return ret;
		}
	}
	return 0;
}

static void tlob_bindings_unregister_all(void)
{
	struct tlob_binding *b;
	bool sync = false;

	lockdep_assert_held(&tlob_ctl_mutex);
	list_for_each_entry(b, &tlob_bindings, node)
		sync |= tlob_uprobe_unregister_nosync(b);
	if (sync)
		tlob_uprobe_sync();
}

/* Module exit, after disable: no uprobe, no window, no probe left. */
static void tlob_bindings_destroy(void)
{
	struct tlob_binding *b, *tmp;

	lockdep_assert_held(&tlob_ctl_mutex);
	list_for_each_entry_safe(b, tmp, &tlob_bindings, node) {
		list_del(&b->node);
		tlob_nbindings--;
		tlob_binding_free(b);
	}
	WARN(tlob_binding_leaked(), "tlob: %d bindings leaked\n",
	     tlob_binding_leaked());
}

static void __tlob_disable(void)
{
	lockdep_assert_held(&tlob_ctl_mutex);
	tlob_bindings_unregister_all();
	tlob_abort_binding(NULL, TLOB_ABORT_DISABLE);
	WRITE_ONCE(tlob_on, false);
	tlob_sync_locked();
}

int tlob_set_enabled(bool on)
{
	int ret = 0;

	mutex_lock(&tlob_ctl_mutex);
	if (on == tlob_on)
		goto out;
	if (!on) {
		__tlob_disable();
		goto out;
	}
	WRITE_ONCE(tlob_on, true);
	ret = tlob_sync_locked();
	if (!ret)
		ret = tlob_bindings_register_all();
	if (ret)
		__tlob_disable();
out:
	mutex_unlock(&tlob_ctl_mutex);
	return ret;
}

/* Module exit, after the control files are gone: disable, free all. */
void tlob_control_exit(void)
{
	mutex_lock(&tlob_ctl_mutex);
	__tlob_disable();
	tlob_bindings_destroy();
	mutex_unlock(&tlob_ctl_mutex);
}
