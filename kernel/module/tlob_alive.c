// SPDX-License-Identifier: GPL-2.0
/*
 * Alive supervision (`a` lines): a checkpoint must be hit between
 * expect - margin and expect + margin times per reference cycle of
 * period=, per process or per task. What an event does is the generated
 * automaton's (models/alive.dot: alive_model.h, alive_model_ha.h): the
 * first checkpoint of an instance is `begin` (the cycle clock starts, the
 * cycle timer is armed) then `checkpoint`; the cycle's end is `cycle_end`,
 * whose guard (checkpoints >= EXPECT_MIN() && checkpoints <= EXPECT_MAX())
 * judges the cycle and whose reset starts the next one and re-arms the
 * timer; `abort` ends the instance. `checkpoints`, the model's variable,
 * is the count of checkpoint events since the cycle clock was last reset,
 * kept here and read by the guard through ha_get_env_alive().
 *
 * The cycle timer is a hard hrtimer (HRTIMER_MODE_ABS_HARD, tlob_timer.c),
 * so a cycle is judged at its end also on PREEMPT_RT under a real-time
 * hog. It fires at ha_deadline_alive(), one ns past the cycle (the
 * invariant is clk_cycle <= PERIOD_NS()); the cycle_end event is taken at
 * the cycle's end, start + period, where the invariant still holds. A
 * checkpoint that comes after a cycle's end before its timer ran first
 * ends that cycle (detector CHECKPOINT), so a late timer never moves a
 * checkpoint into the wrong cycle. Cycles that went by with no checkpoint
 * and no timer (the timer held off for more than a period) are judged at
 * once, as one record covering them all: the work per event is bounded.
 *
 * Instances are preallocated (alive_instances=, default 256) in a pool of
 * their own (tlob_instances.c: keyed by tgid per process, pid per task);
 * a first checkpoint that finds none free is counted as dropped. An
 * instance keeps no task, only its pid numbers: it ends at that task's
 * exit (per task) or its group's (per process: the last thread's exit),
 * or an exec; a reaction finds the pid again (tlob_react_alive()).
 *
 * Locking and context: one raw spinlock, tlob_alive_lock, guards the
 * pool, the hash, every instance and every alive binding's statistics.
 * Checkpoints are rare next to scheduler events (one per frame or job),
 * so one lock is enough. Callers: the checkpoint uprobe (task context),
 * sched_process_exit/exec (task context), the cycle timer (hard IRQ, also
 * on PREEMPT_RT) and control writes and reads (process context); none
 * holds another tlob lock when it takes this one. Under it: trace events,
 * hrtimer_start() and hrtimer_try_to_cancel() (never hrtimer_cancel(),
 * which would wait for a callback that waits for this lock) and
 * tlob_react() (irq_work). Nothing here allocates, sleeps or prints.
 */
#include <linux/hrtimer.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "tlob.h"
#include "tlob_tolerance.h"
#include "tlob_trace.h"

struct ha_clocks_alive;
static u64 tlob_alive_period(const struct ha_clocks_alive *clk);
static u64 tlob_alive_min(const struct ha_clocks_alive *clk);
static u64 tlob_alive_max(const struct ha_clocks_alive *clk);
/* The bounds of the model: the instance's binding's terms. */
#define PERIOD_NS(clk) tlob_alive_period(clk)
#define EXPECT_MIN(clk) tlob_alive_min(clk)
#define EXPECT_MAX(clk) tlob_alive_max(clk)
#include "alive_model_ha.h"
#include "tlob_alive_cycle.h"

static unsigned int alive_instances = 256;
module_param(alive_instances, uint, 0444);
MODULE_PARM_DESC(alive_instances,
		 "alive supervision instances at once (default 256)");

struct tlob_alive {
	struct tlob_inst in;		/* first: the pool's (tlob_instances.c) */
	struct ha_clocks_alive clk;	/* clk.start[clk_cycle_alive]: the cycle's start */
	struct hrtimer timer;
	u32 checkpoints;		/* the model's variable: since clk_cycle's reset */
	u8 state;			/* enum states_alive */
};

