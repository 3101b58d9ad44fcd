// SPDX-License-Identifier: GPL-2.0
/*
 * The listings of the control tree: the monitor file (one canonical line
 * per binding, which a write of the same text would recreate) and the
 * stats file (identity, then the statistics). Generated whole, with
 * snprintf() semantics, so the caller learns the length first.
 *
 * Locking: called with tlob_ctl_mutex held (the binding table).
 */
#include <linux/kernel.h>

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

