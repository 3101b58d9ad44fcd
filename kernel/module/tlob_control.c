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
 * Bindings are shared (the control-tree contract, kernel/shared/README.md).
 * Every write comes from a holder: the monitor file (tlob_persistent) or
 * one session, an open file of /dev/tlob (tlob_session.c). A holder holds
 * at most one binding per section (a removal, -PATH:START, names it); a
 * line whose binding (section and terms, tlob_binding.c) another holder
 * holds takes one more reference on it; other terms on a bound section
 * make a binding of its own, with its own windows, records and
 * statistics. A removal, or the end of a session, drops that holder's
 * reference only; the binding goes with its last one. A binding is armed
 * while the monitor is enabled or a session holds it.
 *
 * Attach order matters both ways. The scheduler tracepoints are attached
 * only while the monitor is enabled and has at least one binding, uprobes
 * only while enabled: scheduler probes before the uprobes that open
 * windows; on the way down uprobes first (no new window), then every
 * window ends, then the scheduler probes go.
 *
 * Locking and context: process context only (sysfs, /dev/tlob, module
 * exit). tlob_ctl_mutex serialises every control operation and guards
 * tlob_bindings, the count, the enable state, every holder's and every
 * binding's references and the fields a binding may change (registered,
 * sessions, disarm). Probe paths reach a binding only through its
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
/* The monitor file's holder: tlob bind, tlob apply (the persistent one). */
struct tlob_holder tlob_persistent = {
	.holds = LIST_HEAD_INIT(tlob_persistent.holds),
	.comm = "monitor",
};

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

/*
 * A binding is armed (its uprobes in place, its START opening windows)
 * while the monitor is enabled or a session holds it: a session monitors
 * what it asked for whatever the enable switch says, and the switch is
 * the persistent bindings' own.
 */
static bool tlob_armed(const struct tlob_binding *b)
{
	return tlob_on || b->sessions;
}

static bool tlob_is_session(const struct tlob_holder *h)
{
	return h != &tlob_persistent;
}

