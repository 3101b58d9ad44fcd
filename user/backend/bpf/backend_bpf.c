// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF backend: the tlob model run by BPF programs (kernel/bpf/) instead
 * of tlob.ko, for systems with BPF that would rather not load a module.
 * kernel/bpf/ loads and pins them; this file maps the backend interface onto
 * that:
 * - One monitor per system, shared (share.c): where /sys/fs/bpf is a BPF
 *   file system, the first tlob that needs the monitor (tlob mon, tlob
 *   bind) loads, attaches and pins it under TLOB_BPF_PIN_DIR, and every
 *   later one opens that set: the scheduler hooks run once, however many
 *   sessions watch. Each tlob mon is a session (backend.h): a reader slot
 *   with rings of its own, and a reference on each binding it asks for,
 *   joined when the same binding exists (same section, STOP, budget,
 *   tag, filter); tlob bind holds the persistent reference. A binding
 *   goes with its last holder, the set with its last binding and reader;
 *   a session killed is swept by the next tlob. Without a BPF file system
 *   tlob mon loads a monitor of its own, gone when it exits.
 * - enable: the scheduler hooks and the detector are attached. Disabling
 *   the pinned monitor drops the persistent bindings and, when no session
 *   reads it any more, removes it: nothing is left pinned.
 * - Records arrive in the reader's own BPF ring buffers as struct
 *   tlob_record: windows in one, violations and dropped STARTs in the
 *   other; records that did not fit are counted per reader and reported
 *   by lost().
 * - The reader sleeps until something is due: a violation wakes it at once
 *   (its urgent ring, forced wakeups); the first window after it emptied
 *   its window ring wakes it too, and it then reads that ring one flush
 *   interval later, or sooner when the ring is half full (the programs
 *   force a wakeup past that watermark), so it wakes about twice per batch
 *   however many windows come, and never while nothing happens. Both rings
 *   are merged oldest first.
 * - The only reactor is nop (BPF cannot signal the task from the timer).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "backend/backend.h"
#include "backend/bpf/loader.h"
#include "backend/monline.h"
#include "lib/utils.h"
#include "tlob_bpf.h"

/*
 * A binding's uprobe links: START and STOP, an alive binding's checkpoint,
 * or a logical binding's events (one each); -1 past them.
 */
#define TB_BIND_LINKS	TLOB_LOGIC_EVENTS_MAX

/* Uprobe links this process holds (bindings that are not pinned). */
struct bpf_ubind {
	uint32_t id;
	int fd[TB_BIND_LINKS];
};

static void close_links(const int *fd)
{
	for (int e = 0; e < TB_BIND_LINKS; e++)
		if (fd[e] >= 0)
			close(fd[e]);
}

/*
 * An item read from a ring: a record, or (urgent ring only) a violation's
 * diagnosis, which follows its violation record in that ring and is
 * delivered right after it (r.end_ns 0: first in the merge).
 */
struct rec_item {
	struct tlob_record r;
	struct tlob_diag *d;	/* a diagnosis; NULL: a record */
	struct tlob_alive_record *a;	/* an alive binding's cycle; NULL: a record */
	struct tlob_logic_record *l;	/* a logical binding's record; NULL: a record */
};

/* Items read from one ring, not delivered yet. */
struct rec_queue {
	struct bpf_priv *p;
	struct rec_item *v;
	size_t head, n, cap;
};

_Static_assert(sizeof(struct tlob_diag) != sizeof(struct tlob_record),
	       "the urgent ring tells a diagnosis from a record by its size");
_Static_assert(sizeof(struct tlob_alive_record) != sizeof(struct tlob_record) &&
	       sizeof(struct tlob_alive_record) != sizeof(struct tlob_diag),
	       "both rings tell an alive cycle from a record by its size");
_Static_assert(sizeof(struct tlob_logic_record) != sizeof(struct tlob_record) &&
	       sizeof(struct tlob_logic_record) != sizeof(struct tlob_diag) &&
	       sizeof(struct tlob_logic_record) != sizeof(struct tlob_alive_record),
	       "both rings tell a logical record from the others by its size");
/* The per-CPU statistics buffers are sized for windows', and serve alive bindings too. */
_Static_assert(sizeof(struct tlob_alive_stats) <= sizeof(struct tlob_stats) &&
	       sizeof(struct tlob_logic_stats) <= sizeof(struct tlob_stats),
	       "alive and logical bindings' per-CPU statistics fit a window binding's buffer");

/* The rings, in the order of a tie between them: violations first. */
enum { Q_URGENT, Q_WINDOWS, Q_NR };

/* A logical binding's table, as this reader last saw it. */
struct logic_copy {
	uint32_t id;
	struct tlob_logic_table t;
};

struct bpf_priv {
	struct bpf_mon m;
	bool persist;			/* the persistent holder (tlob bind, apply, unbind) */
	bool reader;
	bool all;			/* a reader of every binding (tlob mon without -b) */
	bool shared;			/* the system's pinned monitor (share.c) */
	struct tb_reader rd;		/* this reader's slot and rings */
	struct tlob_binding_stats *gone;	/* final statistics of the bindings it freed */
	size_t nr_gone;
	int nr_cpus;
	struct bpf_ubind *ub;
	size_t nr_ub;
	struct ring_buffer *rb[Q_NR];
	int epfd;			/* both rings, edge-triggered: one event per wakeup */
	struct rec_queue q[Q_NR];
	int err;			/* a queue could not grow */
	uint64_t flush_ns;		/* 0: every record at once */
	bool batching;			/* windows are waiting, due at flush_due */
	uint64_t flush_due;		/* tlob_now_ns() */
	uint64_t foreign;	/* records of another tlob's layout, not read */
	uint64_t untimed0;	/* a reader's TLOB_LOST_NOTIMER at open(): untimed() counts from it */
	struct logic_copy *tables;	/* logical bindings' tables, to name their records */
	size_t nr_tables;
};

static int bpf_probe(const char *control_root, char *why, size_t len)
{
	(void)control_root;
	return tb_probe(why, len);
}

static void say_detector(const struct bpf_mon *m, const char *how)
{
	char d[320];

	tb_describe(m, d, sizeof(d));
	fprintf(stderr, "tlob: bpf: %s; %s\n", how, d);
}

/* The system's monitor loaded, attached and pinned: shared from now on. */
static int load_shared(struct tlob_backend *be)
{
	struct bpf_priv *p = be->priv;
	int ret;

	ret = tb_load(&p->m, be->err, sizeof(be->err));
	if (ret)
		return ret;
	ret = tb_attach(&p->m, be->err, sizeof(be->err));
	if (!ret)
		ret = tb_pin(&p->m, be->err, sizeof(be->err));
	if (ret) {
		tb_close(&p->m);
		return ret;
	}
	say_detector(&p->m, "monitor pinned in " TLOB_BPF_PIN_DIR
		     " (shared by every tlob on this system)");
	return 0;
}

/*
 * Under the lock, for a tlob without a reader slot (it does not hold the
 * set): its last session may have removed the set it opened, or another
 * tlob made a new one, since then. The one pinned now is the system's.
 */
static int refresh_shared(struct tlob_backend *be)
{
	struct bpf_priv *p = be->priv;
	int ret = 0;

	if (p->m.pinned && !tb_still_pinned(&p->m)) {
		tlob_verbose("the monitor this tlob opened was removed meanwhile");
		tb_close(&p->m);
		p->m.pinned = false;
	}
	if (!p->m.pinned && tb_pinned_exists())
		ret = tb_open_pinned(&p->m, be->err, sizeof(be->err));
	if (!ret && p->m.pinned)
		p->shared = true;
	return ret;
}

