// SPDX-License-Identifier: GPL-2.0
/*
 * Preallocated windows, found by task in O(1).
 *
 * Every window the monitor can ever have is allocated at module load
 * (pool_size, default 1024): opening a window in a uprobe handler takes a
 * free slot, never memory. Open windows are chained in a hash table keyed
 * by the task pointer (all windows of one task share a bucket, so a
 * scheduler event visits one chain).
 *
 * Free windows are kept per CPU: a START takes one from its own CPU's
 * list and a window that ends goes back to the list of the CPU it ends
 * on, so opening and closing windows on different CPUs never meet on a
 * lock or a list head. A window opened on one CPU may end on another (the
 * task migrated): the slot simply changes lists. A START whose CPU has
 * none left takes a batch from another CPU's list; nothing is stranded,
 * since every possible CPU's list is searched (offline CPUs' too).
 *
 * Exact accounting without a global lock: tlob_nr_used counts the windows
 * taken. A START first reserves one by raising it, unless it is already
 * pool_size (then the START is dropped: every window was in use at that
 * instant, whichever CPU's list they came from), and only then finds a
 * slot. A window that ends is back on a list before its reservation is
 * returned, so the lists always hold at least as many slots as there are
 * reservations still looking for one: a reserved START always finds one.
 * used= and peak= of the pool file are read from the counter, never
 * summed over CPUs. The scheduler probes never read it (see below).
 *
 * The open-window flag (tlob_any_open, read by every scheduler probe):
 * on a cache line of its own, written only when the number of open
 * windows goes from 0 to 1 or back, so windows opening and ending while
 * others stay open never touch the line every CPU's scheduler reads.
 * - Set: a START that holds a reservation and reads the flag clear sets
 *   it, before its window is published.
 * - Cleared: the window end that takes tlob_nr_used to 0 freezes the
 *   counter (0 -> TLOB_USED_FROZEN, a cmpxchg, so it fails if a START
 *   reserved in between), clears the flag and releases the counter (back
 *   to 0). A START that meets the frozen counter spins until the release
 *   (a few instructions, IRQs off on both sides) and then reads the flag
 *   clear, so it sets it again.
 * The race this handles: an end that brings the count to 0 and a START
 *   that raises it again at the same time. Without the freeze, the end's
 *   clear could land after the START saw the flag set and published its
 *   window, and the scheduler probes would then miss that window's
 *   events. With it, the flag is cleared only while no window is taken
 *   or being taken: a START either reserved before the freeze (the freeze
 *   fails, nothing is cleared) or after the release, which it reads with
 *   acquire ordering, so it sees the clear and sets the flag itself.
 * - A probe for task T runs after T's START returned (T opened its own
 *   window; the runqueue locks order the two), so it sees the flag set.
 *
 * Locking and context:
 * - Each bucket has a raw spinlock guarding its chain and the struct
 *   tlob_slot fields of the windows on it. The scheduler probes take it
 *   with a runqueue lock held and IRQs off, so it is raw (a spinlock_t
 *   sleeps on PREEMPT_RT) and always taken irqsave.
 * - Each CPU's free list has a raw spinlock (struct tlob_free_list); it
 *   nests inside a bucket lock and nothing nests inside it: a CPU that
 *   takes from another's list holds only that one, never two.
 * - tlob_nr_used and tlob_any_open take no lock (atomics, above). The
 *   get and put below run under a bucket lock, IRQs off, so the CPU (and
 *   with it this_cpu_ptr()) does not change under them.
 * - Why not an rhashtable: inserts may allocate and resize (from a
 *   workqueue), and lockless RCU lookups over slots that are reused at
 *   once would need nulls lists and re-validation. Buckets with private
 *   raw locks give the same O(1) lookup with obvious correctness; the
 *   table has twice as many buckets as slots, so chains stay short and a
 *   task outside every window mostly finds its bucket empty (the
 *   scheduler probes' lockless look, tlob_task_may_have_window()) even
 *   with the pool full: 16 bytes a bucket.
 */
#include <linux/bits.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "tlob.h"

static unsigned int pool_size = 1024;
module_param(pool_size, uint, 0444);
MODULE_PARM_DESC(pool_size, "windows open at once, system-wide (default 1024)");

/* The scheduler probes' one read: its own line, written on 0 <-> 1 only. */
struct tlob_open_flag tlob_any_open ____cacheline_aligned_in_smp;

/* A CPU's free windows; any CPU may take from it when its own is empty. */
struct tlob_free_list {
	raw_spinlock_t lock;
	struct hlist_head head;
	unsigned int nr;		/* lock; read without it as a hint */
};

