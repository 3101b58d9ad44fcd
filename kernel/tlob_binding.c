// SPDX-License-Identifier: GPL-2.0
/*
 * The binding table: what the monitor file adds, removes and lists.
 *
 * A write is all or nothing: every line is parsed and checked (paths
 * resolved, duplicates, unknown removals, capacity) before anything
 * changes, and a uprobe that fails to register rolls the whole write
 * back. Binding ids count up and are never reused.
 *
 * Locking and context: process context only (sysfs writes, enable,
 * module exit), under tlob_ctl_mutex, which guards tlob_bindings and the
 * fields a binding may change (registered). Probe paths reach a binding
 * only through its uprobe consumer or an open window; removal first
 * unregisters the uprobes (which waits for running handlers), then ends
 * the binding's windows, and only then frees it.
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "tlob.h"

static unsigned int max_bindings = 1024;
module_param(max_bindings, uint, 0444);
MODULE_PARM_DESC(max_bindings, "bindings at once (default 1024)");

LIST_HEAD(tlob_bindings);
static unsigned int tlob_nbindings;
static u32 tlob_next_id = 1;
/* Bindings allocated and not yet freed: 0 at exit, or something leaked. */
static atomic_t tlob_binding_objs = ATOMIC_INIT(0);

unsigned int tlob_nr_bindings(void)
{
	lockdep_assert_held(&tlob_ctl_mutex);
	return tlob_nbindings;
}

static void tlob_binding_free(struct tlob_binding *b)
{
	if (!b)
		return;
	path_put(&b->fpath);
	tlob_stats_free(b->stats);
	kfree(b->path);
	kfree(b);
	atomic_dec(&tlob_binding_objs);
}

/* A binding for an add request: the file must be a regular file and
 * hold both offsets. Nothing is registered yet.
 */
static int tlob_binding_new(const struct tlob_req *req,
			    struct tlob_binding **out)
{
	struct tlob_binding *b;
	struct inode *inode;
	int ret;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	ret = kern_path(req->path, LOOKUP_FOLLOW, &b->fpath);
	if (ret) {
		kfree(b);
		return ret;
	}
	atomic_inc(&tlob_binding_objs);
	inode = d_real_inode(b->fpath.dentry);
	b->inode = inode;
	b->path = kstrdup(req->path, GFP_KERNEL);
	b->stats = tlob_stats_alloc();
	ret = -ENOMEM;
	if (!b->path || !b->stats)
		goto fail;
	ret = -EINVAL;
	if (!S_ISREG(inode->i_mode) || req->start >= i_size_read(inode) ||
	    (!req->stop_ret && req->stop >= i_size_read(inode)))
		goto fail;
	b->start = req->start;
	b->stop = req->stop;
	b->stop_ret = req->stop_ret;
	b->budget_ns = req->budget_ns;
	b->filter = req->filter;
	b->filter_id = req->filter_id;
	memcpy(b->tag, req->tag, TLOB_TAG_LEN);
	*out = b;
	return 0;
fail:
	tlob_binding_free(b);
	return ret;
}

struct tlob_op {
	struct tlob_req req;
	struct tlob_binding *add;	/* a new binding */
	struct tlob_binding *del;	/* an existing one to remove */
};

/*
 * "The same binding" (tlob_abi.h): how @b matches a section at @start of
 * @path, which names @inode now (NULL: nothing). 2: the same path as
 * written, 1: the same file, 0: another binding.
 */
static int tlob_same(const struct tlob_binding *b, const struct inode *inode,
		     const char *path, u64 start)
{
	if (b->start != start)
		return 0;
	if (!strcmp(b->path, path))
		return 2;
	return inode && b->inode == inode;
}

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
	struct path p;
	int j;

	if (op->req.remove) {
		int best = 0, m;

		if (!kern_path(op->req.path, LOOKUP_FOLLOW, &p)) {
			inode = d_real_inode(p.dentry);
			path_put(&p);
		}
		/* The binding written with this path, else the one of this file. */
		list_for_each_entry(b, &tlob_bindings, node) {
			m = tlob_same(b, inode, op->req.path, op->req.start);
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
		if (tlob_same(b, inode, op->add->path, op->add->start) &&
		    !tlob_removed(ops, i, b))
			return -EEXIST;
	for (j = 0; j < i; j++)
		if (ops[j].add && tlob_same(ops[j].add, inode, op->add->path,
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

/* A listing being generated: snprintf() semantics over many calls. */
struct tlob_out {
	char *buf;
	size_t size;
	size_t n;		/* length needed so far */
};

static __printf(2, 3) void tlob_out(struct tlob_out *o, const char *fmt, ...)
{
	size_t at = min(o->n, o->size);
	va_list ap;

	va_start(ap, fmt);
	o->n += vsnprintf(o->buf + at, o->size - at, fmt, ap);
	va_end(ap);
}

/* "PATH:0xSTART 0xSTOP" or "PATH:0xSTART ret", with a separator. */
static void tlob_out_section(struct tlob_out *o, const struct tlob_binding *b,
			     const char *start, const char *stop)
{
	tlob_out(o, "%s%s0x%llx%s", b->path, start, (u64)b->start, stop);
	if (b->stop_ret)
		tlob_out(o, "ret");
	else
		tlob_out(o, "0x%llx", (u64)b->stop);
}

/* One canonical line per binding; returns the length it needs. */
ssize_t tlob_monitor_show(char *buf, size_t size)
{
	struct tlob_out o = { buf, size, 0 };
	struct tlob_binding *b;

	lockdep_assert_held(&tlob_ctl_mutex);
	list_for_each_entry(b, &tlob_bindings, node) {
		tlob_out(&o, "p ");
		tlob_out_section(&o, b, ":", " ");
		tlob_out(&o, " threshold=%llu%s%s", b->budget_ns,
			 b->tag[0] ? " tag=" : "", b->tag);
		if (b->filter != TLOB_FILTER_NONE)
			tlob_out(&o, " %s=%d", b->filter == TLOB_FILTER_PID ?
				 "pid" : "tgid", b->filter_id);
		tlob_out(&o, "\n");
	}
	return o.n;
}

/* One line per binding: identity, then the statistics. */
ssize_t tlob_stats_show(char *buf, size_t size)
{
	struct tlob_out o = { buf, size, 0 };
	struct tlob_binding *b;

	lockdep_assert_held(&tlob_ctl_mutex);
	list_for_each_entry(b, &tlob_bindings, node) {
		tlob_out(&o, "id=%u path=", b->id);
		tlob_out_section(&o, b, " start=", " stop=");
		tlob_out(&o, " tag=%s ", b->tag[0] ? b->tag : "-");
		o.n += tlob_stats_format(b->stats, buf + min(o.n, size),
					 size - min(o.n, size));
		tlob_out(&o, "\n");
	}
	return o.n;
}

/* Enable: all or nothing. */
int tlob_bindings_register_all(void)
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

void tlob_bindings_unregister_all(void)
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
void tlob_bindings_destroy(void)
{
	struct tlob_binding *b, *tmp;

	lockdep_assert_held(&tlob_ctl_mutex);
	list_for_each_entry_safe(b, tmp, &tlob_bindings, node) {
		list_del(&b->node);
		tlob_nbindings--;
		tlob_binding_free(b);
	}
	WARN(atomic_read(&tlob_binding_objs), "tlob: %d bindings leaked\n",
	     atomic_read(&tlob_binding_objs));
}
