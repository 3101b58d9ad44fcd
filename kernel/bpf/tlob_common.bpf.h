/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What both BPF objects of the backend share: the per-task window, the
 * maps (tlob_timer.bpf.o reuses the maps of tlob.bpf.o by fd, so they are
 * defined once, here), and the hooks of the engine (../shared/tlob_engine.h, the
 * module's too), which does everything an event does to a window.
 *
 * Concurrency, and why there is no lock: a window is written by the events
 * of its own task only: the uprobe program runs in the task, sched_switch
 * and sched_wakeup under the task's runqueue lock. The uprobe program runs
 * with only migration disabled (6.1), so on PREEMPT_RT the task's own
 * switch-out and switch-in can run in the middle of its START or STOP: a
 * window is published only once in its running state, and STOP claims the
 * window's end (->active, below) before it takes the time, so nothing is
 * booked after the end (tlob_step() with now == 0). The detectors that run
 * elsewhere (the bpf_timer callback, the sampler) only read a window and
 * claim the one violation report with a compare-and-swap on ->reported, so
 * exactly one detector reports each overrun; the end of a window is
 * claimed the same way on ->active, so it is reported exactly once. The
 * claims are the engine's; tlob_cas() below makes them compare-and-swaps.
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

/*
 * One load or store the compiler may not merge or repeat (flags other
 * CPUs read), as the kernel's own macros do it: clang 14's BPF backend
 * cannot lower __atomic_load_n()/__atomic_store_n(). tlob_abi.h and the
 * engine use them.
 */
#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile typeof(x) *)&(x) = (v))

#include "tlob_abi.h"
#include "tlob_bpf.h"
#include "tlob_engine.h"
#include "tlob_stats.bpf.h"

/* Not in vmlinux.h (macros): the task state word's "runnable" value. */
#define TASK_RUNNING	0x0000

/*
 * One window: a task inside one binding's section. A task can be inside
 * the sections of several bindings at once (as in the module, windows are
 * per task and binding), up to TLOB_BPF_NEST; the windows map holds them
 * per task, so a scheduler event finds all of a task's windows with one
 * lookup. The engine's part (automaton, times, identity, the ->active and
 * ->reported claims) is the core; the task's id is core.pid.
 */
struct tlob_win {
	struct tlob_core core;
	__u8 slot;			/* index in struct tlob_task */
	__u8 need_kstack;		/* sleeping or waiting at the deadline */
	__u8 pad[2];
	/* Why it overran (tlob_diag.bpf.h) */
	__u32 dstate;			/* enum tlob_dstate, claimed with tlob_cas() */
	__s32 wait_cpu;			/* the CPU whose waiters it is among; -1: none */
	__u32 wait_slot;
	__u32 unbinds;			/* tlob_unbinds when its binding was last seen */
	__u32 pad2;
	struct tlob_diag diag;
};

struct tlob_task {
	struct tlob_win win[TLOB_BPF_NEST];
	__u32 scan_idx;			/* its index in tlob_scan_tids, + 1; 0: none */
	__u32 pad;
};

/*
 * Two ring buffers per reader (TLOB_BPF_READERS, tlob_bpf.h), so that a
 * violation wakes the reader at once while it reads windows in batches:
 * windows go to its ring in tlob_events, submitted with the ring buffer's
 * own rule (wake the reader only when it has read everything before: the
 * first window after it emptied the ring, not the ones that follow while
 * it waits out its flush interval), or forced when the ring is over half
 * full (the watermark); violations and dropped STARTs go to its ring in
 * tlob_urgent, each forcing a wakeup. The rings are the readers' own: a
 * reader creates them (at the size it wants: the templates' sizes are
 * the defaults) and puts them at its slot; a slot without rings is a
 * reader that is not there.
 */
struct tlob_ring_windows {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, TLOB_BPF_RINGBUF);
};

struct tlob_ring_urgent {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, TLOB_BPF_RINGBUF_URGENT);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, TLOB_BPF_READERS);
	__type(key, __u32);
	__array(values, struct tlob_ring_windows);
} tlob_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, TLOB_BPF_READERS);
	__type(key, __u32);
	__array(values, struct tlob_ring_urgent);
} tlob_urgent SEC(".maps");

