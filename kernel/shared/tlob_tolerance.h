/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Failure tolerance (a binding's tolerance=K/W): the binding reacts to a
 * violation (its reactor, its signal, the tool's actions, a trigger
 * filtered on the record's react field) only when that violation makes
 * K among the binding's last W judged windows, itself included. Every
 * violation is still recorded; only the reaction waits.
 *
 * A judged window is one that ended ok, over budget or early: an aborted
 * window (exit, exec, unbind, disable) and a model error say nothing of
 * the section's timing, so they leave the history as it was.
 *
 * The history is one 64-bit word per binding, the most recent judged
 * window in bit 0, a violation a 1 (hence W <= 64). Pure arithmetic here,
 * shared by the module (tlob_monitor.c: an atomic64_t, cmpxchg at the end
 * of a window), the BPF programs (bpf/tlob_common.bpf.h: a map value,
 * __sync compare-and-swap) and the host unit test (tests/unit/engine/):
 * the word's update and the decision cannot differ between backends.
 *
 * A window's violation is decided before the window ends, so the
 * decision reads the W - 1 judged windows before it and counts itself.
 * Windows of one binding that overlap (several tasks) end in whatever
 * order they end; the history is the order of their ends.
 */
#ifndef TLOB_TOLERANCE_H
#define TLOB_TOLERANCE_H

#include "tlob_abi.h"

/* Whether the window, ended with @verdict, enters the history. */
static __always_inline bool tlob_tolerance_judged(unsigned int verdict)
{
	return verdict == TLOB_VERDICT_OK ||
	       verdict == TLOB_VERDICT_OVER_BUDGET ||
	       verdict == TLOB_VERDICT_EARLY;
}

/* The history after a window ended with @verdict. */
static __always_inline __u64 tlob_history_push(__u64 history,
					       unsigned int verdict)
{
	if (!tlob_tolerance_judged(verdict))
		return history;
	return (history << 1) | (verdict != TLOB_VERDICT_OK);
}

/*
 * The history after @n judged cycles or windows in a row, each a
 * violation when @bad (an alive record covering several empty cycles):
 * @n pushes at once, so the work is bounded whatever @n.
 */
static __always_inline __u64 tlob_history_push_n(__u64 history, __u64 n,
						 bool bad)
{
	if (n >= TLOB_TOLERANCE_MAX)
		return bad ? ~0ULL : 0;
	return (history << n) | (bad ? (1ULL << n) - 1 : 0);
}

/* Set bits of @x, without a popcount instruction BPF does not have. */
static __always_inline unsigned int tlob_bits64(__u64 x)
{
	x = x - ((x >> 1) & 0x5555555555555555ULL);
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (unsigned int)((x * 0x0101010101010101ULL) >> 56);
}

/*
 * Whether a violation of a binding with tolerance=@k/@w and @history
 * reacts: it and the violations among the @w - 1 judged windows before
 * it make at least @k. @k <= 1 (none, or K = 1) reacts every time.
 */
static __always_inline bool tlob_tolerance_reached(__u64 history,
						   unsigned int k,
						   unsigned int w)
{
	__u64 before;

	if (k <= 1)
		return true;
	if (w > TLOB_TOLERANCE_MAX)
		w = TLOB_TOLERANCE_MAX;
	/* w - 1 <= 63: the shift is defined */
	before = history & ((1ULL << (w - 1)) - 1);
	return tlob_bits64(before) + 1 >= k;
}

#endif /* TLOB_TOLERANCE_H */
