// SPDX-License-Identifier: GPL-2.0
/*
 * A violation's diagnosis: why the window overran. Each window
 * carries a preallocated struct tlob_diag (struct tlob_wdiag, tlob.h) that
 * the shared steps of ../shared/tlob_diag.h fill while the window is open:
 * the CPU it was last on and its migrations (at switch-in), its last waker
 * (at sched_waking, where current is the waker: sched_wakeup of a task
 * queued to an idle CPU runs there, under its idle task), and the tasks
 * that ran on its CPU while it waited there. At the deadline it gets the
 * model state, the kernel stack when the task sleeps or waits (where it
 * blocks) and the user stack, and goes out as the trace event
 * tlob:violation_detail, once per violation, after tlob:violation.
 *
 * The user stack is a frame-pointer walk of the task's user memory
 * (what the kernel's stack_trace_save_user() does; it is not exported),
 * with copy_from_user_nofault(), which reads the memory of current only.
 * So it is taken at the deadline when the task is current on the CPU
 * that detects it (the timer's, or the task's own scheduler event or
 * STOP), from its user registers (task_pt_regs(): the interrupted ones
 * if it ran in user mode, the ones saved at kernel entry if it was in a
 * syscall). Otherwise it is deferred to the first moment the task is
 * current again, with no allocation and nothing that outlives the window:
 * - a task running on another CPU than the one that saw the deadline:
 *   an IPI to that CPU (smp_call_function_single_async(), the window's
 *   csd) takes it there at once, if the task is still current there
 *   (ustack_when deadline: the deadline's own capture, an IPI later);
 * - at its switch-in, an irq_work of the window is queued on that CPU: it
 *   runs as soon as the CPU enables interrupts after the context switch,
 *   the task then current, still in the kernel where it blocked or was
 *   preempted, its user registers those it left user mode with (the
 *   stack it slept or waited on);
 * - at its next switch-out (sched_switch runs with prev == current) or
 *   its STOP, whichever comes first (if the IPI found it gone; its stack
 *   may have moved on since, capture_ns says when);
 * - a window that ends otherwise first (exit, exec, unbind, disable, a
 *   model error) emits what it has, ustack_when none: a violation's
 *   diagnosis is never lost and is emitted exactly once.
 * Why not task_work_add(): a work queued on the task outlives the window
 * (the module cannot cancel it: task_work_cancel() is not exported), so
 * window end, unbind and unload would have to wait for a task that may
 * sleep for ever, and TWA_SIGNAL, the only way to run it soon on a task
 * running elsewhere, interrupts the task's sleeps. An irq_work of the
 * window is synced at unload (tlob_wdiag_sync()) and does nothing when
 * it runs for a window that ended; the IPIs in flight are counted and
 * waited for at unload (tlob_diag_exit()). (irq_work_queue_on(), an
 * irq_work on another CPU, is not exported: the IPI is a csd.)
 *
 * The kernel stack is taken with the x86 unwinder (ORC), exported on
 * every kernel tlob is built for; stack_trace_save_tsk(), which wraps it,
 * is not exported by Debian's 6.1. Only a task that sleeps or waits is
 * walked: it is off its CPU, and stays so while the window lock is held
 * (its switch-in feeds this window under that lock, before the switch).
 * The unwinder refuses a task still on another CPU (a task whose switch-
 * out is being completed there): no kernel stack then.
 *
 * Who ran instead: per CPU, a bounded list (TLOB_WAIT_MAX) of the windows
 * whose task waits on that CPU's runqueue (preempted there, or woken onto
 * it), each with its own table of the tasks that ran meanwhile. Every
 * sched_switch on a CPU whose list is not empty adds the time of the task
 * switched out to each waiter's table; at the waiter's switch-in, its
 * deadline or its end the table goes into the window's diagnosis, with
 * the task running there since the last switch. Who that is, the first
 * waiter's wakeup or a later event learns only on that CPU (current);
 * a deadline seen on another CPU before then credits it to nobody. A CPU
 * without a waiter pays one per-CPU load per switch, and nothing at all
 * is done while no window is open anywhere (the probes return first). A
 * window that finds its CPU's list full records no "ran" entries for that
 * wait.
 *
 * Locking and context (all raw spinlocks, all taken with IRQs off):
 * - Order: hash bucket lock -> window lock -> a CPU's wait-list lock.
 *   The tlob_wdiag of a window belongs to its window lock; a wait list's
 *   entries (and the tables in them) to that list's lock. The wait list
 *   lock nests inside everything else and nothing nests inside it.
 * - tlob_wdiag_*() except _switch() and _sync(): with the window lock
 *   held, from the uprobe handlers (task context, IRQs off), the
 *   scheduler probes (rq lock held, IRQs off), the hrtimer callback (hard
 *   IRQ, also on PREEMPT_RT), the irq_work (hard IRQ: IRQ_WORK_HARD_IRQ,
 *   also on PREEMPT_RT) and control writes (process context, IRQs off).
 * - tlob_wdiag_switch(): sched_switch, rq lock held, IRQs off; takes only
 *   this CPU's wait-list lock.
 * - The IPI's function (tlob_monitor.c): hard IRQ on the target CPU, the
 *   window lock. It is sent under the window lock to another CPU only
 *   (on this CPU it would run at once, under the lock it takes).
 * - tlob_wdiag_sync(), tlob_diag_exit(): process context, module exit.
 * Nothing here allocates, sleeps, prints or wakes a task;
 * copy_from_user_nofault() does not fault pages in (it fails instead).
 *
 * Cost: per sched_switch while windows are open, one per-CPU load on a
 * CPU no window waits on; on one that a window waits on, its list lock,
 * and per waiter a top-TLOB_DIAG_RAN update (TLOB_DIAG_RAN compares, a
 * 16-byte comm copy), and a snapshot of the task switched in. Per window
 * event: a few stores (cpu, migrations, waker's comm), a wait-list entry
 * taken or given back (on the wait's own CPU, with a snapshot of current
 * when no switch there has named the task running). Per violation: up
 * to TLOB_DIAG_KSTACK unwinder steps (sleeping or waiting tasks only),
 * up to TLOB_DIAG_USTACK 16-byte copy_from_user_nofault() reads, one
 * irq_work or IPI when deferred, one trace event.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#ifdef CONFIG_X86
#include <asm/unwind.h>
#else
#include <linux/stacktrace.h>
#endif

#include "tlob.h"
/* Every comm copied here is a whole TASK_COMM_LEN buffer (tlob_diag.h). */
#define TLOB_DIAG_COMM_WHOLE
#include "tlob_diag.h"
#include "tlob_trace.h"

