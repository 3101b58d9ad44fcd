// SPDX-License-Identifier: GPL-2.0
/*
 * tlob's BPF backend: the tlob model (models/tlob.dot, through the tables
 * rvgen generates) driven by uprobes at the START and STOP of each bound
 * section and by the scheduler's tracepoints, one window per task.
 *
 * Handlers only translate a kernel event into a model event; what an event
 * does in a state comes from automaton_tlob, the clock reset and the
 * deadline timer from the generated ha glue (ha_step_tlob()).
 *
 * Overruns are detected by one of two paths, chosen by the loader:
 * - bpf_timer (stock kernels): tlob_timer.bpf.o arms a timer at START. A
 *   uprobe program may not reference a map holding a bpf_timer on 6.1, so
 *   the uprobe program calls the global subprogram tlob_arm() and an fexit
 *   program attached to that subprogram arms the timer.
 * - sampling (PREEMPT_RT, whose verifier refuses bpf_timer): tlob_sample
 *   runs from a periodic perf event (cpu-clock, hard interrupt, one CPU)
 *   and checks every open window, whatever its state, so an overrun is
 *   reported at most one sampling period (plus the timer's own latency)
 *   after the deadline; the scheduler hooks run the same check at most
 *   once per period from any context switch, which on a busy system
 *   reports it sooner.
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
 * Sampling path only (the loader sets it, 0 = off): the scheduler hooks,
 * which run on every context switch and wakeup in the system, also check
 * every open window at most once per this many ns, so on a busy system an
 * overrun is seen at the next scheduler activity anywhere, well before the
 * next sample; the sampler still bounds the worst case.
 */
__u64 tlob_scan_ns;
__u64 tlob_last_scan;
/*
 * 1 while every hook and the detector are attached: the loader sets it
 * last when it enables the monitor and clears it first when it disables
 * it. A START opens a window only then, so no window can miss its task's
 * scheduler events, its exec or exit, or its deadline timer (uprobes are
 * attached per binding, which may come before the monitor is enabled).
 */
__u32 tlob_on;

struct tlob_scan {
	__u64 now;
	__u32 detector;
};

static __always_inline unsigned int tlob_log2(__u64 v)
{
	unsigned int r = 0;

	if (v >> 32) {
		v >>= 32;
		r += 32;
	}
	if (v >> 16) {
		v >>= 16;
		r += 16;
	}
	if (v >> 8) {
		v >>= 8;
		r += 8;
	}
	if (v >> 4) {
		v >>= 4;
		r += 4;
	}
	if (v >> 2) {
		v >>= 2;
		r += 2;
	}
	if (v >> 1)
		r += 1;
	return r;
}

/* Per-binding statistics of an ended window, as the module counts them. */
static __always_inline void tlob_account(const struct tlob_win *w, __u8 verdict,
					 __u64 elapsed)
{
	struct tlob_bpf_stats *st = tlob_stats_of(w);
	unsigned int b = tlob_log2(elapsed);

	if (!st)
		return;
	if (!st->windows || elapsed < st->min_ns)
		st->min_ns = elapsed;
	if (elapsed > st->max_ns)
		st->max_ns = elapsed;
	st->sum_ns += elapsed;
	if (b < TLOB_BPF_HIST)
		st->hist[b]++;
	st->violations += verdict == TLOB_VERDICT_OVER_BUDGET;
	st->errors += verdict == TLOB_VERDICT_MODEL_ERROR;
	st->aborted += verdict == TLOB_VERDICT_ABORTED;
	st->windows++;
}

/*
 * Exactly one end per window: the event that ends it claims it before it
 * changes anything, so an event that interrupted it (a uprobe program is
 * preemptible on PREEMPT_RT) finds the window closed, not half-ended.
 */
static __always_inline bool tlob_claim_end(struct tlob_win *w)
{
	return __sync_val_compare_and_swap(&w->active, 1, 0) == 1;
}

/*
 * The window ends (claimed): its one window record, the statistics, and
 * the slot is free. An overrun seen before decides the verdict, whatever
 * ended it.
 */
