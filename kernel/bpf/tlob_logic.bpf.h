/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Logical supervision in the BPF backend (`l` bindings, a user's model),
 * as the module's tlob_logic.c runs it: the binding's table (struct
 * tlob_logic_table, checked by the tool's tlob_logic_check() and handed
 * over in tlob_logic_tables) and one uprobe per event, its index in the
 * attach cookie. An instance is one process (per=process) or one task
 * (per=task), begun by its first event in the table's initial state; an
 * event moves it along its state's edge (the step is the module's,
 * ../shared/tlob_logic_step.h); an event its state has no edge for ends it
 * ORDER, one outside the edge's guard TIMING; a state held until the
 * clock reaches its invariant ends it TIMING with no event, found by its
 * bpf_timer (stock kernels, tlob_timer.bpf.c) or the sampler (PREEMPT_RT),
 * or by the next event, which then begins a new instance. Exit and exec
 * end it OK in a final state, else INCOMPLETE; unbind and disable end it
 * ABORTED.
 *
 * Concurrency, and why there is no lock (tlob_supervise.bpf.h): an
 * instance's state and clock start are one 64-bit word, moved by
 * compare-and-swap. An event steps a copy of the word and publishes it
 * only if the word did not change meanwhile, else it steps again from
 * the new one; whoever ends the instance swaps the word to
 * TLOB_LOGIC_ENDED first, so an instance ends once, with one record.
 */
#ifndef TLOB_LOGIC_BPF_H
#define TLOB_LOGIC_BPF_H

#include "tlob_logic_step.h"

/* The word: the state above, the clock's start below (ns: 2^58 is 9 years of uptime). */
#define TLOB_LOGIC_CLOCK_BITS	58
#define TLOB_LOGIC_CLOCK_MASK	((1ULL << TLOB_LOGIC_CLOCK_BITS) - 1)
#define TLOB_LOGIC_WORD(state, clock) \
	(((__u64)(state) << TLOB_LOGIC_CLOCK_BITS) | ((clock) & TLOB_LOGIC_CLOCK_MASK))
#define TLOB_LOGIC_ENDED	(~0ULL)

struct tlob_logic_inst {
	__u64 start_ns;		/* its first event; its timer's check of identity */
	__u64 word;		/* TLOB_LOGIC_WORD(state, clock start), or ENDED */
	__u64 events;		/* allowed events taken */
	__u32 binding_id;
	__u32 pid;		/* per=task: the task; per=process: the tgid */
	__u32 tgid;
	__u8 per_task;
	__u8 pad[3];
	char comm[TLOB_COMM_LEN];	/* of the task that began it */
};

/* Each logical binding's table, by binding id (the loader writes it at bind). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TLOB_BPF_MAX_BINDINGS);
	__type(key, __u32);
	__type(value, struct tlob_logic_table);
} tlob_logic_tables SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TLOB_BPF_INSTANCES);
	__type(key, __u64);
	__type(value, struct tlob_logic_inst);
} tlob_logic_insts SEC(".maps");

/* Each logical binding's statistics, per CPU, by binding id (the loader sums them). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, TLOB_BPF_MAX_BINDINGS);
	__type(key, __u32);
	__type(value, struct tlob_logic_stats);
} tlob_logic_stats SEC(".maps");

/* Instances now, and (sampling path) when the earliest invariant runs out. */
__u64 tlob_logic_nr;
__u64 tlob_logic_next_due = ~0ULL;

/* A timer is never set this far ahead: an invariant up to 2^64 - 1 ns is never reached. */
#define TLOB_LOGIC_DUE_MAX	(TLOB_LOGIC_CLOCK_MASK >> 1)

static __always_inline struct tlob_logic_pos tlob_logic_pos_of(__u64 w)
{
	struct tlob_logic_pos p = {
		.clock_ns = w & TLOB_LOGIC_CLOCK_MASK,
		.state = w >> TLOB_LOGIC_CLOCK_BITS,
	};

	return p;
}

/* How an instance ends (a record): at @now, in the state of @word. */
struct tlob_logic_cut {
	__u64 now;
	__u64 word;
	__u32 verdict;
	__u32 event;		/* the event refused, TLOB_LOGIC_NONE: none */
	__u32 reason;		/* enum tlob_abort_reason */
	__u32 clocked;		/* the model has a clock */
	__u32 final;		/* exit, exec: whether its state is final */
};

/* One logical record of @l on its way to the readers (a bpf_loop() callback's data). */
struct tlob_logic_what {
	const struct tlob_logic_inst *l;
	const struct tlob_logic_cut *cut;
	__u32 readers;
	__u8 react, urgent;
};

