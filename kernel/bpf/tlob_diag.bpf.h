/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A violation's diagnosis in the BPF backend: the module's
 * (../module/tlob_diag.c), with the steps both fill it with written once
 * (../shared/tlob_diag.h), and what BPF allows instead of an IPI and an
 * irq_work. Included by tlob_common.bpf.h, so both objects (the scheduler
 * and uprobe programs, and the bpf_timer detector) share it.
 *
 * Each window carries its struct tlob_diag (struct tlob_win): the CPU it
 * was last on and its migrations (at switch-in), its last waker (at
 * sched_waking, where current is the waker), and the tasks that ran on
 * its CPU while it waited there. At the deadline (tlob_diag_violation(),
 * from the engine's violation record, whichever detector saw it) the
 * table is frozen, the model state noted, and the diagnosis goes out as
 * soon as its stacks are in, once, on the urgent ring of each reader of
 * the binding, after the violation record (the reader tells it from a
 * record by its size):
 * - the user stack is taken with bpf_get_task_stack() on current, which
 *   walks current's user frames from its user registers: at the deadline
 *   when the detector runs in the task (the timer's softirq or the sampler
 *   interrupting it on its CPU, its own scheduler event, its STOP; the
 *   timer's callback leaves it to the program that runs when that hrtimer
 *   returns, below);
 *   otherwise the first time it is current after: the sampler finding it
 *   running on its CPU, its next switch-out, or its STOP (ustack_when
 *   deferred; a task that slept or waited has not moved in user space
 *   meanwhile; one running elsewhere may have). A BPF program cannot
 *   interrupt another CPU (the module's IPI) or run when a task is
 *   switched in (its irq_work), so a task woken after the deadline shows
 *   where it is at its next switch-out or STOP, not where it slept.
 * - the kernel stack of a task that sleeps or waits at the deadline:
 *   bpf_get_task_stack() needs the task's pointer, which only the
 *   scheduler programs have, so it is taken at its wakeup or switch-in,
 *   still where it blocked or was preempted (it has not run since).
 * - a window that ends first (exit, exec, unbind, disable, a model error)
 *   sends what it has, ustack_when none.
 *
 * Who ran instead: per CPU (tlob_cpu_waits, an array indexed by CPU), up
 * to TLOB_BPF_WAIT_MAX windows waiting on that CPU's runqueue, each with
 * its table. Each sched_switch on a CPU with a waiter adds the time of the
 * task switched out to each waiter's table and notes the task switched
 * in; the table goes into the diagnosis at the waiter's switch-in, its
 * deadline or its end. A window that finds its CPU's entries taken has no
 * "ran" entries for that wait.
 *
 * No lock (tlob_common.bpf.h: 6.1 has none for these programs): a waiter
 * entry is claimed with a compare-and-swap on ->owner, published by ->from
 * (0 while it is set up or given back); the switch on that CPU is the
 * only writer of its tables and of ->since/->cur, except when the first
 * waiter arrives from another CPU (a wakeup) and restarts the count, and
 * a scheduler program on that CPU that names the task running there
 * while nobody has (tlob_diag_runner_here(), IRQs off like the switch). A
 * deadline seen on another CPU reads a table the switch may be updating:
 * a diagnosis is a snapshot, and what a race can cost is one entry's
 * time, never memory safety. The diagnosis itself is claimed for sending
 * with a compare-and-swap on ->dstate (pending -> sent): exactly once.
 *
 * The timer's callback takes no stack itself: bpf_get_task_stack() reads
 * the perf callchain buffers under rcu_dereference(), and 6.1 runs
 * bpf_timer callbacks in softirq without rcu_read_lock() (lockdep reports
 * "suspicious RCU usage" at kernel/events/callchain.c). Softirq holds off
 * grace periods, so that is no use-after-free; but it is a report on a
 * lockdep kernel all the same. The callback notes the window in a per-CPU
 * slot (tlob_ustack_owed) and the timer object's hrtimer_expire_exit
 * program, a tracepoint (RCU held) that runs right after the callback on
 * the same CPU, in the same interrupted task, takes the stack and sends.
 *
 * Cost: while any window is open, one array lookup per sched_switch;
 * on a CPU a window waits on, two comm reads and per waiter a
 * top-TLOB_DIAG_RAN update. Per window event, a few stores. Per
 * violation, two stack walks of at most TLOB_DIAG_USTACK and
 * TLOB_DIAG_KSTACK frames and one ring record per reader.
 */
#ifndef TLOB_DIAG_BPF_H
#define TLOB_DIAG_BPF_H

#include "tlob_diag.h"

/* Windows that may wait on one CPU at once with their "ran" tables. */
#define TLOB_BPF_WAIT_MAX	4

/* Where a window's diagnosis is (struct tlob_win.dstate). */
enum tlob_dstate {
	TLOB_DIAG_OPEN,		/* the window runs: cpu, waker, ran updated */
	TLOB_DIAG_PENDING,	/* deadline passed: frozen, waiting for its stacks */
	TLOB_DIAG_SENT,		/* out (or claimed by its sender) */
};

/* A window waiting on this CPU, and what ran there meanwhile. */
struct tlob_bpf_waiter {
	__u64 owner;		/* tlob_diag_owner() of the window; 0: free */
	__u64 from;		/* when it began to wait; 0: not in use */
	__u32 pid;		/* the waiting task: not one that ran instead */
	__u32 pad;
	struct tlob_diag acc;	/* only ran[] and nr_ran are used */
};

struct tlob_bpf_cpu {
	__u32 nr;		/* entries in use: the switch reads it first */
	__u32 cur_known;	/* cur is the task on the CPU since @since */
	__u64 since;
	struct tlob_ran cur;	/* its ns unused */
	struct tlob_bpf_waiter w[TLOB_BPF_WAIT_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TLOB_BPF_CPUS);
	__type(key, __u32);
	__type(value, struct tlob_bpf_cpu);
} tlob_cpu_waits SEC(".maps");

#ifdef TLOB_DIAG_STACK_AFTER_CALLBACK
/* The deadline of a window whose task is current, seen by the timer's callback. */
struct tlob_ustack_owed {
	__u32 tid;		/* 0: none owed */
	__u32 slot;
	__u64 start_ns;		/* the window's START: still the same window */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tlob_ustack_owed);
} tlob_ustack_owed SEC(".maps");
#endif

static __always_inline __u64 tlob_diag_owner(const struct tlob_win *w)
{
	return w->core.pid | ((__u64)w->slot << 32) | (1ULL << 40);
}

static __always_inline bool tlob_is_current(const struct tlob_win *w)
{
	return (__u32)bpf_get_current_pid_tgid() == w->core.pid;
}

/* A new window, its task on this CPU. */
static __always_inline void tlob_diag_begin(struct tlob_win *w)
{
	tlob_diag_open(&w->diag, bpf_get_smp_processor_id());
	w->dstate = TLOB_DIAG_OPEN;
	w->need_kstack = 0;
	w->wait_cpu = -1;
	w->wait_slot = 0;
}

/* Task @p into @r (the idle task: pid 0, which no table keeps). */
static __always_inline void tlob_ran_of(struct tlob_ran *r, struct task_struct *p)
{
	r->pid = p->pid;
	r->prio = p->prio;
	r->policy = p->policy;
	__builtin_memcpy(r->comm, p->comm, sizeof(r->comm));
}

/*
 * Who runs on @cw's CPU @cpu, when no switch there has said since
 * cw->since (its first waiter came from another CPU): if that CPU is
 * this one, current (at a sched_switch: prev), which has run since then,
 * as a switch there would have said otherwise. Without this, a task
 * woken from another CPU and switched to straight after the one it
 * waited behind had that one's time credited to nobody. Scheduler
 * programs and detectors only (the bpf_timer's softirq, the sampler's
 * IRQ): no switch on this CPU writes ->cur meanwhile, as one could under
 * a uprobe program preempted on PREEMPT_RT.
 */
static __always_inline void tlob_diag_runner_here(struct tlob_bpf_cpu *cw, __u32 cpu)
{
	struct task_struct *cur;

	if (READ_ONCE(cw->cur_known) || cpu != bpf_get_smp_processor_id())
		return;
	cur = bpf_get_current_task_btf();
	if (!cur->pid)
		return;
	tlob_ran_of(&cw->cur, cur);
	WRITE_ONCE(cw->cur_known, 1);
}

/* The same for the CPU @w waits on, if it waits. */
static __always_inline void tlob_diag_runner_of_wait(struct tlob_win *w)
{
	__s32 wait_cpu = w->wait_cpu;
	struct tlob_bpf_cpu *cw;
	__u32 cpu;

	if (wait_cpu < 0)
		return;
	cpu = wait_cpu;
	cw = bpf_map_lookup_elem(&tlob_cpu_waits, &cpu);
	if (cw)
		tlob_diag_runner_here(cw, cpu);
}

/*
 * The window's task waits on @cpu's runqueue from @now (preempted there,
 * or woken onto it): a waiter entry of that CPU, if one is free. From
 * the scheduler programs only (tlob_diag_event()).
 */
__noinline int tlob_diag_wait_begin(struct tlob_win *w, __u32 cpu, __u64 now)
{
	struct tlob_bpf_cpu *cw;
	__u64 key;
	int i;

	if (!w || w->wait_cpu >= 0 || READ_ONCE(w->dstate) != TLOB_DIAG_OPEN)
		return 0;
	cw = bpf_map_lookup_elem(&tlob_cpu_waits, &cpu);
	if (!cw)
		return 0;
	key = tlob_diag_owner(w);
	for (i = 0; i < TLOB_BPF_WAIT_MAX; i++) {
		struct tlob_bpf_waiter *e = &cw->w[i];

		if (READ_ONCE(e->owner) || __sync_val_compare_and_swap(&e->owner, 0, key))
			continue;
		e->pid = w->core.pid;
		e->acc.nr_ran = 0;
		if (!__sync_fetch_and_add(&cw->nr, 1)) {
			/* Whoever runs there now: current if it is here. */
			cw->since = now;
			WRITE_ONCE(cw->cur_known, 0);
			tlob_diag_runner_here(cw, cpu);
		}
		WRITE_ONCE(e->from, now);
		w->wait_cpu = cpu;
		w->wait_slot = i;
		break;
	}
	return 0;
}

/*
 * The wait ends (switch-in, deadline, end of the window): what ran,
 * including the task on that CPU now, into the diagnosis if @keep; the
 * entry given back.
 */
__noinline int tlob_diag_wait_end(struct tlob_win *w, __u64 now, __u32 keep)
{
	struct tlob_bpf_waiter *e;
	struct tlob_bpf_cpu *cw;
	__u32 cpu, slot;
	__u64 from;
	int i;

	if (!w || w->wait_cpu < 0)
		return 0;
	cpu = w->wait_cpu;
	slot = w->wait_slot;
	w->wait_cpu = -1;
	cw = bpf_map_lookup_elem(&tlob_cpu_waits, &cpu);
	barrier_var(slot);
	if (!cw || slot >= TLOB_BPF_WAIT_MAX)
		return 0;
	e = &cw->w[slot];
	if (READ_ONCE(e->owner) != tlob_diag_owner(w))
		return 0;
	if (keep) {
		for (i = 0; i < TLOB_DIAG_RAN; i++) {
			struct tlob_ran *r = &e->acc.ran[i];

			if (i < e->acc.nr_ran)
				tlob_diag_ran_add(&w->diag, r->pid, r->prio, r->policy,
						  r->comm, r->ns);
		}
		from = e->from > cw->since ? e->from : cw->since;
		if (READ_ONCE(cw->cur_known) && cw->cur.pid && cw->cur.pid != e->pid &&
		    now > from)
			tlob_diag_ran_add(&w->diag, cw->cur.pid, cw->cur.prio, cw->cur.policy,
					  cw->cur.comm, now - from);
	}
	WRITE_ONCE(e->from, 0);
	WRITE_ONCE(e->owner, 0);
	__sync_fetch_and_add(&cw->nr, -1);
	return 0;
}

/*
 * sched_switch on this CPU, some window waiting here: @prev ran until
 * @now, for each waiter; @next runs from now.
 */
__noinline int tlob_diag_switch(struct tlob_bpf_cpu *cw, struct tlob_ran *prev,
				struct tlob_ran *next, __u64 now)
{
	int i;

	if (!cw || !prev || !next)
		return 0;
	for (i = 0; i < TLOB_BPF_WAIT_MAX; i++) {
		struct tlob_bpf_waiter *e = &cw->w[i];
		__u64 from = READ_ONCE(e->from);

		if (!from || !prev->pid || prev->pid == e->pid)
			continue;
		if (cw->since > from)
			from = cw->since;
		if (now > from)
			tlob_diag_ran_add(&e->acc, prev->pid, prev->prio, prev->policy,
					  prev->comm, now - from);
	}
	cw->since = now;
	cw->cur = *next;
	WRITE_ONCE(cw->cur_known, next->pid != 0);
	return 0;
}

/* Each sched_switch while windows are open: one lookup unless a window waits here. */
static __always_inline void tlob_diag_on_switch(struct task_struct *prev,
						struct task_struct *next, __u64 now)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct tlob_bpf_cpu *cw = bpf_map_lookup_elem(&tlob_cpu_waits, &cpu);
	struct tlob_ran a = {}, b = {};

	if (!cw || !READ_ONCE(cw->nr))
		return;
	tlob_ran_of(&a, prev);
	tlob_ran_of(&b, next);
	tlob_diag_switch(cw, &a, &b, now);
}