static DEFINE_RAW_SPINLOCK(tlob_alive_lock);

static void tlob_alive_end(struct tlob_inst *in, enum tlob_abort_reason why,
			   u64 now);

/* Exit, exec, unbind and disable all end an instance aborted. */
static struct tlob_inst_pool tlob_alive_pool = {
	.name = "alive",
	.lock = &tlob_alive_lock,
	.gone = tlob_alive_end,
	.end = tlob_alive_end,
};

static struct tlob_alive *alive_of(struct tlob_inst *in)
{
	return container_of(in, struct tlob_alive, in);
}

static inline struct tlob_alive *clk_alive(const struct ha_clocks_alive *clk)
{
	return container_of(clk, struct tlob_alive, clk);
}

static u64 tlob_alive_period(const struct ha_clocks_alive *clk)
{
	return clk_alive(clk)->in.b->period_ns;
}

static u64 tlob_alive_min(const struct ha_clocks_alive *clk)
{
	const struct tlob_binding *b = clk_alive(clk)->in.b;

	return b->expect - b->margin;
}

static u64 tlob_alive_max(const struct ha_clocks_alive *clk)
{
	const struct tlob_binding *b = clk_alive(clk)->in.b;

	return b->expect + b->margin;
}

/* The model's hooks (alive_model_ha.h); tlob_alive_lock is held. */

static void ha_arm_alive(struct ha_clocks_alive *clk, u64 deadline_ns)
{
	tlob_timer_arm(&clk_alive(clk)->timer, deadline_ns);
}

static void ha_cancel_alive(struct ha_clocks_alive *clk)
{
	tlob_timer_try_cancel(&clk_alive(clk)->timer);
}

static u64 ha_get_env_alive(const struct ha_clocks_alive *clk,
			    unsigned int env)
{
	return env == checkpoints_alive ? clk_alive(clk)->checkpoints : 0;
}

static u64 tlob_alive_cycle_start(const struct tlob_alive *a)
{
	return a->clk.start[clk_cycle_alive];
}

/* A record of @a's current cycle, ending at @end, for @verdict. */
static void tlob_alive_fill(const struct tlob_alive *a,
			    struct tlob_alive_record *r, u64 end,
			    unsigned int verdict, u64 now, unsigned int detector)
{
	const struct tlob_binding *b = a->in.b;

	memset(r, 0, sizeof(*r));
	r->start_ns = tlob_alive_cycle_start(a);
	r->end_ns = end;
	r->period_ns = b->period_ns;
	r->detect_latency_ns = (s64)(now - end);
	r->pid = a->in.key;
	r->tgid = a->in.tgid;
	r->binding_id = b->id;
	r->checkpoints = a->checkpoints;
	r->expect_min = tlob_alive_min(&a->clk);
	r->expect_max = tlob_alive_max(&a->clk);
	r->cycles = 1;
	r->verdict = verdict;
	r->detector = detector;
	memcpy(r->comm, a->in.comm, TLOB_COMM_LEN);
	memcpy(r->tag, b->tag, TLOB_TAG_LEN);
}

/*
 * A judged record: the binding's statistics and its history
 * (tolerance=K/W), both per cycle the record covers; for a violation
 * that passes the tolerance, the reaction. Then the trace event. A record
 * of several empty cycles is judged as its last: the cycles before it
 * enter the history first, so they count towards K.
 */
static void tlob_alive_judged(struct tlob_alive *a,
			      struct tlob_alive_record *r)
{
	struct tlob_binding *b = a->in.b;
	bool bad = r->verdict != TLOB_VERDICT_OK;
	u64 history;

	history = tlob_history_push_n(atomic64_read(&b->history),
				      r->cycles - 1, bad);
	if (bad)
		r->react = tlob_tolerance_reached(history, b->tol_k, b->tol_w);
	atomic64_set(&b->history, tlob_history_push_n(history, 1, bad));
	tlob_alive_stats_add(&b->astats, r->verdict, r->cycles, r->checkpoints,
			     r->react);
	trace_alive_cycle(r);
	if (bad)
		tlob_notify_readers();
	if (r->react)
		tlob_react_alive(r);
}

