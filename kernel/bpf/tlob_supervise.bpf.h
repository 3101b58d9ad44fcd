/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What alive supervision (tlob_alive.bpf.h) and logical supervision
 * (tlob_logic.bpf.h) do alike in the BPF backend: instances keyed by
 * binding and process or task, a record handed to each reader of its
 * binding, the binding's tolerance history, and the walks of the
 * instances at exit, exec, unbind, disable and, on the sampling path,
 * when an instance's time is due. Included by tlob_common.bpf.h.
 */
#ifndef TLOB_SUPERVISE_BPF_H
#define TLOB_SUPERVISE_BPF_H

/* An instance's key: the binding id above, the pid (per=task) or tgid below. */
#define TLOB_INST_KEY(id, who)	(((__u64)(id) << 32) | (__u32)(who))

/* Instances of each kind at once (a first event that finds none free is dropped). */
#define TLOB_BPF_INSTANCES	256

/*
 * Reader @i's ring for a record of a binding read by @readers: a
 * violation's (@urgent) in its urgent ring, woken at once; anything else
 * in its windows ring, batched as windows are (*@flags: the submit's).
 * NULL: @i is none of them, or has no ring. The records are reserved in
 * the ring and written there by each kind's bpf_loop() callback, never
 * built on the stack: the uprobe program's chain of calls down to that
 * callback must fit the verifier's 512 bytes.
 */
static __always_inline void *tlob_sup_ring(__u32 i, __u32 readers, bool urgent, __u64 *flags)
{
	void *rb;

	if (i >= TLOB_BPF_READERS || !(readers & (1U << i)))
		return NULL;
	if (urgent) {
		*flags = BPF_RB_FORCE_WAKEUP;
		return bpf_map_lookup_elem(&tlob_urgent, &i);
	}
	rb = bpf_map_lookup_elem(&tlob_events, &i);
	*flags = rb ? tlob_window_wakeup(rb) : 0;
	return rb;
}

/*
 * A record of @size bytes reserved in reader @i's ring (tlob_sup_ring()),
 * for the caller to write every byte of and submit with *@flags; NULL
 * when @i is no reader of it, or its ring is full (counted for it).
 */
static __always_inline void *tlob_sup_reserve(__u32 i, __u32 readers, bool urgent, __u64 size,
					      __u64 *flags)
{
	void *rb = tlob_sup_ring(i, readers, urgent, flags), *r;

	if (!rb)
		return NULL;
	r = bpf_ringbuf_reserve(rb, size, 0);
	if (!r)
		tlob_count_lost(TLOB_LOST_READER(i));
	return r;
}

/* A bpf_loop() callback's return after reader @i: 1 (done) past the last reader. */
static __always_inline long tlob_sup_next(__u32 i, __u32 readers)
{
	return i >= TLOB_BPF_READERS || !(readers >> i >> 1);
}

/*
 * @n judged ends of binding @id in a row, each a violation when @bad, into
 * its history (tlob_tolerance.h); whether the last, a violation, passes
 * the binding's tolerance=K/W (the ones before it count towards K). A
 * compare-and-swap, a few tries, as tlob_account() does for windows.
 */
static __always_inline bool tlob_sup_history(__u32 id, __u64 n, bool bad)
{
	const struct tlob_bpf_binding *b = bpf_map_lookup_elem(&tlob_bindings, &id);
	__u64 *h = bpf_map_lookup_elem(&tlob_history, &id);
	__u64 old, history;
	bool react = bad;
	int i;

	if (!h)
		return react;
	for (i = 0; i < 4; i++) {
		old = READ_ONCE(*h);
		history = tlob_history_push_n(old, n - 1, bad);
		react = bad && (!b || tlob_tolerance_reached(history, b->tol_k, b->tol_w));
		if (__sync_val_compare_and_swap(h, old, tlob_history_push_n(history, 1, bad)) == old)
			break;
	}
	return react;
}

/* The binding's tag into @tag (TLOB_TAG_LEN bytes; left as it is without one). */
static __always_inline void tlob_sup_tag(__u32 id, char *tag)
{
	const struct tlob_bpf_binding *b = bpf_map_lookup_elem(&tlob_bindings, &id);

	if (b)
		__builtin_memcpy(tag, b->tag, TLOB_TAG_LEN);
}

/*
 * Sampling path: whether a check of the instances (or windows) due at
 * *@due is this caller's at @now: it is due, and this caller claimed it
 * (set it to ~0, which begins meanwhile lower again). The checker then
 * leaves the earliest time to come with tlob_lower_due().
 */
static __always_inline bool tlob_due_claim(__u64 *due, __u64 now)
{
	__u64 d = READ_ONCE(*due);

	return now >= d && __sync_val_compare_and_swap(due, d, ~0ULL) == d;
}

/* What a walk of the instances (bpf_for_each_map_elem()) is for. */
struct tlob_sup_walk {
	__u64 now;
	__u64 next;		/* due checks: the earliest time to come */
	__u32 detector;
	__u32 binding_id;	/* ends: that binding's (0: as below) */
	__u32 reason;		/* ends: enum tlob_abort_reason */
	__u32 tid, tgid;
	__u8 group;		/* the whole process goes (exec, its last thread's exit) */
};

/*
 * A walk that ends instances: a task's (@tid; its process's too when
 * @group) at its exit or exec, or a binding's (@binding_id, 0: all) at
 * unbind or disable (@reason).
 */
static __always_inline struct tlob_sup_walk tlob_sup_ending(__u32 binding_id, __u32 tid,
							   __u32 tgid, bool group, __u32 reason)
{
	struct tlob_sup_walk wk = {
		.now = bpf_ktime_get_ns(),
		.binding_id = binding_id,
		.reason = reason,
		.tid = tid,
		.tgid = tgid,
		.group = group,
	};

	return wk;
}

/*
 * Whether the walk @wk (unbind: @wk->binding_id; disable: 0, every
 * binding) ends an instance of binding @id. A task's exit and exec find
 * their instances by key instead (tlob_sup_task_gone(), tlob.bpf.c).
 */
static __always_inline bool tlob_sup_ends(const struct tlob_sup_walk *wk, __u32 id)
{
	return !wk->binding_id || id == wk->binding_id;
}

#endif /* TLOB_SUPERVISE_BPF_H */
