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
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/percpu.h>

#include "tlob.h"

/* struct tlob_stats, tlob_stats_add() and tlob_stats_merge(): tlob_abi.h */

struct tlob_stats __percpu *tlob_stats_alloc(void)
{
	return alloc_percpu(struct tlob_stats);
}

void tlob_stats_free(struct tlob_stats __percpu *s)
{
	free_percpu(s);
}

void tlob_stats_account(struct tlob_stats __percpu *s, unsigned int verdict,
			bool tolerated, u64 elapsed_ns)
{
	tlob_stats_add(this_cpu_ptr(s), verdict, tolerated, elapsed_ns);
}

/* A START of this binding found no free window (tlob_pool.c). */
void tlob_stats_dropped(struct tlob_stats __percpu *s)
{
	this_cpu_inc(s->dropped);
}

static void tlob_stats_sum(struct tlob_stats __percpu *s, struct tlob_stats *sum)
{
	unsigned int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu)
		tlob_stats_merge(sum, per_cpu_ptr(s, cpu));
}

/*
 * "windows=.. violations=.. errors=.. aborted=.. early=.. tolerated=..
 * dropped=.. min_ns=.. max_ns=.. mean_ns=.. sum_ns=.. hist=i:n,i:n" (no
 * newline). Returns the length it
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
		     "windows=%llu violations=%llu errors=%llu aborted=%llu early=%llu tolerated=%llu dropped=%llu min_ns=%llu max_ns=%llu mean_ns=%llu sum_ns=%llu hist=",
		     sum.windows, sum.violations, sum.errors, sum.aborted,
		     sum.early, sum.tolerated, sum.dropped,
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
