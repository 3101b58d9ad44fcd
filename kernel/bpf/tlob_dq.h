/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampler's deadline heap (tlob.bpf.c, sampling path only), apart so
 * that the host test (tests/unit/bpf/) runs the same code: a binary
 * min-heap of window slots by deadline, in two arrays (the heap's entries
 * and each slot's node with its position), written by the sampler alone.
 * Plain C over bpf_map_lookup_elem() and bpf_loop(): the includer has
 * them (the BPF helpers, or the test's), and TLOB_DQ_HOST, when defined,
 * declares the test's maps in place of the BPF ones.
 */
#ifndef TLOB_DQ_H
#define TLOB_DQ_H

/*
 * The sampler's deadline heap (sampling path only). Every window slot has
 * a node; the sampler alone keeps the heap (an array of {deadline, slot},
 * the earliest first) and the nodes' positions in it, so no lock is
 * needed: a START only pushes its slot's node on the lock-free stack
 * tlob_in_head (a compare-and-swap; a node already on it is not pushed
 * again), and the sampler files what it pops there by the window's
 * deadline. A window that ended stays in the heap until its deadline
 * comes and is dropped then (or moved, if its slot opened a new window
 * meanwhile); a slot is in the heap at most once, so the heap never
 * holds more than the slots.
 */
struct tlob_dq_node {
	__u32 pos;		/* heap position + 1, 0: not in the heap (sampler only) */
	__u32 in_next;		/* the next node on the stack, slot + 1 */
	__u32 queued;		/* on the stack (claimed by its pusher) */
	__u32 pad;
};

struct tlob_dq_ent {
	__u64 key;		/* the deadline the node was filed by */
	__u32 idx;		/* window slot */
	__u32 pad;
};

#ifdef TLOB_DQ_HOST
TLOB_DQ_HOST
#else
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TLOB_BPF_MAX_TASKS * TLOB_BPF_NEST);
	__type(key, __u32);
	__type(value, struct tlob_dq_node);
} tlob_dq_node SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TLOB_BPF_MAX_TASKS * TLOB_BPF_NEST);
	__type(key, __u32);
	__type(value, struct tlob_dq_ent);
} tlob_dq_heap SEC(".maps");

/* The sampler's own: the heap's size, its counters. */
__u32 tlob_heap_size;
struct tlob_bpf_sampler tlob_sampler;
#endif

/* Levels of a heap of TLOB_BPF_TASKS_MAX * TLOB_BPF_NEST slots, and one more. */
#define TLOB_HEAP_DEPTH		20

static __always_inline void tlob_dq_setpos(__u32 idx, __u32 pos)
{
	struct tlob_dq_node *n = bpf_map_lookup_elem(&tlob_dq_node, &idx);

	if (n)
		n->pos = pos + 1;
}

struct tlob_sift {
	__u32 pos;
};

/* Swap the heap entries at a (@e) and b (@f), their nodes' positions too. */
static __always_inline void tlob_heap_swap(struct tlob_dq_ent *e, __u32 a,
					   struct tlob_dq_ent *f, __u32 b)
{
	struct tlob_dq_ent tmp = *e;

	*e = *f;
	*f = tmp;
	tlob_dq_setpos(e->idx, a);
	tlob_dq_setpos(f->idx, b);
}

/* One level of sifting the entry at s->pos up; 1 when it is in place. */
static long tlob_sift_up_cb(__u32 i, struct tlob_sift *s)
{
	__u32 pos = s->pos, par;
	struct tlob_dq_ent *e, *p;

	if (!pos)
		return 1;
	par = (pos - 1) / 2;
	e = bpf_map_lookup_elem(&tlob_dq_heap, &pos);
	p = bpf_map_lookup_elem(&tlob_dq_heap, &par);
	if (!e || !p || p->key <= e->key)
		return 1;
	tlob_heap_swap(e, pos, p, par);
	s->pos = par;
	return 0;
}

/* One level of sifting the entry at s->pos down; 1 when it is in place. */
static long tlob_sift_down_cb(__u32 i, struct tlob_sift *s)
{
	__u32 pos = s->pos, l = 2 * pos + 1, r = l + 1, m = l;
	__u32 size = tlob_heap_size;
	struct tlob_dq_ent *e, *c, *d;

	if (l >= size)
		return 1;
	e = bpf_map_lookup_elem(&tlob_dq_heap, &pos);
	c = bpf_map_lookup_elem(&tlob_dq_heap, &l);
	if (!e || !c)
		return 1;
	if (r < size) {
		d = bpf_map_lookup_elem(&tlob_dq_heap, &r);
		if (d && d->key < c->key) {
			c = d;
			m = r;
		}
	}
	if (e->key <= c->key)
		return 1;
	tlob_heap_swap(e, pos, c, m);
	s->pos = m;
	return 0;
}

/* File slot idx by key: insert it, or move it if it is in the heap. */
__noinline int tlob_heap_set(__u32 idx, __u64 key)
{
	struct tlob_dq_node *n = bpf_map_lookup_elem(&tlob_dq_node, &idx);
	struct tlob_sift s;
	struct tlob_dq_ent *e;
	__u32 pos;
	__u64 old;

	if (!n)
		return 0;
	if (n->pos) {
		pos = n->pos - 1;
		e = bpf_map_lookup_elem(&tlob_dq_heap, &pos);
		if (!e)
			return 0;
		old = e->key;
		e->key = key;
		s.pos = pos;
		if (key < old)
			bpf_loop(TLOB_HEAP_DEPTH, tlob_sift_up_cb, &s, 0);
		else
			bpf_loop(TLOB_HEAP_DEPTH, tlob_sift_down_cb, &s, 0);
		return 0;
	}
	pos = tlob_heap_size;
	e = bpf_map_lookup_elem(&tlob_dq_heap, &pos);
	if (!e)
		return 0;	/* full: cannot be, a slot is in it at most once */
	e->key = key;
	e->idx = idx;
	n->pos = pos + 1;
	tlob_heap_size = pos + 1;
	if (pos + 1 > tlob_sampler.heap_max)
		tlob_sampler.heap_max = pos + 1;
	s.pos = pos;
	bpf_loop(TLOB_HEAP_DEPTH, tlob_sift_up_cb, &s, 0);
	return 0;
}

/* Take the earliest entry off the heap. */
__noinline int tlob_heap_pop(void)
{
	__u32 size = tlob_heap_size, zero = 0;
	struct tlob_dq_ent *top, *last;
	struct tlob_dq_node *n;
	struct tlob_sift s = { .pos = 0 };

	if (!size)
		return 0;
	top = bpf_map_lookup_elem(&tlob_dq_heap, &zero);
	if (!top)
		return 0;
	n = bpf_map_lookup_elem(&tlob_dq_node, &top->idx);
	if (n)
		n->pos = 0;
	size--;
	tlob_heap_size = size;
	if (!size)
		return 0;
	last = bpf_map_lookup_elem(&tlob_dq_heap, &size);
	if (!last)
		return 0;
	*top = *last;
	tlob_dq_setpos(top->idx, 0);
	bpf_loop(TLOB_HEAP_DEPTH, tlob_sift_down_cb, &s, 0);
	return 0;
}

#endif /* TLOB_DQ_H */
