// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of the BPF sampler's deadline heap (kernel/bpf/tlob_dq.h): the
 * same code the sampler runs, over arrays standing in for its two maps and
 * a loop standing in for bpf_loop(). Random filings (new slots and slots
 * moved to an earlier or later deadline) and pops against a reference,
 * checking after every operation that the heap is a heap, that every
 * node knows its position and that the earliest deadline is on top; then
 * a heap of every slot the largest --bpf-tasks gives, filled and drained
 * in order (the sifts' bound of TLOB_HEAP_DEPTH levels). TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#define __noinline __attribute__((noinline))
#include "tlob_bpf.h"

#define NSLOT	(TLOB_BPF_TASKS_MAX * TLOB_BPF_NEST)

#define TLOB_DQ_HOST							\
	static struct { struct tlob_dq_node v[NSLOT]; } tlob_dq_node;	\
	static struct { struct tlob_dq_ent v[NSLOT]; } tlob_dq_heap;	\
	static __u32 tlob_heap_size;					\
	static struct tlob_bpf_sampler tlob_sampler;

#define bpf_map_lookup_elem(m, k)					\
	(*(const __u32 *)(k) < sizeof((m)->v) / sizeof((m)->v[0]) ?	\
	 (void *)&(m)->v[*(const __u32 *)(k)] : NULL)

static long host_loop(__u32 n, long (*cb)(__u32, void *), void *ctx)
{
	__u32 i;

	for (i = 0; i < n; i++)
		if (cb(i, ctx))
			return i + 1;
	return n;
}

#define bpf_loop(n, cb, ctx, f) host_loop((n), (long (*)(__u32, void *))(cb), (ctx))

#include "tlob_dq.h"
#include "tap.h"

/* The reference: each slot's key, or none. */
static __u64 ref[NSLOT];
static unsigned char in[NSLOT];
static __u32 nin;

/* The heap's invariants against the reference over the first n slots; NULL if they hold. */
static const char *check(__u32 n)
{
	static char why[160];
	__u32 pos, i, cnt = 0;

	if (tlob_heap_size != nin)
		return "the heap's size is not the number of slots filed";
	for (pos = 0; pos < tlob_heap_size; pos++) {
		const struct tlob_dq_ent *e = &tlob_dq_heap.v[pos];

		if (e->idx >= NSLOT || tlob_dq_node.v[e->idx].pos != pos + 1) {
			snprintf(why, sizeof(why), "position %u: its node says %u", pos,
				 e->idx < NSLOT ? tlob_dq_node.v[e->idx].pos : 0);
			return why;
		}
		if (pos && tlob_dq_heap.v[(pos - 1) / 2].key > e->key) {
			snprintf(why, sizeof(why), "position %u is earlier than its parent", pos);
			return why;
		}
		if (!in[e->idx] || ref[e->idx] != e->key)
			return "an entry the reference does not have";
	}
	for (i = 0; i < n; i++)
		if (in[i])
			cnt++;
		else if (tlob_dq_node.v[i].pos)
			return "a slot not filed has a position";
	return cnt == nin ? NULL : "slots lost";
}

static __u64 ref_min(__u32 n)
{
	__u64 m = ~0ULL;
	__u32 i;

	for (i = 0; i < n; i++)
		if (in[i] && ref[i] < m)
			m = ref[i];
	return m;
}

static void file(__u32 idx, __u64 key)
{
	tlob_heap_set(idx, key);
	if (!in[idx])
		nin++;
	in[idx] = 1;
	ref[idx] = key;
}

/* Pop the top; its key, which must be the reference's earliest. */
static int pop(__u32 n)
{
	__u32 idx = tlob_dq_heap.v[0].idx;
	__u64 key = tlob_dq_heap.v[0].key, want = ref_min(n);

	tlob_heap_pop();
	in[idx] = 0;
	nin--;
	return key == want;
}

static void reset(void)
{
	memset(&tlob_dq_node, 0, sizeof(tlob_dq_node));
	memset(&tlob_dq_heap, 0, sizeof(tlob_dq_heap));
	memset(in, 0, sizeof(in));
	tlob_heap_size = 0;
	nin = 0;
	memset(&tlob_sampler, 0, sizeof(tlob_sampler));
}

int main(void)
{
	const __u32 n = 512;
	const char *why = NULL;
	unsigned long op, moved_up = 0, moved_down = 0, pops = 0, bad_top = 0;
	__u64 last;
	__u32 i;
	int sorted = 1;

	srandom(16);
	for (op = 0; op < 200000 && !why; op++) {
		__u32 idx = random() % n;
		int r = random() % 10;

		if (r < 6 || !nin) {
			__u64 key = 1000 + random() % 100000;

			if (in[idx])
				key < ref[idx] ? moved_up++ : moved_down++;
			file(idx, key);
		} else {
			bad_top += !pop(n);
			pops++;
		}
		why = check(n);
	}
	ok(!why, "%lu random filings and pops over %u slots keep the heap a heap, "
	   "every position known%s%s", op, n, why ? ": " : "", why ? why : "");
	ok(!bad_top && pops > 10000, "each of %lu pops takes the earliest deadline", pops);
	ok(moved_up > 1000 && moved_down > 1000,
	   "slots moved to an earlier (%lu) and a later (%lu) deadline", moved_up, moved_down);
	ok(tlob_sampler.heap_max <= n && tlob_sampler.heap_max >= nin,
	   "heap_max counts the most filed at once (%llu)",
	   (unsigned long long)tlob_sampler.heap_max);

	/* Every slot --bpf-tasks allows, in reverse order, then drained. */
	reset();
	for (i = 0; i < NSLOT; i++)
		tlob_heap_set(i, (__u64)(NSLOT - i) * 7);
	ok(tlob_heap_size == NSLOT, "a heap of all %u slots", NSLOT);
	last = 0;
	for (i = 0; i < NSLOT && sorted; i++) {
		__u64 key = tlob_dq_heap.v[0].key;

		sorted = key >= last && tlob_dq_node.v[tlob_dq_heap.v[0].idx].pos == 1;
		last = key;
		tlob_heap_pop();
	}
	ok(sorted && !tlob_heap_size, "... drains earliest first within %d sift levels",
	   TLOB_HEAP_DEPTH);
	for (i = 0; i < NSLOT && !tlob_dq_node.v[i].pos; i++)
		;
	ok(i == NSLOT, "... and leaves no node with a position");

	printf("1..%d\n", tests);
	return failed ? 1 : 0;
}
