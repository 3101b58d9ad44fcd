// SPDX-License-Identifier: GPL-2.0
/*
 * v6.12, "sched/fair: Implement delayed dequeue" (EEVDF): a fair task
 * that blocks may stay on the runqueue with se.sched_delayed set, so
 * on_rq alone no longer says whether it is runnable.
 */
#include <linux/build_bug.h>
#include <linux/sched.h>

static_assert(sizeof(((struct task_struct *)NULL)->se.sched_delayed) > 0);
