// SPDX-License-Identifier: GPL-2.0
/*
 * Per-binding statistics of ended windows, kept per CPU so that ending a
 * window never shares a cache line with another CPU, and summed only when
 * someone reads the stats file.
 *
 * Context: tlob_stats_account() runs where a window ends, with IRQs off
 * under the window lock, so this CPU's copy is updated without a lock.
 * tlob_stats_dropped() runs in the uprobe handler (task context, IRQs on)
 * and touches only its own counter, with this_cpu_inc(), which is safe
 * against the accounting of an interrupt on the same CPU. A reader may
 * see one window half-accounted on another CPU; every counter is a single
 * u64 store, so nothing tears on 64-bit.
 */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/percpu.h>

#include "tlob.h"

#define TLOB_HIST_BUCKETS	64

struct tlob_stats {
	u64 windows;
	u64 violations;
	u64 errors;
	u64 aborted;
	u64 dropped;			/* STARTs that found no free window */
	u64 min_ns;
	u64 max_ns;
	u64 sum_ns;
	u64 hist[TLOB_HIST_BUCKETS];	/* [2^i, 2^(i+1)) ns; 0 ns in 0 */
};

struct tlob_stats __percpu *tlob_stats_alloc(void)
{
	return alloc_percpu(struct tlob_stats);
}

void tlob_stats_free(struct tlob_stats __percpu *s)
{
	free_percpu(s);
}

void tlob_stats_account(struct tlob_stats __percpu *s,
			const struct tlob_record *r)
{
	struct tlob_stats *st = this_cpu_ptr(s);
	u64 ns = r->elapsed_ns;

	if (!st->windows || ns < st->min_ns)
		st->min_ns = ns;
	st->max_ns = max(st->max_ns, ns);
	st->sum_ns += ns;
	st->hist[ns ? fls64(ns) - 1 : 0]++;
	st->violations += r->verdict == TLOB_VERDICT_OVER_BUDGET;
	st->errors += r->verdict == TLOB_VERDICT_MODEL_ERROR;
	st->aborted += r->verdict == TLOB_VERDICT_ABORTED;
	/* Last: a reader that sees the window sees its numbers. */
	WRITE_ONCE(st->windows, st->windows + 1);
}

/* A START of this binding found no free window (tlob_pool.c). */
void tlob_stats_dropped(struct tlob_stats __percpu *s)
{
	this_cpu_inc(s->dropped);
}

static void tlob_stats_sum(struct tlob_stats __percpu *s, struct tlob_stats *sum)
{
	unsigned int cpu, i;

	memset(sum, 0, sizeof(*sum));
	sum->min_ns = U64_MAX;
	for_each_possible_cpu(cpu) {
		const struct tlob_stats *st = per_cpu_ptr(s, cpu);

		/* A CPU may have dropped STARTs and ended no window. */
		sum->dropped += READ_ONCE(st->dropped);
		if (!READ_ONCE(st->windows))
			continue;
		sum->windows += st->windows;
		sum->violations += st->violations;
		sum->errors += st->errors;
		sum->aborted += st->aborted;
		sum->min_ns = min(sum->min_ns, st->min_ns);
		sum->max_ns = max(sum->max_ns, st->max_ns);
		sum->sum_ns += st->sum_ns;
		for (i = 0; i < TLOB_HIST_BUCKETS; i++)
			sum->hist[i] += st->hist[i];
	}
	if (!sum->windows)
		sum->min_ns = 0;
}

/*
 * "windows=.. violations=.. errors=.. aborted=.. dropped=.. min_ns=.. max_ns=..
 * mean_ns=.. sum_ns=.. hist=i:n,i:n" (no newline). Returns the length it
 * needs, like snprintf(), so the caller can size its buffer.
 */
int tlob_stats_format(struct tlob_stats __percpu *s, char *buf, size_t size)
{
	struct tlob_stats sum;
	const char *sep = "";
	unsigned int i;
	int n;

	tlob_stats_sum(s, &sum);
	n = snprintf(buf, size,
		     "windows=%llu violations=%llu errors=%llu aborted=%llu dropped=%llu min_ns=%llu max_ns=%llu mean_ns=%llu sum_ns=%llu hist=",
		     sum.windows, sum.violations, sum.errors, sum.aborted,
		     sum.dropped,
		     sum.min_ns, sum.max_ns,
		     sum.windows ? div64_u64(sum.sum_ns, sum.windows) : 0,
		     sum.sum_ns);
	for (i = 0; i < TLOB_HIST_BUCKETS; i++) {
		if (!sum.hist[i])
			continue;
		n += snprintf(buf + min_t(size_t, n, size),
			      size - min_t(size_t, n, size), "%s%u:%llu", sep,
			      i, sum.hist[i]);
		sep = ",";
	}
	return n;
}
