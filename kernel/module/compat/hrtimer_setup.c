// SPDX-License-Identifier: GPL-2.0
/*
 * v6.13, "hrtimers: Introduce hrtimer_setup() to replace hrtimer_init()"
 * (hrtimer_init() itself went away later).
 */
#include <linux/hrtimer.h>

void tlob_probe(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *));
void tlob_probe(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *))
{
	hrtimer_setup(t, fn, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
}