static long tlob_logic_deliver_one(__u32 i, void *data)
{
	const struct tlob_logic_what *w = data;
	const struct tlob_logic_cut *cut = w->cut;
	const struct tlob_logic_inst *l = w->l;
	struct tlob_logic_pos pos = tlob_logic_pos_of(cut->word);
	struct tlob_logic_record *r;
	__u64 flags;

	r = tlob_sup_reserve(i, w->readers, w->urgent, sizeof(*r), &flags);
	if (!r)
		return tlob_sup_next(i, w->readers);
	/* Every byte: a ring's slot is not zeroed. */
	__builtin_memset(r, 0, sizeof(*r));
	r->start_ns = l->start_ns;
	r->end_ns = cut->now;
	r->events = l->events;
	if (cut->clocked)
		r->clock_ns = cut->now - pos.clock_ns;
	r->pid = l->pid;
	r->tgid = l->tgid;
	r->binding_id = l->binding_id;
	r->verdict = cut->verdict;
	r->state = pos.state;
	r->event = cut->event;
	r->react = w->react;
	r->abort_reason = cut->reason;
	__builtin_memcpy(r->comm, l->comm, TLOB_COMM_LEN);
	tlob_sup_tag(l->binding_id, r->tag);
	bpf_ringbuf_submit(r, flags);
	return tlob_sup_next(i, w->readers);
}

/*
 * The record of @l's end (@cut), to the binding's readers, and its
 * statistics; a judged end (not ABORTED) enters the binding's history and
 * a violation that passes its tolerance is reacted to. A subprogram of its
 * own, verified once.
 */
static __noinline int tlob_logic_report(const struct tlob_logic_inst *l,
					const struct tlob_logic_cut *cut)
{
	struct tlob_logic_what w = { .l = l, .cut = cut };
	struct tlob_logic_stats *st;
	__u32 id = l->binding_id;
	__u32 v = cut->verdict;

	w.urgent = v != TLOB_VERDICT_OK && v != TLOB_VERDICT_ABORTED;
	if (v != TLOB_VERDICT_ABORTED)
		w.react = tlob_sup_history(id, 1, w.urgent);
	st = bpf_map_lookup_elem(&tlob_logic_stats, &id);
	if (st) {
		if (v == TLOB_VERDICT_ABORTED)
			TLOB_ADD(&st->aborted, 1);
		else if (v == TLOB_VERDICT_OK)
			TLOB_ADD(&st->completed, 1);
		else if (v == TLOB_VERDICT_ORDER)
			TLOB_ADD(&st->order, 1);
		else if (v == TLOB_VERDICT_TIMING)
			TLOB_ADD(&st->timing, 1);
		else
			TLOB_ADD(&st->incomplete, 1);
		if (w.urgent && !w.react)
			TLOB_ADD(&st->tolerated, 1);
	}
	w.readers = tlob_readers_of_id(id);
	if (w.readers)
		bpf_loop(TLOB_BPF_READERS, tlob_logic_deliver_one, &w, 0);
	return 0;
}

/*
 * End @l (@key), whose word read @w, with @cut: claimed by swapping the
 * word to ENDED, so exactly one end records it. False: the word changed
 * (an event stepped it, or another end came first).
 */
static __always_inline bool tlob_logic_finish(struct tlob_logic_inst *l, __u64 key, __u64 w,
					      struct tlob_logic_cut *cut)
{
	if (w == TLOB_LOGIC_ENDED ||
	    __sync_val_compare_and_swap(&l->word, w, TLOB_LOGIC_ENDED) != w)
		return false;
	cut->word = w;
	tlob_logic_report(l, cut);
	bpf_map_delete_elem(&tlob_logic_insts, &key);
	__sync_fetch_and_add(&tlob_logic_nr, -1);
	return true;
}

/*
 * The invariant timer's arming point (bpf_timer path), like tlob_arm():
 * tlob_timer.bpf.o's fexit program on it arms instance @key's timer (begun
 * at @start_ns) @delay_ns from now, or cancels it when @delay_ns is 0.
 */
__noinline int tlob_logic_arm(__u64 key, __u64 start_ns, __u64 delay_ns)
{
	asm volatile("" ::: "memory");
	return (key ^ start_ns ^ delay_ns) == 0;
}

/*
 * @l, at @now in @pos (the word it holds): ended TIMING if its state's
 * invariant ran out (a late timer or sample); else the time it runs out
 * (0: none, or it ended).
 */