/*
 * One model event for @a at @at (the model's time; @now, the clock, says
 * how late it is judged). cycle_end's guard judges the cycle, or the
 * @cycles empty cycles in a row it stands for, before the step resets its
 * clock; the step resets `checkpoints` with that clock. Returns false
 * when the instance ended: the caller frees it.
 */
static bool tlob_alive_step(struct tlob_alive *a, unsigned int event, u64 at,
			    u64 now, unsigned int detector, u64 cycles)
{
	unsigned int curr = a->state, next, env, verdict;
	struct tlob_alive_record r;

	lockdep_assert_held(&tlob_alive_lock);
	next = automaton_alive.function[curr][event];
	if (next == INVALID_STATE_ALIVE) {
		/* The handlers send only what the model allows: a bug. */
		a->in.b->astats.errors++;
		ha_cancel_alive(&a->clk);
		return false;
	}
	if (event == cycle_end_alive) {
		verdict = tlob_alive_verdict(&a->clk, a->checkpoints, at);
		tlob_alive_fill(a, &r, at, verdict, now, detector);
		r.cycles = min_t(u64, cycles, U32_MAX);
		tlob_alive_judged(a, &r);
	}
	env = automaton_alive.reset_env[curr][event];
	ha_step_alive(&a->clk, curr, event, at);
	if (env == clk_cycle_alive)
		a->checkpoints = 0;
	if (event == checkpoint_alive && a->checkpoints < U32_MAX)
		a->checkpoints++;
	a->state = next;
	return !automaton_alive.final_states[next];
}

/*
 * Judge every cycle of @a that ended by @now: the current one with its
 * checkpoints, then those that went by empty as one cycle_end standing
 * for all of them. Bounded: at most two steps whatever the time.
 */
static void tlob_alive_catch_up(struct tlob_alive *a, u64 now,
				unsigned int detector)
{
	u64 period = a->in.b->period_ns, n;

	if (a->state != supervised_alive)
		return;
	/* The cycles that ended by @now: the current one is cycle 0. */
	n = tlob_alive_cycle_at(tlob_alive_cycle_start(a), period, now);
	if (!n)
		return;
	tlob_alive_step(a, cycle_end_alive, tlob_alive_cycle_start(a) + period,
			now, detector, 1);
	/* Now the next cycle is cycle 0: the n - 1 after it went by empty. */
	if (n > 1)
		tlob_alive_step(a, cycle_end_alive,
				tlob_alive_cycle_start(a) + (n - 1) * period,
				now, detector, n - 1);
}

/* The cycle timer (hard IRQ, also on PREEMPT_RT): judge what ended. */
static enum hrtimer_restart tlob_alive_expired(struct hrtimer *timer)
{
	struct tlob_alive *a = container_of(timer, struct tlob_alive, timer);

	raw_spin_lock(&tlob_alive_lock);
	/*
	 * The instance may have ended, or its slot begun another, while this
	 * callback waited for the lock: only what ended by now is judged.
	 */
	if (a->in.b)
		tlob_alive_catch_up(a, ktime_get_ns(), TLOB_DETECT_HRTIMER);
	raw_spin_unlock(&tlob_alive_lock);
	return HRTIMER_NORESTART;
}

/*
 * The checkpoint of alive binding @b was hit by @t (current). The first
 * hit of an instance begins it; every hit first ends the cycles that
 * ended before it (a late timer), then counts in the cycle it is in.
 */
