/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reference cycles of an alive instance (models/alive.dot), for every
 * backend that runs one: the module (../module/tlob_alive.c, under its
 * lock) and the BPF programs (../bpf/tlob_alive.bpf.h, lock-free), and the
 * host test (tests/unit/kmod/alive-cycle-test.c).
 *
 * An instance's cycles lie on one grid: the first begins at its first
 * checkpoint (begin), cycle n covers (begin + n * period, begin + (n + 1) *
 * period], its end inside it as the model's invariant clk_cycle <=
 * PERIOD_NS() says. A checkpoint counts in the cycle its time falls in; a
 * cycle is judged once its end has passed, by the model's guard on
 * cycle_end (ha_guard_holds_alive(): expect - margin <= checkpoints <=
 * expect + margin). Cycles that went by unjudged with no checkpoint (a
 * timer held off for longer than a period) are judged together, as one
 * record: the work per event is bounded whatever the time.
 *
 * The includer includes alive_model_ha.h first, with its PERIOD_NS(),
 * EXPECT_MIN() and EXPECT_MAX() and ha_get_env_alive() hooks.
 */
#ifndef TLOB_ALIVE_CYCLE_H
#define TLOB_ALIVE_CYCLE_H

#ifndef _ALIVE_MODEL_HA_H
#error "include alive_model_ha.h before tlob_alive_cycle.h"
#endif
#include "tlob_abi.h"
#ifdef __KERNEL__
#include <linux/math64.h>
#endif

/*
 * The index of the cycle @now falls in, for an instance whose cycle 0
 * began at @begin (0 at or before @begin: a clock read on another CPU
 * just before the first checkpoint's).
 */
static __always_inline __u64 tlob_alive_cycle_at(__u64 begin, __u64 period, __u64 now)
{
	if (now <= begin || !period)
		return 0;
#ifdef __KERNEL__
	return div64_u64(now - begin - 1, period);
#else
	return (now - begin - 1) / period;
#endif
}

/*
 * The verdict on a cycle that ended in the model's state supervised with
 * @checkpoints: its guard on cycle_end (read through @clk, whose
 * ha_get_env_alive() returns @checkpoints), and which bound it missed.
 */
static __always_inline unsigned int
tlob_alive_verdict(const struct ha_clocks_alive *clk, __u32 checkpoints,
		   __u64 at)
{
	if (ha_guard_holds_alive(clk, supervised_alive, cycle_end_alive, at))
		return TLOB_VERDICT_OK;
	return checkpoints < EXPECT_MIN(clk) ? TLOB_VERDICT_TOO_FEW :
					       TLOB_VERDICT_TOO_MANY;
}

#endif /* TLOB_ALIVE_CYCLE_H */