/*
 * Under the lock: the system's monitor opened, or loaded and pinned if
 * there is none (tlob bind is the first to need it).
 */
static int ensure_shared(struct tlob_backend *be)
{
	struct bpf_priv *p = be->priv;
	int ret;

	ret = refresh_shared(be);
	if (!ret && !p->m.pinned) {
		ret = load_shared(be);
		if (!ret)
			p->shared = true;
	}
	return ret;
}

/* Load the programs now (a binding or enable needs them); @locked: tb_lock() held. */
static int ensure_loaded(struct tlob_backend *be, bool locked)
{
	struct bpf_priv *p = be->priv;
	int lock, ret;

	if (p->persist && tb_bpffs()) {
		if (locked)
			return ensure_shared(be);
		lock = tb_lock(be->err, sizeof(be->err));
		if (lock < 0)
			return lock;
		ret = ensure_shared(be);
		tb_unlock(lock);
		return ret;
	}
	if (p->m.skel || p->m.pinned)
		return 0;
	if (p->persist)
		return load_shared(be);	/* fails, saying there is no BPF file system */
	/* A monitor of its own (no BPF file system to share one in). */
	ret = tb_load(&p->m, be->err, sizeof(be->err));
	if (!ret)
		say_detector(&p->m, "programs loaded");
	return ret;
}

/* A reader session of the shared monitor (backend.h: session). */
static bool is_session(const struct bpf_priv *p)
{
	return p->shared && p->rd.slot >= 0;
}

static uint32_t my_bit(const struct bpf_priv *p)
{
	return is_session(p) ? 1U << p->rd.slot : 0;
}

/*
 * Whether this handle holds binding @b: a session by its bit, the
 * persistent holder by the flag; a monitor of its own holds everything.
 */
static bool holds(const struct bpf_priv *p, const struct tlob_bpf_binding *b)
{
	if (!p->shared)
		return true;
	return is_session(p) ? b->readers & my_bit(p) : b->flags & TLOB_BIND_PERSIST;
}

/* "monitor" for the persistent holder, then PID:COMM of each session. */
static void holders_of(const struct bpf_priv *p, const struct tlob_bpf_binding *b,
		       char *buf, size_t len)
{
	snprintf(buf, len, "%s", b->flags & TLOB_BIND_PERSIST ? "monitor" : "");
	tb_readers_name(&p->m, b->readers, buf, len);
}

/* Nothing holds the pinned set any more: no reader, no binding. */
static bool unused(const struct bpf_priv *p)
{
	uint32_t key;

	return p->m.pinned && !tb_readers_live(&p->m) &&
	       bpf_map_get_next_key(p->m.fd[TB_BINDINGS], NULL, &key);
}

/* Under the lock: remove the pinned set when nothing holds it. */
static void remove_if_unused(struct tlob_backend *be)
{
	struct bpf_priv *p = be->priv;
	char err[256];

	if (!unused(p))
		return;
	if (tb_teardown(err, sizeof(err)))
		fprintf(stderr, "tlob: bpf: %s\n", err);
	else
		tlob_verbose("nothing holds the pinned monitor any more: removed");
	p->m.pinned = false;
}

static int on_sample(void *ctx, void *data, size_t size)
{
	struct rec_queue *q = ctx;
	struct bpf_priv *p = q->p;

	/*
	 * A record of another size comes from programs of another tlob (a
	 * monitor pinned before an upgrade: the record follows the model, so
	 * its size changes with it). Not read, but never silently: counted
	 * as lost, and said once.
	 */
	bool diag = q == &p->q[Q_URGENT] && size == sizeof(struct tlob_diag);
	bool alive = size == sizeof(struct tlob_alive_record);
	bool logic = size == sizeof(struct tlob_logic_record);
	struct tlob_alive_record *a = NULL;
	struct tlob_logic_record *l = NULL;
	struct tlob_diag *d = NULL;

	if (size != sizeof(struct tlob_record) && !diag && !alive && !logic) {
		if (!p->foreign++)
			fprintf(stderr, "tlob: bpf: a record of %zu bytes, this tlob reads %zu: the "
				"monitor was loaded by another tlob version (`tlob unbind -a "
				"--backend bpf` removes a pinned one)\n", size,
				sizeof(struct tlob_record));
		return 0;
	}
	if (diag) {
		d = malloc(sizeof(*d));
		if (!d) {
			p->err = -ENOMEM;
			return -ENOMEM;
		}
		memcpy(d, data, sizeof(*d));
	}
	if (alive) {
		a = malloc(sizeof(*a));
		if (!a) {
			p->err = -ENOMEM;
			return -ENOMEM;
		}
		memcpy(a, data, sizeof(*a));
	}
	if (logic) {
		l = malloc(sizeof(*l));
		if (!l) {
			p->err = -ENOMEM;
			return -ENOMEM;
		}
		memcpy(l, data, sizeof(*l));
	}
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 256;
		struct rec_item *v = realloc(q->v, cap * sizeof(*v));

		if (!v) {
			free(d);
			free(a);
			free(l);
			p->err = -ENOMEM;
			/* Stops the ring here; the rest stays in it. */
			return -ENOMEM;
		}
		q->v = v;
		q->cap = cap;
	}
	q->v[q->n].d = d;
	q->v[q->n].a = a;
	q->v[q->n].l = l;
	if (d || a || l)
		memset(&q->v[q->n].r, 0, sizeof(q->v[q->n].r));
	else
		memcpy(&q->v[q->n].r, data, sizeof(q->v[q->n].r));
	/* A cycle takes its place among the records by its end. */
	if (a)
		q->v[q->n].r.end_ns = a->end_ns;
	if (l)
		q->v[q->n].r.end_ns = l->end_ns;
	q->n++;
	return 0;
}

/* Both rings mapped, each with its queue, and the epoll set that waits on them. */
static int open_rings(struct tlob_backend *be)
{
	static const int ring[Q_NR] = { [Q_URGENT] = 1, [Q_WINDOWS] = 0 };
	struct bpf_priv *p = be->priv;

	p->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (p->epfd < 0)
		return tlob_backend_err(be, errno, "epoll_create1: %s", strerror(errno));
	for (int q = 0; q < Q_NR; q++) {
		struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u32 = (uint32_t)q };

		int fd = p->rd.ring_fd[ring[q]];

		p->q[q].p = p;
		p->rb[q] = ring_buffer__new(fd, on_sample, &p->q[q], NULL);
		if (!p->rb[q])
			return tlob_backend_err(be, errno, "cannot map the reader's BPF ring "
						"buffer: %s", strerror(errno));
		if (epoll_ctl(p->epfd, EPOLL_CTL_ADD, fd, &ev))
			return tlob_backend_err(be, errno, "epoll_ctl: %s", strerror(errno));
	}
	/*
	 * A wakeup that came before we waited is not seen (the rings may hold
	 * records already): the first poll reads at once.
	 */
	p->batching = true;
	p->flush_due = 0;
	return 0;
}

