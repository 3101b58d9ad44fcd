/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What both BPF objects of the backend share: the per-task window, the
 * maps (tlob_timer.bpf.o reuses the maps of tlob.bpf.o by fd, so they are
 * defined once, here), the deadline check and the record emitter.
 *
 * Concurrency, and why there is no lock: a window is written by the events
 * of its own task only: the uprobe program runs in the task, sched_switch
 * and sched_wakeup under the task's runqueue lock. The uprobe program runs
 * with only migration disabled (6.1), so on PREEMPT_RT the task's own
 * switch-out and switch-in can run in the middle of its START or STOP: a
 * window is published only once in its running state, and STOP claims the
 * window's end (->active, below) before it takes the time, so nothing is
 * booked after the end (tlob_feed() in tlob.bpf.c). The detectors that run
 * elsewhere (the bpf_timer callback, the sampler) only read a window and
 * claim the one violation report with a compare-and-swap on ->reported, so
 * exactly one detector reports each overrun; the end of a window is
 * claimed the same way on ->active, so it is reported exactly once.
 * Their breakdown of the time is a snapshot that may miss an update in
 * flight; the window record at the end is exact.
 * (bpf_spin_lock is not an option anyway: 6.1 refuses it in uprobe and
 * perf_event programs.)
 */
#ifndef TLOB_COMMON_BPF_H
#define TLOB_COMMON_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "tlob_abi.h"
#include "tlob_bpf.h"

/* Not in vmlinux.h (macros): the task state word's "runnable" value. */
#define TASK_RUNNING	0x0000
/*
 * One load or store the compiler may not merge or repeat (flags other
 * CPUs read), as the kernel's own macros do it: clang 14's BPF backend
 * cannot lower __atomic_load_n()/__atomic_store_n().
 */
#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile typeof(x) *)&(x) = (v))

/* The invariant's bound of the generated glue: the window's budget. */
struct ha_clocks_tlob;
static __always_inline __u64 tlob_budget_ns(const struct ha_clocks_tlob *clk);
#define BUDGET_NS(clk) tlob_budget_ns(clk)

#include "tlob_model_ha.h"

/*
 * One window: a task inside one binding's section. A task can be inside
 * the sections of several bindings at once (as in the module, windows are
 * per task and binding), up to TLOB_BPF_NEST; the windows map holds them
 * per task, so a scheduler event finds all of a task's windows with one
 * lookup.
 */
struct tlob_win {
	struct ha_clocks_tlob clk;	/* clk.start[clk_elapsed_tlob] = START */
	__u64 budget_ns;
	__u64 last_ns;			/* last state change */
	__u64 ns[state_max_tlob];	/* time spent per state */
	__s64 detect_latency_ns;
	__u32 tid;
	__u32 tgid;
	__u32 binding_id;
	__u32 preemptions;
	__u32 sleeps;
	__u32 wakeups;
	__u32 reported;			/* 1 once a detector claimed the overrun */
	__u32 active;			/* set last at open, claimed (1 -> 0) at the end */
	__u8 slot;			/* index in struct tlob_task */
	__u8 state;			/* enum states_tlob */
	__u8 detector;			/* enum tlob_detector of that report */
	__u8 pad;
	char comm[TLOB_COMM_LEN];
	char tag[TLOB_TAG_LEN];
};

struct tlob_task {
	struct tlob_win win[TLOB_BPF_NEST];
};

static __always_inline __u64 tlob_budget_ns(const struct ha_clocks_tlob *clk)
{
	return container_of(clk, struct tlob_win, clk)->budget_ns;
}

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, TLOB_BPF_RINGBUF);
} tlob_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TLOB_BPF_MAX_TASKS);
	__type(key, __u32);
	__type(value, struct tlob_task);
} tlob_windows SEC(".maps");

/* Never written: the zeroes a task's entry starts from (too big for the stack). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tlob_task);
} tlob_zero SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TLOB_BPF_MAX_BINDINGS);
	__type(key, __u32);
	__type(value, struct tlob_bpf_binding);
} tlob_bindings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, TLOB_BPF_MAX_BINDINGS);
	__type(key, __u32);
	__type(value, struct tlob_bpf_stats);
} tlob_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TLOB_LOST_MAX);
	__type(key, __u32);
	__type(value, __u64);
} tlob_lost SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tlob_bpf_meta);
} tlob_meta SEC(".maps");

static __always_inline void tlob_count_lost(__u32 kind)
{
	__u64 *n = bpf_map_lookup_elem(&tlob_lost, &kind);

	if (n)
		*n += 1;
}

/*
 * The state as a table index the verifier can bound: the barrier keeps
 * the compiler from folding the range check into other tests on the
 * state (e.g. "!= stopped"), whose arithmetic the verifier cannot follow.
 */