static_assert(sizeof_field(struct task_struct, comm) >= TLOB_COMM_LEN,
	      "TLOB_DIAG_COMM_WHOLE copies TLOB_COMM_LEN bytes of a comm");

/* Windows that may wait on one CPU at once with their "ran" tables. */
#define TLOB_WAIT_MAX	4

/* A window waiting on this CPU, and what ran there meanwhile. */
struct tlob_waiter {
	struct tlob_wdiag *wd;		/* NULL: free entry */
	pid_t pid;			/* the waiting task: not one that ran instead */
	u64 from;			/* when it began to wait here */
	struct tlob_diag acc;		/* only ran[] and nr_ran are used */
};

struct tlob_cpu_wait {
	raw_spinlock_t lock;
	/* The task on this CPU since @since (known while entries are used). */
	u64 since;
	bool cur_known;
	pid_t cur_pid;
	u32 cur_prio;
	u8 cur_policy;
	char cur_comm[TLOB_COMM_LEN];
	struct tlob_waiter w[TLOB_WAIT_MAX];
};

static DEFINE_PER_CPU(struct tlob_cpu_wait, tlob_cpu_waits);
/*
 * Entries in use on each CPU, written under that CPU's wait-list lock;
 * the switch probe reads its own CPU's without the lock
 * (tlob_wdiag_waiters_here()).
 */
DEFINE_PER_CPU(unsigned int, tlob_cpu_waiters);
/* IPIs sent and whose function has not finished: waited for at exit. */
static atomic_t tlob_diag_ipis = ATOMIC_INIT(0);

void tlob_diag_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		raw_spin_lock_init(&per_cpu_ptr(&tlob_cpu_waits, cpu)->lock);
}

/*
 * @cw's lock held: task @pid ran on its CPU from cw->since to @now, while
 * @e waited there; its share goes to table @to (@e's own, or at the end
 * of the wait straight to the window's diagnosis).
 */
