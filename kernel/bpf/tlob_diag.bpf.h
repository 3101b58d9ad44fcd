/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The diagnosis of an overrun in the BPF backend: a struct tlob_diag
 * (../shared/tlob_abi.h) filled by the steps the module takes too
 * (../shared/tlob_diag.h), kept with its window (struct tlob_win) and
 * sent once per violation to each reader of the binding through its
 * urgent ring, after the violation record. Included by tlob_common.bpf.h
 * once the window and the maps are defined.
 *
 * While the window is open (up to its deadline):
 * - the CPU it was last on and its migrations: at switch-in (tlob.bpf.c);
 * - the task that woke it: at sched_waking, where the waker is current
 *   (at sched_wakeup it is not when the wakeup was queued to the target
 *   CPU: ttwu_queue_wakelist() activates the task there, from an IPI or
 *   the idle loop); kept up to the moment the diagnosis is sent, so a
 *   window that overran asleep names who woke it in the end;
 * - the tasks that ran on the CPU it waited for: below. A task that
 *   waits (preempted, or woken onto a CPU) takes a place in that CPU's
 *   table in tlob_cpu_waits; every context switch on a CPU, while any
 *   window is open, reads that CPU's count and notes the task switched
 *   in (one load and one store, in its own CPU's element), and only when
 *   the count is not 0 books the task switched out to the windows of the
 *   tasks in the table: a map lookup per waiting task and
 *   tlob_diag_ran_add() per window. The place is given up at the task's
 *   switch-in (or its exit). A task that migrates while it waits is
 *   booked the runners of the CPU it began to wait on.
 *
 * At the deadline (tlob_diag_detect(), from the engine's violation
 * record, whichever detector found it) the state, the task running on
 * the CPU it waits for (the one noted there at the last switch: no
 * runqueues ksym, which needs CONFIG_KALLSYMS_ALL), booked up to the
 * deadline, and whatever can be taken there:
 * - the user stack, if the task is current on this CPU (the timer or the
 *   sampler interrupted it, the late check runs in its own event):
 *   bpf_get_task_stack() walks only the current task's user stack
 *   (BPF_F_USER_STACK of another task is refused). Otherwise it is
 *   taken the first time the task is current again: its next switch-out
 *   (tp_btf/sched_switch runs with prev == current) or its STOP/START
 *   uprobe (TLOB_STACK_DEFERRED);
 * - the kernel stack, when it sleeps or waits: only through a BTF
 *   pointer to the task, which 6.1 gives the programs of its own
 *   scheduler events and nothing else (no bpf_task_from_pid()), so it is
 *   taken at its next sched_wakeup (asleep) or switch-in (waiting),
 *   while it is still off the CPU: the stack where it blocked or was
 *   preempted, unchanged since.
 * What is still to be taken is in ->dflags; whoever takes the last part
 * sends the diagnosis, and the window's end sends what there is (exactly
 * one diagnosis per violation). A START does not reuse a window's slot
 * before its diagnosis is out.
 */
#ifndef TLOB_DIAG_BPF_H
#define TLOB_DIAG_BPF_H

#include "tlob_diag.h"

/* struct tlob_win.dflags */
#define TLOB_DF_USTACK	1U	/* the user stack is still to be taken */
#define TLOB_DF_KSTACK	2U	/* the kernel stack is still to be taken */
#define TLOB_DF_NEEDS	(TLOB_DF_USTACK | TLOB_DF_KSTACK)
#define TLOB_DF_SENDING	4U	/* claimed by its sender: the slot is not free yet */

/* Tasks one CPU's table holds; a wait beyond is not booked (a bounded switch). */
#define TLOB_BPF_CPU_WAITERS	11

/* One CPU's waiting tasks (64 bytes: one cache line per CPU's element). */
struct tlob_cpu_wait {
	__u64 since;	/* the last switch on this CPU while a task waited there */
	__u64 curr;	/* the task switched in last (struct task_struct *) */
	__u32 nr;	/* tasks in tid[]: 0, the one check of a switch */
	__u32 tid[TLOB_BPF_CPU_WAITERS];	/* 0: free */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);		/* the loader sets the possible CPUs */
	__type(key, __u32);
	__type(value, struct tlob_cpu_wait);
} tlob_cpu_waits SEC(".maps");

