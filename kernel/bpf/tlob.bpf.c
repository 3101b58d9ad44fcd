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
 *   runs from a periodic perf event and checks every open window, so an
 *   overrun is reported at most one sampling period after the deadline.
 * On both paths the deadline is also checked at each scheduler event of
 * the task (TLOB_DETECT_SCHED) and at STOP (TLOB_DETECT_STOP), so a late
 * timer or sample never hides an overrun.
 */
#include "tlob_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Windows open right now: the scheduler hooks return at once when 0. */
__u64 tlob_nr_open;

static __always_inline unsigned int tlob_log2(__u64 v)
{
	unsigned int r = 0;

	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1)
		r += 1;
	return r;
}

static __always_inline void tlob_account(struct tlob_win *w, __u8 verdict, __u64 elapsed)
{
	struct tlob_bpf_stats *st = tlob_stats_of(w);
	unsigned int b;

	if (!st)
		return;
	st->windows++;
	if (verdict == TLOB_VERDICT_MODEL_ERROR) {
		st->errors++;
		return;
	}
	if (verdict == TLOB_VERDICT_ABORTED) {
		st->aborted++;
		return;
	}
	if (!st->min_ns || elapsed < st->min_ns)
		st->min_ns = elapsed;
	if (elapsed > st->max_ns)
		st->max_ns = elapsed;
	st->sum_ns += elapsed;
	b = tlob_log2(elapsed);
	if (b < TLOB_BPF_HIST)
		st->hist[b]++;
}

/* The window ends: statistics, its one window record, and it is parked. */
static __always_inline void tlob_end(struct tlob_win *w, __u64 now, __u8 event,
				     __u8 verdict, __u8 reason)
{
	tlob_account(w, verdict, now - w->clk.start[clk_elapsed_tlob]);
	tlob_emit(w, TLOB_REC_WINDOW, now, verdict, reason, event);
	w->state = stopped_tlob;
	__sync_fetch_and_add(&tlob_nr_open, -1);
}

/*
 * Feed one model event to an open window. detector names who checks the
 * deadline on the way (the event itself is a chance to notice an overrun);
 * reason is the abort reason when event is abort_tlob.
 */
static __always_inline void tlob_event(struct tlob_win *w, unsigned int event, __u64 now,
				       __u8 detector, __u8 reason)
{
	unsigned int curr = tlob_state_of(w), next;
	__u8 verdict;

	barrier_var(event);
	if (curr >= state_max_tlob || event >= event_max_tlob)
		return;
	tlob_check(w, now, detector);
	w->ns[curr] += now - w->last_ns;
	w->last_ns = now;

	next = automaton_tlob.function[curr][event];
	if (next >= state_max_tlob) {
		/* Not allowed by the model: a model error, never an overrun. */
		ha_cancel_tlob(&w->clk);
		tlob_end(w, now, event, TLOB_VERDICT_MODEL_ERROR, TLOB_ABORT_NONE);
		return;
	}
	if (event == preempt_tlob)
		w->preemptions++;
	else if (event == sleep_tlob)
		w->sleeps++;
	else if (event == wakeup_tlob)
		w->wakeups++;
	ha_step_tlob(&w->clk, curr, event, now);
	if (!automaton_tlob.final_states[next]) {
		w->state = next;
		return;
	}
	if (event == abort_tlob)
		verdict = TLOB_VERDICT_ABORTED;
	else
		verdict = w->reported ? TLOB_VERDICT_OVER_BUDGET : TLOB_VERDICT_OK;
	tlob_end(w, now, event, verdict, reason);
}

static __always_inline struct tlob_win *tlob_win_of(__u32 tid)
{
	struct tlob_win *w = bpf_map_lookup_elem(&tlob_windows, &tid);

	return w && tlob_active(w) ? w : NULL;
}

static __always_inline void tlob_start(const struct tlob_bpf_binding *b, __u32 id,
				       __u32 tid, __u32 tgid, __u64 now)
{
	struct tlob_win *w = bpf_map_lookup_elem(&tlob_windows, &tid);
	struct tlob_win nw = {};

	if (w && tlob_active(w)) {
		/* START inside a window: whatever the model says (an error). */
		tlob_event(w, start_tlob, now, TLOB_DETECT_SCHED, TLOB_ABORT_NONE);
		return;
	}
	/*
	 * Build the window off to the side and publish it with one update,
	 * so a scheduler event that interrupts us sees either nothing or a
	 * complete running window.
	 */
	nw.clk.start[clk_elapsed_tlob] = now;
	nw.budget_ns = b->budget_ns;
	nw.last_ns = now;
	nw.tid = tid;
	nw.tgid = tgid;
	nw.binding_id = id;
	nw.state = automaton_tlob.function[stopped_tlob][start_tlob];
	bpf_get_current_comm(nw.comm, sizeof(nw.comm));
	__builtin_memcpy(nw.tag, b->tag, sizeof(nw.tag));
	if (bpf_map_update_elem(&tlob_windows, &tid, &nw, BPF_ANY)) {
		tlob_count_lost(TLOB_LOST_NOSLOT);
		return;
	}
	__sync_fetch_and_add(&tlob_nr_open, 1);
	w = bpf_map_lookup_elem(&tlob_windows, &tid);
	if (w)
		ha_step_tlob(&w->clk, stopped_tlob, start_tlob, now);
}