/* Most windows a CPU takes from another's list at once. */
#define TLOB_STEAL_MAX	16
/* Passes over the other CPUs' lists before a reserved START gives up. */
#define TLOB_STEAL_PASSES	1000
/* tlob_nr_used while an end clears the flag (no START reserves then). */
#define TLOB_USED_FROZEN	(-1)

static void *tlob_slots;		/* pool_size windows */
static size_t tlob_slot_size;		/* bytes per window, tlob_pool_init() */
struct tlob_hash tlob_hash __read_mostly;
static DEFINE_PER_CPU_SHARED_ALIGNED(struct tlob_free_list, tlob_free);
/* Windows taken (reserved), and the most ever: lock-free, exact. */
static atomic_t tlob_nr_used ____cacheline_aligned_in_smp = ATOMIC_INIT(0);
static atomic_t tlob_peak = ATOMIC_INIT(0);
static atomic64_t tlob_dropped = ATOMIC64_INIT(0);

struct tlob_slot *tlob_pool_slot(unsigned int i)
{
	return tlob_slots + (size_t)i * tlob_slot_size;
}

unsigned int tlob_pool_size(void)
{
	return pool_size;
}

/* Pop one slot; @fl's lock is held. */
static struct tlob_slot *tlob_free_pop(struct tlob_free_list *fl)
{
	struct tlob_slot *s;

	if (hlist_empty(&fl->head))
		return NULL;
	s = hlist_entry(fl->head.first, struct tlob_slot, hnode);
	hlist_del(&s->hnode);
	WRITE_ONCE(fl->nr, fl->nr - 1);
	return s;
}

static void tlob_free_push(struct tlob_free_list *fl, struct tlob_slot *s)
{
	hlist_add_head(&s->hnode, &fl->head);
	WRITE_ONCE(fl->nr, fl->nr + 1);
}

/*
 * This CPU's list is empty: take up to half of another CPU's (at most
 * TLOB_STEAL_MAX), keep one and put the rest on this CPU's list. The
 * caller holds a reservation, so some list holds a slot for it; a pass
 * can miss it only if it moved meanwhile to a list already passed (a
 * window ended there, or another CPU stole it), so the search goes on
 * until it finds one. Only one free-list lock is held at a time. NULL
 * (and a warning) only if that accounting were broken: the search never
 * spins on with IRQs off.
 */
static struct tlob_slot *tlob_free_steal(struct tlob_free_list *mine)
{
	struct tlob_slot *s = NULL, *extra[TLOB_STEAL_MAX - 1];
	unsigned int n = 0, i, pass;
	int self = smp_processor_id(), cpu;

	for (pass = 0; !s; pass++) {
		if (WARN_ONCE(pass == TLOB_STEAL_PASSES,
			      "tlob: a reserved window is on no free list\n"))
			return NULL;
		for_each_cpu_wrap(cpu, cpu_possible_mask, self) {
			struct tlob_free_list *fl = per_cpu_ptr(&tlob_free, cpu);
			unsigned int take;

			if (fl == mine || !READ_ONCE(fl->nr))
				continue;
			raw_spin_lock(&fl->lock);
			s = tlob_free_pop(fl);
			take = min_t(unsigned int, fl->nr / 2, ARRAY_SIZE(extra));
			for (n = 0; s && n < take; n++)
				extra[n] = tlob_free_pop(fl);
			raw_spin_unlock(&fl->lock);
			if (s)
				break;
		}
		if (!s)
			cpu_relax();
	}
	if (n) {
		raw_spin_lock(&mine->lock);
		for (i = 0; i < n; i++)
			tlob_free_push(mine, extra[i]);
		raw_spin_unlock(&mine->lock);
	}
	return s;
}

/*
 * Reserve a window: false when all pool_size are taken. Waits out an end
 * that is clearing the open-window flag (the counter frozen).
 */
static bool tlob_reserve(void)
{
	int used = atomic_read(&tlob_nr_used), peak;

	do {
		while (used == TLOB_USED_FROZEN) {
			cpu_relax();
			used = atomic_read(&tlob_nr_used);
		}
		if (used >= (int)pool_size)
			return false;
	} while (!atomic_try_cmpxchg(&tlob_nr_used, &used, used + 1));
	/* The peak is written only when it grows. */
	peak = atomic_read(&tlob_peak);
	while (peak < used + 1 &&
	       !atomic_try_cmpxchg(&tlob_peak, &peak, used + 1))
		;
	return true;
}

