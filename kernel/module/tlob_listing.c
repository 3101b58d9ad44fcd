// SPDX-License-Identifier: GPL-2.0
/*
 * The listings of the control tree: the monitor file (one canonical line
 * per binding of its holder, which a write of the same text would
 * recreate) and the stats file (identity, terms, holders, then the
 * statistics), the latter also per session (a read of /dev/tlob).
 * Generated whole, with snprintf() semantics, so the caller learns the
 * length a pass needs.
 *
 * Locking: the generators are called with tlob_ctl_mutex held (the binding
 * table and the holders); tlob_listing() takes it.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "tlob.h"

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

/*
 * "l PATH model=.. states=.. events=.. edges=.. final=.. initial=..
 * [file1=..] per=..": the table's canonical text (tlob_parse.c), per=
 * always.
 */
static void tlob_out_logic(struct tlob_out *o, const struct tlob_binding *b)
{
	size_t at;

	tlob_out(o, "l %s ", b->path);
	at = min(o->n, o->size);
	o->n += tlob_logic_format(b->table, b->files, o->buf + at,
				  o->size - at);
	tlob_out(o, " per=%s", b->per == TLOB_PER_TASK ? "task" : "process");
}

/* One canonical line per binding of @h; returns the length it needs. */
ssize_t tlob_monitor_show(const struct tlob_holder *h, char *buf, size_t size)
{
	struct tlob_out o = { buf, size, 0 };
	const struct tlob_binding *b;
	const struct tlob_hold *d;

	lockdep_assert_held(&tlob_ctl_mutex);
	list_for_each_entry(d, &h->holds, hnode) {
		b = d->b;
		if (b->logic) {
			tlob_out_logic(&o, b);
		} else if (b->alive) {
			tlob_out(&o, "a %s:0x%llx period=%llu expect=%u", b->path,
				 (u64)b->start, b->period_ns, b->expect);
			if (b->margin)
				tlob_out(&o, " margin=%u", b->margin);
			if (b->per == TLOB_PER_TASK)
				tlob_out(&o, " per=task");
		} else {
			tlob_out(&o, "p ");
			tlob_out_section(&o, b, ":", " ");
			tlob_out(&o, " threshold=%llu", b->budget_ns);
			if (b->min_ns)
				tlob_out(&o, " min=%llu", b->min_ns);
		}
		if (b->tol_w > 1)
			tlob_out(&o, " tolerance=%u/%u", b->tol_k, b->tol_w);
		if (b->tag[0])
			tlob_out(&o, " tag=%s", b->tag);
		if (b->filter != TLOB_FILTER_NONE)
			tlob_out(&o, " %s=%d", b->filter == TLOB_FILTER_PID ?
				 "pid" : "tgid", b->filter_id);
		tlob_out(&o, "\n");
	}
	return o.n;
}

/*
 * "monitor" for the monitor file, "PID:COMM" for a session, COMM's bytes
 * outside tlob_tag_char_ok() shown as '?' so a listing stays one token.
 */
static void tlob_out_holders(struct tlob_out *o, const struct tlob_binding *b)
{
	const struct tlob_hold *d;
	const char *sep = "";
	char comm[TASK_COMM_LEN];
	unsigned int i;

	list_for_each_entry(d, &b->holds, bnode) {
		if (d->h == &tlob_persistent) {
			tlob_out(o, "%smonitor", sep);
		} else {
			for (i = 0; i < sizeof(comm) - 1 && d->h->comm[i]; i++)
				comm[i] = tlob_tag_char_ok(d->h->comm[i]) ?
					  d->h->comm[i] : '?';
			comm[i] = '\0';
			tlob_out(o, "%s%d:%s", sep, d->h->pid, comm);
		}
		sep = ",";
	}
}

/*
 * An alive binding's: "id=.. kind=alive path=.. start=.. tag=.. period=..
 * expect=.. margin=.. per=.. tolerance=K/W holders=.. cycles=.. too_few=..
 * too_many=.. tolerated=.. aborted=.. errors=.. dropped=.. instances=..
 * min_checkpoints=.. max_checkpoints=.. sum_checkpoints=.."
 */
static void tlob_alive_stats_line(struct tlob_out *o,
				  const struct tlob_binding *b)
{
	struct tlob_alive_stats st;

	tlob_alive_stats_get(b, &st);
	tlob_out(o, "id=%u kind=alive path=%s start=0x%llx tag=%s", b->id,
		 b->path, (u64)b->start, b->tag[0] ? b->tag : "-");
	tlob_out(o, " period=%llu expect=%u margin=%u per=%s tolerance=%u/%u",
		 b->period_ns, b->expect, b->margin,
		 b->per == TLOB_PER_TASK ? "task" : "process", b->tol_k,
		 b->tol_w);
	tlob_out(o, " holders=");
	tlob_out_holders(o, b);
	tlob_out(o, " cycles=%llu too_few=%llu too_many=%llu tolerated=%llu",
		 st.cycles, st.too_few, st.too_many, st.tolerated);
	tlob_out(o, " aborted=%llu errors=%llu dropped=%llu instances=%llu",
		 st.aborted, st.errors, st.dropped, st.instances);
	tlob_out(o, " min_checkpoints=%llu max_checkpoints=%llu sum_checkpoints=%llu\n",
		 st.min_checkpoints, st.max_checkpoints, st.sum_checkpoints);
}