static void __tlob_wait_credit(struct tlob_cpu_wait *cw, struct tlob_waiter *e,
			       struct tlob_diag *to, pid_t pid, u32 prio,
			       u8 policy, const char *comm, u64 now)
{
	u64 from = max(cw->since, e->from);

	if (pid && pid != e->pid && now > from)
		tlob_diag_ran_add(to, pid, prio, policy, comm, now - from);
}

/* @cw's lock held: @t runs on @cw's CPU from cw->since on. */
static void __tlob_wait_runner(struct tlob_cpu_wait *cw, struct task_struct *t)
{
	cw->cur_known = !is_idle_task(t);
	cw->cur_pid = t->pid;
	cw->cur_prio = t->prio;
	cw->cur_policy = t->policy;
	tlob_diag_comm(cw->cur_comm, t->comm);
}

/*
 * @cw's lock held. A wait on a CPU with no waiter yet does not know who
 * runs there, and only a switch there says (tlob_wdiag_switch()). Until
 * one does, the task on that CPU has run since cw->since: if that CPU is
 * this one, it is current (at a sched_switch: prev). Without this, a
 * task woken from another CPU and switched to straight after the one
 * it waited behind had that one's time credited to nobody.
 */
static void __tlob_wait_runner_here(struct tlob_cpu_wait *cw, int cpu)
{
	if (!cw->cur_known && cpu == smp_processor_id())
		__tlob_wait_runner(cw, current);
}

/* The window's task waits on @cpu from @now; window lock held. */
static void tlob_wait_begin(struct tlob_wdiag *wd, pid_t pid, int cpu, u64 now)
{
	struct tlob_cpu_wait *cw = per_cpu_ptr(&tlob_cpu_waits, cpu);
	unsigned int *nr = per_cpu_ptr(&tlob_cpu_waiters, cpu);
	unsigned int i;

	raw_spin_lock(&cw->lock);
	for (i = 0; i < TLOB_WAIT_MAX; i++) {
		struct tlob_waiter *e = &cw->w[i];

		if (e->wd)
			continue;
		e->wd = wd;
		e->pid = pid;
		e->from = now;
		e->acc.nr_ran = 0;
		if (!*nr) {
			/* Whoever runs there now: current if it is here. */
			cw->since = now;
			cw->cur_known = false;
			__tlob_wait_runner_here(cw, cpu);
		}
		WRITE_ONCE(*nr, *nr + 1);
		wd->wait_cpu = cpu;
		wd->wait_slot = i;
		break;
	}
	raw_spin_unlock(&cw->lock);
}

/*
 * The wait ends (switch-in, deadline, end of the window): what ran,
 * including the task on that CPU now, into the diagnosis unless it is
 * frozen. Window lock held.
 */
static void tlob_wait_end(struct tlob_wdiag *wd, u64 now)
{
	struct tlob_cpu_wait *cw;
	struct tlob_waiter *e;
	unsigned int i, *nr;

	if (wd->wait_cpu < 0)
		return;
	cw = per_cpu_ptr(&tlob_cpu_waits, wd->wait_cpu);
	raw_spin_lock(&cw->lock);
	e = &cw->w[wd->wait_slot];
	if (!wd->frozen) {
		for (i = 0; i < TLOB_DIAG_RAN && i < e->acc.nr_ran; i++)
			tlob_diag_ran_add(&wd->d, e->acc.ran[i].pid,
					  e->acc.ran[i].prio,
					  e->acc.ran[i].policy,
					  e->acc.ran[i].comm, e->acc.ran[i].ns);
		/* The one running there now: to the diagnosis directly. */
		__tlob_wait_runner_here(cw, wd->wait_cpu);
		if (cw->cur_known)
			__tlob_wait_credit(cw, e, &wd->d, cw->cur_pid,
					   cw->cur_prio, cw->cur_policy,
					   cw->cur_comm, now);
	}
	e->wd = NULL;
	nr = per_cpu_ptr(&tlob_cpu_waiters, wd->wait_cpu);
	WRITE_ONCE(*nr, *nr - 1);
	raw_spin_unlock(&cw->lock);
	wd->wait_cpu = -1;
}

/*
 * sched_switch on this CPU (rq lock held, IRQs off), called when
 * tlob_wdiag_waiters_here(): @prev ran from the last switch to @now, for
 * every window waiting here. @now is 0 if not read yet.
 */