static void bpf_close(struct tlob_backend *be)
{
	struct bpf_priv *p = be->priv;

	if (!p)
		return;
	/* A session's slot freed, and the set removed if it was the last. */
	if (p->shared && p->m.pinned) {
		int lock = tb_lock(be->err, sizeof(be->err));

		if (lock >= 0) {
			tb_reader_leave(&p->m, p->rd.slot);
			remove_if_unused(be);
			tb_unlock(lock);
		} else {
			fprintf(stderr, "tlob: bpf: %s (the next tlob frees this reader's slot)\n",
				be->err);
		}
	}
	for (int q = 0; q < Q_NR; q++) {
		ring_buffer__free(p->rb[q]);
		for (size_t i = p->q[q].head; i < p->q[q].n; i++) {
			free(p->q[q].v[i].d);
			free(p->q[q].v[i].a);
			free(p->q[q].v[i].l);
		}
		free(p->q[q].v);
	}
	if (p->epfd >= 0)
		close(p->epfd);
	for (int i = 0; i < 2; i++)
		if (p->rd.ring_fd[i] >= 0)
			close(p->rd.ring_fd[i]);
	for (size_t i = 0; i < p->nr_ub; i++)
		close_links(p->ub[i].fd);
	free(p->ub);
	free(p->gone);
	free(p->tables);
	tb_close(&p->m);
	free(p);
	be->priv = NULL;
}

/* --bpf-tasks sizes a monitor at its load: say when the shared one has another size. */
static void say_tasks(const struct bpf_priv *p)
{
	struct bpf_map_info info = { 0 };
	uint32_t len = sizeof(info);

	if (p->m.tasks && !bpf_obj_get_info_by_fd(p->m.fd[TB_WINDOWS], &info, &len) &&
	    info.max_entries != p->m.tasks)
		fprintf(stderr, "tlob: bpf: --bpf-tasks %u does not apply: the shared monitor was "
			"loaded for %u tasks (it is sized when the first tlob loads it)\n",
			p->m.tasks, info.max_entries);
}

/*
 * Under the lock: open the system's monitor, or load and pin it if this
 * tlob needs one and there is none; free what killed readers left (and
 * the set, if that was all that held it); join as a reader.
 */
static int open_shared(struct tlob_backend *be)
{
	struct bpf_priv *p = be->priv;
	int lock, ret = 0, swept;

	lock = tb_lock(be->err, sizeof(be->err));
	if (lock < 0)
		return lock;
	p->shared = true;
	if (tb_pinned_exists()) {
		ret = tb_open_pinned(&p->m, be->err, sizeof(be->err));
		if (!ret) {
			swept = tb_sweep(&p->m);
			if (swept)
				fprintf(stderr, "tlob: bpf: %d reader(s) of the pinned monitor had "
					"gone without ending; their references dropped\n", swept);
			remove_if_unused(be);
			if (!p->m.pinned)
				tb_close(&p->m);
		}
		if (!ret && p->m.pinned && p->reader) {
			say_detector(&p->m, "reading the monitor pinned in " TLOB_BPF_PIN_DIR);
			say_tasks(p);
		}
	}
	/*
	 * A reader needs the programs now (a reader of every binding only if
	 * there are some: with no monitor there are none); tlob bind loads
	 * them at its first binding.
	 */
	if (!ret && !p->m.pinned && p->reader && !p->all)
		ret = load_shared(be);
	if (!ret && p->reader && p->m.pinned)
		ret = tb_reader_join(&p->m, &p->rd, p->all, be->err, sizeof(be->err));
	if (!p->m.pinned)
		p->shared = false;
	tb_unlock(lock);
	return ret;
}

static bool loaded(const struct bpf_priv *p)
{
	return p->m.skel || p->m.pinned;
}

/* The sum over the CPUs of the tlob_lost counter at idx into *sum. */
static int lost_counter(const struct bpf_priv *p, uint32_t idx, uint64_t *sum)
{
	uint64_t *v;
	int ret;

	*sum = 0;
	v = calloc(p->nr_cpus, sizeof(*v));
	if (!v)
		return -ENOMEM;
	ret = bpf_map_lookup_elem(p->m.fd[TB_LOST], &idx, v) ? -errno : 0;
	for (int c = 0; !ret && c < p->nr_cpus; c++)
		*sum += v[c];
	free(v);
	return ret;
}

static int bpf_open(struct tlob_backend *be, const struct tlob_backend_opts *opts)
{
	struct bpf_priv *p;
	int ret, i;

	ret = tb_probe(be->err, sizeof(be->err));
	if (ret)
		return ret;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	for (i = 0; i < TB_NR_MAPS; i++)
		p->m.fd[i] = -1;
	p->m.prog_fd = -1;
	p->m.abort_fd = -1;
	p->m.sample_link_fd = -1;
	p->persist = opts && opts->persist;
	p->m.tasks = opts ? opts->bpf_tasks : 0;
	p->reader = opts && opts->reader;
	p->all = opts && opts->reader_all;
	p->rd.slot = -1;
	p->rd.ring_fd[0] = p->rd.ring_fd[1] = -1;
	p->flush_ns = opts ? opts->flush_ns : 0;
	p->epfd = -1;
	p->nr_cpus = libbpf_num_possible_cpus();
	be->priv = p;
	if (p->nr_cpus <= 0) {
		ret = tlob_backend_err(be, EINVAL, "cannot count the possible CPUs");
		goto fail;
	}
	if (tb_bpffs() && (p->reader || tb_pinned_exists())) {
		ret = open_shared(be);
		if (ret)
			goto fail;
	} else if (p->reader) {
		/* tlob mon without a BPF fs: a monitor of its own, one reader of all. */
		ret = ensure_loaded(be, false);
		if (!ret)
			ret = tb_reader_join(&p->m, &p->rd, true, be->err, sizeof(be->err));
		if (ret)
			goto fail;
	}
	if (p->reader && p->rd.slot >= 0) {
		ret = open_rings(be);
		if (ret)
			goto fail;
	}
	/* A session's baseline for untimed(since_open); other handles need none. */
	if (p->reader && loaded(p))
		lost_counter(p, TLOB_LOST_NOTIMER, &p->untimed0);
	return 0;
fail:
	bpf_close(be);
	return ret;
}

static int bpf_get_enable(struct tlob_backend *be)
{
	struct bpf_priv *p = be->priv;

	/* A pinned monitor is attached when pinned; off means removed. */
	return p->m.pinned || (p->m.skel && p->m.attached);
}

/*
 * Off on the pinned monitor: the persistent bindings dropped; the set
 * removed, unless sessions still read it (they keep their bindings).
 */
static int disable_shared(struct tlob_backend *be)
{
	struct bpf_priv *p = be->priv;
	uint32_t others;
	int lock, ret;

	lock = tb_lock(be->err, sizeof(be->err));
	if (lock < 0)
		return lock;
	ret = is_session(p) ? 0 : refresh_shared(be);
	if (ret || !p->m.pinned) {
		tb_unlock(lock);
		return ret;	/* removed meanwhile: nothing to switch off */
	}
	tb_sweep(&p->m);
	others = tb_readers_live(&p->m) & ~my_bit(p);
	if (others) {
		tb_drop_holders(&p->m, 0, true);
		fprintf(stderr, "tlob: bpf: the pinned monitor stays for the %d session(s) "
			"reading it (tlob status --backend bpf); its persistent bindings are "
			"removed\n", __builtin_popcount(others));
		tb_unlock(lock);
		return 0;
	}
	ret = tb_teardown(be->err, sizeof(be->err));
	if (!ret) {
		p->m.pinned = false;
		fprintf(stderr, "tlob: bpf: pinned monitor removed\n");
	}
	tb_unlock(lock);
	return ret;
}