/*
 * A logical binding's: "id=.. kind=logic path=.. start=.. tag=.. model=..
 * nstates=.. nevents=.. per=.. tolerance=K/W holders=.. instances=..
 * events=.. completed=.. order=.. incomplete=.. timing=.. tolerated=..
 * aborted=.. dropped=.."
 */
static void tlob_logic_stats_line(struct tlob_out *o,
				  const struct tlob_binding *b)
{
	struct tlob_logic_stats st;

	tlob_logic_stats_get(b, &st);
	tlob_out(o, "id=%u kind=logic path=%s start=0x%llx tag=%s", b->id,
		 b->path, (u64)b->start, b->tag[0] ? b->tag : "-");
	tlob_out(o, " model=%s nstates=%u nevents=%u per=%s tolerance=%u/%u",
		 b->table->model, b->table->nstates, b->table->nevents,
		 b->per == TLOB_PER_TASK ? "task" : "process", b->tol_k,
		 b->tol_w);
	tlob_out(o, " holders=");
	tlob_out_holders(o, b);
	tlob_out(o, " instances=%llu events=%llu completed=%llu order=%llu",
		 st.instances, st.events, st.completed, st.order);
	tlob_out(o, " incomplete=%llu timing=%llu tolerated=%llu aborted=%llu",
		 st.incomplete, st.timing, st.tolerated, st.aborted);
	tlob_out(o, " dropped=%llu\n", st.dropped);
}

static void tlob_stats_line(struct tlob_out *o, const struct tlob_binding *b)
{
	size_t at;

	if (b->logic) {
		tlob_logic_stats_line(o, b);
		return;
	}
	if (b->alive) {
		tlob_alive_stats_line(o, b);
		return;
	}
	tlob_out(o, "id=%u path=", b->id);
	tlob_out_section(o, b, " start=", " stop=");
	tlob_out(o, " tag=%s threshold=%llu min=%llu tolerance=%u/%u holders=",
		 b->tag[0] ? b->tag : "-", b->budget_ns, b->min_ns, b->tol_k,
		 b->tol_w);
	tlob_out_holders(o, b);
	tlob_out(o, " ");
	at = min(o->n, o->size);
	o->n += tlob_stats_format(b->stats, o->buf + at, o->size - at);
	tlob_out(o, "\n");
}

/* One binding's stats line; returns the length it needs. */
ssize_t tlob_stats_line_show(const struct tlob_binding *b, char *buf,
			     size_t size)
{
	struct tlob_out o = { buf, size, 0 };

	tlob_stats_line(&o, b);
	return o.n;
}

/* One line per binding (@h NULL) or per binding of @h. */
ssize_t tlob_stats_show(const struct tlob_holder *h, char *buf, size_t size)
{
	struct tlob_out o = { buf, size, 0 };
	const struct tlob_binding *b;
	const struct tlob_hold *d;

	lockdep_assert_held(&tlob_ctl_mutex);
	if (h) {
		list_for_each_entry(d, &h->holds, hnode)
			tlob_stats_line(&o, d->b);
		return o.n;
	}
	list_for_each_entry(b, &tlob_bindings, node)
		tlob_stats_line(&o, b);
	return o.n;
}

/* Room for a listing that needed @n: a little more, as its figures grow. */
static size_t tlob_listing_room(size_t n)
{
	return n + n / 16 + 64;
}

/*
 * A listing generated whole under tlob_ctl_mutex, into a kvmalloc()ed
 * buffer the caller kvfree()s; NULL when out of memory. The mutex holds
 * the bindings still, not their statistics, which windows on other CPUs
 * keep moving: a pass may need more room or less than the one before.
 * So *len is the length the pass that filled the buffer wrote, and a pass
 * that did not fit is made again in more room. That ends: every figure
 * has at most 20 digits, so a listing of these bindings has a bound.
 */
char *tlob_listing(tlob_listing_fn gen, const struct tlob_holder *h,
		   size_t *len)
{
	char *buf = NULL;
	size_t size;
	ssize_t n;

	mutex_lock(&tlob_ctl_mutex);
	n = gen(h, NULL, 0);
	do {
		kvfree(buf);
		size = tlob_listing_room(n);
		buf = kvmalloc(size, GFP_KERNEL);
		if (!buf)
			break;
		n = gen(h, buf, size);
	} while ((size_t)n >= size);
	mutex_unlock(&tlob_ctl_mutex);
	*len = buf ? n : 0;
	return buf;
}