void tlob_wdiag_switch(struct task_struct *prev, struct task_struct *next,
		       u64 now)
{
	struct tlob_cpu_wait *cw = this_cpu_ptr(&tlob_cpu_waits);
	unsigned int i;

	if (!now)
		now = ktime_get_ns();
	raw_spin_lock(&cw->lock);
	for (i = 0; i < TLOB_WAIT_MAX; i++)
		if (cw->w[i].wd && !is_idle_task(prev))
			__tlob_wait_credit(cw, &cw->w[i], &cw->w[i].acc,
					   prev->pid, prev->prio, prev->policy,
					   prev->comm, now);
	cw->since = now;
	__tlob_wait_runner(cw, next);
	raw_spin_unlock(&cw->lock);
}

/* Where @t blocks or waits; @t is off its CPU (see the top). */
static unsigned int tlob_kstack(struct task_struct *t, u64 *buf,
				unsigned int max)
{
	unsigned int n = 0;
#ifdef CONFIG_X86
	struct unwind_state state;

	for (unwind_start(&state, t, NULL, NULL);
	     !unwind_done(&state) && n < max; unwind_next_frame(&state)) {
		unsigned long addr = unwind_get_return_address(&state);

		if (!addr)
			break;
		buf[n++] = addr;
	}
#else
	unsigned long entries[TLOB_DIAG_KSTACK];
	unsigned int i;

	n = stack_trace_save_tsk(t, entries, min_t(unsigned int, max,
						   ARRAY_SIZE(entries)), 0);
	for (i = 0; i < n; i++)
		buf[i] = entries[i];
#endif
	return n;
}

/*
 * The user stack of current, innermost first: its user IP, then the
 * return address of each frame-pointer frame, as stack_trace_save_user()
 * walks them. Stops at the first frame that is unreadable, not above the
 * last, or has no return address.
 */
static unsigned int tlob_ustack(u64 *buf, unsigned int max)
{
	struct pt_regs *regs = task_pt_regs(current);
	unsigned long fp, sp;
	unsigned int n = 0;

	if (!current->mm || !max)
		return 0;
	buf[n++] = instruction_pointer(regs);
#ifdef CONFIG_X86_64
	/* A 32-bit task's frames are not two longs: its IP only. */
	if (!user_64bit_mode(regs))
		return n;
#endif
	fp = frame_pointer(regs);
	sp = user_stack_pointer(regs);
	while (n < max) {
		struct {
			unsigned long next_fp;
			unsigned long ret;
		} frame;

		if (fp < sp || (fp & (sizeof(long) - 1)))
			break;
		if (copy_from_user_nofault(&frame, (const void __user *)fp,
					   sizeof(frame)))
			break;
		if (!frame.ret)
			break;
		buf[n++] = frame.ret;
		if (frame.next_fp <= fp)
			break;
		fp = frame.next_fp;
	}
	return n;
}

static void tlob_wdiag_emit(struct tlob_wdiag *wd, unsigned int when, u64 now)
{
	wd->d.ustack_when = when;
	wd->d.capture_ns = now;
	tlob_diag_ran_sort(&wd->d);
	trace_violation_detail(&wd->d);
	wd->pending = false;
}

/* @t is current: its user stack now, and the diagnosis out. */
static void tlob_wdiag_take(struct tlob_wdiag *wd, unsigned int when)
{
	wd->d.nr_ustack = tlob_ustack(wd->d.ustack, TLOB_DIAG_USTACK);
	tlob_wdiag_emit(wd, when, ktime_get_ns());
}

/*
 * Module load: each window's irq_work (@fn) and IPI (@on_cpu, @info);
 * both lock the window and call tlob_wdiag_current().
 */
void tlob_wdiag_init(struct tlob_wdiag *wd, void (*fn)(struct irq_work *),
		     smp_call_func_t on_cpu, void *info)
{
	wd->work = IRQ_WORK_INIT_HARD(fn);
	INIT_CSD(&wd->csd, on_cpu, info);
	wd->wait_cpu = -1;
}

/* Module exit, process context: no IPI's function runs on. */
void tlob_diag_exit(void)
{
	while (atomic_read(&tlob_diag_ipis))
		usleep_range(50, 200);
	/* Its last instructions (unlock, return): IRQs off, an RCU reader. */
	synchronize_rcu();
}

/* START opened the window on this CPU; window lock held. */
void tlob_wdiag_open(struct tlob_wdiag *wd)
{
	tlob_diag_open(&wd->d, smp_processor_id());
	wd->pending = false;
	wd->frozen = false;
	wd->wait_cpu = -1;
}