static __always_inline __u64 tlob_logic_check(struct tlob_logic_inst *l, __u64 key, __u64 now)
{
	const struct tlob_logic_table *t;
	struct tlob_logic_cut cut = {
		.now = now,
		.verdict = TLOB_VERDICT_TIMING,
		.event = TLOB_LOGIC_NONE,
	};
	struct tlob_logic_pos pos;
	__u32 id = l->binding_id;
	__u64 w = READ_ONCE(l->word);

	t = bpf_map_lookup_elem(&tlob_logic_tables, &id);
	if (!t || w == TLOB_LOGIC_ENDED)
		return 0;
	pos = tlob_logic_pos_of(w);
	if (!tlob_logic_overdue(t, &pos, now))
		return tlob_logic_due(t, &pos, TLOB_LOGIC_DUE_MAX);
	cut.clocked = !!t->clock[0];
	tlob_logic_finish(l, key, w, &cut);
	return 0;
}

/*
 * @b's (@id) instance for @tid of @tgid, or a new one begun at @now in
 * @t's initial state; NULL when it has none and none is free (counted).
 */
static __always_inline struct tlob_logic_inst *
tlob_logic_get(const struct tlob_bpf_binding *b, const struct tlob_logic_table *t, __u32 id,
	       __u64 key, __u32 tid, __u32 tgid, __u64 now)
{
	struct tlob_logic_inst *l = bpf_map_lookup_elem(&tlob_logic_insts, &key);
	struct tlob_logic_stats *st;
	bool per_task;

	if (l)
		return l;
	per_task = b->flags & TLOB_BIND_PER_TASK;
	{
		struct tlob_logic_inst n = {
			.start_ns = now,
			.word = TLOB_LOGIC_WORD(t->initial, now),
			.binding_id = id,
			.pid = per_task ? tid : tgid,
			.tgid = tgid,
			.per_task = per_task,
		};

		bpf_get_current_comm(n.comm, sizeof(n.comm));
		st = bpf_map_lookup_elem(&tlob_logic_stats, &id);
		if (!bpf_map_update_elem(&tlob_logic_insts, &key, &n, BPF_NOEXIST)) {
			__sync_fetch_and_add(&tlob_logic_nr, 1);
			if (st)
				TLOB_ADD(&st->instances, 1);
		}
	}
	/* Another thread of the process began it first: its instance. */
	l = bpf_map_lookup_elem(&tlob_logic_insts, &key);
	if (!l && st)
		TLOB_ADD(&st->dropped, 1);
	return l;
}

/*
 * Event @event of logical binding @b (@id), hit by @tid of @tgid in the
 * task (the uprobe program). A few tries: each reads the instance's word,
 * steps a copy, and publishes it if the word is unchanged; an instance
 * past its state's invariant ends first and the event begins a new one.
 * A subprogram: its frame is not the uprobe program's (the verifier's
 * 512 bytes are for the whole chain down to the readers' delivery).
 * Unused in tlob_timer.bpf.o, which includes it too.
 */
static __noinline __attribute__((unused)) int
tlob_logic_event(const struct tlob_bpf_binding *b, __u32 id, __u32 event, __u32 tid, __u32 tgid)
{
	struct tlob_logic_cut cut = { .reason = TLOB_ABORT_NONE };
	const struct tlob_logic_table *t;
	struct tlob_logic_stats *st;
	struct tlob_logic_inst *l;
	struct tlob_logic_pos pos;
	__u64 key, now, w, due, held;
	int i, r;

	t = bpf_map_lookup_elem(&tlob_logic_tables, &id);
	if (!t)
		return 0;
	/*
	 * The cookie's check bounds it already, but the compiler then drops
	 * the step's own and the verifier loses the bound on the way: one it
	 * sees, for the table's index.
	 */
	barrier_var(event);
	event &= TLOB_LOGIC_EVENTS_MAX - 1;
	key = TLOB_INST_KEY(id, b->flags & TLOB_BIND_PER_TASK ? tid : tgid);
	now = bpf_ktime_get_ns();
	cut.now = now;
	cut.clocked = !!t->clock[0];
	for (i = 0; i < 4; i++) {
		l = tlob_logic_get(b, t, id, key, tid, tgid, now);
		if (!l)
			return 0;
		w = READ_ONCE(l->word);
		if (w == TLOB_LOGIC_ENDED)
			continue;	/* ending on another CPU: gone by the next try */
		pos = tlob_logic_pos_of(w);
		if (tlob_logic_overdue(t, &pos, now)) {
			cut.verdict = TLOB_VERDICT_TIMING;
			cut.event = TLOB_LOGIC_NONE;
			tlob_logic_finish(l, key, w, &cut);
			continue;
		}
		held = tlob_logic_inv_of(t, pos.state);
		r = tlob_logic_step(t, &pos, event, now);
		if (r == TLOB_LOGIC_TOOK) {
			if (__sync_val_compare_and_swap(&l->word, w,
							TLOB_LOGIC_WORD(pos.state, pos.clock_ns)) != w)
				continue;
			__sync_fetch_and_add(&l->events, 1);
			st = bpf_map_lookup_elem(&tlob_logic_stats, &id);
			if (st)
				TLOB_ADD(&st->events, 1);
			/*
			 * The new state's invariant; or none, the timer cancelled if
			 * the state left had one (only an edge into a state with an
			 * invariant arms it): no fexit run on an edge between states
			 * without, as in a model with no clock.
			 */
			due = tlob_logic_due(t, &pos, TLOB_LOGIC_DUE_MAX);
			if (due || held)
				tlob_logic_arm(key, l->start_ns,
					       due ? (due > now ? due - now : 1) : 0);
			if (due)
				tlob_lower_due(&tlob_logic_next_due, due);
			return 0;
		}
		cut.verdict = r == TLOB_LOGIC_NO_EDGE ? TLOB_VERDICT_ORDER : TLOB_VERDICT_TIMING;
		cut.event = event;
		if (tlob_logic_finish(l, key, w, &cut))
			return 0;
	}
	return 0;
}

