// SPDX-License-Identifier: GPL-2.0
/*
 * tlob's BPF backend: the tlob model (models/tlob.dot, through the tables
 * rvgen generates) driven by uprobes at the START and STOP of each bound
 * section and by the scheduler's tracepoints, one window per task.
 *
 * Handlers only translate a kernel event into a model event; what an event
 * does to a window is the engine's (../shared/tlob_engine.h, shared with the
 * module): the generated tables and ha glue, the deadline check, times,
 * counts, the record and the statistics.
 *
 * Overruns are detected by one of two paths, chosen by the loader:
 * - bpf_timer (stock kernels): tlob_timer.bpf.o arms a timer at START. A
 *   uprobe program may not reference a map holding a bpf_timer on 6.1, so
 *   the uprobe program calls the global subprogram tlob_arm() and an fexit
 *   program attached to that subprogram arms the timer.
 * - sampling (PREEMPT_RT, whose verifier refuses bpf_timer): tlob_sample
 *   runs from a periodic perf event (cpu-clock, hard interrupt, one CPU)
 *   and handles the deadlines that came due, whatever the window's state,
 *   so an overrun is reported at most one sampling period (plus the
 *   timer's own latency) after the deadline. It keeps the open windows in
 *   a min-heap by deadline that only it writes (STARTs hand it their
 *   windows through a lock-free stack), so a period with nothing due
 *   costs O(1) and each window O(log n) once; it takes at most
 *   TLOB_BPF_SAMPLE_STEPS steps per period and leaves the rest for the
 *   next one (counted).
 * On both paths the deadline is also checked at each scheduler event of
 * the task (TLOB_DETECT_SCHED) and at STOP (TLOB_DETECT_STOP), so a late
 * timer or sample never hides an overrun.
 */
#include "tlob_common.bpf.h"
#include "tlob_switch_rule.h"

char LICENSE[] SEC("license") = "GPL";

/* Windows open right now: the scheduler hooks return at once when 0. */
__u64 tlob_nr_open;
/*
 * 1 while every hook and the detector are attached: the loader sets it
 * last when it enables the monitor and clears it first when it disables
 * it. A START opens a window only then, so no window can miss its task's
 * scheduler events, its exec or exit, or its deadline timer (uprobes are
 * attached per binding, which may come before the monitor is enabled).
 */
__u32 tlob_on;
/* Sampling path (the loader sets it): STARTs hand their windows to the sampler. */
__u32 tlob_sampling;

/* Groups (tlob_slots): the loader sets it from tlob mon --bpf-tasks, before load. */
__u32 tlob_nr_groups = TLOB_BPF_MAX_TASKS;
/* Groups never used yet start here; given back ones are in tlob_free. */
__u32 tlob_next_group;

/*
 * Feed one model event to an open window: the engine's tlob_step()
 * (../shared/tlob_engine.h, the module's too), which also says when to take the
 * time (now == 0: after claiming the window, see there). detector names
 * who notices an overrun on the way; reason is the abort reason when
 * event is abort_tlob.
 *
 * A global function: the verifier checks it once per program instead of
 * once per call site, and the scheduler hooks call it for every slot of
 * two tasks (inlined, tlob_switch alone was ~7000 instructions and took
 * seconds to load in an emulated guest). So w arrives as plain memory that
 * may be NULL.
 */
__noinline int tlob_feed(struct tlob_win *w, __u32 event, __u64 now, __u32 detector,
			 __u32 reason)
{
	if (!w)
		return 0;
	if (tlob_step(&w->core, event, now, detector, reason) == TLOB_STEP_ENDED)
		__sync_fetch_and_add(&tlob_nr_open, -1);
	return 0;
}

/* Feed event to every open window of a task. */
static __always_inline void tlob_task_event(struct tlob_task *t, unsigned int event,
					    __u64 now, __u8 detector, __u8 reason)
{
	int i;

#pragma unroll
	for (i = 0; i < TLOB_BPF_NEST; i++)
		if (tlob_active(&t->win[i]))
			tlob_feed(&t->win[i], event, now, detector, reason);
}

static __always_inline struct tlob_task *tlob_group(__u32 g1, __u32 tid)
{
	struct tlob_task *t;
	__u32 g = g1 - 1;

	if (!g1)
		return NULL;
	t = bpf_map_lookup_elem(&tlob_slots, &g);
	return t && READ_ONCE(t->owner) == tid ? t : NULL;
}

