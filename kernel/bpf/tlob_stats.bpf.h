/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU statistics of the BPF programs, updated with atomic
 * instructions. tlob_stats_add() and tlob_alive_stats_add()
 * (../shared/tlob_abi.h) assume the caller keeps its CPU's copy to itself,
 * as the module does with IRQs off or a lock. A BPF program cannot: the
 * uprobe programs (PREEMPT_RT; every kernel that preempts kernel code) and,
 * since 7.x, the exit and exec tracepoint programs run preemptible with
 * only migration disabled, and a bpf_timer callback or the sampler can
 * interrupt a program on its CPU. A program preempted between the load
 * and the store of a plain += then writes back a stale count over the
 * ones made in between, and those windows are lost from the statistics.
 * So every count here is an atomic add; min and max are compare-and-swap
 * loops with a bound (the verifier's), which under a storm of updates on
 * one CPU at worst leave one window's extreme out, never a count. The
 * layout and the merge stay tlob_abi.h's: the readers sum the copies as
 * before.
 */
#ifndef TLOB_STATS_BPF_H
#define TLOB_STATS_BPF_H

#define TLOB_ADD(p, v)	__sync_fetch_and_add((p), (v))

/*
 * *@p lowered to @v. @none: nothing counted yet, so *@p (0) holds no
 * value and is replaced whatever @v is.
 */
static __always_inline void tlob_atomic_min(__u64 *p, __u64 v, bool none)
{
	__u64 cur = READ_ONCE(*p), old;
	int i;

	for (i = 0; i < 4; i++) {
		if (!(none && !cur) && v >= cur)
			return;
		old = __sync_val_compare_and_swap(p, cur, v);
		if (old == cur)
			return;
		cur = old;
	}
}

/* *@p raised to @v. */
static __always_inline void tlob_atomic_max(__u64 *p, __u64 v)
{
	__u64 cur = READ_ONCE(*p), old;
	int i;

	for (i = 0; i < 4; i++) {
		if (v <= cur)
			return;
		old = __sync_val_compare_and_swap(p, cur, v);
		if (old == cur)
			return;
		cur = old;
	}
}

/* tlob_stats_add(), atomic: windows is still added last. */
static __always_inline void tlob_stats_add_atomic(struct tlob_stats *st, unsigned int verdict,
						  unsigned int tolerated, __u64 elapsed_ns)
{
	tlob_atomic_min(&st->min_ns, elapsed_ns, !READ_ONCE(st->windows));
	tlob_atomic_max(&st->max_ns, elapsed_ns);
	TLOB_ADD(&st->sum_ns, elapsed_ns);
	TLOB_ADD(&st->hist[tlob_hist_bucket(elapsed_ns) & (TLOB_HIST_BUCKETS - 1)], 1);
	if (verdict == TLOB_VERDICT_OVER_BUDGET)
		TLOB_ADD(&st->violations, 1);
	else if (verdict == TLOB_VERDICT_MODEL_ERROR)
		TLOB_ADD(&st->errors, 1);
	else if (verdict == TLOB_VERDICT_ABORTED)
		TLOB_ADD(&st->aborted, 1);
	else if (verdict == TLOB_VERDICT_EARLY)
		TLOB_ADD(&st->early, 1);
	if (tolerated)
		TLOB_ADD(&st->tolerated, 1);
	TLOB_ADD(&st->windows, 1);
}

/* tlob_alive_stats_add(), atomic: cycles is still added last. */
static __always_inline void tlob_alive_stats_add_atomic(struct tlob_alive_stats *st,
							unsigned int verdict, __u32 cycles,
							__u32 checkpoints, unsigned int react)
{
	if (verdict != TLOB_VERDICT_OK) {
		if (verdict == TLOB_VERDICT_TOO_FEW)
			TLOB_ADD(&st->too_few, cycles);
		else
			TLOB_ADD(&st->too_many, cycles);
		if (!react)
			TLOB_ADD(&st->tolerated, cycles);
	}
	tlob_atomic_min(&st->min_checkpoints, checkpoints, !READ_ONCE(st->cycles));
	tlob_atomic_max(&st->max_checkpoints, checkpoints);
	TLOB_ADD(&st->sum_checkpoints, checkpoints);
	TLOB_ADD(&st->cycles, cycles);
}

#endif /* TLOB_STATS_BPF_H */