/*
 * A model event the window took and stays open after (the scheduler
 * programs): the CPU at switch-in, a wait that begins or ends there.
 * @cpu: the CPU it switched in on, or the one it waits on.
 */
__noinline int tlob_diag_event(struct tlob_win *w, __u32 event, __u32 cpu, __u64 now)
{
	bool open;

	if (!w || !tlob_core_active(&w->core))
		return 0;
	open = READ_ONCE(w->dstate) == TLOB_DIAG_OPEN;
	if (event == switch_in_tlob) {
		/* Switched in where it waited: prev ran there, if nobody said. */
		tlob_diag_runner_of_wait(w);
		tlob_diag_wait_end(w, now, open);
		if (open)
			tlob_diag_on_cpu(&w->diag, cpu);
	}
	if (open && tlob_core_state(&w->core) == waiting_tlob && w->wait_cpu < 0)
		tlob_diag_wait_begin(w, cpu, now);
	return 0;
}

/* What tlob_diag_send_one() needs. */
struct tlob_dsend {
	struct tlob_diag *d;
	__u32 readers;
};

/* Reader @i's copy of the diagnosis (as tlob_deliver_one()). */
static long tlob_diag_send_one(__u32 i, void *data)
{
	struct tlob_dsend *s = data;
	void *rb;

	if (i >= TLOB_BPF_READERS)
		return 1;
	if (!(s->readers & (1U << i)))
		return 0;
	rb = bpf_map_lookup_elem(&tlob_urgent, &i);
	if (rb && bpf_ringbuf_output(rb, s->d, sizeof(*s->d), BPF_RB_FORCE_WAKEUP))
		tlob_count_lost(TLOB_LOST_READER(i));
	return !(s->readers >> i >> 1);
}