/* A task that had a CPU, as the table of tasks that ran instead keeps it. */
struct tlob_runner {
	__u64 now;		/* its run ended (or the check) */
	__u32 pid;
	__u32 prio;
	__u32 policy;
	__u32 pad;
	char comm[TLOB_COMM_LEN];
};

static __always_inline void tlob_runner_of(struct tlob_runner *r, struct task_struct *p,
					   __u64 now)
{
	r->now = now;
	r->pid = BPF_CORE_READ(p, pid);
	r->prio = BPF_CORE_READ(p, prio);
	r->policy = BPF_CORE_READ(p, policy);
	r->pad = 0;	/* all of it initialised: a global function reads it */
	bpf_core_read(r->comm, sizeof(r->comm), &p->comm);
}

static __always_inline struct tlob_cpu_wait *tlob_cpu_wait_of(__u32 cpu)
{
	return bpf_map_lookup_elem(&tlob_cpu_waits, &cpu);
}

/* When window @w's deadline is: its START + budget. */
static __always_inline __u64 tlob_win_deadline(const struct tlob_win *w)
{
	return tlob_core_start(&w->core) + w->core.budget_ns;
}

/*
 * Runner @r had the CPU window @w waits for since @from: its part up to
 * the deadline goes to the table (none once the overrun is reported: the
 * table is frozen at the deadline). A global function: verified once per
 * program, not at each of its calls.
 */
__noinline int tlob_ran_book(struct tlob_win *w, const struct tlob_runner *r, __u64 from)
{
	__u64 ns;

	if (!w || !r || !tlob_active(w) || READ_ONCE(w->core.reported))
		return 0;
	ns = tlob_diag_ran_span(from, r->now, tlob_core_start(&w->core), tlob_win_deadline(w));
	if (ns)
		tlob_diag_ran_add(&w->diag, r->pid, r->prio, r->policy, r->comm, ns);
	return 0;
}

/*
 * A switch on a CPU whose table is not empty: @r, switched out, ran
 * since the table's ->since (or the wait's start, if later) for each
 * task waiting there. Cost: up to TLOB_BPF_CPU_WAITERS loads, and per
 * waiting task a lookup and TLOB_BPF_NEST tlob_ran_book().
 */
__noinline int tlob_cpu_book(struct tlob_cpu_wait *cw, const struct tlob_runner *r)
{
	__u64 since, from;
	struct tlob_task *t;
	__u32 tid;
	int i, j;

	if (!cw || !r)
		return 0;
	since = READ_ONCE(cw->since);
	for (i = 0; i < TLOB_BPF_CPU_WAITERS; i++) {
		tid = READ_ONCE(cw->tid[i]);
		if (!tid)
			continue;
		t = bpf_map_lookup_elem(&tlob_windows, &tid);
		if (!t || READ_ONCE(t->wait_idx) != (__u32)i + 1)
			continue;
		from = READ_ONCE(t->wait_ns);
		if (since > from)
			from = since;
		for (j = 0; j < TLOB_BPF_NEST; j++)
			tlob_ran_book(&t->win[j], r, from);
	}
	return 0;
}

/* Task @tid no longer waits where it was registered (switched in, exiting). */
static __always_inline void tlob_wait_end(struct tlob_task *t, __u32 tid)
{
	__u32 k = READ_ONCE(t->wait_idx) - 1;
	struct tlob_cpu_wait *cw;

	if (k >= TLOB_BPF_CPU_WAITERS)
		return;		/* not registered (wait_idx 0) */
	WRITE_ONCE(t->wait_idx, 0);
	cw = tlob_cpu_wait_of(t->wait_cpu);
	barrier_var(k);
	if (cw && k < TLOB_BPF_CPU_WAITERS && tlob_cas(&cw->tid[k], tid, 0))
		__sync_fetch_and_add(&cw->nr, -1);
}

/*
 * Task @tid begins to wait for @cpu at @now (preempted there, or woken
 * onto it): a free place in that CPU's table, if one of its windows
 * waits and still books runners (not reported). A full table leaves this
 * wait unbooked.
 */
