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
 *   and, once the earliest deadline of the open windows has passed
 *   (tlob_next_due), walks the tasks with windows, TLOB_BPF_SCAN_CHUNK per
 *   sample, checking every open window whatever its state, so an overrun
 *   is reported at most one sampling period (plus the timer's own latency)
 *   after the deadline while at most a chunk of tasks have windows, and at
 *   most 2 * ceil(tasks / chunk) periods with more; the scheduler hooks
 *   run the same check from any context switch, which on a busy system
 *   reports it sooner.
 *   While no deadline is due, the check costs a sample or a scheduler
 *   event one load, however many windows are open (the sampler also looks
 *   up the task it interrupted, for a diagnosis waiting for its stack).
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
 * Windows open right now per tid bucket (tid & TLOB_BPF_OPEN_MASK), counted
 * where tlob_nr_open is. A scheduler hook looks a task up in the windows
 * map only when its bucket counts one, as the module checks its hash
 * bucket before any lock: the tasks that switch around a window, or
 * around 64 parked ones, cost a load each, not a hash lookup (with a
 * lookup on every switch, one parked window costs the whole system as
 * much as 1024 do). A task may also have an entry with no window open
 * (entries live to its exit); the hooks need only the open ones.
 */
__u32 tlob_open_at[TLOB_BPF_OPEN_MASK + 1];
/*
 * Sampling path only (the loader sets it to the sampling period, 0 = the
 * bpf_timer path): the scheduler hooks, which run on every context switch
 * and wakeup in the system, also check the open windows when one is due,
 * so on a busy system an overrun is seen at the next scheduler activity
 * anywhere, well before the next sample; the sampler still bounds the
 * worst case.
 */
__u64 tlob_scan_ns;
/*
 * Sampling path: no open window's deadline comes before this (~0: none
 * known). A START lowers it to its deadline; a check of the windows runs
 * only once it has passed, and sets it to the earliest deadline it saw.
 * So the check costs a sample or a scheduler event one load while nothing
 * is due, however many windows are open, and the walk of the windows map runs
 * once per due deadline, not once per period (a walk per sample would
 * visit every parked window in hard IRQ, however many there are).
 */
__u64 tlob_next_due = ~0ULL;
/*
 * 1 while every hook and the detector are attached: the loader sets it
 * last when it enables the monitor and clears it first when it disables
 * it. A START opens a window only then, so no window can miss its task's
 * scheduler events, its exec or exit, or its deadline timer (uprobes are
 * attached per binding, which may come before the monitor is enabled).
 */
__u32 tlob_on;
/*
 * Bumped by every run of tlob_abort, which the loader runs again once it
 * has deleted a binding (share.c). A window notes it at START, read
 * before the START looks its binding up; a switch-out of its task looks
 * the binding up only when it has moved since. So a window that a START
 * in flight during an unbind opened after the walk that ended the
 * binding's others (a uprobe program is preemptible on PREEMPT_RT) is
 * still ended at its task's next switch-out, and every other switch-out
 * costs a load, not a hash lookup per window.
 */
__u32 tlob_unbinds;

struct tlob_scan {
	__u64 now;
	__u64 next;		/* the earliest deadline still to come */
	__u32 detector;
	__u32 from;		/* the chunk's first index in tlob_scan_tids */
	__u32 visited;		/* tasks whose windows it checked */
};

/*
 * Sampling path: the walk of the tasks with windows, in chunks. The walk
 * of the whole windows map (up to TLOB_BPF_TASKS_MAX tasks) ran in one
 * sample, in hard IRQ; now each task that has an entry in tlob_windows
 * has an index in tlob_scan_tids, handed out at its first START (a freed
 * one from a stack of them, else the next never used) and given back at
 * its exit, and a walk checks TLOB_BPF_SCAN_CHUNK indexes
 * per sample or scheduler event, from where the last chunk stopped, up to
 * the highest index handed out. One chunk at a time (tlob_scan_busy).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TLOB_BPF_MAX_TASKS);	/* the loader: as tlob_windows */
	__type(key, __u32);
	__type(value, __u32);		/* the task's tid; 0: a free index */
} tlob_scan_tids SEC(".maps");

/* The stack of free indexes: the one below each index on it. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TLOB_BPF_MAX_TASKS);
	__type(key, __u32);
	__type(value, __u32);		/* index + 1; 0: the bottom */
} tlob_scan_below SEC(".maps");

