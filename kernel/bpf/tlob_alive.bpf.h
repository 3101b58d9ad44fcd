/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Alive supervision in the BPF backend (`a` bindings, models/alive.dot):
 * a checkpoint must be hit expect - margin .. expect + margin times per
 * reference cycle, per process or per task, as the module's tlob_alive.c
 * does it. The cycles, their grid and their verdict are the shared
 * ../shared/tlob_alive_cycle.h (the model's guard on cycle_end and its
 * invariant, through alive_model_ha.h); the statistics and the tolerance
 * are the module's helpers too (tlob_alive_stats_add(), made atomic in
 * tlob_stats.bpf.h; tlob_history_push_n()). Included by both objects: the
 * uprobe program counts checkpoints and begins instances (tlob.bpf.c), the
 * cycle timer judges them (tlob_timer.bpf.c), and on the sampling path
 * (PREEMPT_RT, no bpf_timer) the sampler does.
 *
 * Concurrency, and why there is no lock (as for windows,
 * tlob_common.bpf.h: 6.1 refuses bpf_spin_lock in uprobe and perf_event
 * programs): an instance's cycle and its count are one 64-bit word
 * (TLOB_ALIVE_CYCLE()/_COUNT()), moved only by compare-and-swap. A
 * checkpoint adds one to the count of the cycle it is in; one whose time
 * is past the word's cycle moves the word to its own cycle, count 1, and
 * so claims the judging of the cycles it left; a detector (the timer, the
 * sampler) moves it to the cycle of its time, count 0, and claims them
 * the same way; the end of an instance moves it to TLOB_ALIVE_ENDED.
 * Every cycle is judged once, by whoever moved the word past it, with the
 * count the word held: no checkpoint counts in two cycles, none is lost.
 */
#ifndef TLOB_ALIVE_BPF_H
#define TLOB_ALIVE_BPF_H

#include "tlob_alive_judging.h"

/* The word: the cycle's index above, its checkpoints below (saturated). */
#define TLOB_ALIVE_COUNT_BITS	24
#define TLOB_ALIVE_COUNT_MAX	((1ULL << TLOB_ALIVE_COUNT_BITS) - 1)
#define TLOB_ALIVE_CYCLE(w)	((w) >> TLOB_ALIVE_COUNT_BITS)
#define TLOB_ALIVE_COUNT(w)	((__u32)((w) & TLOB_ALIVE_COUNT_MAX))
#define TLOB_ALIVE_WORD(c, n)	(((__u64)(c) << TLOB_ALIVE_COUNT_BITS) | (n))
#define TLOB_ALIVE_ENDED	(~0ULL)

/* An instance: one process (per=process) or one task (per=task) of a binding. */
struct tlob_alive_inst {
	__u64 begin_ns;		/* its first checkpoint: cycle 0's start */
	__u64 word;		/* TLOB_ALIVE_WORD(cycle, checkpoints), or ENDED */
	__u64 period_ns;	/* the binding's, as at the begin */
	__u32 binding_id;
	__u32 pid;		/* per=task: the task; per=process: the tgid */
	__u32 tgid;
	__u32 expect_min, expect_max;
	__u8 per_task;
	__u8 pad[3];
	char comm[TLOB_COMM_LEN];	/* of the task that began it */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TLOB_BPF_INSTANCES);
	__type(key, __u64);
	__type(value, struct tlob_alive_inst);
} tlob_alive_insts SEC(".maps");

/* Each alive binding's statistics, per CPU, keyed by binding id (the loader sums them). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, TLOB_BPF_MAX_BINDINGS);
	__type(key, __u32);
	__type(value, struct tlob_alive_stats);
} tlob_alive_stats SEC(".maps");

/* Instances now: exit, exec and the sampler look further only when some are. */
__u64 tlob_alive_nr;
/*
 * Sampling path: no instance's cycle ends before this (~0: none known),
 * as tlob_next_due for windows: a begin lowers it, a walk sets it to the
 * earliest end it saw.
 */
__u64 tlob_alive_next_due = ~0ULL;

/* When @a's cycle @cycle ends, as the model's invariant has it (one ns past it). */
static __always_inline __u64 tlob_alive_due(const struct tlob_alive_inst *a, __u64 cycle)
{
	struct tlob_alive_judging j = { .period = a->period_ns };

	j.clk.start[clk_cycle_alive] = a->begin_ns + cycle * a->period_ns;
	return ha_deadline_alive(&j.clk, supervised_alive);
}