static int bpf_set_enable(struct tlob_backend *be, bool on)
{
	struct bpf_priv *p = be->priv;
	int ret;

	if (!on) {
		if (p->m.pinned)
			return disable_shared(be);
		tb_detach(&p->m);
		return 0;
	}
	ret = ensure_loaded(be, false);
	if (ret)
		return ret;
	if (p->m.attached)
		return 0;
	if (!p->m.skel)
		return tlob_backend_err(be, EIO, "the pinned monitor in %s is not attached; "
					"`tlob unbind -a --backend bpf` removes it",
					TLOB_BPF_PIN_DIR);
	return tb_attach(&p->m, be->err, sizeof(be->err));
}

static int bpf_get_reactor(struct tlob_backend *be, char *buf, size_t len)
{
	(void)be;
	snprintf(buf, len, "nop");
	return 0;
}

static int bpf_set_reactor(struct tlob_backend *be, const char *name)
{
	if (!strcmp(name, "nop"))
		return 0;
	return tlob_backend_err(be, EOPNOTSUPP, "the BPF backend has no reactor but nop "
				"(use the kmod backend for printk, panic or signal)");
}

static int bpf_list_reactors(struct tlob_backend *be, char *buf, size_t len)
{
	(void)be;
	snprintf(buf, len, "[nop]");
	return 0;
}

/* The map of binding @b's statistics: its windows', cycles' or instances'. */
static enum tlob_bpf_map stats_map(const struct tlob_bpf_binding *b)
{
	if (b->flags & TLOB_BIND_ALIVE)
		return TB_ALIVE_STATS;
	return b->flags & TLOB_BIND_LOGIC ? TB_LOGIC_STATS : TB_STATS;
}

/*
 * The table of logical binding @id, to name its records' states and
 * events: from this reader's copies, else the monitor's map (copied: the
 * records of a binding come after it went, its aborts last). NULL: none.
 */
static const struct tlob_logic_table *logic_table(struct bpf_priv *p, uint32_t id)
{
	struct logic_copy *c;

	for (size_t i = 0; i < p->nr_tables; i++)
		if (p->tables[i].id == id)
			return &p->tables[i].t;
	c = realloc(p->tables, (p->nr_tables + 1) * sizeof(*c));
	if (!c)
		return NULL;
	p->tables = c;
	c += p->nr_tables;
	if (!loaded(p) || bpf_map_lookup_elem(p->m.fd[TB_LOGIC_TABLES], &id, &c->t))
		return NULL;
	c->id = id;
	p->nr_tables++;
	return &c->t;
}

/* What the module's tlob:logic event carries with a record: the model's names. */
static void logic_names(struct bpf_priv *p, const struct tlob_logic_record *r,
			struct tlob_logic_names *n)
{
	const struct tlob_logic_table *t = logic_table(p, r->binding_id);

	memset(n, 0, sizeof(*n));
	if (!t) {
		snprintf(n->model, sizeof(n->model), "?");
		snprintf(n->state, sizeof(n->state), "%u", r->state);
		if (r->event != TLOB_LOGIC_NONE)
			snprintf(n->event, sizeof(n->event), "%u", r->event);
		return;
	}
	snprintf(n->model, sizeof(n->model), "%s", t->model);
	if (r->state < TLOB_LOGIC_STATES_MAX)
		snprintf(n->state, sizeof(n->state), "%s", t->state[r->state]);
	if (r->event < TLOB_LOGIC_EVENTS_MAX)
		snprintf(n->event, sizeof(n->event), "%s", t->event[r->event]);
}

/*
 * A logical binding's files: b->path holds PATH, then its files beyond it
 * (spec->files), each ended by a NUL, as bind_locked() wrote them.
 */
static void spec_files_of(const struct tlob_bpf_binding *b, struct tlob_binding_spec *s)
{
	const char *files[TLOB_LOGIC_FILES_MAX] = { s->path };
	size_t at = strnlen(b->path, sizeof(b->path)) + 1;
	unsigned int f;

	if (!s->table.nfiles)	/* no table (neither the map's nor ours): no files */
		return;
	for (f = 1; f < s->table.nfiles && f < TLOB_LOGIC_FILES_MAX && at < sizeof(b->path); f++) {
		files[f] = b->path + at;
		at += strnlen(files[f], sizeof(b->path) - at) + 1;
	}
	if (at > sizeof(b->path) || tlob_spec_set_files(s, files, f))
		memset(s->files, 0, sizeof(s->files));
}

static void spec_of(const struct bpf_priv *p, const struct tlob_bpf_binding *b, uint32_t id,
		    struct tlob_binding_spec *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", b->path);
	s->start = b->start;
	s->stop = b->stop;
	s->stop_is_ret = b->flags & TLOB_BIND_STOP_RET;
	s->budget_ns = b->budget_ns;
	s->min_ns = b->min_ns;
	s->alive = b->flags & TLOB_BIND_ALIVE;
	if (s->alive) {
		s->period_ns = b->period_ns;
		s->expect = b->expect;
		s->margin = b->margin;
		s->per = b->flags & TLOB_BIND_PER_TASK ? TLOB_PER_TASK : TLOB_PER_PROCESS;
	}
	s->logic = b->flags & TLOB_BIND_LOGIC;
	if (s->logic) {
		s->per = b->flags & TLOB_BIND_PER_TASK ? TLOB_PER_TASK : TLOB_PER_PROCESS;
		/* Gone from the map (its summary, after the unbind): this reader's copy. */
		if (bpf_map_lookup_elem(p->m.fd[TB_LOGIC_TABLES], &id, &s->table)) {
			memset(&s->table, 0, sizeof(s->table));
			for (size_t i = 0; i < p->nr_tables; i++)
				if (p->tables[i].id == id)
					s->table = p->tables[i].t;
		}
		/* Its files beyond PATH follow PATH in b->path (bind_locked()). */
		spec_files_of(b, s);
	}
	s->tol_k = b->tol_k;
	s->tol_w = b->tol_w;
	memcpy(s->tag, b->tag, sizeof(s->tag));
	s->tag[sizeof(s->tag) - 1] = '\0';
	s->pid = b->pid;
	s->tgid = b->tgid;
	s->id = id;
	if (p->shared)
		holders_of(p, b, s->holders, sizeof(s->holders));
}

/*
 * Every binding, in id order, as (id, value); *n entries. The map is small
 * (TLOB_BPF_MAX_BINDINGS), so reading it whole is simplest.
 */
static int read_bindings(struct bpf_priv *p, uint32_t **ids,
			 struct tlob_bpf_binding **vals, size_t *n)
{
	uint32_t key, next, *k = NULL;
	struct tlob_bpf_binding *v = NULL;
	size_t cnt = 0;
	void *prev = NULL;

	*n = 0;
	*ids = NULL;
	*vals = NULL;
	if (!loaded(p))
		return 0;
	while (!bpf_map_get_next_key(p->m.fd[TB_BINDINGS], prev, &next)) {
		uint32_t *nk = realloc(k, (cnt + 1) * sizeof(*k));
		struct tlob_bpf_binding *nv = realloc(v, (cnt + 1) * sizeof(*v));

		if (nk)
			k = nk;
		if (nv)
			v = nv;
		if (!nk || !nv)
			goto nomem;
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(p->m.fd[TB_BINDINGS], &key, &v[cnt]))
			continue;	/* removed meanwhile */
		k[cnt++] = key;
	}
	/* insertion sort by id: a handful of entries */
	for (size_t i = 1; i < cnt; i++)
		for (size_t j = i; j > 0 && k[j - 1] > k[j]; j--) {
			struct tlob_bpf_binding t = v[j];
			uint32_t tk = k[j];

			v[j] = v[j - 1];
			k[j] = k[j - 1];
			v[j - 1] = t;
			k[j - 1] = tk;
		}
	*ids = k;
	*vals = v;
	*n = cnt;
	return 0;