__u32 tlob_scan_cap;		/* indexes there are (the loader: tlob_windows' size) */
__u32 tlob_scan_hw;		/* indexes handed out so far: a walk covers [0, hw) */
/* Top of the free stack: a tag (against ABA) << 32 | index + 1; 0: empty. */
__u64 tlob_scan_free;
__u32 tlob_scan_walking;	/* a walk is under way */
__u32 tlob_scan_cursor;		/* its next index */
__u32 tlob_scan_busy;		/* a chunk of it is being checked */
__u64 tlob_scan_soonest;	/* the earliest deadline the walk has seen */
__u64 tlob_scan_leaked;		/* indexes not given back (bpftool reads it) */

/* An index for a task's new entry; -1: none free (its START is dropped). */
static __always_inline int tlob_scan_index_get(void)
{
	__u64 top, next;
	__u32 *below, i, idx;

	for (i = 0; i < 4; i++) {
		top = READ_ONCE(tlob_scan_free);
		if (!(__u32)top)
			break;
		idx = (__u32)top - 1;
		below = bpf_map_lookup_elem(&tlob_scan_below, &idx);
		if (!below)
			return -1;
		next = ((top >> 32) + 1) << 32 | READ_ONCE(*below);
		if (__sync_val_compare_and_swap(&tlob_scan_free, top, next) == top)
			return idx;
	}
	idx = __sync_fetch_and_add(&tlob_scan_hw, 1);
	return idx < READ_ONCE(tlob_scan_cap) ? (int)idx : -1;
}

/* Index @idx of task @tid given back, by one of its exit's runs only. */
static __always_inline void tlob_scan_index_put(__u32 idx, __u32 tid)
{
	__u32 *slot = bpf_map_lookup_elem(&tlob_scan_tids, &idx);
	__u32 *below = bpf_map_lookup_elem(&tlob_scan_below, &idx);
	__u64 top;
	int i;

	if (!slot || !below || __sync_val_compare_and_swap(slot, tid, 0) != tid)
		return;
	for (i = 0; i < 8; i++) {
		top = READ_ONCE(tlob_scan_free);
		WRITE_ONCE(*below, (__u32)top);
		if (__sync_val_compare_and_swap(&tlob_scan_free, top,
						((top >> 32) + 1) << 32 | (idx + 1)) == top)
			return;
	}
	/* Lost to a storm of exits: not handed out again until re-enabled. */
	__sync_fetch_and_add(&tlob_scan_leaked, 1);
}

/*
 * What the walks of the windows cost, per CPU (the sampler runs
 * them in hard IRQ): how many chunks ran, the tasks they visited, their
 * total and longest time, and the most tasks one visited (at most
 * TLOB_BPF_SCAN_CHUNK). Read by the benchmarks
 * (tests/bench/guest/15-scan.t, bpftool), which zero it.
 */
struct tlob_scan_cost {
	__u64 walks;
	__u64 visited;
	__u64 sum_ns;
	__u64 max_ns;
	__u64 max_visited;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tlob_scan_cost);
} tlob_scan_cost SEC(".maps");

/* A deadline: tlob_next_due lowered to it (tlob_lower_due()). */
static __always_inline void tlob_due_at(__u64 deadline)
{
	tlob_lower_due(&tlob_next_due, deadline);
}

/*
 * Feed one model event to an open window: the engine's tlob_step()
 * (../shared/tlob_engine.h, the module's too), which also says when to take the
 * time (now == 0: after claiming the window, see there). detector names
 * who notices an overrun on the way; reason is the abort reason when
 * event is abort_tlob.
 *
 * A global function: the verifier checks it once per program instead of
 * once per call site, and the scheduler hooks call it for every slot of
 * two tasks (inlined, tlob_switch alone would be ~7000 instructions and
 * take seconds to load in an emulated guest). So w arrives as plain memory that
 * may be NULL.
 */