/*
 * The scheduler hooks' way to a task's windows (they run with interrupts
 * off and cannot be preempted inside the lookup): its task storage.
 */
static __always_inline struct tlob_task *tlob_task_sched(struct task_struct *p)
{
	struct tlob_tstore *s = bpf_task_storage_get(&tlob_tstore, p, 0, 0);

	return s ? tlob_group(READ_ONCE(s->group), p->pid) : NULL;
}

/* The programs that run in the task: the tid map (tlob_tids: why). */
static __always_inline struct tlob_task *tlob_task_tid(__u32 tid)
{
	__u32 *g1 = bpf_map_lookup_elem(&tlob_tids, &tid);

	return g1 ? tlob_group(READ_ONCE(*g1), tid) : NULL;
}

/*
 * A group for a task's first START: a never used one, else one an exited
 * task gave back; NULL when there is none (the --bpf-tasks capacity).
 */
static __always_inline struct tlob_task *tlob_task_new(__u32 tid)
{
	struct tlob_tstore *s;
	struct tlob_task *t;
	__u32 g, g1;

	g = READ_ONCE(tlob_next_group);
	if (g < tlob_nr_groups)
		g = __sync_fetch_and_add(&tlob_next_group, 1);
	if (g >= tlob_nr_groups && bpf_map_pop_elem(&tlob_free, &g))
		return NULL;
	t = bpf_map_lookup_elem(&tlob_slots, &g);
	if (!t)
		return NULL;
	g1 = g + 1;
	if (bpf_map_update_elem(&tlob_tids, &tid, &g1, BPF_ANY)) {
		bpf_map_push_elem(&tlob_free, &g, 0);
		return NULL;
	}
	s = bpf_task_storage_get(&tlob_tstore, bpf_get_current_task_btf(), 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!s) {
		bpf_map_delete_elem(&tlob_tids, &tid);
		bpf_map_push_elem(&tlob_free, &g, 0);
		return NULL;
	}
	t->self = g;
	WRITE_ONCE(t->owner, tid);
	WRITE_ONCE(s->group, g1);
	return t;
}

/*
 * A START found no free window (no group left, or the task's
 * TLOB_BPF_NEST slots taken). Not a window, but never silent, as in the
 * module: a dropped record for the readers and the binding's count.
 */
static __always_inline void tlob_start_dropped(const struct tlob_bpf_binding *b, __u32 id,
					       __u32 tid, __u32 tgid)
{
	struct tlob_stats *st = bpf_map_lookup_elem(&tlob_stats, &id);
	struct tlob_record *r;
	__u64 now = bpf_ktime_get_ns();

	tlob_count_lost(TLOB_LOST_NOSLOT);
	if (st)
		__sync_fetch_and_add(&st->dropped, 1);
	r = tlob_reserve_urgent();
	if (!r)
		return;
	tlob_record_dropped(r, now, b->budget_ns, tid, tgid, id);
	bpf_get_current_comm(r->comm, sizeof(r->comm));
	__builtin_memcpy(r->tag, b->tag, sizeof(r->tag));
	bpf_ringbuf_submit(r, BPF_RB_FORCE_WAKEUP);
}

#include "tlob_dq.h"

/* Windows started since the sampler last looked: slot + 1, 0: none. */
__u32 tlob_in_head;
/* The sampler's own: the rest of the stack it popped. */
__u32 tlob_in_rest;

/* Hand a window to the sampler (any CPU, any context; lock-free). */
static __always_inline void tlob_dq_push(__u32 idx)
{
	struct tlob_dq_node *n = bpf_map_lookup_elem(&tlob_dq_node, &idx);
	__u32 old, cur;
	int i;

	if (!n || !tlob_cas(&n->queued, 0, 1))
		return;	/* on the stack already: the sampler reads the window later */
	old = READ_ONCE(tlob_in_head);
	for (i = 0; i < 64; i++) {
		WRITE_ONCE(n->in_next, old);
		cur = __sync_val_compare_and_swap(&tlob_in_head, old, idx + 1);
		if (cur == old)
			return;
		old = cur;
	}
	/* 64 lost races in a row: not filed; the scheduler and STOP still check. */
	WRITE_ONCE(n->queued, 0);
	tlob_count_lost(TLOB_LOST_NOTIMER);
}

