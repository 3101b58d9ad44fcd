// SPDX-License-Identifier: GPL-2.0
/*
 * Binding objects: one per line of the monitor file. A binding is made
 * from a parsed request (tlob_parse.c) by resolving its path, checked
 * against the file it names, and freed; "the same binding" is decided
 * here, once. The table that holds bindings is the control core's
 * (tlob_control.c); nothing here knows of it.
 *
 * Context: process context only (control writes, module exit); no lock
 * is taken here: a binding being made or freed is reachable from nowhere
 * else (not yet linked, or already unlinked with its probes gone).
 */
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "tlob.h"

/* Bindings allocated and not yet freed: 0 at exit, or something leaked. */
static atomic_t tlob_binding_objs = ATOMIC_INIT(0);

void tlob_binding_free(struct tlob_binding *b)
{
	unsigned int f;

	if (!b)
		return;
	for (f = 1; f < TLOB_LOGIC_FILES_MAX; f++) {
		if (b->fpaths[f].dentry)
			path_put(&b->fpaths[f]);
		kfree(b->files[f]);
	}
	path_put(&b->fpath);
	kfree(b->lprobes);
	kfree(b->table);
	tlob_stats_free(b->stats);
	kfree(b->path);
	kfree(b);
	atomic_dec(&tlob_binding_objs);
}

/*
 * An `l` line's files beyond PATH (fileN=): each held, a regular file,
 * its path kept as written for the listing. Each a file of its own: two
 * paths of one inode (a link) would put two probes at one place of it,
 * and one call would be two events (-EINVAL, as the tool refuses it).
 */
static int tlob_binding_files(struct tlob_binding *b,
			      const struct tlob_req *req)
{
	unsigned int f, g;
	int ret;

	b->files[0] = b->path;
	b->inodes[0] = b->inode;
	for (f = 1; f < req->table->nfiles; f++) {
		ret = kern_path(req->files[f], LOOKUP_FOLLOW, &b->fpaths[f]);
		if (ret)
			return ret;
		b->inodes[f] = d_real_inode(b->fpaths[f].dentry);
		if (!S_ISREG(b->inodes[f]->i_mode))
			return -EINVAL;
		for (g = 0; g < f; g++)
			if (b->inodes[g] == b->inodes[f])
				return -EINVAL;
		b->files[f] = kstrdup(req->files[f], GFP_KERNEL);
		if (!b->files[f])
			return -ENOMEM;
	}
	return 0;
}

/*
 * An `l` line's binding: its files, its own copy of the parsed table
 * (the write's is reused for its next line) and a uprobe consumer per
 * event, each offset inside its file.
 */
static int tlob_binding_logic(struct tlob_binding *b,
			      const struct tlob_req *req)
{
	const struct tlob_logic_table *t = req->table;
	unsigned int e;
	int ret;

	ret = tlob_binding_files(b, req);
	if (ret)
		return ret;
	for (e = 0; e < t->nevents; e++)
		if (t->offset[e] >= i_size_read(b->inodes[t->file[e]]))
			return -EINVAL;
	b->table = kmemdup(t, sizeof(*t), GFP_KERNEL);
	b->lprobes = kcalloc(t->nevents, sizeof(*b->lprobes), GFP_KERNEL);
	if (!b->table || !b->lprobes)
		return -ENOMEM;
	for (e = 0; e < t->nevents; e++) {
		b->lprobes[e].b = b;
		b->lprobes[e].event = e;
	}
	b->logic = true;
	return 0;
}

/*
 * A binding for an add request: the file must be a regular file and
 * hold every offset. Nothing is registered yet.
 */
int tlob_binding_new(const struct tlob_req *req, struct tlob_binding **out)
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
	INIT_LIST_HEAD(&b->holds);
	inode = d_real_inode(b->fpath.dentry);
	b->inode = inode;
	b->path = kstrdup(req->path, GFP_KERNEL);
	b->stats = tlob_stats_alloc();
	ret = -ENOMEM;
	if (!b->path || !b->stats)
		goto fail;
	ret = -EINVAL;
	/* an `l` line's offsets are each in its own file: tlob_binding_logic() */
	if (!S_ISREG(inode->i_mode) ||
	    (!req->logic && req->start >= i_size_read(inode)) ||
	    (!req->alive && !req->logic && !req->stop_ret &&
	     req->stop >= i_size_read(inode)))
		goto fail;
	if (req->logic) {
		ret = tlob_binding_logic(b, req);
		if (ret)
			goto fail;
	}
	b->alive = req->alive;
	b->per = req->per;
	b->period_ns = req->period_ns;
	b->expect = req->expect;
	b->margin = req->margin;
	b->start = req->start;
	b->stop = req->stop;
	b->stop_ret = req->stop_ret;
	b->budget_ns = req->budget_ns;
	b->min_ns = req->min_ns;
	b->tol_k = req->tol_k;
	b->tol_w = req->tol_w;
	atomic64_set(&b->history, 0);
	b->filter = req->filter;
	b->filter_id = req->filter_id;
	memcpy(b->tag, req->tag, TLOB_TAG_LEN);
	*out = b;
	return 0;
fail:
	tlob_binding_free(b);
	return ret;
}

/*
 * "The same section" (tlob_abi.h): how @b matches a section at @start of
 * @path, which names @inode now (NULL: nothing). 2: the same path as
 * written, 1: the same file, 0: another section. A holder holds at most
 * one binding per section: its removal (-PATH:START) names it so.
 */
int tlob_binding_same(const struct tlob_binding *b, const struct inode *inode,
		      const char *path, u64 start)
{
	if (b->start != start)
		return 0;
	if (!strcmp(b->path, path))
		return 2;
	return inode && b->inode == inode;
}

/*
 * The rest of "the same binding" (tlob_abi.h): the same kind (section,
 * alive checkpoint or logical automaton), STOP, budget, minimum, period,
 * expected count and margin, table, instances (per=), tolerance, tag and
 * filter. Two holders asking for the same section with the same terms
 * share one binding (its windows, records and statistics); other terms
 * make a binding of its own. Two tables are the same byte for byte: the
 * parser writes every byte of one (tlob_parse.c); and their files beyond
 * PATH the same files.
 */
bool tlob_binding_same_terms(const struct tlob_binding *a,
			     const struct tlob_binding *b)
{
	unsigned int f;

	if (a->logic != b->logic ||
	    (a->logic && memcmp(a->table, b->table, sizeof(*a->table))))
		return false;
	for (f = 1; a->logic && f < a->table->nfiles; f++)
		if (a->inodes[f] != b->inodes[f])
			return false;
	return a->alive == b->alive && a->per == b->per &&
	       a->period_ns == b->period_ns && a->expect == b->expect &&
	       a->margin == b->margin && a->stop_ret == b->stop_ret &&
	       (a->stop_ret || a->stop == b->stop) &&
	       a->budget_ns == b->budget_ns && a->min_ns == b->min_ns &&
	       a->tol_k == b->tol_k && a->tol_w == b->tol_w &&
	       a->filter == b->filter &&
	       a->filter_id == b->filter_id && !strcmp(a->tag, b->tag);
}

/* The inode @path names now, NULL when it names nothing. */
struct inode *tlob_binding_inode_of(const char *path)
{
	struct inode *inode = NULL;
	struct path p;

	if (!kern_path(path, LOOKUP_FOLLOW, &p)) {
		inode = d_real_inode(p.dentry);
		path_put(&p);
	}
	return inode;
}

/* Bindings still allocated (0 once the table is destroyed). */
int tlob_binding_leaked(void)
{
	return atomic_read(&tlob_binding_objs);
}