/* One alive record of @a on its way to the readers (a bpf_loop() callback's data). */
struct tlob_alive_what {
	const struct tlob_alive_inst *a;
	__u64 start_ns, end_ns;
	__s64 latency_ns;
	__u32 checkpoints, cycles;
	__u32 readers;
	__u8 verdict, detector, react, reason;
};

static long tlob_alive_deliver_one(__u32 i, void *data)
{
	const struct tlob_alive_what *w = data;
	const struct tlob_alive_inst *a = w->a;
	struct tlob_alive_record *r;
	__u64 flags;

	r = tlob_sup_reserve(i, w->readers, w->verdict == TLOB_VERDICT_TOO_FEW ||
			     w->verdict == TLOB_VERDICT_TOO_MANY, sizeof(*r), &flags);
	if (!r)
		return tlob_sup_next(i, w->readers);
	/* Every byte: a ring's slot is not zeroed. */
	__builtin_memset(r, 0, sizeof(*r));
	r->start_ns = w->start_ns;
	r->end_ns = w->end_ns;
	r->period_ns = a->period_ns;
	r->detect_latency_ns = w->latency_ns;
	r->pid = a->pid;
	r->tgid = a->tgid;
	r->binding_id = a->binding_id;
	r->checkpoints = w->checkpoints;
	r->expect_min = a->expect_min;
	r->expect_max = a->expect_max;
	r->cycles = w->cycles;
	r->verdict = w->verdict;
	r->detector = w->detector;
	r->react = w->react;
	r->abort_reason = w->reason;
	__builtin_memcpy(r->comm, a->comm, TLOB_COMM_LEN);
	tlob_sup_tag(a->binding_id, r->tag);
	bpf_ringbuf_submit(r, flags);
	return tlob_sup_next(i, w->readers);
}

/* @w to the readers of @w->a's binding. */
static __always_inline void tlob_alive_send(struct tlob_alive_what *w)
{
	w->readers = tlob_readers_of_id(w->a->binding_id);
	if (w->readers)
		bpf_loop(TLOB_BPF_READERS, tlob_alive_deliver_one, w, 0);
}

/*
 * Judge @cut->cycles cycles of @a from cycle @cut->first on, which ended
 * with @cut->checkpoints (the first; the others went by empty when more):
 * the model's verdict, the binding's history and statistics, the record.
 * A subprogram of its own, verified once.
 */
struct tlob_alive_cut {
	__u64 first;		/* the first cycle judged */
	__u64 cycles;		/* how many: after the first, empty ones */
	__u64 now;
	__u32 checkpoints;	/* in the first */
	__u32 detector;
};

static __noinline int tlob_alive_judge(const struct tlob_alive_inst *a,
				       const struct tlob_alive_cut *cut)
{
	struct tlob_alive_what w = { .a = a, .checkpoints = cut->checkpoints,
				     .detector = cut->detector };
	__u64 cycles = cut->cycles;
	struct tlob_alive_stats *st;
	__u32 id = a->binding_id;
	bool bad;

	w.start_ns = a->begin_ns + cut->first * a->period_ns;
	w.end_ns = w.start_ns + cycles * a->period_ns;
	w.latency_ns = (__s64)(cut->now - w.end_ns);
	w.cycles = cycles < 0xffffffffULL ? cycles : 0xffffffffU;
	w.verdict = tlob_alive_judge_cycle(w.start_ns, a->period_ns, cut->checkpoints,
					   a->expect_min, a->expect_max, w.end_ns);
	bad = w.verdict != TLOB_VERDICT_OK;
	/* The cycles before the last enter the history first: they count towards K. */
	w.react = tlob_sup_history(id, w.cycles, bad);
	st = bpf_map_lookup_elem(&tlob_alive_stats, &id);
	if (st)
		tlob_alive_stats_add_atomic(st, w.verdict, w.cycles, w.checkpoints, w.react);
	tlob_alive_send(&w);
	return 0;
}

/*
 * The word of @a moved from @w to @to (a cycle after @w's, or ENDED): the
 * mover judges the cycles it left, those that ended by @now: @w's with its
 * checkpoints, then the ones after it up to @upto (exclusive) as one empty
 * record.
 */