/* File one window a START handed over; 0 when none is waiting. */
static __always_inline int tlob_dq_file(void)
{
	__u32 rest = tlob_in_rest, idx;
	struct tlob_dq_node *n;
	struct tlob_win *w;

	if (!rest)
		rest = __sync_lock_test_and_set(&tlob_in_head, 0);
	if (!rest)
		return 0;
	idx = rest - 1;
	n = bpf_map_lookup_elem(&tlob_dq_node, &idx);
	if (!n) {
		tlob_in_rest = 0;
		return 0;
	}
	tlob_in_rest = READ_ONCE(n->in_next);
	/* Off the stack first: a START from now on pushes it again. */
	__sync_lock_test_and_set(&n->queued, 0);
	w = tlob_win_at(idx);
	if (w && tlob_active(w) && !READ_ONCE(w->core.reported))
		tlob_heap_set(idx, tlob_win_deadline(w));
	return 1;
}

/* Handle the earliest deadline if it is due; 0 when none is. */
static __always_inline int tlob_dq_due(__u64 now)
{
	struct tlob_dq_ent *top;
	struct tlob_win *w;
	__u32 zero = 0, idx;
	__u64 d;

	if (!tlob_heap_size)
		return 0;
	top = bpf_map_lookup_elem(&tlob_dq_heap, &zero);
	if (!top || top->key > now)
		return 0;
	idx = top->idx;
	tlob_heap_pop();
	w = tlob_win_at(idx);
	if (!w || !tlob_active(w))
		return 1;	/* ended: dropped */
	d = tlob_win_deadline(w);
	if (d > now) {
		/* The slot opened another window since: file that one. */
		if (!READ_ONCE(w->core.reported))
			tlob_heap_set(idx, d);
		return 1;
	}
	tlob_check(&w->core, now, TLOB_DETECT_SAMPLE, event_max_tlob);
	return 1;
}

/*
 * One step of the sampler: file one window handed over by a START, or
 * handle one deadline that came due, the two taking turns (@due_first)
 * so that neither a burst of STARTs nor a burst of deadlines holds the
 * other back. 0 when there was nothing to do.
 */
__noinline int tlob_dq_step(__u64 now, __u32 due_first)
{
	if (due_first)
		return tlob_dq_due(now) || tlob_dq_file();
	return tlob_dq_file() || tlob_dq_due(now);
}

/* Work left for the next period: a window to file, or a deadline due. */
static __always_inline bool tlob_dq_pending(__u64 now)
{
	struct tlob_dq_ent *top;
	__u32 zero = 0;

	if (tlob_in_rest || READ_ONCE(tlob_in_head))
		return true;
	if (!tlob_heap_size)
		return false;
	top = bpf_map_lookup_elem(&tlob_dq_heap, &zero);
	return top && top->key <= now;
}

/* START: open a window in a free slot, or feed `start` to the open one. */
static __always_inline void tlob_start(const struct tlob_bpf_binding *b, __u32 id,
				       __u32 tid, __u32 tgid)
{
	struct tlob_task *t = tlob_task_tid(tid);
	struct tlob_win *w = NULL;
	__u32 slot = 0;
	int i;

	if (!t)
		t = tlob_task_new(tid);
	if (!t) {
		tlob_start_dropped(b, id, tid, tgid);
		return;
	}
#pragma unroll
	for (i = 0; i < TLOB_BPF_NEST; i++) {
		if (!tlob_active(&t->win[i])) {
			if (!w) {
				w = &t->win[i];
				slot = i;
			}
			continue;
		}
		if (t->win[i].core.binding_id == id) {
			/* START inside its window: the model decides (an error). */
			tlob_feed(&t->win[i], start_tlob, 0, TLOB_DETECT_STOP,
				  TLOB_ABORT_NONE);
			return;
		}
	}
	if (!w) {
		tlob_start_dropped(b, id, tid, tgid);
		return;
	}
	w->core.pid = tid;
	w->core.tgid = tgid;
	w->core.binding_id = id;
	w->idx = t->self * TLOB_BPF_NEST + slot;
	bpf_get_current_comm(w->core.comm, sizeof(w->core.comm));
	__builtin_memcpy(w->core.tag, b->tag, sizeof(w->core.tag));
	/*
	 * Counted open before it is published: a scheduler hook that
	 * interrupts us (a uprobe program is preemptible on PREEMPT_RT) must
	 * not skip the window for want of the count.
	 */
	__sync_fetch_and_add(&tlob_nr_open, 1);
	/*
	 * The window starts now, not at the uprobe hit: on PREEMPT_RT the
	 * task may have been preempted since, and that wait belongs to no
	 * window (it would be booked running: no scheduler event saw it).
	 */
	tlob_open(&w->core, b->budget_ns, bpf_ktime_get_ns());
	if (READ_ONCE(tlob_sampling))
		tlob_dq_push(w->idx);
}