static __always_inline void tlob_end(struct tlob_win *w, __u64 now, __u8 event,
				     __u8 verdict, __u8 reason)
{
	if (w->reported)
		verdict = TLOB_VERDICT_OVER_BUDGET;
	if (verdict != TLOB_VERDICT_ABORTED)
		reason = TLOB_ABORT_NONE;
	tlob_emit(w, TLOB_REC_WINDOW, now, verdict, reason, event);
	tlob_account(w, verdict, now - w->clk.start[clk_elapsed_tlob]);
	__sync_fetch_and_add(&tlob_nr_open, -1);
}

/*
 * Feed one model event to an open window. detector names who notices an
 * overrun on the way (every event is a chance to); reason is the abort
 * reason when event is abort_tlob.
 *
 * now == 0: the event comes from the task's own uprobe program (STOP, or
 * a START inside its window). 6.1 runs uprobe programs with only
 * migration disabled, so on PREEMPT_RT the task's own switch-out and
 * switch-in can run between any two instructions of it and move the
 * window on; a time taken before that would end the window before time
 * already booked to it. So the window is claimed first, which freezes it
 * (the scheduler programs skip an inactive window), and only then is the
 * time taken. Both events end a window in tlob's model; one that did not
 * would publish the window again (events in between are not seen).
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
	unsigned int curr, next;
	bool claimed = false;

	if (!w || !tlob_active(w))
		return 0;
	if (!now) {
		if (!tlob_claim_end(w))
			return 0;
		claimed = true;
		now = bpf_ktime_get_ns();
	}
	curr = tlob_state_of(w);
	barrier_var(event);
	if (curr >= state_max_tlob || event >= event_max_tlob) {
		if (claimed)
			WRITE_ONCE(w->active, 1);
		return 0;
	}
	next = automaton_tlob.function[curr][event];
	if (next >= state_max_tlob) {
		/* Not allowed by the model: a model error, never an overrun. */
		if (!claimed && !tlob_claim_end(w))
			return 0;
		ha_cancel_tlob(&w->clk);
		tlob_end(w, now, event, TLOB_VERDICT_MODEL_ERROR, TLOB_ABORT_NONE);
		return 0;
	}
	tlob_check(w, now, detector, event);
	if (automaton_tlob.final_states[next] && !claimed && !tlob_claim_end(w))
		return 0;
	ha_step_tlob(&w->clk, curr, event, now);
	w->ns[curr] += now - w->last_ns;
	w->last_ns = now;
	w->state = next;
	if (event == preempt_tlob)
		w->preemptions++;
	else if (event == sleep_tlob)
		w->sleeps++;
	else if (event == wakeup_tlob)
		w->wakeups++;
	if (!automaton_tlob.final_states[next]) {
		if (claimed)
			WRITE_ONCE(w->active, 1);
		return 0;
	}
	tlob_end(w, now, event,
		 event == abort_tlob ? TLOB_VERDICT_ABORTED : TLOB_VERDICT_OK, reason);
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

static __always_inline struct tlob_task *tlob_task_of(__u32 tid)
{
	return bpf_map_lookup_elem(&tlob_windows, &tid);
}

/*
 * A START found no free window (the windows map full, or the task's
 * TLOB_BPF_NEST slots taken). Not a window, but never silent, as in the
 * module: a dropped record for the readers and the binding's count.
 */
static __always_inline void tlob_start_dropped(const struct tlob_bpf_binding *b, __u32 id,
					       __u32 tid, __u32 tgid)
{
	struct tlob_bpf_stats *st = bpf_map_lookup_elem(&tlob_stats, &id);
	struct tlob_record *r;
	__u64 now = bpf_ktime_get_ns();

	tlob_count_lost(TLOB_LOST_NOSLOT);
	if (st)
		__sync_fetch_and_add(&st->dropped, 1);
	r = bpf_ringbuf_reserve(&tlob_events, sizeof(*r), 0);
	if (!r) {
		tlob_count_lost(TLOB_LOST_RINGBUF);
		return;
	}
	__builtin_memset(r, 0, sizeof(*r));
	r->start_ns = now;
	r->end_ns = now;
	r->budget_ns = b->budget_ns;
	r->pid = tid;
	r->tgid = tgid;
	r->binding_id = id;
	r->kind = TLOB_REC_DROPPED;
	r->state = automaton_tlob.initial_state;
	r->event = start_tlob;
	bpf_get_current_comm(r->comm, sizeof(r->comm));
	__builtin_memcpy(r->tag, b->tag, sizeof(r->tag));
	bpf_ringbuf_submit(r, 0);
}