nomem:
	free(k);
	free(v);
	return -ENOMEM;
}

/* The id of the binding of path:start this handle holds (the best match), or 0. */
static uint32_t find_binding(struct bpf_priv *p, const char *path, uint64_t start)
{
	struct tlob_bpf_binding *v;
	uint32_t *ids, id = 0;
	int best = 0, m;
	size_t n;

	if (read_bindings(p, &ids, &v, &n))
		return 0;
	for (size_t i = 0; i < n; i++) {
		m = holds(p, &v[i]) ? tlob_same_binding(v[i].path, v[i].start, path, start) : 0;
		if (m > best) {
			best = m;
			id = ids[i];
		}
	}
	free(ids);
	free(v);
	return id;
}

/*
 * STOP before START: the binding is live from its first probe on (the map
 * entry is in place), and a window opened before its STOP probe existed
 * would miss its end and run on into the next START (a model error).
 */
static int attach_binding(struct tlob_backend *be, uint32_t id,
			  const struct tlob_binding_spec *spec, int fd[TB_BIND_LINKS])
{
	struct bpf_priv *p = be->priv;

	for (int e = 0; e < TB_BIND_LINKS; e++)
		fd[e] = -1;
	/* An alive binding: its checkpoint, the one probe. */
	if (spec->alive) {
		fd[0] = tb_attach_uprobe(p->m.prog_fd, spec->path, spec->start, false,
					 TLOB_COOKIE(id, TLOB_COOKIE_CHECKPOINT), be->err,
					 sizeof(be->err));
		return fd[0] < 0 ? fd[0] : 0;
	}
	/*
	 * A logical binding: each event of its table, at its offset of its
	 * file (tlob_spec_file()), the index in the cookie.
	 */
	if (spec->logic) {
		for (int e = 0; e < spec->table.nevents && e < TB_BIND_LINKS; e++) {
			fd[e] = tb_attach_uprobe(p->m.prog_fd,
						 tlob_spec_file(spec, spec->table.file[e]),
						 spec->table.offset[e],
						 false, TLOB_COOKIE(id, TLOB_COOKIE_LOGIC(e)),
						 be->err, sizeof(be->err));
			if (fd[e] < 0) {
				int ret = fd[e];

				fd[e] = -1;
				close_links(fd);
				return ret;
			}
		}
		return 0;
	}
	if (spec->stop_is_ret)
		fd[1] = tb_attach_uprobe(p->m.prog_fd, spec->path, spec->start, true,
					 TLOB_COOKIE(id, TLOB_COOKIE_STOP), be->err,
					 sizeof(be->err));
	else
		fd[1] = tb_attach_uprobe(p->m.prog_fd, spec->path, spec->stop, false,
					 TLOB_COOKIE(id, TLOB_COOKIE_STOP), be->err,
					 sizeof(be->err));
	if (fd[1] < 0)
		return fd[1];
	fd[0] = tb_attach_uprobe(p->m.prog_fd, spec->path, spec->start, false,
				 TLOB_COOKIE(id, TLOB_COOKIE_START), be->err, sizeof(be->err));
	if (fd[0] < 0) {
		close(fd[1]);
		return fd[0];
	}
	return 0;
}

static int keep_links(struct tlob_backend *be, uint32_t id, int fd[TB_BIND_LINKS])
{
	struct bpf_priv *p = be->priv;
	struct bpf_ubind *ub;
	char name[64];
	int ret = 0;

	/* Pinned in the shared set: the binding outlives whoever made it. */
	if (p->m.pinned) {
		for (int e = 0; e < TB_BIND_LINKS && !ret; e++) {
			if (fd[e] < 0)
				continue;
			tb_link_name(name, sizeof(name), id, e);
			ret = tb_pin_fd(fd[e], name, be->err, sizeof(be->err));
		}
		for (int e = 0; ret && e < TB_BIND_LINKS; e++) {
			tb_link_name(name, sizeof(name), id, e);
			tb_unpin(name);
		}
		close_links(fd);
		return ret;
	}
	ub = realloc(p->ub, (p->nr_ub + 1) * sizeof(*ub));
	if (!ub) {
		close_links(fd);
		return -ENOMEM;
	}
	p->ub = ub;
	ub[p->nr_ub].id = id;
	memcpy(ub[p->nr_ub].fd, fd, sizeof(ub[p->nr_ub].fd));
	p->nr_ub++;
	return 0;
}

/*
 * The same binding beyond the section (tlob_abi.h): STOP, budget, minimum,
 * tolerance, tag, filter.
 */
static bool same_terms(const struct bpf_priv *p, uint32_t id, const struct tlob_bpf_binding *b,
		       const struct tlob_binding_spec *spec)
{
	if (!!(b->flags & TLOB_BIND_ALIVE) != spec->alive ||
	    !!(b->flags & TLOB_BIND_LOGIC) != spec->logic)
		return false;
	if (spec->logic) {
		struct tlob_logic_table t;

		if (bpf_map_lookup_elem(p->m.fd[TB_LOGIC_TABLES], &id, &t) ||
		    memcmp(&t, &spec->table, sizeof(t)) ||
		    !!(b->flags & TLOB_BIND_PER_TASK) != (spec->per == TLOB_PER_TASK))
			return false;
	}
	if (spec->alive && (b->period_ns != spec->period_ns || b->expect != spec->expect ||
			    b->margin != spec->margin ||
			    !!(b->flags & TLOB_BIND_PER_TASK) != (spec->per == TLOB_PER_TASK)))
		return false;
	return b->budget_ns == spec->budget_ns && b->min_ns == spec->min_ns &&
	       b->tol_k == tlob_spec_tol_k(spec) && b->tol_w == tlob_spec_tol_w(spec) &&
	       b->pid == (uint32_t)spec->pid &&
	       b->tgid == (uint32_t)spec->tgid && !!(b->flags & TLOB_BIND_STOP_RET) ==
	       spec->stop_is_ret && (spec->stop_is_ret || b->stop == spec->stop) &&
	       !strncmp(b->tag, spec->tag, sizeof(b->tag));
}

/* This handle's reference added to binding @id (the same binding, held by others). */
static int join_binding(struct tlob_backend *be, uint32_t id, struct tlob_bpf_binding *b)
{
	struct bpf_priv *p = be->priv;

	if (is_session(p))
		b->readers |= my_bit(p);
	else
		b->flags |= TLOB_BIND_PERSIST;
	if (bpf_map_update_elem(p->m.fd[TB_BINDINGS], &id, b, BPF_EXIST))
		return tlob_backend_err(be, errno, "cannot join binding %u: %s", id,
					strerror(errno));
	tlob_verbose("joined binding %u (its other holders keep it)", id);
	return 0;
}

/*
 * The bindings already on SPEC's section: 1 when SPEC's binding is there
 * and this handle joined it (its id in *IDP), 0 when a new one is to be
 * added, or a negative errno.
 */