static long tlob_logic_check_one(struct bpf_map *map, __u64 *key, struct tlob_logic_inst *l,
				 struct tlob_sup_walk *wk)
{
	__u64 due = tlob_logic_check(l, *key, wk->now);

	if (due && due < wk->next)
		wk->next = due;
	return 0;
}

/* Sampling path: the instances past their invariant, once one is due. */
static __always_inline void tlob_logic_scan_due(__u64 now)
{
	struct tlob_sup_walk wk = { .now = now, .next = ~0ULL };

	if (!READ_ONCE(tlob_logic_nr) || !tlob_due_claim(&tlob_logic_next_due, now))
		return;
	bpf_for_each_map_elem(&tlob_logic_insts, tlob_logic_check_one, &wk, 0);
	tlob_lower_due(&tlob_logic_next_due, wk.next);
}

/* End @l (@key) for @wk's reason: exit and exec judge it, unbind and disable abort it. */
static __always_inline void tlob_logic_end(struct tlob_logic_inst *l, __u64 key,
					   const struct tlob_sup_walk *wk)
{
	struct tlob_logic_cut cut = { .now = wk->now, .event = TLOB_LOGIC_NONE,
				      .reason = wk->reason };
	const struct tlob_logic_table *t;
	__u32 id = l->binding_id;
	__u64 w;
	int i;

	t = bpf_map_lookup_elem(&tlob_logic_tables, &id);
	for (i = 0; i < 4; i++) {
		w = READ_ONCE(l->word);
		if (w == TLOB_LOGIC_ENDED)
			return;
		/* Exit and exec judge where it stands; unbind and disable do not. */
		if (!t || wk->reason == TLOB_ABORT_UNBIND || wk->reason == TLOB_ABORT_DISABLE)
			cut.verdict = TLOB_VERDICT_ABORTED;
		else if (t->final & (1U << (tlob_logic_pos_of(w).state & 31)))
			cut.verdict = TLOB_VERDICT_OK;
		else
			cut.verdict = TLOB_VERDICT_INCOMPLETE;
		cut.clocked = t && t->clock[0];
		if (tlob_logic_finish(l, key, w, &cut))
			return;
	}
}

static long tlob_logic_gone_one(struct bpf_map *map, __u64 *key, struct tlob_logic_inst *l,
				struct tlob_sup_walk *wk)
{
	if (tlob_sup_ends(wk, l->binding_id))
		tlob_logic_end(l, *key, wk);
	return 0;
}

/*
 * End binding @binding_id's instances (unbind), or every binding's (0:
 * disable), with @reason: a walk of the instances.
 */
static __always_inline void tlob_logic_gone(__u32 binding_id, __u32 reason)
{
	struct tlob_sup_walk wk = tlob_sup_ending(binding_id, 0, 0, false, reason);

	if (READ_ONCE(tlob_logic_nr))
		bpf_for_each_map_elem(&tlob_logic_insts, tlob_logic_gone_one, &wk, 0);
}

#endif /* TLOB_LOGIC_BPF_H */
