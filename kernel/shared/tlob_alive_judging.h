/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model's clock of one alive cycle with the bounds it is judged
 * against beside it (struct tlob_alive_judging), and the hooks
 * alive_model_ha.h wants, for includers whose instances do not keep the
 * model's clock themselves: the BPF programs (../bpf/tlob_alive.bpf.h)
 * and the host test (tests/unit/kmod/alive-cycle-test.c). (The module's
 * instance keeps a clock and reads its binding's bounds through it,
 * ../module/tlob_alive.c.) Includes alive_model_ha.h and
 * tlob_alive_cycle.h.
 *
 * The includer defines container_of() and, unless it is the kernel's,
 * __always_inline.
 */
#ifndef TLOB_ALIVE_JUDGING_H
#define TLOB_ALIVE_JUDGING_H

/* Read through functions: the clock's struct comes with the model's header. */
struct ha_clocks_alive;
static __u64 tlob_alive_period(const struct ha_clocks_alive *clk);
static __u64 tlob_alive_min(const struct ha_clocks_alive *clk);
static __u64 tlob_alive_max(const struct ha_clocks_alive *clk);
#define PERIOD_NS(c) tlob_alive_period(c)
#define EXPECT_MIN(c) tlob_alive_min(c)
#define EXPECT_MAX(c) tlob_alive_max(c)
#include "alive_model_ha.h"
#include "tlob_alive_cycle.h"

struct tlob_alive_judging {
	struct ha_clocks_alive clk;	/* clk.start[clk_cycle_alive]: the cycle's start */
	__u64 period;
	__u32 checkpoints, min, max;
};

#define tlob_alive_judging_of(c) container_of(c, struct tlob_alive_judging, clk)

static __always_inline __u64 tlob_alive_period(const struct ha_clocks_alive *clk)
{
	return tlob_alive_judging_of(clk)->period;
}

static __always_inline __u64 tlob_alive_min(const struct ha_clocks_alive *clk)
{
	return tlob_alive_judging_of(clk)->min;
}

static __always_inline __u64 tlob_alive_max(const struct ha_clocks_alive *clk)
{
	return tlob_alive_judging_of(clk)->max;
}

static __u64 ha_get_env_alive(const struct ha_clocks_alive *clk, unsigned int env)
{
	return env == checkpoints_alive ? tlob_alive_judging_of(clk)->checkpoints : 0;
}

/*
 * ha_step_alive()'s timer actions: unused, these includers step no
 * automaton through it; they arm their cycle timers on the grid
 * (tlob_alive_cycle.h), where the model's invariant puts them
 * (ha_deadline_alive()).
 */
static void ha_arm_alive(struct ha_clocks_alive *clk, __u64 deadline_ns)
{
	(void)clk;
	(void)deadline_ns;
}

static void ha_cancel_alive(struct ha_clocks_alive *clk)
{
	(void)clk;
}

/* The verdict on a cycle that began at @start with @checkpoints, judged at @end. */
static __always_inline unsigned int tlob_alive_judge_cycle(__u64 start, __u64 period,
							   __u32 checkpoints, __u32 min,
							   __u32 max, __u64 end)
{
	struct tlob_alive_judging j = {
		.period = period,
		.checkpoints = checkpoints,
		.min = min,
		.max = max,
	};

	j.clk.start[clk_cycle_alive] = start;
	return tlob_alive_verdict(&j.clk, checkpoints, end);
}

#endif /* TLOB_ALIVE_JUDGING_H */
