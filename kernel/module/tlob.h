/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of tlob.ko share. Each file has one job:
 *
 *   tlob_main.c     module init/exit
 *   tlob_session.c  /dev/tlob: one session (a holder of bindings) per open file
 *   tlob_sysfs.c    /sys/kernel/tlob/ (enable desc monitor reactors stats pool)
 *   tlob_listing.c  the monitor and stats listings
 *   tlob_control.c  the control core: binding table, holders, enable, attach order
 *   tlob_binding.c  binding objects and "the same binding"
 *   tlob_parse.c    the monitor line parser (pure, unit-tested on the host)
 *   tlob_uprobe.c   uprobes at START/STOP (and the START function's return)
 *   tlob_sched.c    scheduler tracepoints -> model events
 *   tlob_monitor.c  the windows: locking, and the engine's hooks (tlob_engine.h)
 *   tlob_alive.c    alive supervision: checkpoints per reference cycle
 *   tlob_logic.c    logical supervision: a user's automaton over uprobe events
 *   tlob_timer.c    the hard hrtimer that detects an overrun at the deadline
 *   tlob_diag.c     a violation's diagnosis (stacks, waker, who ran instead)
 *   tlob_pool.c     preallocated windows, hashed by task
 *   tlob_stats.c    per-binding, per-CPU statistics
 *   tlob_reactor.c  nop/printk/panic/signal, run from irq_work
 *   tlob_notify.c   PREEMPT_RT: a violation's readers woken from another CPU
 *   tlob_trace.c    the trace events (tlob_trace.h)
 */
#ifndef TLOB_H
#define TLOB_H

#include <linux/hash.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/path.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uprobes.h>

#include "tlob_abi.h"
#include "tlob_compat.h"
#include "tlob_model.h"
#include "tlob_parse.h"

struct task_struct;
struct tlob_binding;

/*
 * Who holds bindings (tlob_control.c): the monitor file (the persistent
 * holder, tlob_persistent: tlob bind, tlob apply) or one open file of
 * /dev/tlob (a session: tlob mon). A binding is shared by every holder
 * that asked for the same binding and goes with its last holder.
 * Everything here belongs to tlob_ctl_mutex.
 */
struct tlob_holder {
	struct list_head holds;		/* its tlob_hold.hnode */
	pid_t pid;			/* opener's tgid; 0: the monitor file */
	char comm[TASK_COMM_LEN];	/* opener's comm */
	/*
	 * Called with tlob_ctl_mutex held for each binding this holder's
	 * removal freed, after its windows ended and before it is freed (a
	 * session keeps its final statistics); NULL: nothing.
	 */
	void (*gone)(struct tlob_holder *h, const struct tlob_binding *b);
	char *final;			/* the session's: final stats lines */
	size_t final_len;
};

/* One holder's reference on one binding. */
struct tlob_hold {
	struct list_head bnode;		/* binding->holds */
	struct list_head hnode;		/* holder->holds */
	struct tlob_binding *b;
	struct tlob_holder *h;
	bool dropping;			/* a removal of the write being checked */
};

/*
 * One binding: a section and its terms (STOP, budget, tag, filter), an
 * alive checkpoint or a logical automaton. Created and destroyed in
 * process context under tlob_ctl_mutex; the probe paths only read the
 * fields that never change after creation.
 */
struct tlob_binding {
	struct list_head node;		/* tlob_bindings, tlob_ctl_mutex */
	u32 id;				/* never reused */
	char *path;			/* as written (canonical) */
	struct path fpath;		/* holds the inode */
	struct inode *inode;
	loff_t start;
	loff_t stop;
	bool stop_ret;			/* STOP = return of the START function */
	bool registered;		/* uprobes in place, tlob_ctl_mutex */
	bool live;			/* its write committed: START opens windows */
	struct list_head holds;		/* tlob_hold.bnode, tlob_ctl_mutex */
	unsigned int sessions;		/* holds of sessions, tlob_ctl_mutex */
	bool disarm;			/* windows to abort, tlob_ctl_mutex */
	u64 budget_ns;
	u64 min_ns;			/* 0: none */
	u8 tol_k, tol_w;		/* tolerance=K/W; 1/1: none */
	/*
	 * Its judged windows, the latest in bit 0 (tlob_tolerance.h): pushed
	 * by each window's end, read by each violation, lock-free.
	 */
	atomic64_t history;
	enum tlob_filter filter;
	pid_t filter_id;
	char tag[TLOB_TAG_LEN];
	/*
	 * Alive supervision (an `a` line): a checkpoint at start, no STOP,
	 * budget or minimum; its statistics belong to tlob_alive_lock.
	 */
	bool alive;
	enum tlob_per per;
	u64 period_ns;
	u32 expect, margin;
	struct tlob_alive_stats astats;
	/*
	 * Logical supervision (an `l` line): its table (start is event 0's
	 * offset, per= is the instances') and a uprobe per event, made with
	 * the binding and never changed; no STOP, budget or minimum. Its
	 * statistics belong to tlob_logic_lock.
	 */
	bool logic;
	const struct tlob_logic_table *table;
	struct tlob_logic_probe *lprobes;	/* [table->nevents] */
	/*
	 * The files its events lie in: file f (the table's file[e]) is
	 * files[f] as written, its inode inodes[f]; file 0 is path, fpath
	 * and inode, and files 1..table->nfiles - 1 (the line's fileN=) are
	 * held by fpaths[f].
	 */
	const char *files[TLOB_LOGIC_FILES_MAX];
	struct path fpaths[TLOB_LOGIC_FILES_MAX];
	struct inode *inodes[TLOB_LOGIC_FILES_MAX];
	struct tlob_logic_stats lstats;
	struct uprobe_consumer start_uc;
	struct uprobe_consumer stop_uc;
	struct tlob_uprobe start_up;
	struct tlob_uprobe stop_up;
	struct tlob_stats __percpu *stats;
};

/* One uprobe of a logical binding: event @event of @b's table. */
struct tlob_logic_probe {
	struct uprobe_consumer uc;
	struct tlob_uprobe up;
	struct tlob_binding *b;
	unsigned int event;
};

/*
 * The pool's part of an open window (tlob_pool.c): which task and which
 * binding it belongs to. The rest of the window (automaton state, clocks,
 * timer) is private to tlob_monitor.c, which embeds this first. All three
 * fields belong to the lock of the hash bucket of @task.
 */
struct tlob_slot {
	struct hlist_node hnode;
	struct task_struct *task;	/* hash key, NULL when free */
	struct tlob_binding *binding;
};

/*
 * Calls go one way only, from the top down (no file calls back up; the
 * check is tests/unit/kmod/no-cycles.t):
 *   main:     session, sysfs, control, monitor, alive, logic
 *   session:  listing, control
 *   sysfs:    listing, control, pool, reactor, alive, logic
 *   control:  binding, uprobe, sched, monitor, alive, logic
 *   listing:  alive, logic (their bindings' statistics)
 *   uprobe, sched: monitor, alive, logic (sched: pool too)
 *   alive:    timer, trace, reactor
 *   logic:    trace, reactor
 *   monitor:  pool, timer, trace, stats, reactor, diag
 *   sched:    diag too (the tasks that ran on a CPU a window waits on)
 *   diag:     trace
 */

/* tlob_control.c */
extern struct mutex tlob_ctl_mutex;
extern struct list_head tlob_bindings;
extern struct tlob_holder tlob_persistent;
bool tlob_enabled(void);
bool tlob_sched_attached(void);
int tlob_set_enabled(bool on);
int tlob_monitor_write(struct tlob_holder *h, const char *buf, size_t len);
void tlob_holder_init(struct tlob_holder *h, pid_t pid, const char *comm);
void tlob_holder_release(struct tlob_holder *h);
unsigned int tlob_nr_bindings(void);
void tlob_control_exit(void);

/* tlob_session.c */
int tlob_session_init(void);
void tlob_session_exit(void);

/* tlob_sysfs.c */
int tlob_sysfs_init(void);
void tlob_sysfs_exit(void);

/* tlob_listing.c: generators, called with tlob_ctl_mutex held */
typedef ssize_t (*tlob_listing_fn)(const struct tlob_holder *h, char *buf,
				   size_t size);
ssize_t tlob_monitor_show(const struct tlob_holder *h, char *buf, size_t size);
ssize_t tlob_stats_show(const struct tlob_holder *h, char *buf, size_t size);
ssize_t tlob_stats_line_show(const struct tlob_binding *b, char *buf,
			     size_t size);
char *tlob_listing(tlob_listing_fn gen, const struct tlob_holder *h,
		   size_t *len);

/* tlob_binding.c */
int tlob_binding_new(const struct tlob_req *req, struct tlob_binding **out);
void tlob_binding_free(struct tlob_binding *b);
int tlob_binding_same(const struct tlob_binding *b, const struct inode *inode,
		      const char *path, u64 start);
bool tlob_binding_same_terms(const struct tlob_binding *a,
			     const struct tlob_binding *b);
struct inode *tlob_binding_inode_of(const char *path);
int tlob_binding_leaked(void);

/* tlob_uprobe.c */
int tlob_uprobe_register(struct tlob_binding *b);
/* Handlers may still run until tlob_uprobe_sync() (tlob_compat.h). */
bool tlob_uprobe_unregister_nosync(struct tlob_binding *b);

/* tlob_sched.c */
int tlob_sched_attach(void);
void tlob_sched_detach(void);

/* tlob_monitor.c */
void tlob_window_start(struct tlob_binding *b, struct task_struct *t);
void tlob_window_stop(struct tlob_binding *b, struct task_struct *t);
u64 tlob_task_event(struct task_struct *t, enum events_tlob event, u64 now);
void tlob_task_waking(struct task_struct *t);
void tlob_task_abort(struct task_struct *t, enum tlob_abort_reason why);
void tlob_abort_binding(struct tlob_binding *b, enum tlob_abort_reason why);
int tlob_monitor_init(void);
void tlob_monitor_exit(void);

/* tlob_instances.c: the pool of alive and of logical instances */
#define TLOB_INST_HASH_BITS	6

/* The start of every alive or logical instance (its kind's struct). */
struct tlob_inst {
	struct hlist_node hnode;	/* its key's bucket, or the free list */
	struct tlob_binding *b;		/* NULL: free */
	pid_t key;			/* pid (per=task) or tgid (per=process) */
	pid_t tgid;
	char comm[TLOB_COMM_LEN];	/* of the task that began it */
};

struct tlob_inst_pool {
	const char *name;		/* the pool file's: "alive", "logic" */
	raw_spinlock_t *lock;		/* the kind's: guards all below */
	/* Record the end of @in and give it back: at exit or exec... */
	void (*gone)(struct tlob_inst *in, enum tlob_abort_reason why, u64 now);
	/* ... and at unbind or disable. */
	void (*end)(struct tlob_inst *in, enum tlob_abort_reason why, u64 now);
	void *mem;			/* size instances of stride bytes */
	size_t stride;
	unsigned int size;
	unsigned int used;		/* read without the lock, READ_ONCE */
	unsigned int peak;		/* the most at once, since load */
	struct hlist_head free;
	struct hlist_head hash[1 << TLOB_INST_HASH_BITS];
};

struct tlob_inst *tlob_inst_at(struct tlob_inst_pool *p, unsigned int i);
struct tlob_inst *tlob_inst_find(struct tlob_inst_pool *p,
				 const struct tlob_binding *b,
				 const struct task_struct *t);
struct tlob_inst *tlob_inst_take(struct tlob_inst_pool *p,
				 struct tlob_binding *b,
				 const struct task_struct *t);
void tlob_inst_give(struct tlob_inst_pool *p, struct tlob_inst *in);
void tlob_inst_task_gone(struct tlob_inst_pool *p, struct task_struct *t,
			 pid_t pid, enum tlob_abort_reason why);
void tlob_inst_abort_binding(struct tlob_inst_pool *p, struct tlob_binding *b,
			     enum tlob_abort_reason why);
int tlob_inst_pool_show(struct tlob_inst_pool *p, char *buf, size_t size);
/*
 * The most windows, alive or logical instances preallocated at load
 * (pool_size=, alive_instances=, logic_instances=): more is refused
 * (-EINVAL) rather than asked of the allocator.
 */
#define TLOB_PREALLOC_MAX	BIT(20)

int tlob_inst_pool_init(struct tlob_inst_pool *p, unsigned int n,
			size_t stride);
void tlob_inst_pool_exit(struct tlob_inst_pool *p);

/* tlob_alive.c */
void tlob_alive_checkpoint(struct tlob_binding *b, struct task_struct *t);
void tlob_alive_task_gone(struct task_struct *t, pid_t pid,
			  enum tlob_abort_reason why);
void tlob_alive_abort_binding(struct tlob_binding *b,
			      enum tlob_abort_reason why);
void tlob_alive_stats_get(const struct tlob_binding *b,
			  struct tlob_alive_stats *st);
int tlob_alive_pool_show(char *buf, size_t size);
int tlob_alive_init(void);
void tlob_alive_exit(void);

/* tlob_logic.c */
void tlob_logic_event(struct tlob_binding *b, unsigned int event,
		      struct task_struct *t);
void tlob_logic_task_gone(struct task_struct *t, pid_t pid,
			  enum tlob_abort_reason why);
void tlob_logic_abort_binding(struct tlob_binding *b,
			      enum tlob_abort_reason why);
void tlob_logic_stats_get(const struct tlob_binding *b,
			  struct tlob_logic_stats *st);
int tlob_logic_pool_show(char *buf, size_t size);
int tlob_logic_init(void);
void tlob_logic_exit(void);

/* tlob_timer.c */
void tlob_timer_init(struct hrtimer *timer,
		     enum hrtimer_restart (*fn)(struct hrtimer *));
void tlob_timer_arm(struct hrtimer *timer, u64 deadline_ns);
void tlob_timer_try_cancel(struct hrtimer *timer);
void tlob_timer_sync(struct hrtimer *timer);

/*
 * tlob_diag.c: a window's diagnosis (struct tlob_diag, tlob_abi.h), part
 * of the window and under its lock, like the engine's core.
 */
struct tlob_wdiag {
	struct tlob_diag d;
	/* The user stack, taken on the task's CPU once it is current again. */
	struct irq_work work;
	/* ... or at once, on the other CPU it runs on at the deadline. */
	call_single_data_t csd;
	bool pending;		/* reported, its detail not yet emitted */
	bool frozen;		/* the deadline passed: cpu, migrations, ran kept */
	int wait_cpu;		/* the CPU whose wait list holds it; -1: none */
	unsigned int wait_slot;
};

void tlob_wdiag_init(struct tlob_wdiag *wd, void (*fn)(struct irq_work *),
		     smp_call_func_t on_cpu, void *info);
void tlob_wdiag_open(struct tlob_wdiag *wd);
void tlob_wdiag_event(struct tlob_wdiag *wd, struct task_struct *t,
		      unsigned int event, unsigned int state, u64 now);
void tlob_wdiag_violation(struct tlob_wdiag *wd, struct task_struct *t,
			  const struct tlob_record *r, unsigned int event);
void tlob_wdiag_end(struct tlob_wdiag *wd, struct task_struct *t,
		    unsigned int event, u64 now);
void tlob_wdiag_waking(struct tlob_wdiag *wd);
void tlob_wdiag_current(struct tlob_wdiag *wd, struct task_struct *t,
			bool ipi);
void tlob_wdiag_sync(struct tlob_wdiag *wd);
void tlob_wdiag_switch(struct task_struct *prev, struct task_struct *next,
		       u64 now);
DECLARE_PER_CPU(unsigned int, tlob_cpu_waiters);

/*
 * Whether any window waits on this CPU's runqueue (sched_switch, IRQs
 * off): the one per-CPU load a switch pays for the diagnosis otherwise.
 */
static inline bool tlob_wdiag_waiters_here(void)
{
	return this_cpu_read(tlob_cpu_waiters);
}

void tlob_diag_init(void);
void tlob_diag_exit(void);
void tlob_wdiag_ipi_done(void);

/* tlob_pool.c */
struct tlob_bucket {
	raw_spinlock_t lock;
	struct hlist_head head;
};

/*
 * The windows by task: twice as many buckets as windows (tlob_pool.c),
 * set up at load and never resized. Inline, with
 * tlob_task_may_have_window(), so that the scheduler probes pay no call
 * for a task outside every window.
 */
struct tlob_hash {
	struct tlob_bucket *buckets;
	unsigned int bits;
};

extern struct tlob_hash tlob_hash;

static inline struct tlob_bucket *tlob_bucket_of(const struct task_struct *t)
{
	return &tlob_hash.buckets[hash_ptr(t, tlob_hash.bits)];
}

/*
 * Whether @t may have a window: its bucket is not empty. Read without the
 * bucket lock; tlob_monitor.c says why that is enough for the scheduler
 * events of @t.
 */
static inline bool tlob_task_may_have_window(const struct task_struct *t)
{
	return !hlist_empty(&tlob_bucket_of(t)->head);
}

/*
 * Whether any window is open in the whole system. The scheduler probes
 * read it first and return when it is clear: the one branch an idle
 * monitor costs. A cache line of its own, written only when the number
 * of open windows goes 0 -> 1 or 1 -> 0 (tlob_pool.c says how).
 */
struct tlob_open_flag {
	bool on;
} ____cacheline_aligned_in_smp;

extern struct tlob_open_flag tlob_any_open;

static inline bool tlob_windows_open(void)
{
	return READ_ONCE(tlob_any_open.on);
}

int tlob_pool_init(size_t slot_size);
void tlob_pool_exit(void);
struct tlob_slot *__tlob_pool_get(struct tlob_bucket *bkt,
				  struct task_struct *t,
				  struct tlob_binding *b);
void __tlob_pool_put(struct tlob_bucket *bkt, struct tlob_slot *s);
struct tlob_slot *tlob_pool_slot(unsigned int i);
unsigned int tlob_pool_size(void);
void tlob_pool_dropped(void);
int tlob_pool_show(char *buf, size_t size);

/* tlob_stats.c */
struct tlob_stats __percpu *tlob_stats_alloc(void);
void tlob_stats_free(struct tlob_stats __percpu *s);
void tlob_stats_account(struct tlob_stats __percpu *s, unsigned int verdict,
			bool tolerated, u64 elapsed_ns);
void tlob_stats_dropped(struct tlob_stats __percpu *s);
int tlob_stats_format(struct tlob_stats __percpu *s, char *buf, size_t size);

/* tlob_reactor.c */
void tlob_react(struct task_struct *t, const struct tlob_record *r);
void tlob_react_alive(const struct tlob_alive_record *r);
void tlob_react_logic(const struct tlob_logic_record *r, const char *model,
		      const char *state, const char *event);
int tlob_reactor_set(const char *name);
int tlob_reactor_show(char *buf, size_t size);
void tlob_reactor_sync(void);
u64 tlob_reactions_lost(void);

/* tlob_notify.c */
void tlob_notify_readers(void);
void tlob_notify_sync(void);

#endif /* TLOB_H */