/* Return a reservation; the last one clears the open-window flag. */
static void tlob_unreserve(void)
{
	int zero = 0;

	if (!atomic_dec_and_test(&tlob_nr_used))
		return;
	/* Fails if a START reserved since: its window keeps the flag set. */
	if (!atomic_try_cmpxchg(&tlob_nr_used, &zero, TLOB_USED_FROZEN))
		return;
	WRITE_ONCE(tlob_any_open.on, false);
	atomic_set_release(&tlob_nr_used, 0);
}

/* Take a free window for (@t, @b) and hash it; NULL when none is left. */
struct tlob_slot *__tlob_pool_get(struct tlob_bucket *bkt,
				  struct task_struct *t,
				  struct tlob_binding *b)
{
	struct tlob_free_list *mine;
	struct tlob_slot *s;

	lockdep_assert_held(&bkt->lock);
	if (!tlob_reserve())
		return NULL;
	/* Before the window is visible: a probe that finds it sees the flag. */
	if (!READ_ONCE(tlob_any_open.on))
		WRITE_ONCE(tlob_any_open.on, true);
	mine = this_cpu_ptr(&tlob_free);
	raw_spin_lock(&mine->lock);
	s = tlob_free_pop(mine);
	raw_spin_unlock(&mine->lock);
	if (!s)
		s = tlob_free_steal(mine);
	if (unlikely(!s)) {
		tlob_unreserve();
		return NULL;
	}
	s->binding = b;
	WRITE_ONCE(s->task, t);
	hlist_add_head(&s->hnode, &bkt->head);
	return s;
}

/* The window ended: back on this CPU's list, then its reservation. */
void __tlob_pool_put(struct tlob_bucket *bkt, struct tlob_slot *s)
{
	struct tlob_free_list *mine = this_cpu_ptr(&tlob_free);

	lockdep_assert_held(&bkt->lock);
	hlist_del(&s->hnode);
	WRITE_ONCE(s->task, NULL);
	s->binding = NULL;
	raw_spin_lock(&mine->lock);
	tlob_free_push(mine, s);
	raw_spin_unlock(&mine->lock);
	tlob_unreserve();
}

/* A START found no free window: counted, never silent. */
void tlob_pool_dropped(void)
{
	atomic64_inc(&tlob_dropped);
}

int tlob_pool_show(char *buf, size_t size)
{
	/* Frozen: an end is clearing the flag, nothing is taken. */
	int used = max(atomic_read(&tlob_nr_used), 0);

	return scnprintf(buf, size,
			 "size=%u used=%d peak=%d dropped=%llu open=%d\n",
			 pool_size, used, atomic_read(&tlob_peak),
			 (u64)atomic64_read(&tlob_dropped), used);
}

/* Pool init: the slots spread over every possible CPU's list, in turn. */
static void tlob_free_fill(void)
{
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu)
		raw_spin_lock_init(&per_cpu_ptr(&tlob_free, cpu)->lock);
	cpu = cpumask_first(cpu_possible_mask);
	for (i = 0; i < pool_size; i++) {
		tlob_free_push(per_cpu_ptr(&tlob_free, cpu), tlob_pool_slot(i));
		cpu = cpumask_next(cpu, cpu_possible_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_possible_mask);
	}
}

/*
 * Allocate pool_size windows of @slot_size bytes each (struct tlob_slot
 * first), all free. The caller initialises what follows the slot part.
 */
int tlob_pool_init(size_t slot_size)
{
	unsigned int i, nbuckets;

	if (!pool_size || pool_size > TLOB_PREALLOC_MAX)
		return -EINVAL;
	tlob_slot_size = slot_size;
	tlob_hash.bits = ilog2(roundup_pow_of_two(pool_size)) + 1;
	nbuckets = 1U << tlob_hash.bits;
	tlob_hash.buckets = kvcalloc(nbuckets, sizeof(*tlob_hash.buckets),
				     GFP_KERNEL);
	tlob_slots = kvcalloc(pool_size, slot_size, GFP_KERNEL);
	if (!tlob_hash.buckets || !tlob_slots) {
		kvfree(tlob_hash.buckets);
		kvfree(tlob_slots);
		return -ENOMEM;
	}
	for (i = 0; i < nbuckets; i++) {
		raw_spin_lock_init(&tlob_hash.buckets[i].lock);
		INIT_HLIST_HEAD(&tlob_hash.buckets[i].head);
	}
	tlob_free_fill();
	return 0;
}

/* Module exit: every window has ended and its owner let go of it. */
void tlob_pool_exit(void)
{
	WARN(atomic_read(&tlob_nr_used),
	     "tlob: %d windows still open at exit\n",
	     atomic_read(&tlob_nr_used));
	kvfree(tlob_slots);
	kvfree(tlob_hash.buckets);
}
