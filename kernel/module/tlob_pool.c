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
 * Locking and context:
 * - Each bucket has a raw spinlock guarding its chain and the struct
 *   tlob_slot fields of the windows on it. The scheduler probes take it
 *   with a runqueue lock held and IRQs off, so it is raw (a spinlock_t
 *   sleeps on PREEMPT_RT) and always taken irqsave.
 * - tlob_free_lock (raw) guards the free list; it nests inside a bucket
 *   lock and nothing nests inside it.
 * - Why not an rhashtable: inserts may allocate and resize (from a
 *   workqueue), and lockless RCU lookups over slots that are reused at
 *   once would need nulls lists and re-validation. Buckets with private
 *   raw locks give the same O(1) lookup with obvious correctness; the
 *   table has as many buckets as slots, so chains stay short.
 */
#include <linux/bits.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "tlob.h"

static unsigned int pool_size = 1024;
module_param(pool_size, uint, 0444);
MODULE_PARM_DESC(pool_size, "windows open at once, system-wide (default 1024)");

#define TLOB_POOL_MAX	BIT(20)

atomic_t tlob_nr_open = ATOMIC_INIT(0);

static void *tlob_slots;		/* pool_size windows */
static size_t tlob_slot_size;		/* bytes per window, tlob_pool_init() */
static struct tlob_bucket *tlob_buckets;
static unsigned int tlob_hash_bits;
static HLIST_HEAD(tlob_free);
static DEFINE_RAW_SPINLOCK(tlob_free_lock);
static unsigned int tlob_used, tlob_peak;	/* tlob_free_lock */
static atomic64_t tlob_dropped = ATOMIC64_INIT(0);

struct tlob_slot *tlob_pool_slot(unsigned int i)
{
	return tlob_slots + (size_t)i * tlob_slot_size;
}

unsigned int tlob_pool_size(void)
{
	return pool_size;
}

struct tlob_bucket *tlob_bucket_of(const struct task_struct *t)
{
	return &tlob_buckets[hash_ptr(t, tlob_hash_bits)];
}

/* Take a free window for (@t, @b) and hash it; NULL when none is left. */
struct tlob_slot *__tlob_pool_get(struct tlob_bucket *bkt,
				  struct task_struct *t,
				  struct tlob_binding *b)
{
	struct tlob_slot *s = NULL;

	lockdep_assert_held(&bkt->lock);
	raw_spin_lock(&tlob_free_lock);
	if (!hlist_empty(&tlob_free)) {
		s = hlist_entry(tlob_free.first, struct tlob_slot, hnode);
		hlist_del(&s->hnode);
		tlob_used++;
		tlob_peak = max(tlob_peak, tlob_used);
	}
	raw_spin_unlock(&tlob_free_lock);
	if (!s)
		return NULL;
	/* Before it is visible: a probe that sees the window sees the count. */
	atomic_inc(&tlob_nr_open);
	s->binding = b;
	WRITE_ONCE(s->task, t);
	hlist_add_head(&s->hnode, &bkt->head);
	return s;
}

void __tlob_pool_put(struct tlob_bucket *bkt, struct tlob_slot *s)
{
	lockdep_assert_held(&bkt->lock);
	hlist_del(&s->hnode);
	WRITE_ONCE(s->task, NULL);
	s->binding = NULL;
	atomic_dec(&tlob_nr_open);
	raw_spin_lock(&tlob_free_lock);
	hlist_add_head(&s->hnode, &tlob_free);
	tlob_used--;
	raw_spin_unlock(&tlob_free_lock);
}

/* A START found no free window: counted, never silent. */
void tlob_pool_dropped(void)
{
	atomic64_inc(&tlob_dropped);
}

int tlob_pool_show(char *buf, size_t size)
{
	unsigned int used, peak;
	unsigned long flags;

	raw_spin_lock_irqsave(&tlob_free_lock, flags);
	used = tlob_used;
	peak = tlob_peak;
	raw_spin_unlock_irqrestore(&tlob_free_lock, flags);
	return scnprintf(buf, size,
			 "size=%u used=%u peak=%u dropped=%llu open=%d\n",
			 pool_size, used, peak,
			 (u64)atomic64_read(&tlob_dropped),
			 atomic_read(&tlob_nr_open));
}

/*
 * Allocate pool_size windows of @slot_size bytes each (struct tlob_slot
 * first), all free. The caller initialises what follows the slot part.
 */
int tlob_pool_init(size_t slot_size)
{
	unsigned int i, nbuckets;

	if (!pool_size || pool_size > TLOB_POOL_MAX)
		return -EINVAL;
	tlob_slot_size = slot_size;
	tlob_hash_bits = max(ilog2(roundup_pow_of_two(pool_size)), 1);
	nbuckets = 1U << tlob_hash_bits;
	tlob_buckets = kvcalloc(nbuckets, sizeof(*tlob_buckets), GFP_KERNEL);
	tlob_slots = kvcalloc(pool_size, slot_size, GFP_KERNEL);
	if (!tlob_buckets || !tlob_slots) {
		kvfree(tlob_buckets);
		kvfree(tlob_slots);
		return -ENOMEM;
	}
	for (i = 0; i < nbuckets; i++) {
		raw_spin_lock_init(&tlob_buckets[i].lock);
		INIT_HLIST_HEAD(&tlob_buckets[i].head);
	}
	for (i = 0; i < pool_size; i++)
		hlist_add_head(&tlob_pool_slot(i)->hnode, &tlob_free);
	return 0;
}

/* Module exit: every window has ended and its owner let go of it. */
void tlob_pool_exit(void)
{
	WARN(tlob_used || atomic_read(&tlob_nr_open),
	     "tlob: %u windows still open at exit\n", tlob_used);
	kvfree(tlob_slots);
	kvfree(tlob_buckets);
}
