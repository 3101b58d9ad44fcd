// SPDX-License-Identifier: GPL-2.0
/*
 * Waking a violation's readers on PREEMPT_RT.
 *
 * A trace event wakes the readers that poll its CPU's buffer through an
 * irq_work the ring buffer queues on that CPU. On PREEMPT_RT that
 * irq_work is not run by the interrupt but by the CPU's irq_work kthread
 * (SCHED_FIFO 1), which any real-time task above it on that CPU starves.
 * A deadline found under a SCHED_FIFO hog, the case tlob is for, is
 * recorded on the hog's CPU (the hrtimer fires where the window's task
 * waits): its record sits there until the hog rests or the RT throttle
 * stops it, or until the reader's next batch (`tlob mon` flushes every
 * 100 ms), which alone can take it past the 100 ms print-latency target.
 *
 * So on PREEMPT_RT such a record is followed by an IPI to another online
 * CPU (a csd: irq_work_queue_on() is not exported), whose function writes
 * tlob:notify there in hard IRQ: that CPU's buffer wakes the reader
 * (through that CPU's irq_work kthread), and the reader reads every CPU's
 * buffer, the record's among them. Only while some reader has
 * tlob:notify enabled (`tlob mon` does, in the instance that wakes it at
 * once); one IPI is in flight at a time, so a burst of violations sends
 * one. Elsewhere the ring buffer's irq_work runs in the interrupt, and
 * this does nothing.
 *
 * Context: tlob_notify_readers() from any of the monitor's contexts, right
 * after the record is written (all but a dropped START's with preemption
 * off, so "this CPU" is the record's); it only sends the IPI, which
 * smp_call_function_single_async() allows with IRQs off. The function runs
 * in hard IRQ on the other CPU and only writes the event. tlob_notify_sync():
 * process context, module exit, after every probe and timer is gone. No
 * lock: tlob_notify_busy claims the one csd.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>

#include "tlob.h"
#include "tlob_trace.h"

/*
 * 1 from the claim until the IPI's function runs. It is given back before
 * the event is written: a record whose notification found it taken was
 * written before that, so the event that follows wakes its readers too.
 */
static atomic_t tlob_notify_busy = ATOMIC_INIT(0);
/* The CPU of the record notified about (the event says which). */
static int tlob_notify_from;

static void tlob_notify_fn(void *info)
{
	int from = READ_ONCE(tlob_notify_from);

	atomic_set_release(&tlob_notify_busy, 0);
	trace_notify(from);
}

static call_single_data_t tlob_notify_csd = CSD_INIT(tlob_notify_fn, NULL);

void tlob_notify_readers(void)
{
	int this, cpu;

	if (!IS_ENABLED(CONFIG_PREEMPT_RT) || !trace_notify_enabled())
		return;
	/* One in flight, its event not yet written: it wakes these readers too. */
	if (atomic_cmpxchg(&tlob_notify_busy, 0, 1))
		return;
	this = get_cpu();
	/*
	 * The first other online CPU: where housekeeping usually is. With
	 * preemption off it cannot finish going offline before the IPI is
	 * queued (stop_machine waits for this CPU), and a CPU going down
	 * runs what is queued to it.
	 */
	cpu = cpumask_any_but(cpu_online_mask, this);
	WRITE_ONCE(tlob_notify_from, this);
	if (cpu >= nr_cpu_ids || smp_call_function_single_async(cpu, &tlob_notify_csd))
		atomic_set_release(&tlob_notify_busy, 0);
	put_cpu();
}

void tlob_notify_sync(void)
{
	while (atomic_read_acquire(&tlob_notify_busy))
		usleep_range(50, 200);
	/* The function writes its event after the release, with IRQs off. */
	synchronize_rcu();
}