static __always_inline void tlob_wait_begin(struct tlob_task *t, __u32 tid, __u32 cpu,
					    __u64 now)
{
	struct tlob_cpu_wait *cw;
	bool books = false;
	int i;

#pragma unroll
	for (i = 0; i < TLOB_BPF_NEST; i++)
		if (tlob_active(&t->win[i]) && !READ_ONCE(t->win[i].core.reported) &&
		    tlob_core_state(&t->win[i].core) == waiting_tlob)
			books = true;
	tlob_wait_end(t, tid);
	if (!books)
		return;
	cw = tlob_cpu_wait_of(cpu);
	if (!cw)
		return;
	t->wait_ns = now;
	t->wait_cpu = cpu;
	for (i = 0; i < TLOB_BPF_CPU_WAITERS; i++) {
		if (READ_ONCE(cw->tid[i]) || !tlob_cas(&cw->tid[i], 0, tid))
			continue;
		WRITE_ONCE(t->wait_idx, i + 1);
		__sync_fetch_and_add(&cw->nr, 1);
		break;
	}
}

/* Sending a diagnosis to the readers of its binding (as tlob_deliver_one()). */
struct tlob_dsend {
	struct tlob_diag *d;
	__u32 readers;
};

static long tlob_diag_one(__u32 i, void *data)
{
	struct tlob_dsend *s = data;
	struct tlob_diag *r;
	void *rb;

	if (i >= TLOB_BPF_READERS)
		return 1;
	if (!(s->readers & (1U << i)))
		return 0;
	rb = bpf_map_lookup_elem(&tlob_urgent, &i);
	if (rb) {
		r = bpf_ringbuf_reserve(rb, sizeof(*r), 0);
		if (r) {
			__builtin_memcpy(r, s->d, sizeof(*r));
			bpf_ringbuf_submit(r, BPF_RB_FORCE_WAKEUP);
		} else {
			tlob_count_lost(TLOB_LOST_READER(i));
		}
	}
	return !(s->readers >> i >> 1);
}

/*
 * Send window @w's diagnosis, claimed by the caller (TLOB_DF_SENDING):
 * the table sorted, then a copy in each reader's urgent ring (a wakeup:
 * it follows a violation), then the slot is free for a START again.
 */
__noinline int tlob_diag_send(struct tlob_win *w)
{
	struct tlob_dsend s;

	if (!w)
		return 0;
	s.d = &w->diag;
	s.readers = tlob_readers_of_id(w->diag.binding_id);
	if (!w->diag.capture_ns)
		w->diag.capture_ns = bpf_ktime_get_ns();
	tlob_diag_ran_sort(&w->diag);
	if (s.readers)
		bpf_loop(TLOB_BPF_READERS, tlob_diag_one, &s, 0);
	__sync_fetch_and_and(&w->dflags, ~TLOB_DF_SENDING);
	return 0;
}

/*
 * @bits of window @w's diagnosis are done (taken, or given up at the
 * window's end): the caller that clears the last of TLOB_DF_NEEDS sends
 * it. A compare-and-swap loop: the detector, the task's own events and
 * the window's end may clear bits at once; each failed try is another's
 * change, and there are at most four (set, two takes, the end).
 */
__noinline int tlob_diag_done(struct tlob_win *w, __u32 bits)
{
	__u32 old, new = 0;
	int i;

	if (!w)
		return 0;
	for (i = 0; i < 8; i++) {
		old = READ_ONCE(w->dflags);
		if (!(old & bits & TLOB_DF_NEEDS))
			return 0;
		new = old & ~bits;
		if (!(new & TLOB_DF_NEEDS))
			new |= TLOB_DF_SENDING;
		if (tlob_cas(&w->dflags, old, new))
			break;
	}
	if (new & TLOB_DF_SENDING)
		tlob_diag_send(w);
	return 0;
}

/* The current task's user stack into @d: false if none could be taken. */
static __always_inline bool tlob_ustack_current(struct tlob_diag *d, __u64 now)
{
	long n = bpf_get_task_stack(bpf_get_current_task_btf(), d->ustack,
				    sizeof(d->ustack), BPF_F_USER_STACK);

	if (n <= 0)
		return false;
	d->nr_ustack = n / sizeof(d->ustack[0]);
	d->capture_ns = now;
	return true;
}

/*
 * The task of window @w is current (its switch-out, its START or STOP):
 * the user stack, if its diagnosis waits for it. A cheap test first: it
 * runs at every switch-out of a task with windows.
 */