static __always_inline void tlob_alive_left(const struct tlob_alive_inst *a, __u64 w,
					    __u64 upto, __u64 now, __u32 detector)
{
	struct tlob_alive_cut cut = {
		.first = TLOB_ALIVE_CYCLE(w),
		.cycles = 1,
		.now = now,
		.checkpoints = TLOB_ALIVE_COUNT(w),
		.detector = detector,
	};

	if (upto <= cut.first)
		return;
	tlob_alive_judge(a, &cut);
	if (upto > cut.first + 1) {
		cut.first++;
		cut.cycles = upto - cut.first;
		cut.checkpoints = 0;
		tlob_alive_judge(a, &cut);
	}
}

/*
 * A detector at @now (the cycle timer, the sampler): every cycle of @a
 * that ended by then is judged. Returns when the cycle under way ends
 * (0: the instance ended).
 */
static __always_inline __u64 tlob_alive_catch_up(struct tlob_alive_inst *a, __u64 now,
						 __u32 detector)
{
	__u64 k = tlob_alive_cycle_at(a->begin_ns, a->period_ns, now), w;
	int i;

	for (i = 0; i < 4; i++) {
		w = READ_ONCE(a->word);
		if (w == TLOB_ALIVE_ENDED)
			return 0;
		if (TLOB_ALIVE_CYCLE(w) >= k)
			return tlob_alive_due(a, TLOB_ALIVE_CYCLE(w));
		if (__sync_val_compare_and_swap(&a->word, w, TLOB_ALIVE_WORD(k, 0)) == w) {
			tlob_alive_left(a, w, k, now, detector);
			return tlob_alive_due(a, k);
		}
	}
	/* Checkpoints kept moving it: they judge what ended; look again soon. */
	return now + a->period_ns;
}

/*
 * The end of @a at @now (exit, exec, unbind, disable), claimed once:
 * what ended by then is judged, the cycle under way recorded aborted
 * with its checkpoints so far, and the instance goes.
 */
static __always_inline void tlob_alive_end(struct tlob_alive_inst *a, __u64 key, __u64 now,
					   __u32 reason)
{
	__u64 k = tlob_alive_cycle_at(a->begin_ns, a->period_ns, now), w;
	struct tlob_alive_what what = { .a = a, .verdict = TLOB_VERDICT_ABORTED,
					.reason = reason, .cycles = 1 };
	struct tlob_alive_stats *st;
	__u32 id = a->binding_id, n = 0;
	int i;

	for (i = 0; i < 8; i++) {
		w = READ_ONCE(a->word);
		if (w == TLOB_ALIVE_ENDED)
			return;
		if (__sync_val_compare_and_swap(&a->word, w, TLOB_ALIVE_ENDED) == w)
			break;
	}
	if (i == 8)
		return;
	if (TLOB_ALIVE_CYCLE(w) >= k) {
		k = TLOB_ALIVE_CYCLE(w);
		n = TLOB_ALIVE_COUNT(w);
	} else {
		tlob_alive_left(a, w, k, now, TLOB_DETECT_STOP);
	}
	what.start_ns = a->begin_ns + k * a->period_ns;
	what.end_ns = now;
	what.checkpoints = n;
	st = bpf_map_lookup_elem(&tlob_alive_stats, &id);
	if (st)
		TLOB_ADD(&st->aborted, 1);
	tlob_alive_send(&what);
	bpf_map_delete_elem(&tlob_alive_insts, &key);
	__sync_fetch_and_add(&tlob_alive_nr, -1);
}

static long tlob_alive_check_one(struct bpf_map *map, __u64 *key, struct tlob_alive_inst *a,
				 struct tlob_sup_walk *wk)
{
	__u64 due = tlob_alive_catch_up(a, wk->now, wk->detector);

	if (due && due < wk->next)
		wk->next = due;
	return 0;
}

/*
 * Sampling path: judge the cycles that ended, once one is due; one
 * checker per due time, which leaves the earliest end to come.
 */
static __always_inline void tlob_alive_scan_due(__u64 now, __u32 detector)
{
	struct tlob_sup_walk wk = { .now = now, .next = ~0ULL, .detector = detector };

	if (!READ_ONCE(tlob_alive_nr) || !tlob_due_claim(&tlob_alive_next_due, now))
		return;
	bpf_for_each_map_elem(&tlob_alive_insts, tlob_alive_check_one, &wk, 0);
	tlob_lower_due(&tlob_alive_next_due, wk.next);
}