/* The claimed diagnosis out, with current's user stack if @when says so. */
static __always_inline void tlob_diag_send(struct tlob_win *w, __u32 when)
{
	struct tlob_dsend s = {
		.d = &w->diag,
		.readers = tlob_readers_of_id(w->core.binding_id),
	};
	long n = 0;

	if (when != TLOB_STACK_NONE)
		n = bpf_get_task_stack(bpf_get_current_task_btf(), w->diag.ustack,
				       sizeof(w->diag.ustack), BPF_F_USER_STACK);
	w->diag.nr_ustack = n > 0 ? n / sizeof(__u64) : 0;
	w->diag.ustack_when = n > 0 ? when : TLOB_STACK_NONE;
	w->diag.capture_ns = bpf_ktime_get_ns();
	tlob_diag_ran_sort(&w->diag);
	if (s.readers)
		bpf_loop(TLOB_BPF_READERS, tlob_diag_send_one, &s, 0);
}

/* Exactly one sender of a pending diagnosis. */
static __always_inline bool tlob_diag_claim(struct tlob_win *w)
{
	return READ_ONCE(w->dstate) == TLOB_DIAG_PENDING &&
	       tlob_cas(&w->dstate, TLOB_DIAG_PENDING, TLOB_DIAG_SENT);
}