void tlob_alive_checkpoint(struct tlob_binding *b, struct task_struct *t)
{
	struct tlob_inst *in;
	unsigned long flags;
	struct tlob_alive *a;
	u64 now;

	raw_spin_lock_irqsave(&tlob_alive_lock, flags);
	now = ktime_get_ns();
	in = tlob_inst_find(&tlob_alive_pool, b, t);
	if (!in) {
		in = tlob_inst_take(&tlob_alive_pool, b, t);
		if (!in) {
			b->astats.dropped++;
			goto out;
		}
		a = alive_of(in);
		a->checkpoints = 0;
		a->state = automaton_alive.initial_state;
		b->astats.instances++;
		if (!tlob_alive_step(a, begin_alive, now, now,
				     TLOB_DETECT_CHECKPOINT, 0)) {
			tlob_inst_give(&tlob_alive_pool, in);
			goto out;
		}
	}
	a = alive_of(in);
	tlob_alive_catch_up(a, now, TLOB_DETECT_CHECKPOINT);
	if (!tlob_alive_step(a, checkpoint_alive, now, now,
			     TLOB_DETECT_CHECKPOINT, 0))
		tlob_inst_give(&tlob_alive_pool, in);
out:
	raw_spin_unlock_irqrestore(&tlob_alive_lock, flags);
}

/*
 * End @in (abort: exit, exec, unbind, disable): what ended by now is
 * judged first; the cycle under way is recorded aborted, with its
 * checkpoints so far, and not judged.
 */
static void tlob_alive_end(struct tlob_inst *in, enum tlob_abort_reason why,
			   u64 now)
{
	struct tlob_alive *a = alive_of(in);
	struct tlob_alive_record r;

	tlob_alive_catch_up(a, now, TLOB_DETECT_STOP);
	tlob_alive_fill(a, &r, now, TLOB_VERDICT_ABORTED, now, TLOB_DETECT_NONE);
	r.detect_latency_ns = 0;
	r.abort_reason = why;
	a->in.b->astats.aborted++;
	trace_alive_cycle(&r);
	tlob_alive_step(a, abort_alive, now, now, TLOB_DETECT_NONE, 0);
	tlob_inst_give(&tlob_alive_pool, &a->in);
}

/* Task @t exits or execs: its instances and its process's (tlob_instances.c). */
void tlob_alive_task_gone(struct task_struct *t, pid_t pid,
			  enum tlob_abort_reason why)
{
	tlob_inst_task_gone(&tlob_alive_pool, t, pid, why);
}

/*
 * End the instances of @b (NULL: every alive binding's), process context,
 * once no checkpoint of it can run any more (its uprobes are gone).
 */
void tlob_alive_abort_binding(struct tlob_binding *b,
			      enum tlob_abort_reason why)
{
	tlob_inst_abort_binding(&tlob_alive_pool, b, why);
}

/* A copy of @b's statistics, consistent (process context). */
void tlob_alive_stats_get(const struct tlob_binding *b,
			  struct tlob_alive_stats *st)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&tlob_alive_lock, flags);
	*st = b->astats;
	raw_spin_unlock_irqrestore(&tlob_alive_lock, flags);
}

/* The pool file's " alive_size=N alive_used=N alive_peak=N\n". */
int tlob_alive_pool_show(char *buf, size_t size)
{
	return tlob_inst_pool_show(&tlob_alive_pool, buf, size);
}

/* Module load: the instances, each with its hard timer, all free. */
int tlob_alive_init(void)
{
	unsigned int i;
	int ret;

	BUILD_BUG_ON(offsetof(struct tlob_alive, in));
	ret = tlob_inst_pool_init(&tlob_alive_pool, alive_instances,
				  sizeof(struct tlob_alive));
	if (ret)
		return ret;
	for (i = 0; i < tlob_alive_pool.size; i++)
		tlob_timer_init(&alive_of(tlob_inst_at(&tlob_alive_pool, i))->timer,
				tlob_alive_expired);
	return 0;
}

/*
 * Module exit, after every instance ended and no probe is left: no timer
 * callback may still run when the pool goes.
 */
void tlob_alive_exit(void)
{
	unsigned int i;

	for (i = 0; i < tlob_alive_pool.size; i++)
		tlob_timer_sync(&alive_of(tlob_inst_at(&tlob_alive_pool, i))->timer);
	tlob_inst_pool_exit(&tlob_alive_pool);
}