__noinline int tlob_diag_ustack(struct tlob_win *w)
{
	if (!w || !(READ_ONCE(w->dflags) & TLOB_DF_USTACK))
		return 0;
	if (tlob_ustack_current(&w->diag, bpf_ktime_get_ns()))
		w->diag.ustack_when = TLOB_STACK_DEFERRED;
	return tlob_diag_done(w, TLOB_DF_USTACK);
}

/*
 * Task @p of window @w, off the CPU, is being woken or switched in: its
 * kernel stack, where it blocked or was preempted, if its diagnosis
 * waits for it. Inlined in the scheduler programs (a global function
 * cannot take the task's BTF pointer on 6.1): one load when it does not.
 */
static __always_inline void tlob_diag_kstack(struct tlob_win *w, struct task_struct *p)
{
	long n;

	if (!(READ_ONCE(w->dflags) & TLOB_DF_KSTACK))
		return;
	n = bpf_get_task_stack(p, w->diag.kstack, sizeof(w->diag.kstack), 0);
	if (n > 0)
		w->diag.nr_kstack = n / sizeof(w->diag.kstack[0]);
	tlob_diag_done(w, TLOB_DF_KSTACK);
}

/*
 * Window @w's task waits at its deadline @now: the task running on the
 * CPU it waits for (noted there at that CPU's last switch) had it since
 * the wait began or that switch, up to the deadline. A global function
 * of its own: its paths do not multiply the verifier's walk of
 * tlob_diag_detect().
 */
__noinline int tlob_diag_runner(struct tlob_win *w, __u64 now)
{
	struct tlob_runner r;
	struct tlob_cpu_wait *cw;
	struct task_struct *p;
	struct tlob_task *t;
	__u64 from = 0, ns;
	__u32 tid;

	if (!w)
		return 0;
	tid = w->core.pid;
	t = bpf_map_lookup_elem(&tlob_windows, &tid);
	if (!t || !READ_ONCE(t->wait_idx))
		return 0;
	cw = tlob_cpu_wait_of(t->wait_cpu);
	if (!cw)
		return 0;
	/* Read with probes: it may have switched out (and exited) since. */
	p = (struct task_struct *)READ_ONCE(cw->curr);
	from = t->wait_ns;
	if (READ_ONCE(cw->since) > from)
		from = cw->since;
	if (!p)
		return 0;
	tlob_runner_of(&r, p, now);
	ns = tlob_diag_ran_span(from, now, tlob_core_start(&w->core), tlob_win_deadline(w));
	if (ns && r.pid != tid)
		tlob_diag_ran_add(&w->diag, r.pid, r.prio, r.policy, r.comm, ns);
	return 0;
}

/*
 * Window @w overran (the engine's violation record is out, the report
 * claimed: nothing else writes the diagnosis now but the steps above).
 * @event: the model event being handled (abort_tlob: an exit or exec,
 * whose user stack is not the section's any more), event_max_tlob for
 * a timer or a sample.
 */
__noinline int tlob_diag_detect(struct tlob_win *w, __u32 event, __u64 now)
{
	struct tlob_diag *d;
	__u32 tid, state, need = 0;

	if (!w)
		return 0;
	d = &w->diag;
	tid = w->core.pid;
	state = tlob_core_state(&w->core);
	d->start_ns = tlob_core_start(&w->core);
	d->pid = tid;
	d->tgid = w->core.tgid;
	d->binding_id = w->core.binding_id;
	d->state = state;
	/* Waiting: the task that has its CPU now, up to the deadline. */
	if (state == waiting_tlob)
		tlob_diag_runner(w, now);
	if (event != abort_tlob && (__u32)bpf_get_current_pid_tgid() == tid &&
	    tlob_ustack_current(d, now))
		d->ustack_when = TLOB_STACK_DEADLINE;
	else
		need |= TLOB_DF_USTACK;
	if (state == sleeping_tlob || state == waiting_tlob)
		need |= TLOB_DF_KSTACK;
	if (!need) {
		__sync_fetch_and_or(&w->dflags, TLOB_DF_SENDING);
		return tlob_diag_send(w);
	}
	__sync_fetch_and_or(&w->dflags, need);
	/* Ended meanwhile: its end may not have seen them, so it is sent now. */
	if (!tlob_active(w))
		tlob_diag_done(w, TLOB_DF_NEEDS);
	return 0;
}

#endif /* TLOB_DIAG_BPF_H */