SEC("uprobe")
int tlob_uprobe(struct pt_regs *ctx)
{
	__u64 cookie = bpf_get_attach_cookie(ctx);
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 id = TLOB_COOKIE_ID(cookie), tid = (__u32)pid_tgid;
	__u32 tgid = pid_tgid >> 32;
	const struct tlob_bpf_binding *b;
	struct tlob_task *t;
	int i;

	b = bpf_map_lookup_elem(&tlob_bindings, &id);
	if (!b || (b->pid && b->pid != tid) || (b->tgid && b->tgid != tgid))
		return 0;
	if (TLOB_COOKIE_KIND(cookie) == TLOB_COOKIE_START) {
		if (READ_ONCE(tlob_on))
			tlob_start(b, id, tid, tgid);
		return 0;
	}
	/* A STOP outside a window (e.g. a first call) is not an event. */
	t = tlob_task_tid(tid);
	if (!t)
		return 0;
#pragma unroll
	for (i = 0; i < TLOB_BPF_NEST; i++)
		if (tlob_active(&t->win[i]) && t->win[i].core.binding_id == id)
			tlob_feed(&t->win[i], stop_tlob, 0, TLOB_DETECT_STOP,
				  TLOB_ABORT_NONE);
	return 0;
}

/*
 * se.sched_delayed (v6.12, EEVDF delayed dequeue) is not in the 6.1 BTF
 * vmlinux.h is made from: a local flavour of the two structs lets CO-RE
 * find it where the running kernel has it.
 */
struct sched_entity___delayed {
	unsigned char sched_delayed;
} __attribute__((preserve_access_index));

struct task_struct___delayed {
	struct sched_entity___delayed se;
} __attribute__((preserve_access_index));

/*
 * An unsigned field of the running kernel's size, whatever vmlinux.h says:
 * task_struct::on_rq is an int in 6.1 and a u8 in the newest kernels, and
 * BPF_CORE_READ() relocates the offset but reads sizeof() of the local
 * type, so it read three bytes of the next fields with it there (and a
 * direct load cannot be resized for a signed field). Only read for a task
 * switched out inside a window.
 */
#define TLOB_CORE_READ_UINT(p, field) ({				\
	__u64 __v = 0;							\
	bpf_core_read(&__v, bpf_core_field_size((p)->field), &(p)->field); \
	__v;								\
})

/* Not runnable any more (tlob_switch_rule.h: why on_rq is not enough). */
static __always_inline bool tlob_task_blocked(struct task_struct *p)
{
	struct task_struct___delayed *d = (void *)p;

	if (!TLOB_CORE_READ_UINT(p, on_rq))
		return true;
	if (bpf_core_field_exists(d->se.sched_delayed))
		return TLOB_CORE_READ_UINT(d, se.sched_delayed);
	return false;
}