static int join_existing(struct tlob_backend *be, const struct tlob_binding_spec *spec,
			 uint32_t *idp)
{
	struct bpf_priv *p = be->priv;
	struct tlob_bpf_binding *v;
	uint32_t *ids;
	ssize_t join = -1;
	size_t n;
	int ret;

	ret = read_bindings(p, &ids, &v, &n);
	if (ret)
		return ret;
	/*
	 * A holder holds one binding per section; the same binding held by
	 * others is joined; other terms on the section make a binding of
	 * its own (its own windows and verdicts). A monitor of its own
	 * holds every binding, so a section once.
	 */
	for (size_t i = 0; i < n && !ret; i++) {
		if (!tlob_same_binding(v[i].path, v[i].start, spec->path, spec->start))
			continue;
		if (holds(p, &v[i]))
			ret = tlob_backend_err(be, EEXIST, "%s:0x%llx is bound already (id %u)",
					       TLOB_SHOWN(spec->path),
					       (unsigned long long)spec->start, ids[i]);
		else if (join < 0 && same_terms(p, ids[i], &v[i], spec))
			join = (ssize_t)i;
	}
	if (!ret && join >= 0) {
		ret = join_binding(be, ids[join], &v[join]);
		if (!ret && idp)
			*idp = ids[join];
	}
	free(ids);
	free(v);
	if (ret || join >= 0)
		return ret ? ret : 1;
	if (n >= TLOB_BPF_MAX_BINDINGS)
		return tlob_backend_err(be, ENOSPC, "the BPF backend holds at most %d bindings",
					TLOB_BPF_MAX_BINDINGS);
	return 0;
}

/* A new binding's id, from the counter the monitor's metadata keeps across handles. */
static int next_binding_id(struct tlob_backend *be, uint32_t *id)
{
	struct bpf_priv *p = be->priv;
	struct tlob_bpf_meta meta;
	uint32_t key0 = 0;

	if (bpf_map_lookup_elem(p->m.fd[TB_META], &key0, &meta))
		return tlob_backend_err(be, EIO, "cannot read the monitor's metadata");
	*id = ++meta.next_id;
	if (bpf_map_update_elem(p->m.fd[TB_META], &key0, &meta, BPF_ANY))
		return tlob_backend_err(be, EIO, "cannot update the monitor's metadata");
	return 0;
}

/* SPEC as the record the BPF programs read, held by this handle. */
static void binding_record(const struct bpf_priv *p, const struct tlob_binding_spec *spec,
			   struct tlob_bpf_binding *b)
{
	memset(b, 0, sizeof(*b));
	b->budget_ns = spec->budget_ns;
	b->min_ns = spec->min_ns;
	b->tol_k = (uint8_t)tlob_spec_tol_k(spec);
	b->tol_w = (uint8_t)tlob_spec_tol_w(spec);
	b->pid = spec->pid;
	b->tgid = spec->tgid;
	memcpy(b->tag, spec->tag, sizeof(b->tag));
	b->start = spec->start;
	b->stop = spec->stop;
	b->flags = spec->stop_is_ret ? TLOB_BIND_STOP_RET : 0;
	if (spec->alive) {
		b->flags |= TLOB_BIND_ALIVE;
		if (spec->per == TLOB_PER_TASK)
			b->flags |= TLOB_BIND_PER_TASK;
		b->period_ns = spec->period_ns;
		b->expect = spec->expect;
		b->margin = spec->margin;
	}
	if (spec->logic) {
		b->flags |= TLOB_BIND_LOGIC;
		if (spec->per == TLOB_PER_TASK)
			b->flags |= TLOB_BIND_PER_TASK;
	}
	if (p->shared && !is_session(p))
		b->flags |= TLOB_BIND_PERSIST;
	b->readers = my_bit(p);
	snprintf(b->path, sizeof(b->path), "%s", spec->path);
	/* A logical binding's files beyond PATH after it (bpf_bind() measured them). */
	for (unsigned int f = 1, at = strlen(b->path) + 1; spec->logic && f < spec->table.nfiles;
	     f++) {
		strcpy(b->path + at, tlob_spec_file(spec, f));
		at += strlen(b->path + at) + 1;
	}
}

/* Binding ID's entries in every map, the binding itself last; none left on failure. */
static int store_binding(struct tlob_backend *be, uint32_t id, const struct tlob_bpf_binding *b,
			 const struct tlob_binding_spec *spec)
{
	struct bpf_priv *p = be->priv;
	struct tlob_stats *zero;
	uint64_t history = 0;
	int ret;

	zero = calloc(p->nr_cpus, sizeof(*zero));
	if (!zero)
		return -ENOMEM;
	/* A zeroed tlob_stats per CPU is a zeroed alive or logic one too (smaller). */
	ret = bpf_map_update_elem(p->m.fd[stats_map(b)], &id, zero, BPF_ANY);
	free(zero);
	/* The table first: an event finds it there once its probe is placed. */
	if (!ret && spec->logic)
		ret = bpf_map_update_elem(p->m.fd[TB_LOGIC_TABLES], &id, &spec->table, BPF_ANY);
	if (!ret)
		ret = bpf_map_update_elem(p->m.fd[TB_HISTORY], &id, &history, BPF_ANY);
	if (!ret)
		ret = bpf_map_update_elem(p->m.fd[TB_BINDINGS], &id, b, BPF_NOEXIST);
	if (ret) {
		bpf_map_delete_elem(p->m.fd[TB_STATS], &id);
		bpf_map_delete_elem(p->m.fd[TB_ALIVE_STATS], &id);
		bpf_map_delete_elem(p->m.fd[TB_LOGIC_STATS], &id);
		bpf_map_delete_elem(p->m.fd[TB_LOGIC_TABLES], &id);
		bpf_map_delete_elem(p->m.fd[TB_HISTORY], &id);
		return tlob_backend_err(be, -ret, "cannot add binding %u: %s", id,
					strerror(-ret));
	}
	return 0;
}

static int bind_locked(struct tlob_backend *be, const struct tlob_binding_spec *spec,
		       uint32_t *idp)
{
	struct bpf_priv *p = be->priv;
	struct tlob_bpf_binding b;
	int fd[TB_BIND_LINKS], ret;
	uint32_t id = 0;

	ret = ensure_loaded(be, true);
	if (ret)
		return ret;
	ret = join_existing(be, spec, idp);
	if (ret)
		return ret < 0 ? ret : 0;
	ret = next_binding_id(be, &id);
	if (ret)
		return ret;
	binding_record(p, spec, &b);
	ret = store_binding(be, id, &b, spec);
	if (ret)
		return ret;
	ret = attach_binding(be, id, spec, fd);
	if (!ret)
		ret = keep_links(be, id, fd);
	if (ret) {
		/* Its probes are gone; a window they opened meanwhile ends as at unbind. */
		tb_binding_free(&p->m, id, NULL);
		return ret;
	}
	if (idp)
		*idp = id;
	return 0;
}

static int bpf_bind(struct tlob_backend *be, const struct tlob_binding_spec *spec,
		    uint32_t *idp)
{
	struct bpf_priv *p = be->priv;
	struct stat st;
	int lock = -1, ret;
	uint32_t id = 0;

	/* The module's rule (monline.h), so both backends take the same bindings. */
	ret = tlob_spec_check(spec, be->err, sizeof(be->err));
	if (ret)
		return ret;
	if (strlen(spec->path) >= TLOB_BPF_PATH_MAX)
		return tlob_backend_err(be, ENAMETOOLONG, "the BPF backend takes paths of at "
					"most %d bytes", TLOB_BPF_PATH_MAX - 1);
	/* Each file there; a logical binding's in b->path together (bind_locked()). */
	for (unsigned int f = 0, at = 0; f < (spec->logic ? spec->table.nfiles : 1U); f++) {
		const char *file = tlob_spec_file(spec, f);

		at += strlen(file) + 1;
		if (at > TLOB_BPF_PATH_MAX)
			return tlob_backend_err(be, ENAMETOOLONG, "the BPF backend takes a "
						"model's files in %d bytes at most, their paths "
						"together", TLOB_BPF_PATH_MAX);
		if (stat(file, &st))
			return tlob_backend_err(be, ENOENT, "%s: %s", TLOB_SHOWN(file),
						strerror(errno));
	}
	if (p->shared || (p->persist && tb_bpffs())) {
		lock = tb_lock(be->err, sizeof(be->err));
		if (lock < 0)
			return lock;
	}
	ret = bind_locked(be, spec, &id);
	tb_unlock(lock);
	/* Its table, to name its records after it went (its aborts come last). */
	if (!ret && spec->logic)
		logic_table(p, id);
	if (!ret && idp)
		*idp = id;
	return ret;
}

