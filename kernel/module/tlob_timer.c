// SPDX-License-Identifier: GPL-2.0
/*
 * The deadline timer of a window. The deadline is START + budget and never
 * moves, so the timer is armed once, absolute, when the window opens and
 * cancelled when it ends; context switches do not touch it.
 *
 * HRTIMER_MODE_ABS_HARD: the callback runs in hard-IRQ context also on
 * PREEMPT_RT, where a soft hrtimer would be deferred to a softirq thread
 * that a SCHED_FIFO hog on the CPU can starve indefinitely - exactly the
 * case where an overrun must be reported. So the callback (tlob_monitor.c)
 * takes only raw spinlocks, never sleeps and never prints; reactors run
 * later from irq_work.
 *
 * Arming and cancelling happen under the window lock (raw); cancelling
 * there is hrtimer_try_to_cancel() only: hrtimer_cancel() would wait for
 * a callback that is waiting for that lock.
 */
#include <linux/hrtimer.h>
#include <linux/ktime.h>

#include "tlob.h"
#include "tlob_compat.h"

void tlob_timer_init(struct hrtimer *timer,
		     enum hrtimer_restart (*fn)(struct hrtimer *))
{
	tlob_hrtimer_setup(timer, fn, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
}

/* @deadline_ns is CLOCK_MONOTONIC (ktime_get_ns()), like the records. */
void tlob_timer_arm(struct hrtimer *timer, u64 deadline_ns)
{
	hrtimer_start(timer, ns_to_ktime(deadline_ns), HRTIMER_MODE_ABS_HARD);
}

void tlob_timer_try_cancel(struct hrtimer *timer)
{
	hrtimer_try_to_cancel(timer);
}

/* Process context, no tlob lock held: waits for a running callback. */
void tlob_timer_sync(struct hrtimer *timer)
{
	hrtimer_cancel(timer);
}