/* Switched out: the rule both backends share (tlob_switch_rule.h). */
SEC("tp_btf/sched_switch")
int BPF_PROG(tlob_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	struct tlob_task *t, *tn;
	unsigned int ev;
	__u64 now;
	int i;

	if (!READ_ONCE(tlob_nr_open))
		return 0;
	t = tlob_task_sched(prev);
	tn = tlob_task_sched(next);
	if (!t && !tn)
		return 0;	/* neither task has a window: no clock read either */
	now = bpf_ktime_get_ns();
	if (t) {
		ev = tlob_switch_out_event(preempt, prev_state, tlob_task_blocked(prev));
#pragma unroll
		for (i = 0; i < TLOB_BPF_NEST; i++) {
			struct tlob_win *w = &t->win[i];
			__u32 id = w->core.binding_id;

			if (!tlob_active(w))
				continue;
			/* Unbound while inside: the window ends here. */
			if (!bpf_map_lookup_elem(&tlob_bindings, &id))
				tlob_feed(w, abort_tlob, now, TLOB_DETECT_SCHED,
					  TLOB_ABORT_UNBIND);
			else
				tlob_feed(w, ev, now, TLOB_DETECT_SCHED, TLOB_ABORT_NONE);
		}
	}
	if (tn)
		tlob_task_event(tn, switch_in_tlob, now, TLOB_DETECT_SCHED, TLOB_ABORT_NONE);
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(tlob_wakeup, struct task_struct *p)
{
	struct tlob_task *t;

	if (!READ_ONCE(tlob_nr_open))
		return 0;
	t = tlob_task_sched(p);
	if (t)
		tlob_task_event(t, wakeup_tlob, bpf_ktime_get_ns(), TLOB_DETECT_SCHED,
				TLOB_ABORT_NONE);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(tlob_exit, struct task_struct *p)
{
	__u32 tid = p->pid;
	struct tlob_task *t = tlob_task_tid(tid);
	__u32 g;

	if (!t)
		return 0;
	tlob_task_event(t, abort_tlob, bpf_ktime_get_ns(), TLOB_DETECT_STOP,
			TLOB_ABORT_EXIT);
	/* The task is gone: its group goes back (the storage goes with the task). */
	g = t->self;
	WRITE_ONCE(t->owner, 0);
	bpf_map_delete_elem(&tlob_tids, &tid);
	bpf_map_push_elem(&tlob_free, &g, 0);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(tlob_exec, struct task_struct *p)
{
	struct tlob_task *t = tlob_task_tid(p->pid);

	if (t)
		tlob_task_event(t, abort_tlob, bpf_ktime_get_ns(), TLOB_DETECT_STOP,
				TLOB_ABORT_EXEC);
	return 0;
}

static long tlob_abort_one(struct bpf_map *map, __u32 *g, struct tlob_task *t,
			   struct tlob_bpf_abort *a)
{
	__u64 now;
	int i;

	if (!READ_ONCE(t->owner))
		return 0;
	now = bpf_ktime_get_ns();
#pragma unroll
	for (i = 0; i < TLOB_BPF_NEST; i++) {
		struct tlob_win *w = &t->win[i];

		if (tlob_active(w) && (!a->binding_id || w->core.binding_id == a->binding_id))
			tlob_feed(w, abort_tlob, now, TLOB_DETECT_STOP, a->reason);
	}
	return 0;
}

/*
 * The control side ends windows itself, as the module does: when the
 * monitor is switched off, every open window (aborted, disable); when a
 * binding is removed, its windows (aborted, unbind), at once rather than
 * at the task's next switch. The loader runs this with BPF_PROG_TEST_RUN
 * after clearing tlob_on (disable) or deleting the binding (unbind), so
 * no window of what it ends opens again meanwhile. It walks every group
 * once (a control operation, not an event).
 *
 * It runs on another CPU than the task: the end is claimed as every end
 * is (tlob_feed()), so each window still ends exactly once; a scheduler
 * event of the task already past its tlob_active() test may book its
 * last state change after this record's snapshot of the times. The timer
 * of the window is not cancelled here (tlob_cancel() has no fexit in this
 * program): it fires later and finds no window.
 */
SEC("syscall")
int tlob_abort(struct tlob_bpf_abort *ctx)
{
	struct tlob_bpf_abort a = { .binding_id = ctx->binding_id, .reason = ctx->reason };

	bpf_for_each_map_elem(&tlob_slots, tlob_abort_one, &a, 0);
	return 0;
}

/*
 * The timer-free detector: a periodic perf event (cpu-clock, on one CPU)
 * runs this from its hrtimer in hard interrupt context, also on
 * PREEMPT_RT, so no runqueue hog delays it. It handles the deadlines that
 * came due, whatever the window's state, so an overrun is reported at
 * most one period after the deadline (plus the timer's own latency);
 * with nothing due and no START since the last period it does O(1) work,
 * and never more than TLOB_BPF_SAMPLE_STEPS steps: the rest waits for the
 * next period, counted in tlob_sampler.deferred.
 */
SEC("perf_event")
int tlob_sample(struct bpf_perf_event_data *ctx)
{
	__u64 now, took;
	__u32 steps = 0;
	int i;

	if (!READ_ONCE(tlob_nr_open))
		return 0;
	now = bpf_ktime_get_ns();
	for (i = 0; i < TLOB_BPF_SAMPLE_STEPS; i++) {
		if (!tlob_dq_step(now, i & 1))
			break;
		steps++;
	}
	if (i == TLOB_BPF_SAMPLE_STEPS && tlob_dq_pending(now))
		tlob_sampler.deferred++;
	took = bpf_ktime_get_ns() - now;
	tlob_sampler.runs++;
	tlob_sampler.ns_sum += took;
	if (took > tlob_sampler.ns_max)
		tlob_sampler.ns_max = took;
	if (steps) {
		tlob_sampler.busy++;
		tlob_sampler.steps += steps;
		if (steps > tlob_sampler.max_steps)
			tlob_sampler.max_steps = steps;
	}
	return 0;
}