/*
 * A model event the window took and stays open after, now in @state
 * (window lock held): the running diagnosis, or the deferred user stack.
 */
void tlob_wdiag_event(struct tlob_wdiag *wd, struct task_struct *t,
		      unsigned int event, unsigned int state, u64 now)
{
	switch (event) {
	case switch_in_tlob:
		tlob_wait_end(wd, now);
		if (!wd->frozen)
			tlob_diag_on_cpu(&wd->d, smp_processor_id());
		/* Runs once this CPU enables IRQs, @t current (the top). */
		if (wd->pending)
			irq_work_queue(&wd->work);
		break;
	case preempt_tlob:
	case sleep_tlob:
		/* sched_switch: @t is prev, current on this CPU. */
		if (wd->pending)
			tlob_wdiag_take(wd, TLOB_STACK_DEFERRED);
		break;
	}
	/* Preempted, or woken onto a runqueue: it waits on task_cpu(). */
	if (state == waiting_tlob && !wd->frozen && wd->wait_cpu < 0)
		tlob_wait_begin(wd, t->pid, task_cpu(t), now);
}

/*
 * current wakes the window's task (sched_waking; window lock held). Until
 * the detail goes out: the wakeup that ends a sleep past the deadline
 * counts.
 */
void tlob_wdiag_waking(struct tlob_wdiag *wd)
{
	if (wd->pending || !wd->frozen)
		tlob_diag_woken(&wd->d, current->pid, current->comm);
}

/*
 * The deadline passed (@r: the violation record, just emitted; @event:
 * the model event being handled, event_max_tlob for the timer). Window
 * lock held.
 */
void tlob_wdiag_violation(struct tlob_wdiag *wd, struct task_struct *t,
			  const struct tlob_record *r, unsigned int event)
{
	struct tlob_diag *d = &wd->d;

	tlob_wait_end(wd, r->end_ns);
	wd->frozen = true;
	d->start_ns = r->start_ns;
	d->pid = r->pid;
	d->tgid = r->tgid;
	d->binding_id = r->binding_id;
	d->state = r->state;
	if (r->state == sleeping_tlob || r->state == waiting_tlob)
		d->nr_kstack = tlob_kstack(t, d->kstack, TLOB_DIAG_KSTACK);
	wd->pending = true;
	/* exit: no user memory left; exec: another image's. */
	if (event == abort_tlob)
		return;
	if (t == current) {
		tlob_wdiag_take(wd, TLOB_STACK_DEADLINE);
	} else if (r->state == running_tlob &&
		   task_cpu(t) != smp_processor_id()) {
		/* Busy (an IPI of a window this slot held): the fallbacks. */
		atomic_inc(&tlob_diag_ipis);
		if (smp_call_function_single_async(task_cpu(t), &wd->csd))
			atomic_dec(&tlob_diag_ipis);
	}
}

/*
 * The window ends (before its record; window lock held): a pending
 * detail goes out now, with the user stack if @t is current at its STOP.
 */
void tlob_wdiag_end(struct tlob_wdiag *wd, struct task_struct *t,
		    unsigned int event, u64 now)
{
	tlob_wait_end(wd, now);
	if (!wd->pending)
		return;
	if (event == stop_tlob && t == current)
		tlob_wdiag_take(wd, TLOB_STACK_DEFERRED);
	else
		tlob_wdiag_emit(wd, TLOB_STACK_NONE, now);
}

/*
 * The window's irq_work (at the switch-in) or IPI (@ipi: sent at the
 * deadline), on a CPU where @t may be current; window lock held, or
 * @wd no longer open (the caller checks).
 */
void tlob_wdiag_current(struct tlob_wdiag *wd, struct task_struct *t,
			bool ipi)
{
	if (wd->pending && t == current)
		tlob_wdiag_take(wd, ipi ? TLOB_STACK_DEADLINE :
				TLOB_STACK_DEFERRED);
}

/* The IPI's function is done with the window (its lock released next). */
void tlob_wdiag_ipi_done(void)
{
	atomic_dec(&tlob_diag_ipis);
}

/* Module exit, process context: no irq_work of the window runs on. */
void tlob_wdiag_sync(struct tlob_wdiag *wd)
{
	irq_work_sync(&wd->work);
}