#ifdef TLOB_DIAG_STACK_AFTER_CALLBACK
/* The timer's callback: the stack of @w's task, current here, is owed. */
static __always_inline void tlob_diag_owe_ustack(struct tlob_win *w)
{
	__u32 zero = 0;
	struct tlob_ustack_owed *o = bpf_map_lookup_elem(&tlob_ustack_owed, &zero);

	if (!o)
		return;
	o->slot = w->slot;
	o->start_ns = tlob_core_start(&w->core);
	o->tid = w->core.pid;
}

/*
 * An hrtimer callback just returned on this CPU (RCU held): if it was the
 * timer of a window whose task it interrupted, that task is still current
 * and has not run since: its stack at the deadline.
 */
static __always_inline void tlob_diag_pay_ustack(void)
{
	__u32 zero = 0, tid;
	struct tlob_ustack_owed *o = bpf_map_lookup_elem(&tlob_ustack_owed, &zero);
	struct tlob_task *task;
	struct tlob_win *w;

	if (!o || !o->tid)
		return;
	tid = o->tid;
	o->tid = 0;
	task = bpf_map_lookup_elem(&tlob_windows, &tid);
	if (!task)
		return;
	w = &task->win[o->slot & (TLOB_BPF_NEST - 1)];
	if (tlob_core_start(&w->core) == o->start_ns && tlob_is_current(w) &&
	    tlob_diag_claim(w))
		tlob_diag_send(w, TLOB_STACK_DEADLINE);
}
#endif