/* The statistics of binding @id as this session dropped it, for its summary. */
/*
 * @percpu: the binding's per-CPU copies as its map returned them, window
 * statistics or, for an alive or a logical binding (@o->spec), theirs.
 */
static void sum_stats(const void *percpu, int nr_cpus, struct tlob_binding_stats *o)
{
	const struct tlob_alive_stats *a = percpu;
	const struct tlob_logic_stats *l = percpu;
	const struct tlob_stats *w = percpu;

	for (int c = 0; c < nr_cpus; c++) {
		if (o->spec.alive)
			tlob_alive_stats_merge(&o->alive, &a[c]);
		else if (o->spec.logic)
			tlob_logic_stats_merge(&o->logic, &l[c]);
		else
			tlob_stats_merge(&o->stats, &w[c]);
	}
	o->mean_ns = o->stats.windows ? o->stats.sum_ns / o->stats.windows : 0;
}

static void keep_gone(struct bpf_priv *p, uint32_t id, const struct tlob_bpf_binding *b,
		      const struct tlob_stats *percpu)
{
	struct tlob_binding_stats *g = realloc(p->gone, (p->nr_gone + 1) * sizeof(*g));

	if (!g)
		return;
	p->gone = g;
	g += p->nr_gone++;
	memset(g, 0, sizeof(*g));
	spec_of(p, b, id, &g->spec);
	g->spec.holders[0] = '\0';
	sum_stats(percpu, p->nr_cpus, g);
}

static int unbind_locked(struct tlob_backend *be, const struct tlob_binding_spec *spec)
{
	struct bpf_priv *p = be->priv;
	struct tlob_bpf_binding b;
	struct tlob_stats *percpu;
	bool freed;
	uint32_t id;
	int ret;

	id = loaded(p) ? find_binding(p, spec->path, spec->start) : 0;
	if (!id)
		return tlob_backend_err(be, ENOENT, "%s:0x%llx is not bound%s",
					TLOB_SHOWN(spec->path), (unsigned long long)spec->start,
					!p->shared ? "" : is_session(p) ? " by this session" :
					" by tlob bind (tlob status shows who holds what)");
	if (!p->shared) {
		/* A monitor of its own: the probes this process holds, then the rest. */
		for (size_t i = 0; i < p->nr_ub; i++) {
			if (p->ub[i].id != id)
				continue;
			close_links(p->ub[i].fd);
			p->ub[i] = p->ub[--p->nr_ub];
			break;
		}
		return tb_binding_free(&p->m, id, NULL);
	}
	/* A session keeps the statistics of the bindings it drops (its summary). */
	percpu = calloc(p->nr_cpus, sizeof(*percpu));
	if (!percpu)
		return -ENOMEM;
	if (bpf_map_lookup_elem(p->m.fd[TB_BINDINGS], &id, &b))
		memset(&b, 0, sizeof(b));
	ret = tb_binding_drop(&p->m, id, my_bit(p), !is_session(p),
			      is_session(p) ? percpu : NULL, &freed);
	/* Held on by others: their count so far, as at the drop. */
	if (!ret && is_session(p) &&
	    (freed || !bpf_map_lookup_elem(p->m.fd[stats_map(&b)], &id, percpu)))
		keep_gone(p, id, &b, percpu);
	free(percpu);
	if (ret)
		return tlob_backend_err(be, -ret, "cannot drop binding %u: %s", id, strerror(-ret));
	tlob_verbose("binding %u: %s", id, freed ? "its last holder gone, removed" :
		     "reference dropped, its other holders keep it");
	return 0;
}

static int bpf_unbind(struct tlob_backend *be, const struct tlob_binding_spec *spec)
{
	struct bpf_priv *p = be->priv;
	int lock = -1, ret;

	if (p->shared) {
		lock = tb_lock(be->err, sizeof(be->err));
		if (lock < 0)
			return lock;
		ret = is_session(p) ? 0 : refresh_shared(be);
		if (ret) {
			tb_unlock(lock);
			return ret;
		}
	}
	ret = unbind_locked(be, spec);
	tb_unlock(lock);
	return ret;
}

/*
 * The persistent bindings (tlob bind), as the module's monitor file lists
 * its own; a monitor of its own: all. The bindings that only sessions
 * hold are in stats().
 */
static bool listed(const struct bpf_priv *p, const struct tlob_bpf_binding *b)
{
	return !p->shared || (b->flags & TLOB_BIND_PERSIST);
}

static int bpf_list(struct tlob_backend *be, struct tlob_binding_spec **specs, size_t *n)
{
	struct bpf_priv *p = be->priv;
	struct tlob_bpf_binding *v;
	uint32_t *ids;
	size_t k = 0;
	int ret;

	*specs = NULL;
	ret = read_bindings(p, &ids, &v, n);
	if (ret || !*n)
		goto out;
	*specs = calloc(*n, sizeof(**specs));
	if (!*specs) {
		ret = -ENOMEM;
		*n = 0;
		goto out;
	}
	for (size_t i = 0; i < *n; i++)
		if (listed(p, &v[i]))
			spec_of(p, &v[i], ids[i], &(*specs)[k++]);
	*n = k;
out:
	free(ids);
	free(v);
	return ret;
}


/*
 * Every binding with its holders; a session: its own, and the statistics
 * of those it dropped as they were then.
 */
static int bpf_stats(struct tlob_backend *be, struct tlob_binding_stats **st, size_t *n)
{
	struct bpf_priv *p = be->priv;
	struct tlob_stats *percpu;
	struct tlob_bpf_binding *v;
	uint32_t *ids;
	size_t k = 0;
	int ret;

	*st = NULL;
	ret = read_bindings(p, &ids, &v, n);
	if (ret)
		goto out;
	*st = calloc(*n + p->nr_gone + 1, sizeof(**st));
	percpu = calloc(p->nr_cpus, sizeof(*percpu));
	if (!*st || !percpu) {
		free(*st);
		*st = NULL;
		free(percpu);
		*n = 0;
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < *n; i++) {
		if (is_session(p) && !holds(p, &v[i]))
			continue;
		spec_of(p, &v[i], ids[i], &(*st)[k].spec);
		memset(percpu, 0, p->nr_cpus * sizeof(*percpu));
		if (!bpf_map_lookup_elem(p->m.fd[stats_map(&v[i])], &ids[i], percpu))
			sum_stats(percpu, p->nr_cpus, &(*st)[k]);
		k++;
	}
	for (size_t i = 0; i < p->nr_gone; i++)
		(*st)[k++] = p->gone[i];
	*n = k;
	free(percpu);
out:
	free(ids);
	free(v);
	return ret;
}

static bool bpf_session(struct tlob_backend *be)
{
	return is_session(be->priv);
}

