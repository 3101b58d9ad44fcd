// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of an alive instance's cycles (kernel/shared/tlob_alive_cycle.h,
 * the module's and the BPF programs' code) and of tlob_history_push_n()
 * (tlob_tolerance.h): which cycle a time falls in, a cycle's end inside
 * it as the model's invariant says; the model's verdict at a cycle's
 * end; several empty cycles pushed at once against one by one. The
 * guests cannot place a checkpoint on a cycle's last nanosecond; here the
 * time is ours. TAP.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

#include "tlob_abi.h"
#include "tlob_tolerance.h"

#ifndef container_of
#define container_of(p, type, member) ((type *)((char *)(p) - offsetof(type, member)))
#endif
/* The clock with its bounds, as the BPF programs judge a cycle. */
#include "tlob_alive_judging.h"

static int n, failed;

static void ok(int cond, const char *name)
{
	n++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n, name);
	if (!cond)
		failed++;
}

static void cycle_at(void)
{
	const __u64 b = 1000, p = 200;

	ok(tlob_alive_cycle_at(b, p, b) == 0, "the first checkpoint is in cycle 0");
	ok(tlob_alive_cycle_at(b, p, b - 5) == 0, "a clock read just before it: cycle 0");
	ok(tlob_alive_cycle_at(b, p, b + 1) == 0, "one ns later: cycle 0");
	ok(tlob_alive_cycle_at(b, p, b + p) == 0,
	   "the cycle's end is in it (the invariant clk_cycle <= PERIOD_NS())");
	ok(tlob_alive_cycle_at(b, p, b + p + 1) == 1, "one ns past its end: cycle 1");
	ok(tlob_alive_cycle_at(b, p, b + 5 * p) == 4, "the end of cycle 4 is in cycle 4");
	ok(tlob_alive_cycle_at(b, p, b + 5 * p + 1) == 5, "one ns after: cycle 5");
	ok(tlob_alive_cycle_at(b, 0, b + 5) == 0, "no period: cycle 0, no division");
	/* The invariant's deadline is the first time of the next cycle. */
	{
		struct tlob_alive_judging j = { .period = p };

		j.clk.start[clk_cycle_alive] = b;
		ok(tlob_alive_cycle_at(b, p, ha_deadline_alive(&j.clk, supervised_alive)) == 1,
		   "the model's deadline for cycle 0 (its timer) falls in cycle 1");
	}
}

static unsigned int verdict(__u32 checkpoints)
{
	return tlob_alive_judge_cycle(1000, 200, checkpoints, 7, 13, 1200);
}

static void verdicts(void)
{
	ok(verdict(6) == TLOB_VERDICT_TOO_FEW, "6 against 7..13: too few");
	ok(verdict(7) == TLOB_VERDICT_OK, "7: ok (the lower bound is in)");
	ok(verdict(13) == TLOB_VERDICT_OK, "13: ok (the upper bound is in)");
	ok(verdict(14) == TLOB_VERDICT_TOO_MANY, "14: too many");
	ok(verdict(0) == TLOB_VERDICT_TOO_FEW, "0: too few");
}

static __u64 push_each(__u64 h, __u64 n, bool bad)
{
	for (__u64 i = 0; i < n; i++)
		h = (h << 1) | bad;
	return h;
}

static void history(void)
{
	const __u64 h = 0x8000000000000005ULL;
	bool same = true;
	char name[96];

	for (__u64 k = 0; k <= 70; k++)
		for (int bad = 0; bad < 2; bad++)
			if (tlob_history_push_n(h, k, bad) != push_each(h, k, bad)) {
				snprintf(name, sizeof(name), "push_n %llu cycles, bad %d",
					 (unsigned long long)k, bad);
				ok(0, name);
				same = false;
			}
	ok(same, "push_n(n) is n pushes one by one, n = 0..70, ok and violation");
	ok(tlob_history_push_n(h, 1ULL << 40, true) == ~0ULL,
	   "2^40 empty cycles too few: the whole word, at once");
	ok(tlob_tolerance_reached(tlob_history_push_n(0, 1, true), 2, 3),
	   "tolerance 2/3: one violation in the history, the next reacts");
}

int main(void)
{
	cycle_at();
	verdicts();
	history();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