/* START: open a window in a free slot, or feed `start` to the open one. */
static __always_inline void tlob_start(const struct tlob_bpf_binding *b, __u32 id,
				       __u32 tid, __u32 tgid)
{
	struct tlob_task *t = tlob_task_of(tid);
	struct tlob_win *w = NULL;
	__u32 zero = 0, slot = 0;
	void *tmpl;
	__u64 now;
	int i;

	if (!t) {
		tmpl = bpf_map_lookup_elem(&tlob_zero, &zero);
		if (tmpl)
			bpf_map_update_elem(&tlob_windows, &tid, tmpl, BPF_NOEXIST);
		t = tlob_task_of(tid);
		if (!t) {
			tlob_start_dropped(b, id, tid, tgid);
			return;
		}
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
		if (t->win[i].binding_id == id) {
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
	/*
	 * The window starts now, not at the uprobe hit: on PREEMPT_RT the
	 * task may have been preempted since, and that wait belongs to no
	 * window (it would be booked running: no scheduler event saw it).
	 */
	now = bpf_ktime_get_ns();
	__builtin_memset(w->ns, 0, sizeof(w->ns));
	w->clk.start[clk_elapsed_tlob] = now;
	w->budget_ns = b->budget_ns;
	w->last_ns = now;
	w->detect_latency_ns = 0;
	w->tid = tid;
	w->tgid = tgid;
	w->binding_id = id;
	w->preemptions = 0;
	w->sleeps = 0;
	w->wakeups = 0;
	w->reported = 0;
	w->slot = slot;
	w->detector = TLOB_DETECT_NONE;
	bpf_get_current_comm(w->comm, sizeof(w->comm));
	__builtin_memcpy(w->tag, b->tag, sizeof(w->tag));
	/*
	 * The start transition is taken before the window is published, so
	 * a scheduler event that interrupts us (a uprobe program is
	 * preemptible on PREEMPT_RT) sees no window or a running one, never
	 * one still stopped. The clock was reset above; ha_step_tlob() resets
	 * it to the same instant and arms the deadline once published.
	 */
	w->state = automaton_tlob.function[automaton_tlob.initial_state][start_tlob];
	WRITE_ONCE(w->active, 1);
	__sync_fetch_and_add(&tlob_nr_open, 1);
	ha_step_tlob(&w->clk, automaton_tlob.initial_state, start_tlob, now);
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
	t = tlob_task_of(tid);
	if (!t)
		return 0;
#pragma unroll
	for (i = 0; i < TLOB_BPF_NEST; i++)
		if (tlob_active(&t->win[i]) && t->win[i].binding_id == id)
			tlob_feed(&t->win[i], stop_tlob, 0, TLOB_DETECT_STOP,
				  TLOB_ABORT_NONE);
	return 0;
}

static long tlob_scan_one(struct bpf_map *map, __u32 *tid, struct tlob_task *t,
			  struct tlob_scan *scan)
{
	int i;

#pragma unroll
	for (i = 0; i < TLOB_BPF_NEST; i++)
		if (tlob_active(&t->win[i]))
			tlob_check(&t->win[i], scan->now, scan->detector, event_max_tlob);
	return 0;
}

/* Sampling path: check every open window, at most once per tlob_scan_ns. */
static __always_inline void tlob_maybe_scan(__u64 now)
{
	__u64 last = READ_ONCE(tlob_last_scan), period = READ_ONCE(tlob_scan_ns);
	struct tlob_scan scan = { .now = now, .detector = TLOB_DETECT_SCHED };

	if (!period || now - last < period)
		return;
	if (__sync_val_compare_and_swap(&tlob_last_scan, last, now) != last)
		return;
	bpf_for_each_map_elem(&tlob_windows, tlob_scan_one, &scan, 0);
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
 * type, so it read three bytes of the next fields with it there.
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
	struct tlob_task *t;
	unsigned int ev;
	__u64 now;
	int i;

	if (!READ_ONCE(tlob_nr_open))
		return 0;
	now = bpf_ktime_get_ns();
	tlob_maybe_scan(now);
	t = tlob_task_of(BPF_CORE_READ(prev, pid));
	if (t) {
		ev = tlob_switch_out_event(preempt, prev_state, tlob_task_blocked(prev));
#pragma unroll
		for (i = 0; i < TLOB_BPF_NEST; i++) {
			struct tlob_win *w = &t->win[i];
			__u32 id = w->binding_id;

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
	t = tlob_task_of(BPF_CORE_READ(next, pid));
	if (t)
		tlob_task_event(t, switch_in_tlob, now, TLOB_DETECT_SCHED, TLOB_ABORT_NONE);
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(tlob_wakeup, struct task_struct *p)
{
	struct tlob_task *t;

	if (!READ_ONCE(tlob_nr_open))
		return 0;
	t = tlob_task_of(BPF_CORE_READ(p, pid));
	if (t)
		tlob_task_event(t, wakeup_tlob, bpf_ktime_get_ns(), TLOB_DETECT_SCHED,
				TLOB_ABORT_NONE);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(tlob_exit, struct task_struct *p)
{
	__u32 tid = BPF_CORE_READ(p, pid);
	struct tlob_task *t = tlob_task_of(tid);

	if (!t)
		return 0;
	tlob_task_event(t, abort_tlob, bpf_ktime_get_ns(), TLOB_DETECT_STOP,
			TLOB_ABORT_EXIT);
	/* The task is gone: so is its entry. */
	bpf_map_delete_elem(&tlob_windows, &tid);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(tlob_exec, struct task_struct *p)
{
	struct tlob_task *t = tlob_task_of(BPF_CORE_READ(p, pid));

	if (t)
		tlob_task_event(t, abort_tlob, bpf_ktime_get_ns(), TLOB_DETECT_STOP,
				TLOB_ABORT_EXEC);
	return 0;
}

static long tlob_abort_one(struct bpf_map *map, __u32 *tid, struct tlob_task *t,
			   struct tlob_bpf_abort *a)
{
	__u64 now = bpf_ktime_get_ns();
	int i;

#pragma unroll
	for (i = 0; i < TLOB_BPF_NEST; i++) {
		struct tlob_win *w = &t->win[i];

		if (tlob_active(w) && (!a->binding_id || w->binding_id == a->binding_id))
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
 * no window of what it ends opens again meanwhile.
 *
 * It runs on another CPU than the task: the end is claimed as every end
 * is (tlob_feed()), so each window still ends exactly once; a scheduler
 * event of the task already past its tlob_active() test may book its
 * last state change after this record's snapshot of the times. The timer
 * of the window is not cancelled here (tlob_cancel() has no fexit in this
 * program): it fires later, finds no window and frees its slot.
 */
SEC("syscall")
int tlob_abort(struct tlob_bpf_abort *ctx)
{
	struct tlob_bpf_abort a = { .binding_id = ctx->binding_id, .reason = ctx->reason };

	bpf_for_each_map_elem(&tlob_windows, tlob_abort_one, &a, 0);
	return 0;
}

/*
 * The timer-free detector: a periodic perf event (cpu-clock, on one CPU)
 * runs this from its hrtimer in hard interrupt context, also on
 * PREEMPT_RT, so no runqueue hog delays it. It checks the deadline of
 * every open window whatever its state, so an overrun is reported at most
 * one period after the deadline (plus the timer's own latency).
 */
SEC("perf_event")
int tlob_sample(struct bpf_perf_event_data *ctx)
{
	struct tlob_scan scan;

	if (!READ_ONCE(tlob_nr_open))
		return 0;
	scan.now = bpf_ktime_get_ns();
	scan.detector = TLOB_DETECT_SAMPLE;
	bpf_for_each_map_elem(&tlob_windows, tlob_scan_one, &scan, 0);
	return 0;
}