static __always_inline unsigned int tlob_state_of(const struct tlob_win *w)
{
	unsigned int state = w->state;

	barrier_var(state);
	return state < state_max_tlob ? state : state_max_tlob;
}

static __always_inline bool tlob_active(const struct tlob_win *w)
{
	return READ_ONCE(w->active);
}

/* Time in state st up to now, including the part not yet booked. */
static __always_inline __u64 tlob_ns_in(const struct tlob_win *w, unsigned int st,
					__u64 now)
{
	__u64 ns = 0;

	if (st < state_max_tlob)
		ns = w->ns[st];
	if (w->state == st && now > w->last_ns)
		ns += now - w->last_ns;
	return ns;
}

static __always_inline void tlob_emit(const struct tlob_win *w, __u8 kind, __u64 now,
				      __u8 verdict, __u8 reason, __u8 event)
{
	struct tlob_record *r;
	__u64 start = w->clk.start[clk_elapsed_tlob];

	r = bpf_ringbuf_reserve(&tlob_events, sizeof(*r), 0);
	if (!r) {
		tlob_count_lost(TLOB_LOST_RINGBUF);
		return;
	}
	r->start_ns = start;
	r->end_ns = now;
	r->budget_ns = w->budget_ns;
	r->elapsed_ns = now - start;
	r->running_ns = tlob_ns_in(w, running_tlob, now);
	r->waiting_ns = tlob_ns_in(w, waiting_tlob, now);
	r->sleeping_ns = tlob_ns_in(w, sleeping_tlob, now);
	r->detect_latency_ns = w->reported ? w->detect_latency_ns : 0;
	r->pid = w->tid;
	r->tgid = w->tgid;
	r->binding_id = w->binding_id;
	r->preemptions = w->preemptions;
	r->sleeps = w->sleeps;
	r->wakeups = w->wakeups;
	r->kind = kind;
	r->verdict = verdict;
	r->abort_reason = reason;
	r->detector = w->reported ? w->detector : TLOB_DETECT_NONE;
	r->state = w->state;
	r->event = event;
	r->pad[0] = 0;
	r->pad[1] = 0;
	__builtin_memcpy(r->comm, w->comm, sizeof(r->comm));
	__builtin_memcpy(r->tag, w->tag, sizeof(r->tag));
	bpf_ringbuf_submit(r, 0);
}

static __always_inline struct tlob_bpf_stats *tlob_stats_of(const struct tlob_win *w)
{
	__u32 id = w->binding_id;

	return bpf_map_lookup_elem(&tlob_stats, &id);
}

/*
 * The deadline check every detector shares: if the window's invariant no
 * longer holds at now and nobody reported it yet, claim the report, record
 * who found it and how late, and emit the violation record.
 */
static __always_inline bool tlob_check(struct tlob_win *w, __u64 now, __u8 detector,
				       __u8 event)
{
	unsigned int state = tlob_state_of(w);
	__u64 deadline;

	if (state >= state_max_tlob || w->reported)
		return false;
	if (ha_invariant_holds_tlob(&w->clk, state, now))
		return false;
	if (__sync_val_compare_and_swap(&w->reported, 0, 1) != 0)
		return false;
	deadline = ha_deadline_tlob(&w->clk, state);
	w->detect_latency_ns = (__s64)(now - deadline);
	w->detector = detector;
	tlob_emit(w, TLOB_REC_VIOLATION, now, TLOB_VERDICT_OVER_BUDGET,
		  TLOB_ABORT_NONE, event);
	return true;
}

/*
 * The arming points of the bpf_timer path. They do nothing themselves;
 * tlob_timer.bpf.o attaches fexit programs to them (to the copies in the
 * uprobe program, the only program that arms). Global and __noinline so
 * they stay real functions with a BTF signature to attach to; every
 * argument is used, and the empty volatile asm gives them a side effect:
 * a call to a pure function whose result is unused would be deleted.
 */
__noinline int tlob_arm(__u32 tid, __u32 slot, __u64 start_ns, __u64 delay_ns)
{
	asm volatile("" ::: "memory");
	return (tid ^ slot ^ start_ns ^ delay_ns) == 0;
}

__noinline int tlob_cancel(__u32 tid, __u32 slot)
{
	asm volatile("" ::: "memory");
	return (tid ^ slot) == 0;
}

static void ha_arm_tlob(struct ha_clocks_tlob *clk, __u64 deadline_ns)
{
	struct tlob_win *w = container_of(clk, struct tlob_win, clk);
	__u64 now = bpf_ktime_get_ns();

	tlob_arm(w->tid, w->slot, clk->start[clk_elapsed_tlob],
		 deadline_ns > now ? deadline_ns - now : 1);
}

static void ha_cancel_tlob(struct ha_clocks_tlob *clk)
{
	struct tlob_win *w = container_of(clk, struct tlob_win, clk);

	tlob_cancel(w->tid, w->slot);
}

#endif /* TLOB_COMMON_BPF_H */