static long tlob_alive_gone_one(struct bpf_map *map, __u64 *key, struct tlob_alive_inst *a,
				struct tlob_sup_walk *wk)
{
	if (tlob_sup_ends(wk, a->binding_id))
		tlob_alive_end(a, *key, wk->now, wk->reason);
	return 0;
}

/*
 * End binding @binding_id's instances (unbind), or every binding's (0:
 * disable), with @reason: a walk of the instances.
 */
static __always_inline void tlob_alive_gone(__u32 binding_id, __u32 reason)
{
	struct tlob_sup_walk wk = tlob_sup_ending(binding_id, 0, 0, false, reason);

	if (READ_ONCE(tlob_alive_nr))
		bpf_for_each_map_elem(&tlob_alive_insts, tlob_alive_gone_one, &wk, 0);
}

/*
 * The cycle timer's arming point (bpf_timer path): like tlob_arm()
 * (tlob_common.bpf.h), nothing itself; tlob_timer.bpf.o's fexit program
 * on it arms the timer of instance @key, begun at @begin_ns, to fire
 * @delay_ns from now, and the callback re-arms it at each cycle's end.
 */
__noinline int tlob_alive_arm(__u64 key, __u64 begin_ns, __u64 delay_ns)
{
	asm volatile("" ::: "memory");
	return (key ^ begin_ns ^ delay_ns) == 0;
}

/*
 * The checkpoint of alive binding @b (@id) hit by @tid of @tgid, in the
 * task (the uprobe program). The first hit of an instance begins it (its
 * cycle timer armed, or on the sampling path its first end made known);
 * every hit counts in the cycle its time falls in, after judging the
 * cycles that ended before it (a late timer or sample: detector
 * CHECKPOINT).
 */
static __always_inline void tlob_alive_checkpoint(const struct tlob_bpf_binding *b, __u32 id,
						  __u32 tid, __u32 tgid)
{
	bool per_task = b->flags & TLOB_BIND_PER_TASK;
	__u64 key = TLOB_INST_KEY(id, per_task ? tid : tgid);
	__u64 now = bpf_ktime_get_ns(), k, w, nw;
	struct tlob_alive_stats *st;
	struct tlob_alive_inst *a;
	int i;

	a = bpf_map_lookup_elem(&tlob_alive_insts, &key);
	if (!a) {
		struct tlob_alive_inst n = {
			.begin_ns = now,
			.word = TLOB_ALIVE_WORD(0, 0),
			.period_ns = b->period_ns,
			.binding_id = id,
			.pid = per_task ? tid : tgid,
			.tgid = tgid,
			.expect_min = b->expect - b->margin,
			.expect_max = b->expect + b->margin,
			.per_task = per_task,
		};

		st = bpf_map_lookup_elem(&tlob_alive_stats, &id);
		if (!n.period_ns)
			return;
		bpf_get_current_comm(n.comm, sizeof(n.comm));
		if (!bpf_map_update_elem(&tlob_alive_insts, &key, &n, BPF_NOEXIST)) {
			__sync_fetch_and_add(&tlob_alive_nr, 1);
			if (st)
				TLOB_ADD(&st->instances, 1);
			tlob_alive_arm(key, now, n.period_ns + 1);
			tlob_lower_due(&tlob_alive_next_due, now + n.period_ns + 1);
		}
		/* Another thread of the process began it first: count there. */
		a = bpf_map_lookup_elem(&tlob_alive_insts, &key);
		if (!a) {
			if (st)
				TLOB_ADD(&st->dropped, 1);
			return;
		}
	}
	k = tlob_alive_cycle_at(a->begin_ns, a->period_ns, now);
	for (i = 0; i < 8; i++) {
		w = READ_ONCE(a->word);
		if (w == TLOB_ALIVE_ENDED)
			return;
		/* A detector with a later clock moved on: count in its cycle. */
		if (TLOB_ALIVE_CYCLE(w) >= k) {
			nw = TLOB_ALIVE_COUNT(w) < TLOB_ALIVE_COUNT_MAX ? w + 1 : w;
			if (__sync_val_compare_and_swap(&a->word, w, nw) == w)
				return;
			continue;
		}
		if (__sync_val_compare_and_swap(&a->word, w, TLOB_ALIVE_WORD(k, 1)) == w) {
			tlob_alive_left(a, w, k, now, TLOB_DETECT_CHECKPOINT);
			return;
		}
	}
}

#endif /* TLOB_ALIVE_BPF_H */