/* Who reads at each slot (struct tlob_bpf_reader); for the tool only. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TLOB_BPF_READERS);
	__type(key, __u32);
	__type(value, struct tlob_bpf_reader);
} tlob_readers SEC(".maps");

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

/*
 * Each binding's history of judged windows (tlob_tolerance.h), keyed by
 * binding id: a map of its own, because the tool rewrites a binding's
 * entry in tlob_bindings when its readers change, which would lose a
 * bit the programs pushed in between. Made and removed with the binding.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TLOB_BPF_MAX_BINDINGS);
	__type(key, __u32);
	__type(value, __u64);
} tlob_history SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, TLOB_BPF_MAX_BINDINGS);
	__type(key, __u32);
	__type(value, struct tlob_stats);
} tlob_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TLOB_LOST_NR);
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
		TLOB_ADD(n, 1);
}

static __always_inline bool tlob_active(const struct tlob_win *w)
{
	return tlob_core_active(&w->core);
}

static __always_inline struct tlob_win *tlob_win_of(struct tlob_core *c)
{
	return container_of(c, struct tlob_win, core);
}

/* The engine's hooks (tlob_engine.h). */

/* Windows are shared without a lock: every claim is a compare-and-swap. */
static __always_inline bool tlob_cas(__u32 *p, __u32 old, __u32 new)
{
	return __sync_val_compare_and_swap(p, old, new) == old;
}

static __always_inline __u64 tlob_now(void)
{
	return bpf_ktime_get_ns();
}

/* The reader slots a record of binding @b goes to: its holders, and the readers of all. */
static __always_inline __u32 tlob_readers_of(const struct tlob_bpf_binding *b)
{
	__u32 zero = 0;
	struct tlob_bpf_meta *m = bpf_map_lookup_elem(&tlob_meta, &zero);

	return (b ? READ_ONCE(b->readers) : 0) | (m ? READ_ONCE(m->all_readers) : 0);
}

static __always_inline __u32 tlob_readers_of_id(__u32 id)
{
	return tlob_readers_of(bpf_map_lookup_elem(&tlob_bindings, &id));
}

#include "tlob_diag.bpf.h"

/*
 * A record in the ring of reader @slot in @rings (tlob_events or
 * tlob_urgent), its ring in *rb; NULL when the reader has no ring there
 * (it left meanwhile: nothing to count) or no room (counted for it).
 */
static __always_inline struct tlob_record *tlob_reserve(void *rings, __u32 slot, void **rb)
{
	struct tlob_record *r;

	*rb = bpf_map_lookup_elem(rings, &slot);
	if (!*rb)
		return NULL;
	r = bpf_ringbuf_reserve(*rb, sizeof(*r), 0);
	if (!r)
		tlob_count_lost(TLOB_LOST_READER(slot));
	return r;
}

/* A window's submit flags: the ring's own rule, or forced past the watermark. */
static __always_inline __u64 tlob_window_wakeup(void *rb)
{
	return bpf_ringbuf_query(rb, BPF_RB_AVAIL_DATA) >
	       bpf_ringbuf_query(rb, BPF_RB_RING_SIZE) / 2 ? BPF_RB_FORCE_WAKEUP : 0;
}

/* What tlob_deliver_one() needs of the record to hand out. */
struct tlob_deliver {
	struct tlob_core *c;
	__u64 now;
	__u32 readers;
	__u32 kind;
	__u32 event;
};

/*
 * Reader @i's copy of the record, if it is one of the binding's readers.
 * A bpf_loop() callback: the verifier checks it once per call of
 * tlob_emit(), where a loop of TLOB_BPF_READERS iterations would be
 * checked once per iteration at each of the engine's calls (and every
 * load of the programs would take that much longer).
 */
static long tlob_deliver_one(__u32 i, void *data)
{
	struct tlob_deliver *d = data;
	struct tlob_record *r;
	void *rb;

	if (i >= TLOB_BPF_READERS)
		return 1;
	if (!(d->readers & (1U << i)))
		return 0;
	if (d->kind != TLOB_REC_WINDOW) {
		r = tlob_reserve(&tlob_urgent, i, &rb);
		if (r) {
			tlob_record_fill(r, d->c, d->kind, d->event, d->now);
			bpf_ringbuf_submit(r, BPF_RB_FORCE_WAKEUP);
		}
	} else {
		r = tlob_reserve(&tlob_events, i, &rb);
		if (r) {
			tlob_record_fill(r, d->c, d->kind, d->event, d->now);
			bpf_ringbuf_submit(r, tlob_window_wakeup(rb));
		}
	}
	/* No reader above this one: done. */
	return !(d->readers >> i >> 1);
}