SEC("uprobe")
int tlob_uprobe(struct pt_regs *ctx)
{
	__u64 cookie = bpf_get_attach_cookie(ctx);
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 id = TLOB_COOKIE_ID(cookie), tid = (__u32)pid_tgid;
	__u32 tgid = pid_tgid >> 32;
	const struct tlob_bpf_binding *b;
	struct tlob_win *w;
	__u64 now;

	b = bpf_map_lookup_elem(&tlob_bindings, &id);
	if (!b || (b->pid && b->pid != tid) || (b->tgid && b->tgid != tgid))
		return 0;
	now = bpf_ktime_get_ns();
	if (TLOB_COOKIE_KIND(cookie) == TLOB_COOKIE_START) {
		tlob_start(b, id, tid, tgid, now);
		return 0;
	}
	/* A STOP of another binding, or with no window open, is not ours. */
	w = tlob_win_of(tid);
	if (w && w->binding_id == id)
		tlob_event(w, stop_tlob, now, TLOB_DETECT_STOP, TLOB_ABORT_NONE);
	return 0;
}

/*
 * Switched out: waiting if preempted or still on the runqueue (a sleep
 * state set but a signal pending keeps it there), sleeping only if it
 * blocked and left the runqueue. The prev_state word alone would book a
 * preempted task that had set a sleep state as sleeping.
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(tlob_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	struct tlob_win *w;
	__u64 now;
	__u32 tid;

	if (!READ_ONCE(tlob_nr_open))
		return 0;
	now = bpf_ktime_get_ns();
	tid = BPF_CORE_READ(prev, pid);
	w = tlob_win_of(tid);
	if (w) {
		__u32 id = w->binding_id;

		if (!bpf_map_lookup_elem(&tlob_bindings, &id))
			tlob_event(w, abort_tlob, now, TLOB_DETECT_SCHED, TLOB_ABORT_UNBIND);
		else if (preempt || prev_state == TASK_RUNNING || BPF_CORE_READ(prev, on_rq))
			tlob_event(w, preempt_tlob, now, TLOB_DETECT_SCHED, TLOB_ABORT_NONE);
		else
			tlob_event(w, sleep_tlob, now, TLOB_DETECT_SCHED, TLOB_ABORT_NONE);
	}
	tid = BPF_CORE_READ(next, pid);
	w = tlob_win_of(tid);
	if (w)
		tlob_event(w, switch_in_tlob, now, TLOB_DETECT_SCHED, TLOB_ABORT_NONE);
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(tlob_wakeup, struct task_struct *p)
{
	struct tlob_win *w;

	if (!READ_ONCE(tlob_nr_open))
		return 0;
	w = tlob_win_of(BPF_CORE_READ(p, pid));
	if (w)
		tlob_event(w, wakeup_tlob, bpf_ktime_get_ns(), TLOB_DETECT_SCHED,
			   TLOB_ABORT_NONE);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(tlob_exit, struct task_struct *p)
{
	__u32 tid = BPF_CORE_READ(p, pid);
	struct tlob_win *w = tlob_win_of(tid);

	if (w)
		tlob_event(w, abort_tlob, bpf_ktime_get_ns(), TLOB_DETECT_SCHED,
			   TLOB_ABORT_EXIT);
	/* The task is gone: its parked window too. */
	bpf_map_delete_elem(&tlob_windows, &tid);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(tlob_exec, struct task_struct *p)
{
	struct tlob_win *w = tlob_win_of(BPF_CORE_READ(p, pid));

	if (w)
		tlob_event(w, abort_tlob, bpf_ktime_get_ns(), TLOB_DETECT_SCHED,
			   TLOB_ABORT_EXEC);
	return 0;
}

static long tlob_sample_one(struct bpf_map *map, __u32 *tid, struct tlob_win *w,
			    __u64 *now)
{
	if (tlob_active(w))
		tlob_check(w, *now, TLOB_DETECT_SAMPLE);
	return 0;
}

/*
 * The timer-free detector: a periodic perf event on one CPU runs this in
 * hard interrupt context (also on PREEMPT_RT, so no runqueue hog delays it)
 * and checks the deadline of every open window, whatever its state.
 */
SEC("perf_event")
int tlob_sample(struct bpf_perf_event_data *ctx)
{
	__u64 now;

	if (!READ_ONCE(tlob_nr_open))
		return 0;
	now = bpf_ktime_get_ns();
	bpf_for_each_map_elem(&tlob_windows, tlob_sample_one, &now, 0);
	return 0;
}