/* Attach or detach the scheduler probes: attached while a binding is armed. */
static int tlob_sync_locked(void)
{
	struct tlob_binding *b;
	bool want = false;
	int ret;

	lockdep_assert_held(&tlob_ctl_mutex);
	list_for_each_entry(b, &tlob_bindings, node)
		if (tlob_armed(b)) {
			want = true;
			break;
		}
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

/*
 * End what @b has open (NULL: every binding): a section's windows, an
 * alive checkpoint's or a logical automaton's instances. Its probes are
 * gone by then.
 */
static void tlob_end_binding(struct tlob_binding *b, enum tlob_abort_reason why)
{
	if (!b || (!b->alive && !b->logic))
		tlob_abort_binding(b, why);
	if (!b || b->alive)
		tlob_alive_abort_binding(b, why);
	if (!b || b->logic)
		tlob_logic_abort_binding(b, why);
}

/* One line of a write: its request, and what it adds, joins or drops. */
struct tlob_op {
	struct tlob_req req;
	struct tlob_binding *add;	/* a new binding */
	struct tlob_binding *ref;	/* or an existing one this holder joins */
	struct tlob_hold *hold;		/* the holder's reference (add, ref) */
	struct tlob_hold *del;		/* a removal: the reference it drops */
	bool armed;			/* registered by this write */
};

static struct tlob_binding *tlob_op_binding(const struct tlob_op *op)
{
	return op->add ? op->add : op->ref;
}

/* References on @b that no removal of the write being checked drops. */
static unsigned int tlob_holds_left(const struct tlob_binding *b)
{
	const struct tlob_hold *d;
	unsigned int n = 0;

	list_for_each_entry(d, &b->holds, bnode)
		n += !d->dropping;
	return n;
}

/* The removal of op @i: the holder's binding at that section. */
static int tlob_check_remove(struct tlob_holder *h, struct tlob_op *op,
			     int *count)
{
	struct inode *inode = tlob_binding_inode_of(op->req.path);
	struct tlob_hold *d;
	int best = 0, m;

	/* The binding written with this path, else the one of this file. */
	list_for_each_entry(d, &h->holds, hnode) {
		m = tlob_binding_same(d->b, inode, op->req.path, op->req.start);
		if (m > best && !d->dropping) {
			op->del = d;
			best = m;
		}
	}
	if (!best)
		return -ENOENT;
	op->del->dropping = true;
	if (!tlob_holds_left(op->del->b))
		(*count)--;
	return 0;
}

/*
 * Check op @i of holder @h against the table and the ops before it: a
 * holder holds one binding per section (-EEXIST, upstream's duplicate);
 * the same binding held by another holder is joined; else a new one.
 */
static int tlob_check(struct tlob_holder *h, struct tlob_op *ops, int i,
		      int *count)
{
	struct tlob_op *op = &ops[i];
	struct tlob_binding *b, *nb = op->add;
	struct inode *inode;
	struct tlob_hold *d;
	int j;

	if (op->req.remove)
		return tlob_check_remove(h, op, count);
	inode = nb->inode;
	list_for_each_entry(d, &h->holds, hnode)
		if (!d->dropping &&
		    tlob_binding_same(d->b, inode, nb->path, nb->start))
			return -EEXIST;
	for (j = 0; j < i; j++)
		if (tlob_op_binding(&ops[j]) &&
		    tlob_binding_same(tlob_op_binding(&ops[j]), inode, nb->path,
				      nb->start))
			return -EEXIST;
	/* Shared only on the same file: a path bound before its file was replaced names another. */
	list_for_each_entry(b, &tlob_bindings, node) {
		if (b->inode != inode || b->start != nb->start ||
		    !tlob_binding_same_terms(b, nb))
			continue;
		if (!tlob_holds_left(b)) {
			if (*count >= max_bindings)
				return -ENOSPC;
			(*count)++;
		}
		op->ref = b;
		op->add = NULL;
		tlob_binding_free(nb);
		return 0;
	}
	if (*count >= max_bindings)
		return -ENOSPC;
	(*count)++;
	return 0;
}

static void tlob_hold_link(struct tlob_hold *d, struct tlob_holder *h,
			   struct tlob_binding *b)
{
	d->b = b;
	d->h = h;
	d->dropping = false;
	list_add_tail(&d->bnode, &b->holds);
	list_add_tail(&d->hnode, &h->holds);
	if (tlob_is_session(h))
		b->sessions++;
}

static void tlob_hold_unlink(struct tlob_hold *d)
{
	list_del(&d->bnode);
	list_del(&d->hnode);
	if (tlob_is_session(d->h))
		d->b->sessions--;
}

/*
 * Drop @h's references marked dropping. A binding whose last reference
 * goes is removed: every probe first, one grace period for all of them
 * (tlob_compat.h), and only then, with no handler left that could open
 * one, its windows are aborted (unbind). A binding that keeps only the
 * persistent reference while the monitor is disabled is disarmed the same
 * way (its windows aborted for disable).
 */
static void tlob_drop_marked(struct tlob_holder *h)
{
	struct tlob_hold *d, *tmp;
	struct tlob_binding *b, *btmp;
	LIST_HEAD(gone);
	bool sync = false;

	list_for_each_entry_safe(d, tmp, &h->holds, hnode) {
		if (!d->dropping)
			continue;
		b = d->b;
		tlob_hold_unlink(d);
		kfree(d);
		if (list_empty(&b->holds)) {
			list_move_tail(&b->node, &gone);
			tlob_nbindings--;
			sync |= tlob_uprobe_unregister_nosync(b);
		} else if (!tlob_armed(b) && b->registered) {
			sync |= tlob_uprobe_unregister_nosync(b);
			b->disarm = true;
		}
	}
	if (sync)
		tlob_uprobe_sync();
	list_for_each_entry_safe(b, btmp, &gone, node) {
		list_del(&b->node);
		tlob_end_binding(b, TLOB_ABORT_UNBIND);
		if (h->gone)
			h->gone(h, b);
		tlob_binding_free(b);
	}
	list_for_each_entry(b, &tlob_bindings, node) {
		if (!b->disarm)
			continue;
		b->disarm = false;
		tlob_end_binding(b, TLOB_ABORT_DISABLE);
	}
	tlob_sync_locked();
}

/* The check failed: @h keeps every reference. */
static void tlob_unmark(struct tlob_holder *h)
{
	struct tlob_hold *d;

	list_for_each_entry(d, &h->holds, hnode)
		d->dropping = false;
}

/* Undo ops [0, n) of a write whose uprobe registration failed. */
static void tlob_rollback(struct tlob_op *ops, int n)
{
	bool sync = false;
	int i;

	for (i = n - 1; i >= 0; i--) {
		struct tlob_binding *b = tlob_op_binding(&ops[i]);

		if (!b)
			continue;
		tlob_hold_unlink(ops[i].hold);
		if (ops[i].add || ops[i].armed)
			sync |= tlob_uprobe_unregister_nosync(b);
		if (ops[i].add) {
			list_del(&b->node);
			tlob_nbindings--;
		}
	}
	/* One grace period for all of them (tlob_compat.h). */
	if (sync)
		tlob_uprobe_sync();
	/* No probe of them runs: a joined binding opens windows when armed. */
	for (i = 0; i < n; i++)
		if (ops[i].ref)
			WRITE_ONCE(ops[i].ref->live, true);
	tlob_sync_locked();
}

/* Make the checked ops of @h real; on a uprobe error undo them all. */
static int tlob_commit(struct tlob_holder *h, struct tlob_op *ops, int n)
{
	int i, ret;

	for (i = 0; i < n; i++) {
		struct tlob_binding *b = ops[i].add;

		if (b) {
			/* Before the uprobes: a window opened at once names it. */
			b->id = tlob_next_id++;
			list_add_tail(&b->node, &tlob_bindings);
			tlob_nbindings++;
		}
		if (tlob_op_binding(&ops[i]))
			tlob_hold_link(ops[i].hold, h, tlob_op_binding(&ops[i]));
	}
	/* Scheduler probes before the uprobes that open windows. */
	ret = tlob_sync_locked();
	for (i = 0; i < n && !ret; i++) {
		struct tlob_binding *b = tlob_op_binding(&ops[i]);

		if (!b || b->registered || !tlob_armed(b))
			continue;
		/*
		 * A disarmed binding this write joins (and so arms) opens no
		 * window until the write commits either.
		 */
		WRITE_ONCE(b->live, false);
		ret = tlob_uprobe_register(b);
		ops[i].armed = !ret;
	}
	if (ret) {
		tlob_rollback(ops, n);
		tlob_unmark(h);
		return ret;
	}
	/*
	 * Every line succeeded: only now do the new bindings, and the
	 * disarmed ones this write armed, open windows. Until here their
	 * uprobes ignored hits, so a write that failed half way left no
	 * window and no record behind (all or nothing).
	 */
	for (i = 0; i < n; i++) {
		if (tlob_op_binding(&ops[i]))
			WRITE_ONCE(tlob_op_binding(&ops[i])->live, true);
		ops[i].hold = NULL;	/* linked: owned by the holder now */
	}
	tlob_drop_marked(h);
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

int tlob_monitor_write(struct tlob_holder *h, const char *buf, size_t len)
{
	struct tlob_logic_table *table;
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
	/* a line a few bytes long costs an op: kvcalloc(), never a WARN */
	ops = kvcalloc(tlob_count_lines(copy), sizeof(*ops), GFP_KERNEL);
	/*
	 * Where an `l` line's table is parsed to (the parser needs it before
	 * it knows the verb); each `l` binding keeps a copy of its own.
	 */
	table = kmalloc(sizeof(*table), GFP_KERNEL);
	if (!ops || !table) {
		kfree(table);
		kvfree(ops);
		kfree(copy);
		return -ENOMEM;
	}
	for (line = copy; line && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ops[n].req.table = table;
		ret = tlob_parse_line(line, &ops[n].req);
		if (ret == 1) {
			ret = 0;
			continue;
		}
		if (!ret && !ops[n].req.remove) {
			ret = tlob_binding_new(&ops[n].req, &ops[n].add);
			ops[n].hold = kzalloc(sizeof(*ops[n].hold), GFP_KERNEL);
			if (!ret && !ops[n].hold)
				ret = -ENOMEM;
		}
		n++;
	}
	if (ret)
		goto out;
	mutex_lock(&tlob_ctl_mutex);
	count = tlob_nbindings;
	for (i = 0; i < n && !ret; i++)
		ret = tlob_check(h, ops, i, &count);
	if (ret)
		tlob_unmark(h);
	else
		ret = tlob_commit(h, ops, n);
	mutex_unlock(&tlob_ctl_mutex);
out:
	for (i = 0; i < n; i++) {
		if (ret)
			tlob_binding_free(ops[i].add);
		kfree(ops[i].hold);
	}
	kvfree(ops);
	kfree(table);
	kfree(copy);
	return ret;
}

/* Enable: all or nothing. */
static void tlob_bindings_unregister_unheld(void);

static int tlob_bindings_register_all(void)
{
	struct tlob_binding *b;
	int ret;

	lockdep_assert_held(&tlob_ctl_mutex);
	list_for_each_entry(b, &tlob_bindings, node) {
		if (b->registered)
			continue;
		ret = tlob_uprobe_register(b);
		if (ret) {
			tlob_bindings_unregister_unheld();
			return ret;
		}
	}
	return 0;
}

/*
 * Disarm what no session holds: their probes first (one grace period),
 * then their windows end (disable).
 */
static void tlob_bindings_unregister_unheld(void)
{
	struct tlob_binding *b;
	bool sync = false, held = false;

	lockdep_assert_held(&tlob_ctl_mutex);
	list_for_each_entry(b, &tlob_bindings, node) {
		if (b->sessions) {
			held = true;
			continue;
		}
		sync |= tlob_uprobe_unregister_nosync(b);
	}
	if (sync)
		tlob_uprobe_sync();
	if (!held) {
		/* One pass over the pool for every window. */
		tlob_end_binding(NULL, TLOB_ABORT_DISABLE);
		return;
	}
	list_for_each_entry(b, &tlob_bindings, node)
		if (!b->sessions)
			tlob_end_binding(b, TLOB_ABORT_DISABLE);
}

/* Module exit, after disable: no uprobe, no window, no probe left. */
static void tlob_bindings_destroy(void)
{
	struct tlob_binding *b, *tmp;
	struct tlob_hold *d, *dtmp;

	lockdep_assert_held(&tlob_ctl_mutex);
	/* No session is open at exit (each open file holds the module). */
	list_for_each_entry_safe(d, dtmp, &tlob_persistent.holds, hnode) {
		tlob_hold_unlink(d);
		kfree(d);
	}
	list_for_each_entry_safe(b, tmp, &tlob_bindings, node) {
		WARN_ON(!list_empty(&b->holds));
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
	WRITE_ONCE(tlob_on, false);
	tlob_bindings_unregister_unheld();
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

void tlob_holder_init(struct tlob_holder *h, pid_t pid, const char *comm)
{
	memset(h, 0, sizeof(*h));
	INIT_LIST_HEAD(&h->holds);
	h->pid = pid;
	strscpy(h->comm, comm, sizeof(h->comm));
}

/* A session ends (its file is released): drop every reference it holds. */
void tlob_holder_release(struct tlob_holder *h)
{
	struct tlob_hold *d;

	mutex_lock(&tlob_ctl_mutex);
	list_for_each_entry(d, &h->holds, hnode)
		d->dropping = true;
	tlob_drop_marked(h);
	mutex_unlock(&tlob_ctl_mutex);
}

/* Module exit, after the control files are gone: disable, free all. */
void tlob_control_exit(void)
{
	mutex_lock(&tlob_ctl_mutex);
	__tlob_disable();
	tlob_bindings_destroy();
	mutex_unlock(&tlob_ctl_mutex);
}