/*
 * Each reader of the window's binding gets the record in its own ring:
 * filled once per reader (a handful), never on a scheduler event that
 * ends nothing, so N readers cost the scheduler path what one does.
 */
static __always_inline void tlob_emit(struct tlob_core *c, unsigned int kind,
				      unsigned int event, __u64 now)
{
	struct tlob_deliver d = {
		.c = c,
		.now = now,
		.readers = tlob_readers_of_id(c->binding_id),
		.kind = kind,
		.event = event,
	};

	/* A violation's diagnosis still pending goes out before the window. */
	if (kind == TLOB_REC_WINDOW)
		tlob_diag_end(tlob_win_of(c), event);
	if (d.readers)
		bpf_loop(TLOB_BPF_READERS, tlob_deliver_one, &d, 0);
	/* After its violation: why the window overran. */
	if (kind == TLOB_REC_VIOLATION)
		tlob_diag_violation(tlob_win_of(c), event);
}

/*
 * Per-binding statistics of an ended window, as the module counts them,
 * and the binding's history (tlob_tolerance.h). Windows of one binding
 * end on several CPUs without a common lock: the history takes the
 * verdict by compare-and-swap, a few tries (a push lost to a storm of
 * ends on every CPU at once is one window's bit, never a wrong word).
 */
static __always_inline void tlob_account(struct tlob_core *c, __u64 elapsed_ns)
{
	__u32 id = c->binding_id;
	struct tlob_stats *st = bpf_map_lookup_elem(&tlob_stats, &id);
	__u64 *h = bpf_map_lookup_elem(&tlob_history, &id);
	__u64 old;
	int i;

	if (h && tlob_tolerance_judged(c->verdict)) {
		for (i = 0; i < 4; i++) {
			old = READ_ONCE(*h);
			if (__sync_val_compare_and_swap(h, old,
							tlob_history_push(old, c->verdict)) == old)
				break;
		}
	}
	if (st)
		tlob_stats_add_atomic(st, c->verdict, tlob_core_tolerated(c), elapsed_ns);
}

/* Whether a violation being reported passes its binding's tolerance. */
static __always_inline bool tlob_react_due(struct tlob_core *c)
{
	__u32 id = c->binding_id;
	const struct tlob_bpf_binding *b = bpf_map_lookup_elem(&tlob_bindings, &id);
	__u64 *h = bpf_map_lookup_elem(&tlob_history, &id);

	if (!b)
		return true;
	return tlob_tolerance_reached(h ? READ_ONCE(*h) : 0, b->tol_k, b->tol_w);
}

/* Nothing is traced per transition here: the records say it all. */
static __always_inline void tlob_on_step(struct tlob_core *c, unsigned int curr,
					 unsigned int event, unsigned int next)
{
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
	struct tlob_win *w = tlob_win_of(container_of(clk, struct tlob_core, clk));
	__u64 now = bpf_ktime_get_ns();

	tlob_arm(w->core.pid, w->slot, clk->start[clk_elapsed_tlob],
		 deadline_ns > now ? deadline_ns - now : 1);
}

static void ha_cancel_tlob(struct ha_clocks_tlob *clk)
{
	struct tlob_win *w = tlob_win_of(container_of(clk, struct tlob_core, clk));

	tlob_cancel(w->core.pid, w->slot);
}

/*
 * Sampling path: a due time (*@due: no deadline comes before it) lowered
 * to @deadline, unless it is later. Bounded retries; if other CPUs keep
 * changing it, 0 (a check due now, which sets it right) rather than a
 * later value that could hide this deadline.
 */
static __always_inline void tlob_lower_due(__u64 *due, __u64 deadline)
{
	__u64 cur = READ_ONCE(*due), old;
	int i;

	for (i = 0; i < 4; i++) {
		if (deadline >= cur)
			return;
		old = __sync_val_compare_and_swap(due, cur, deadline);
		if (old == cur)
			return;
		cur = old;
	}
	WRITE_ONCE(*due, 0);
}

#include "tlob_supervise.bpf.h"
#include "tlob_alive.bpf.h"
#include "tlob_logic.bpf.h"

#endif /* TLOB_COMMON_BPF_H */