/*
 * The deadline passed (the engine's violation record of @w just went
 * out; @event: the model event being handled, event_max_tlob for a
 * detector): freeze, and send now if the task is current.
 */
__noinline int tlob_diag_violation(struct tlob_win *w, __u32 event)
{
	struct tlob_diag *d;
	unsigned int state;

	if (!w)
		return 0;
	d = &w->diag;
	/* A detector (IRQs off, or softirq) on the CPU it waits on: who runs there. */
	if (event == event_max_tlob)
		tlob_diag_runner_of_wait(w);
	tlob_diag_wait_end(w, bpf_ktime_get_ns(), 1);
	state = tlob_core_state(&w->core);
	d->start_ns = tlob_core_start(&w->core);
	d->pid = w->core.pid;
	d->tgid = w->core.tgid;
	d->binding_id = w->core.binding_id;
	d->state = state;
	w->need_kstack = state == sleeping_tlob || state == waiting_tlob;
	WRITE_ONCE(w->dstate, TLOB_DIAG_PENDING);
	/* exit: no user memory left; exec: another image's (the end sends it). */
	if (event == abort_tlob || !tlob_is_current(w))
		return 0;
#ifdef TLOB_DIAG_STACK_AFTER_CALLBACK
	tlob_diag_owe_ustack(w);
#else
	if (tlob_diag_claim(w))
		tlob_diag_send(w, TLOB_STACK_DEADLINE);
#endif
	return 0;
}

/* The task is current after its deadline: its user stack, and the diagnosis out. */
__noinline int tlob_diag_deferred(struct tlob_win *w)
{
	if (w && tlob_is_current(w) && tlob_diag_claim(w))
		tlob_diag_send(w, TLOB_STACK_DEFERRED);
	return 0;
}

/* Task @p, off its CPU, sleeps or waits past the deadline: where. */
static __always_inline void tlob_diag_kstack(struct tlob_win *w, struct task_struct *p)
{
	long n;

	if (READ_ONCE(w->dstate) != TLOB_DIAG_PENDING || !w->need_kstack)
		return;
	w->need_kstack = 0;
	n = bpf_get_task_stack(p, w->diag.kstack, sizeof(w->diag.kstack), 0);
	w->diag.nr_kstack = n > 0 ? n / sizeof(__u64) : 0;
}

/*
 * The window ends (before its record): a pending diagnosis goes out now,
 * with the user stack if this is its task's STOP.
 */
__noinline int tlob_diag_end(struct tlob_win *w, __u32 event)
{
	if (!w)
		return 0;
	tlob_diag_wait_end(w, bpf_ktime_get_ns(), READ_ONCE(w->dstate) == TLOB_DIAG_OPEN);
	if (tlob_diag_claim(w))
		tlob_diag_send(w, event == stop_tlob && tlob_is_current(w) ?
			       TLOB_STACK_DEFERRED : TLOB_STACK_NONE);
	return 0;
}

#endif /* TLOB_DIAG_BPF_H */