__noinline int tlob_feed(struct tlob_win *w, __u32 event, __u64 now, __u32 detector,
			 __u32 reason)
{
	__u32 tid;

	if (!w)
		return 0;
	tid = w->core.pid;
	if (tlob_step(&w->core, event, now, detector, reason) == TLOB_STEP_ENDED) {
		__sync_fetch_and_add(&tlob_open_at[tid & TLOB_BPF_OPEN_MASK], -1);
		__sync_fetch_and_add(&tlob_nr_open, -1);
	}
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

/*
 * Task @p, which has not run since it left its CPU, is woken (queued on
 * @cpu) or switched in (on @cpu): the event to its windows; while it is
 * still where it slept or was preempted, the kernel stack a diagnosis
 * waits for; the wait on @cpu that begins or ends.
 */
static __always_inline void tlob_task_arrives(struct tlob_task *t, struct task_struct *p,
					      unsigned int event, __u32 cpu, __u64 now)
{
	int i;

#pragma unroll
	for (i = 0; i < TLOB_BPF_NEST; i++) {
		struct tlob_win *w = &t->win[i];

		if (!tlob_active(w))
			continue;
		tlob_feed(w, event, now, TLOB_DETECT_SCHED, TLOB_ABORT_NONE);
		tlob_diag_kstack(w, p);
		tlob_diag_event(w, event, cpu, now);
	}
}

static __always_inline struct tlob_task *tlob_task_of(__u32 tid)
{
	return bpf_map_lookup_elem(&tlob_windows, &tid);
}

/*
 * The task's entry if a window may be open in it (its bucket counts one),
 * else NULL: for the hooks that act on open windows only. START, STOP and
 * exit (which deletes the entry) look up the entry itself.
 */
static __always_inline struct tlob_task *tlob_task_open(__u32 tid)
{
	if (!READ_ONCE(tlob_open_at[tid & TLOB_BPF_OPEN_MASK]))
		return NULL;
	return tlob_task_of(tid);
}

/* What tlob_drop_one() needs of the dropped START. */
struct tlob_drop {
	const struct tlob_bpf_binding *b;
	__u64 now;
	__u32 readers;
	__u32 id;
	__u32 tid;
	__u32 tgid;
};

/* Reader @i's dropped record, if it reads the binding (as tlob_deliver_one()). */
static long tlob_drop_one(__u32 i, void *data)
{
	struct tlob_drop *d = data;
	struct tlob_record *r;
	void *rb;

	if (i >= TLOB_BPF_READERS)
		return 1;
	if (!(d->readers & (1U << i)))
		return 0;
	r = tlob_reserve(&tlob_urgent, i, &rb);
	if (r) {
		tlob_record_dropped(r, d->now, d->b->budget_ns, d->tid, d->tgid, d->id);
		bpf_get_current_comm(r->comm, sizeof(r->comm));
		__builtin_memcpy(r->tag, d->b->tag, sizeof(r->tag));
		bpf_ringbuf_submit(r, BPF_RB_FORCE_WAKEUP);
	}
	return !(d->readers >> i >> 1);
}

/*
 * A START found no free window (the windows map full, or the task's
 * TLOB_BPF_NEST slots taken). Not a window, but never silent, as in the
 * module: a dropped record for the readers and the binding's count.
 */
static __always_inline void tlob_start_dropped(const struct tlob_bpf_binding *b, __u32 id,
					       __u32 tid, __u32 tgid)
{
	struct tlob_stats *st = bpf_map_lookup_elem(&tlob_stats, &id);
	struct tlob_drop d = {
		.b = b,
		.now = bpf_ktime_get_ns(),
		.readers = tlob_readers_of(b),
		.id = id,
		.tid = tid,
		.tgid = tgid,
	};

	tlob_count_lost(TLOB_LOST_NOSLOT);
	if (st)
		__sync_fetch_and_add(&st->dropped, 1);
	if (d.readers)
		bpf_loop(TLOB_BPF_READERS, tlob_drop_one, &d, 0);
}

/*
 * A task's entry, made at its first START, with its index for the
 * sampler's walk (tlob_scan_tids); NULL when the map or the indexes are
 * full.
 */
static __always_inline struct tlob_task *tlob_task_new(__u32 tid)
{
	__u32 zero = 0, key, *slot = NULL;
	struct tlob_task *t;
	void *tmpl;
	int idx;

	tmpl = bpf_map_lookup_elem(&tlob_zero, &zero);
	if (!tmpl || bpf_map_update_elem(&tlob_windows, &tid, tmpl, BPF_NOEXIST))
		return tlob_task_of(tid);
	t = tlob_task_of(tid);
	idx = tlob_scan_index_get();
	if (idx >= 0) {
		key = (__u32)idx;
		slot = bpf_map_lookup_elem(&tlob_scan_tids, &key);
	}
	if (!t || !slot) {
		bpf_map_delete_elem(&tlob_windows, &tid);
		return NULL;
	}
	t->scan_idx = key + 1;
	WRITE_ONCE(*slot, tid);
	return t;
}

/*
 * START: open a window in a free slot, or feed `start` to the open one.
 * @unbinds: tlob_unbinds as it was before @b was looked up.
 */
static __always_inline void tlob_start(const struct tlob_bpf_binding *b, __u32 id,
				       __u32 tid, __u32 tgid, __u32 unbinds)
{
	struct tlob_task *t = tlob_task_of(tid);
	struct tlob_win *w = NULL;
	__u32 slot = 0;
	int i;

	if (!t) {
		t = tlob_task_new(tid);
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
	w->slot = slot;
	w->unbinds = unbinds;
	bpf_get_current_comm(w->core.comm, sizeof(w->core.comm));
	__builtin_memcpy(w->core.tag, b->tag, sizeof(w->core.tag));
	tlob_diag_begin(w);
	/*
	 * Counted open (in all and in its tid's bucket) before it is
	 * published: a scheduler hook that interrupts us (a uprobe program
	 * is preemptible on PREEMPT_RT) must not skip the window for want of
	 * the count.
	 */
	__sync_fetch_and_add(&tlob_nr_open, 1);
	__sync_fetch_and_add(&tlob_open_at[tid & TLOB_BPF_OPEN_MASK], 1);
	/*
	 * The window starts now, not at the uprobe hit: on PREEMPT_RT the
	 * task may have been preempted since, and that wait belongs to no
	 * window (it would be booked running: no scheduler event saw it).
	 */
	tlob_open(&w->core, b->budget_ns, b->min_ns, bpf_ktime_get_ns());
	if (READ_ONCE(tlob_scan_ns))
		tlob_due_at(ha_deadline_tlob(&w->core.clk, tlob_core_state(&w->core)) ?: ~0ULL);
}

/*
 * Never filled: tlob_uprobe's tail call into it finds no program and goes
 * on, so it costs a few inlined instructions. It is there because a
 * program with a tail call gets no private stack. Since 6.13 (commit
 * a76ab5731e32) the verifier gives a kprobe-type program whose frame
 * needs 64 bytes or more a per-CPU stack of its own, as if it could not
 * be preempted; but uprobe programs run preemptible (migrate_disable()
 * only, since 6.0), and on a kernel that preempts kernel code (PREEMPT_RT,
 * preempt=full or lazy) a task preempted inside tlob_uprobe and another
 * task running it on the same CPU share that stack, and one overwrites the
 * other's frame (an oops in tlob_feed() on 7.3.4-rt within seconds of 32
 * threads at START/STOP: tests/guest/38-bpf-preemptible-uprobes.t). The
 * kernel's own stack is
 * per task. The verifier decides from the instructions (a tail call
 * anywhere in the program), on every kernel that has private stacks.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} tlob_no_private_stack SEC(".maps");

/* START or STOP: the uprobe programs below. */
static __always_inline int tlob_uprobe_run(struct pt_regs *ctx)
{
	__u64 cookie = bpf_get_attach_cookie(ctx);
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 id = TLOB_COOKIE_ID(cookie), tid = (__u32)pid_tgid;
	__u32 tgid = pid_tgid >> 32;
	/* Before the binding is looked up (tlob_unbinds). */
	__u32 unbinds = READ_ONCE(tlob_unbinds);
	const struct tlob_bpf_binding *b;
	struct tlob_task *t;
	int i;

	b = bpf_map_lookup_elem(&tlob_bindings, &id);
	if (!b || (b->pid && b->pid != tid) || (b->tgid && b->tgid != tgid))
		return 0;
	if (TLOB_COOKIE_KIND(cookie) == TLOB_COOKIE_CHECKPOINT) {
		if (READ_ONCE(tlob_on))
			tlob_alive_checkpoint(b, id, tid, tgid);
		return 0;
	}
	if (TLOB_COOKIE_IS_LOGIC(TLOB_COOKIE_KIND(cookie))) {
		if (READ_ONCE(tlob_on))
			tlob_logic_event(b, id, TLOB_COOKIE_KIND(cookie) - 16, tid, tgid);
		return 0;
	}
	if (TLOB_COOKIE_KIND(cookie) == TLOB_COOKIE_START) {
		if (READ_ONCE(tlob_on))
			tlob_start(b, id, tid, tgid, unbinds);
		return 0;
	}
	/* A STOP outside a window (e.g. a first call) is not an event. */
	t = tlob_task_of(tid);
	if (!t)
		return 0;
#pragma unroll
	for (i = 0; i < TLOB_BPF_NEST; i++)
		if (tlob_active(&t->win[i]) && t->win[i].core.binding_id == id)
			tlob_feed(&t->win[i], stop_tlob, 0, TLOB_DETECT_STOP,
				  TLOB_ABORT_NONE);
	return 0;
}

SEC("uprobe")
int tlob_uprobe(struct pt_regs *ctx)
{
	bpf_tail_call(ctx, &tlob_no_private_stack, 0);
	return tlob_uprobe_run(ctx);
}

/*
 * The same, not preemptible (bpf_preempt_disable(), 6.10): the loader
 * takes it where the kernel has the kfunc and the verifier takes it
 * (user/backend/bpf/load.c), tlob_uprobe elsewhere. Preempted inside the
 * uprobe program, a task also holds the timer's fexit programs
 * (tlob_timer.bpf.c) that run inside it, and the kernel skips the next
 * task's run of them on that CPU as a recursion: on 7.3.4 (stock, its
 * kernel code preemptible) 32 threads at START/STOP lost half their
 * timers' arms that way (38-bpf-preemptible-uprobes.t: recursion_misses
 * 16633 of 32000). Its frame is no private stack's either: nothing else
 * runs it on this CPU until it ends.
 */
extern void bpf_preempt_disable(void) __weak __ksym;
extern void bpf_preempt_enable(void) __weak __ksym;

SEC("uprobe")
int tlob_uprobe_np(struct pt_regs *ctx)
{
	int ret;

	bpf_preempt_disable();
	ret = tlob_uprobe_run(ctx);
	bpf_preempt_enable();
	return ret;
}

/* Check the open windows of task @t; note the earliest deadline to come. */
static __always_inline void tlob_scan_task(struct tlob_task *t, struct tlob_scan *scan)
{
	int i;

#pragma unroll
	for (i = 0; i < TLOB_BPF_NEST; i++) {
		struct tlob_core *c = &t->win[i].core;
		__u64 deadline;

		if (!tlob_core_active(c))
			continue;
		tlob_check(c, scan->now, scan->detector, event_max_tlob);
		if (READ_ONCE(c->reported))
			continue;
		/* Not due yet: when it will be (0: its state has no deadline). */
		deadline = ha_deadline_tlob(&c->clk, tlob_core_state(c));
		/* Due but not reported: it changed state under us; next period. */
		if (deadline && deadline <= scan->now)
			deadline = scan->now + READ_ONCE(tlob_scan_ns);
		if (deadline && deadline < scan->next)
			scan->next = deadline;
	}
}

/* A bpf_loop() callback: the task at index scan->from + @i, if any. */
static long tlob_scan_index(__u32 i, void *data)
{
	struct tlob_scan *scan = data;
	__u32 idx = scan->from + i, tid, *slot;
	struct tlob_task *t;

	slot = bpf_map_lookup_elem(&tlob_scan_tids, &idx);
	if (!slot)
		return 1;
	tid = READ_ONCE(*slot);
	if (!tid)
		return 0;
	t = bpf_map_lookup_elem(&tlob_windows, &tid);
	if (t) {
		tlob_scan_task(t, scan);
		scan->visited++;
	}
	return 0;
}

/*
 * Sampling path: once the earliest deadline of the open windows has passed
 * (tlob_next_due), a walk of every task with windows, TLOB_BPF_SCAN_CHUNK
 * of them per call (a sample in hard IRQ, or a scheduler event), resumed
 * at the next call. One walker per due time (it claims tlob_next_due,
 * setting it to ~0, which STARTs meanwhile lower); at its end it leaves
 * the earliest deadline it saw. A window already checked when a START
 * lowers tlob_next_due is checked again by the next walk.
 */
static __always_inline void tlob_scan_due(__u64 now, __u32 detector)
{
	struct tlob_scan scan = { .now = now, .next = ~0ULL, .detector = detector };
	struct tlob_scan_cost *cost;
	__u32 zero = 0, end, hw, cap;
	__u64 took;

	if (!READ_ONCE(tlob_scan_walking)) {
		if (!tlob_due_claim(&tlob_next_due, now))
			return;
		WRITE_ONCE(tlob_scan_cursor, 0);
		WRITE_ONCE(tlob_scan_soonest, ~0ULL);
		WRITE_ONCE(tlob_scan_walking, 1);
	}
	if (__sync_val_compare_and_swap(&tlob_scan_busy, 0, 1))
		return;
	/* The walk may have ended (another CPU's chunk) since the test above. */
	if (!READ_ONCE(tlob_scan_walking)) {
		WRITE_ONCE(tlob_scan_busy, 0);
		return;
	}
	hw = READ_ONCE(tlob_scan_hw);
	cap = READ_ONCE(tlob_scan_cap);
	if (hw > cap)
		hw = cap;
	scan.from = READ_ONCE(tlob_scan_cursor);
	if (scan.from > hw)
		scan.from = hw;
	end = hw - scan.from > TLOB_BPF_SCAN_CHUNK ? scan.from + TLOB_BPF_SCAN_CHUNK : hw;
	if (scan.from < end)
		bpf_loop(end - scan.from, tlob_scan_index, &scan, 0);
	if (scan.next < READ_ONCE(tlob_scan_soonest))
		WRITE_ONCE(tlob_scan_soonest, scan.next);
	WRITE_ONCE(tlob_scan_cursor, end);
	if (end >= hw) {
		WRITE_ONCE(tlob_scan_walking, 0);
		tlob_due_at(READ_ONCE(tlob_scan_soonest));
	}
	WRITE_ONCE(tlob_scan_busy, 0);
	/* From the chunk's start (@now) to its end: what the due check took. */
	took = bpf_ktime_get_ns() - now;
	cost = bpf_map_lookup_elem(&tlob_scan_cost, &zero);
	if (!cost)
		return;
	cost->walks++;
	cost->visited += scan.visited;
	cost->sum_ns += took;
	if (took > cost->max_ns)
		cost->max_ns = took;
	if (scan.visited > cost->max_visited)
		cost->max_visited = scan.visited;
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
		return d->se.sched_delayed;
	return false;
}

/*
 * A task's exit or exec (@wk): for each alive or logical binding, the
 * task's instance (per task) and, when the whole process goes, the
 * process's, looked up by key. Not a walk of the instances, which runs
 * while other tasks' instances are deleted (their threads exiting
 * together, on other CPUs) and could miss an element of the hash table;
 * the bindings change only at bind and unbind, and there are fewer.
 */
static long tlob_sup_gone_binding(struct bpf_map *map, __u32 *id, struct tlob_bpf_binding *b,
				  struct tlob_sup_walk *wk)
{
	struct tlob_alive_inst *a;
	struct tlob_logic_inst *l;
	__u32 who;
	__u64 key;

	if (!(b->flags & (TLOB_BIND_ALIVE | TLOB_BIND_LOGIC)))
		return 0;
	if (b->flags & TLOB_BIND_PER_TASK)
		who = wk->tid;
	else if (wk->group)
		who = wk->tgid;
	else
		return 0;
	key = TLOB_INST_KEY(*id, who);
	if (b->flags & TLOB_BIND_ALIVE) {
		a = bpf_map_lookup_elem(&tlob_alive_insts, &key);
		if (a)
			tlob_alive_end(a, key, wk->now, wk->reason);
	} else {
		l = bpf_map_lookup_elem(&tlob_logic_insts, &key);
		if (l)
			tlob_logic_end(l, key, wk);
	}
	return 0;
}

static __always_inline void tlob_sup_task_gone(__u32 tid, __u32 tgid, bool group, __u32 reason)
{
	struct tlob_sup_walk wk = tlob_sup_ending(0, tid, tgid, group, reason);

	if (READ_ONCE(tlob_alive_nr) || READ_ONCE(tlob_logic_nr))
		bpf_for_each_map_elem(&tlob_bindings, tlob_sup_gone_binding, &wk, 0);
}

/*
 * A task's exit and exec. Since 7.x (stock and PREEMPT_RT) the kernel
 * runs these tracepoints' programs preemptible, and it skips a program's
 * run on a CPU where that program already runs (a preempted task's) as a
 * recursion: of three threads exiting together under tlob mon on 7.3.4,
 * one now and then goes unseen (tlob_exit's recursion_misses in bpftool
 * prog show counts it; its logical instance would end at the session's
 * end instead of its exit; 38-bpf-preempted-exits.t). A second program on
 * the same tracepoint does not close it on 7.3.4-rt, where three tasks
 * nested on one CPU can skip both. So an exit is seen again at the task's
 * last switch (tlob_switch: prev->exit_state set), where nothing preempts
 * a program; an exec, which has no such switch, by two programs on its
 * tracepoint (the kernel runs them one after the other: a task preempted
 * inside one holds that one only), which makes a skip rarer, not
 * impossible: three tasks exec'ing at once on one CPU could skip both,
 * as three exits can on 7.3.4-rt. Whatever one run ends, the next finds
 * gone (an instance ends once, by compare-and-swap; the task's entry is
 * deleted), so it costs a lookup or two. Inlined: as a function of its
 * own its frame and the ones under it pass the 512 bytes of stack
 * 6.1's verifier allows a call chain ("combined stack size of 5 calls").
 */
static __always_inline int tlob_exit_run(struct task_struct *p)
{
	__u32 tid = p->pid;
	struct tlob_task *t;

	/* Its instances; its process's when it is the last thread (signal->live 0). */
	tlob_sup_task_gone(tid, p->tgid, !p->signal->live.counter, TLOB_ABORT_EXIT);
	t = tlob_task_of(tid);
	if (!t)
		return 0;
	tlob_task_event(t, abort_tlob, bpf_ktime_get_ns(), TLOB_DETECT_STOP,
			TLOB_ABORT_EXIT);
	/* The task is gone: so are its index and its entry. */
	if (t->scan_idx)
		tlob_scan_index_put(t->scan_idx - 1, tid);
	bpf_map_delete_elem(&tlob_windows, &tid);
	return 0;
}

/* Switched out: the rule both backends share (tlob_switch_rule.h). */
SEC("tp_btf/sched_switch")
int BPF_PROG(tlob_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	struct tlob_task *t;
	unsigned int ev;
	__u32 cpu, unbinds;
	__u64 now;
	int i;

	/* prev's last switch, it exited: what tlob_exit missed (tlob_exit_run()). */
	if (prev->exit_state)
		tlob_exit_run(prev);
	if (!READ_ONCE(tlob_nr_open))
		return 0;
	now = bpf_ktime_get_ns();
	cpu = bpf_get_smp_processor_id();
	if (READ_ONCE(tlob_scan_ns))
		tlob_scan_due(now, TLOB_DETECT_SCHED);
	t = tlob_task_open(prev->pid);
	if (t) {
		ev = tlob_switch_out_event(preempt, prev_state, tlob_task_blocked(prev));
		unbinds = READ_ONCE(tlob_unbinds);
#pragma unroll
		for (i = 0; i < TLOB_BPF_NEST; i++) {
			struct tlob_win *w = &t->win[i];
			__u32 id = w->core.binding_id;

			if (!tlob_active(w))
				continue;
			/* Unbound while inside: the window ends here (tlob_unbinds). */
			if (w->unbinds != unbinds) {
				if (!bpf_map_lookup_elem(&tlob_bindings, &id)) {
					tlob_feed(w, abort_tlob, now, TLOB_DETECT_SCHED,
						  TLOB_ABORT_UNBIND);
					continue;
				}
				w->unbinds = unbinds;
			}
			tlob_feed(w, ev, now, TLOB_DETECT_SCHED, TLOB_ABORT_NONE);
			/* Preempted: it waits here. prev is current: a pending stack. */
			tlob_diag_event(w, ev, cpu, now);
			tlob_diag_deferred(w);
		}
	}
	t = tlob_task_open(next->pid);
	if (t)
		tlob_task_arrives(t, next, switch_in_tlob, cpu, now);
	tlob_diag_on_switch(prev, next, now);
	return 0;
}

/*
 * The CPU a task is queued on: thread_info.cpu on the kernels tlob
 * targets (x86, THREAD_INFO_IN_TASK); task_struct.cpu where a kernel
 * keeps it there.
 */
struct task_struct___cpu {
	unsigned int cpu;
} __attribute__((preserve_access_index));

static __always_inline __u32 tlob_task_cpu(struct task_struct *p)
{
	struct task_struct___cpu *c = (void *)p;

	if (bpf_core_field_exists(c->cpu))
		return c->cpu;
	return p->thread_info.cpu;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(tlob_wakeup, struct task_struct *p)
{
	struct tlob_task *t;

	if (!READ_ONCE(tlob_nr_open))
		return 0;
	t = tlob_task_open(p->pid);
	if (t)
		tlob_task_arrives(t, p, wakeup_tlob, tlob_task_cpu(p), bpf_ktime_get_ns());
	return 0;
}

/*
 * Not a model event: who wakes the task (current here; at sched_wakeup,
 * queued to an idle CPU, current is that CPU's idle task). Until the
 * diagnosis goes out: the wakeup that ends a sleep past the deadline
 * counts.
 */
SEC("tp_btf/sched_waking")
int BPF_PROG(tlob_waking, struct task_struct *p)
{
	char comm[TLOB_COMM_LEN];
	struct tlob_task *t;
	__u32 waker;
	int i;

	if (!READ_ONCE(tlob_nr_open))
		return 0;
	t = tlob_task_open(p->pid);
	if (!t)
		return 0;
	waker = (__u32)bpf_get_current_pid_tgid();
	bpf_get_current_comm(comm, sizeof(comm));
#pragma unroll
	for (i = 0; i < TLOB_BPF_NEST; i++) {
		struct tlob_win *w = &t->win[i];

		if (tlob_active(w) && READ_ONCE(w->dstate) != TLOB_DIAG_SENT)
			tlob_diag_woken(&w->diag, waker, comm);
	}
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(tlob_exit, struct task_struct *p)
{
	return tlob_exit_run(p);
}

static __always_inline int tlob_exec_run(struct task_struct *p, pid_t old_pid)
{
	struct tlob_task *t = tlob_task_open(p->pid);

	/* Its instances (as the pid it had) and its process's. */
	tlob_sup_task_gone(old_pid, p->tgid, true, TLOB_ABORT_EXEC);

	if (t)
		tlob_task_event(t, abort_tlob, bpf_ktime_get_ns(), TLOB_DETECT_STOP,
				TLOB_ABORT_EXEC);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(tlob_exec, struct task_struct *p, pid_t old_pid)
{
	return tlob_exec_run(p, old_pid);
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(tlob_exec_again, struct task_struct *p, pid_t old_pid)
{
	return tlob_exec_run(p, old_pid);
}

static long tlob_abort_one(struct bpf_map *map, __u32 *tid, struct tlob_task *t,
			   struct tlob_bpf_abort *a)
{
	__u64 now = bpf_ktime_get_ns();
	int i;

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
 * after clearing tlob_on (disable), or once the binding's probes are gone
 * (unbind; the records still find the binding's readers) and again once
 * the binding is deleted: a START that was already past its lookup of
 * the binding can still open a window after the first run, and the
 * second, or its bump of tlob_unbinds, ends that one too.
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
	/* And the alive instances of the binding (of every binding: disable). */
	tlob_alive_gone(a.binding_id, a.reason);
	tlob_logic_gone(a.binding_id, a.reason);
	/* Every window looks its binding up again at its next switch-out. */
	__sync_fetch_and_add(&tlob_unbinds, 1);
	return 0;
}

/*
 * The timer-free detector: a periodic perf event (cpu-clock, on one CPU)
 * runs this from its hrtimer in hard interrupt context, also on
 * PREEMPT_RT, so no runqueue hog delays it. Once a deadline is due
 * (tlob_next_due) it checks the open windows whatever their state, a
 * chunk of tasks per sample (tlob_scan_due()).
 */
SEC("perf_event")
int tlob_sample(struct bpf_perf_event_data *ctx)
{
	struct tlob_task *t;
	int i;

	/* Alive cycles that ended: one load while none is due. */
	tlob_alive_scan_due(bpf_ktime_get_ns(), TLOB_DETECT_SAMPLE);
	/* Logical instances past their state's invariant: the same. */
	tlob_logic_scan_due(bpf_ktime_get_ns());
	if (!READ_ONCE(tlob_nr_open))
		return 0;
	tlob_scan_due(bpf_ktime_get_ns(), TLOB_DETECT_SAMPLE);
	/* The task it interrupted, past its deadline: its user stack now. */
	t = tlob_task_open((__u32)bpf_get_current_pid_tgid());
	if (t) {
#pragma unroll
		for (i = 0; i < TLOB_BPF_NEST; i++)
			if (tlob_active(&t->win[i]))
				tlob_diag_deferred(&t->win[i]);
	}
	return 0;
}