/* Read both rings into their queues; 0 or -errno. */
static int consume(struct bpf_priv *p)
{
	for (int q = 0; q < Q_NR; q++) {
		int ret = p->rb[q] ? ring_buffer__consume(p->rb[q]) : 0;

		if (p->err) {
			ret = p->err;
			p->err = 0;
			return ret;
		}
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * Deliver the queued records oldest first (by end_ns, a violation before
 * a window of the same time). A sink's non-zero stops it, the rest
 * staying queued. Returns the count delivered, or the sink's value.
 */
static int deliver(struct bpf_priv *p, const struct tlob_sink *sink)
{
	int delivered = 0;

	for (;;) {
		struct rec_queue *best = NULL;
		struct rec_item *it;
		int r;

		for (int i = 0; i < Q_NR; i++) {
			struct rec_queue *q = &p->q[i];

			if (q->head < q->n && (!best || q->v[q->head].r.end_ns <
					       best->v[best->head].r.end_ns))
				best = q;
		}
		if (!best)
			break;
		it = &best->v[best->head++];
		if (it->d) {
			r = sink->diag ? sink->diag(it->d, sink->ctx) : 0;
			free(it->d);
			it->d = NULL;
		} else if (it->a) {
			delivered++;
			r = sink->alive ? sink->alive(it->a, sink->ctx) : 0;
			free(it->a);
			it->a = NULL;
		} else if (it->l) {
			struct tlob_logic_names names;

			delivered++;
			logic_names(p, it->l, &names);
			r = sink->logic ? sink->logic(it->l, &names, sink->ctx) : 0;
			free(it->l);
			it->l = NULL;
		} else {
			delivered++;
			r = sink->record ? sink->record(&it->r, sink->ctx) : 0;
		}
		if (r)
			return r;
	}
	for (int i = 0; i < Q_NR; i++)
		p->q[i].head = p->q[i].n = 0;
	return delivered;
}

static bool queued(const struct bpf_priv *p)
{
	for (int i = 0; i < Q_NR; i++)
		if (p->q[i].head < p->q[i].n)
			return true;
	return false;
}

/*
 * Sleep until something is due: a violation, a batch of windows (its
 * flush interval passed, or the ring past its watermark), or the caller's
 * timeout. The tool blocks SIGINT/SIGTERM outside its waits, so the sleep
 * is an epoll_pwait() with its wait mask (ring_buffer__poll() would sleep
 * through Ctrl-C). 1 when something is due, 0 on the timeout, -errno.
 */
static int wait_due(struct bpf_priv *p, int timeout_ms)
{
	uint64_t now = tlob_now_ns();
	uint64_t end = timeout_ms > 0 ? now + (uint64_t)timeout_ms * 1000000 : 0;

	for (;;) {
		struct epoll_event ev[Q_NR];
		bool urgent = false, windows = false;
		int wait = end ? tlob_ms_until(end, now) : -1, n;

		if (p->batching && (wait < 0 || tlob_ms_until(p->flush_due, now) < wait))
			wait = tlob_ms_until(p->flush_due, now);
		n = epoll_pwait(p->epfd, ev, Q_NR, wait, tlob_wait_sigmask());
		if (n < 0)
			return errno == EINTR ? -EINTR : -errno;
		now = tlob_now_ns();
		for (int i = 0; i < n; i++) {
			if (ev[i].data.u32 == Q_URGENT)
				urgent = true;
			else
				windows = true;
		}
		/* While a batch waits, only the watermark wakes a window reader. */
		if (urgent || (windows && (p->batching || !p->flush_ns)))
			return 1;
		if (p->batching && now >= p->flush_due)
			return 1;
		if (windows) {
			/* The first window since the ring was emptied: a batch begins. */
			p->batching = true;
			p->flush_due = now + p->flush_ns;
			continue;
		}
		if (end && now >= end)
			return 0;
	}
}

static int bpf_poll(struct tlob_backend *be, int timeout_ms, const struct tlob_sink *sink)
{
	struct bpf_priv *p = be->priv;
	int ret;

	if (!p->rb[Q_WINDOWS] || !p->rb[Q_URGENT])
		return tlob_backend_err(be, EINVAL, "this tlob did not open the BPF backend "
					"as a reader");
	/* The rest of a delivery a sink stopped is due now. */
	if (queued(p))
		return deliver(p, sink);
	/* At exit (0): everything buffered, without sleeping. */
	if (timeout_ms) {
		ret = wait_due(p, timeout_ms);
		if (ret <= 0)
			return ret;
	}
	/* Emptied now: the next window wakes the reader and begins the next batch. */
	p->batching = false;
	ret = consume(p);
	if (ret < 0)
		return ret;
	return deliver(p, sink);
}

static int bpf_lost(struct tlob_backend *be, uint64_t *lost)
{
	struct bpf_priv *p = be->priv;

	*lost = 0;
	if (!loaded(p))
		return 0;
	/*
	 * Records this reader's rings had no room for. A START that found no
	 * free window (TLOB_LOST_NOSLOT) is not lost: its dropped record says so.
	 */
	if (p->rd.slot >= 0)
		lost_counter(p, TLOB_LOST_READER(p->rd.slot), lost);
	*lost += p->foreign;
	return 0;
}

static int bpf_untimed(struct tlob_backend *be, bool since_open, uint64_t *n)
{
	struct bpf_priv *p = be->priv;
	uint64_t now;
	int ret;

	*n = 0;
	if (!loaded(p))
		return 0;
	ret = lost_counter(p, TLOB_LOST_NOTIMER, &now);
	if (!ret)
		*n = !since_open ? now : now > p->untimed0 ? now - p->untimed0 : 0;
	return ret;
}

/*
 * The pinned monitor's detector when there is one; otherwise the programs
 * are loaded (nothing attached) to let this kernel's verifier decide, and
 * unloaded again.
 */
static int bpf_detector(struct tlob_backend *be, char *name, size_t nlen,
			char *detail, size_t dlen)
{
	struct bpf_priv *p = be->priv;
	struct bpf_mon probe = { .prog_fd = -1, .abort_fd = -1, .sample_link_fd = -1 };
	const struct bpf_mon *m = &p->m;
	int ret, i;

	if (!p->m.skel && !p->m.pinned) {
		for (i = 0; i < TB_NR_MAPS; i++)
			probe.fd[i] = -1;
		ret = tb_load(&probe, be->err, sizeof(be->err));
		if (ret)
			return ret;
		m = &probe;
	}
	snprintf(name, nlen, "%s", m->detector == TLOB_DETECT_BPF_TIMER ? "bpf_timer" : "sampling");
	tb_describe(m, detail, dlen);
	if (m == &probe)
		tb_close(&probe);
	return 0;
}

const struct tlob_backend_ops tlob_backend_bpf = {
	.name = "bpf",
	.desc = "BPF programs: bpf_timer where the verifier allows it, else sampling (needs BTF)",
	.probe = bpf_probe,
	.detector = bpf_detector,
	.open = bpf_open,
	.close = bpf_close,
	.get_enable = bpf_get_enable,
	.set_enable = bpf_set_enable,
	.get_reactor = bpf_get_reactor,
	.set_reactor = bpf_set_reactor,
	.list_reactors = bpf_list_reactors,
	.bind = bpf_bind,
	.unbind = bpf_unbind,
	.list = bpf_list,
	.stats = bpf_stats,
	.poll = bpf_poll,
	.lost = bpf_lost,
	.untimed = bpf_untimed,
	.session = bpf_session,
};
