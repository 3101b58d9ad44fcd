// SPDX-License-Identifier: GPL-2.0
/*
 * Reactors: what happens to a task that overran its budget (or hit a
 * model error), to a process or task whose alive supervision failed (a
 * reference cycle with too few or too many checkpoints), or whose logical
 * supervision did (an event out of order, or an end outside a final
 * state), besides the trace events: nothing (nop), a kernel message (printk), panic, or a
 * signal (SIGXCPU unless `signal:N`).
 *
 * Violations are found in the hrtimer callback (hard IRQ) and model
 * errors in sched_switch (runqueue lock held): neither may print, panic
 * politely or send a signal (signal delivery wakes the task and takes the
 * runqueue lock). So tlob_react() only queues the reaction in a small
 * preallocated ring and raises an irq_work; the irq_work runs after the
 * caller has left those locks - in hard IRQ on a stock kernel, in the
 * irq_work thread on PREEMPT_RT - where printk, panic and signals are
 * allowed. A full ring drops the reaction and counts it. One run of the
 * irq_work handles at most a ring's worth and queues itself again for
 * the rest, so CPUs that keep refilling the ring cannot hold one CPU in
 * hard IRQ; printing is rate-limited (the kernel's default: a burst of
 * 10 every 5 s), as a kernel log flooded from IRQ context stalls the
 * console. A window's signal goes to the thread that overran (its
 * process's other threads must not take it); an alive or logical
 * instance's to the pid of its record, a process when per=process.
 *
 * Locking: tlob_react_lock (raw) guards the ring; taken irqsave from any
 * context, nothing nests inside it.
 */
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/ratelimit.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <linux/string.h>

#include "tlob.h"

enum tlob_reactor {
	TLOB_REACT_NOP,
	TLOB_REACT_PRINTK,
	TLOB_REACT_PANIC,
	TLOB_REACT_SIGNAL,
	TLOB_REACT_MAX,
};

static const char * const tlob_reactor_names[TLOB_REACT_MAX] = {
	"nop", "printk", "panic", "signal",
};

static int tlob_reactor = TLOB_REACT_NOP;	/* READ_ONCE: set by sysfs */
static int tlob_signal = SIGXCPU;

#define TLOB_REACT_RING	64

/*
 * A logical binding's violation, with the names its table gives the
 * model, the state and the event (the binding may be gone by the time
 * the reaction runs).
 */
struct tlob_logic_reaction {
	struct tlob_logic_record rec;
	char model[TLOB_LOGIC_NAME_MAX + 1];
	char state[TLOB_LOGIC_NAME_MAX + 1];
	char event[TLOB_LOGIC_NAME_MAX + 1];
};

enum tlob_reaction_kind {
	TLOB_REACTION_WINDOW,	/* rec */
	TLOB_REACTION_ALIVE,	/* arec */
	TLOB_REACTION_LOGIC,	/* lrec */
};

struct tlob_reaction {
	struct pid *pid;
	int reactor;
	int sig;
	enum tlob_reaction_kind kind;
	union {
		struct tlob_record rec;
		struct tlob_alive_record arec;
		struct tlob_logic_reaction lrec;
	};
};

static struct tlob_reaction tlob_ring[TLOB_REACT_RING];
static unsigned int tlob_ring_head, tlob_ring_len;	/* tlob_react_lock */
static DEFINE_RAW_SPINLOCK(tlob_react_lock);
static atomic64_t tlob_lost = ATOMIC64_INIT(0);
static DEFINE_RATELIMIT_STATE(tlob_print_rs, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);

static bool tlob_may_print(void)
{
	return __ratelimit(&tlob_print_rs);
}

/* The thread, not its process (kill_pid() would let any thread take it). */
static void tlob_signal_thread(struct pid *pid, int sig)
{
	struct task_struct *t;

	rcu_read_lock();
	t = pid_task(pid, PIDTYPE_PID);
	if (t)
		send_sig(sig, t, 1);
	rcu_read_unlock();
}

/* "running N sleeping N waiting N": the states a window is open in. */
static void tlob_react_times(const struct tlob_record *r, char *buf,
			     size_t size)
{
	const char *sep = "";
	unsigned int s;
	size_t n = 0;

	buf[0] = '\0';
	for (s = 0; s < state_max_tlob; s++) {
		if (automaton_tlob.final_states[s])
			continue;
		n += scnprintf(buf + n, size - n, "%s%s %llu", sep,
			       automaton_tlob.state_names[s], r->time_ns[s]);
		sep = " ";
	}
}

/* An alive cycle out of its margins. */
static void tlob_react_alive_one(struct tlob_reaction *re)
{
	const struct tlob_alive_record *r = &re->arec;

	switch (re->reactor) {
	case TLOB_REACT_PRINTK:
		if (!tlob_may_print())
			break;
		pr_warn("alive supervision: %s-%u binding %u%s%s %u checkpoints in %u cycle(s) of %llu ns, expected %u..%u per cycle\n",
			r->comm, r->pid, r->binding_id, r->tag[0] ? " tag " : "",
			r->tag, r->checkpoints, r->cycles, r->period_ns,
			r->expect_min, r->expect_max);
		break;
	case TLOB_REACT_PANIC:
		panic("tlob: alive supervision: %s-%u binding %u %u checkpoints, expected %u..%u\n",
		      r->comm, r->pid, r->binding_id, r->checkpoints,
		      r->expect_min, r->expect_max);
		break;
	case TLOB_REACT_SIGNAL:
		if (re->pid)
			kill_pid(re->pid, re->sig, 1);
		break;
	}
}

/* An event out of order or out of time, or an instance that ended unfinished. */
static void tlob_react_logic_one(struct tlob_reaction *re)
{
	const struct tlob_logic_reaction *l = &re->lrec;
	const struct tlob_logic_record *r = &l->rec;
	bool timing = r->verdict == TLOB_VERDICT_TIMING;
	/* TIMING with no event: a state held past its invariant (the timer). */
	bool held = timing && r->event == TLOB_LOGIC_NONE;
	bool order = r->verdict == TLOB_VERDICT_ORDER || (timing && !held);

	switch (re->reactor) {
	case TLOB_REACT_PRINTK:
		if (!tlob_may_print())
			break;
		if (held)
			pr_warn("logical supervision: %s-%u binding %u%s%s model %s: state %s held until clock %llu ns, past its invariant\n",
				r->comm, r->pid, r->binding_id,
				r->tag[0] ? " tag " : "", r->tag, l->model,
				l->state, r->clock_ns);
		else if (timing)
			pr_warn("logical supervision: %s-%u binding %u%s%s model %s: event %s in state %s at clock %llu ns, outside its guard\n",
				r->comm, r->pid, r->binding_id,
				r->tag[0] ? " tag " : "", r->tag, l->model,
				l->event, l->state, r->clock_ns);
		else if (order)
			pr_warn("logical supervision: %s-%u binding %u%s%s model %s: event %s not allowed in state %s\n",
				r->comm, r->pid, r->binding_id,
				r->tag[0] ? " tag " : "", r->tag, l->model,
				l->event, l->state);
		else
			pr_warn("logical supervision: %s-%u binding %u%s%s model %s: %s in state %s, not a final one\n",
				r->comm, r->pid, r->binding_id,
				r->tag[0] ? " tag " : "", r->tag, l->model,
				r->abort_reason == TLOB_ABORT_EXEC ? "exec" :
				"exit", l->state);
		break;
	case TLOB_REACT_PANIC:
		panic("tlob: logical supervision: %s-%u binding %u model %s: %s%s in state %s%s\n",
		      r->comm, r->pid, r->binding_id, l->model,
		      order ? "event " : held ? "held too long" : "incomplete",
		      order ? l->event : "", l->state,
		      held ? ", past its invariant" : timing ?
		      ", outside its guard" : "");
		break;
	case TLOB_REACT_SIGNAL:
		if (re->pid)
			kill_pid(re->pid, re->sig, 1);
		break;
	}
}

static void tlob_react_one(struct tlob_reaction *re)
{
	const struct tlob_record *r = &re->rec;
	bool early = r->verdict == TLOB_VERDICT_EARLY;
	const char *what = r->verdict == TLOB_VERDICT_MODEL_ERROR ?
			   "model error" : early ? "finished early" :
			   "budget exceeded";
	/* The bound the window broke: its minimum, or its budget. */
	u64 bound = early ? r->min_ns : r->budget_ns;
	char times[128];

	switch (re->reactor) {
	case TLOB_REACT_PRINTK:
		if (!tlob_may_print())
			break;
		tlob_react_times(r, times, sizeof(times));
		pr_warn("%s: %s-%u binding %u%s%s elapsed %llu ns %s %llu ns (%s)\n",
			what, r->comm, r->pid, r->binding_id,
			r->tag[0] ? " tag " : "", r->tag, r->elapsed_ns,
			early ? "< min" : "> budget", bound, times);
		break;
	case TLOB_REACT_PANIC:
		panic("tlob: %s: %s-%u binding %u elapsed %llu ns %s %llu ns\n",
		      what, r->comm, r->pid, r->binding_id, r->elapsed_ns,
		      early ? "min" : "budget", bound);
		break;
	case TLOB_REACT_SIGNAL:
		tlob_signal_thread(re->pid, re->sig);
		break;
	}
}

static void tlob_react_work(struct irq_work *work)
{
	struct tlob_reaction re;
	unsigned long flags;
	unsigned int done;

	for (done = 0; ; done++) {
		raw_spin_lock_irqsave(&tlob_react_lock, flags);
		if (!tlob_ring_len) {
			raw_spin_unlock_irqrestore(&tlob_react_lock, flags);
			return;
		}
		if (done == TLOB_REACT_RING) {
			raw_spin_unlock_irqrestore(&tlob_react_lock, flags);
			irq_work_queue(work);
			return;
		}
		re = tlob_ring[tlob_ring_head];
		tlob_ring_head = (tlob_ring_head + 1) % TLOB_REACT_RING;
		tlob_ring_len--;
		raw_spin_unlock_irqrestore(&tlob_react_lock, flags);
		if (re.kind == TLOB_REACTION_ALIVE)
			tlob_react_alive_one(&re);
		else if (re.kind == TLOB_REACTION_LOGIC)
			tlob_react_logic_one(&re);
		else
			tlob_react_one(&re);
		put_pid(re.pid);
	}
}

static DEFINE_IRQ_WORK(tlob_react_iw, tlob_react_work);

/*
 * A slot of the ring, tlob_react_lock held and taken (NULL: the ring is
 * full, the reaction counted lost); the caller fills it, unlocks and
 * raises the irq_work.
 */
static struct tlob_reaction *tlob_react_slot(int reactor)
{
	struct tlob_reaction *re;

	if (tlob_ring_len == TLOB_REACT_RING) {
		atomic64_inc(&tlob_lost);
		return NULL;
	}
	re = &tlob_ring[(tlob_ring_head + tlob_ring_len) % TLOB_REACT_RING];
	tlob_ring_len++;
	re->reactor = reactor;
	re->sig = READ_ONCE(tlob_signal);
	return re;
}

/* Any context, any lock of tlob held: queue, never act. */
void tlob_react(struct task_struct *t, const struct tlob_record *r)
{
	int reactor = READ_ONCE(tlob_reactor);
	struct tlob_reaction *re;
	unsigned long flags;

	if (reactor == TLOB_REACT_NOP)
		return;
	raw_spin_lock_irqsave(&tlob_react_lock, flags);
	re = tlob_react_slot(reactor);
	if (re) {
		/* A pid reference, not the task: the task may be gone by then. */
		re->pid = get_task_pid(t, PIDTYPE_PID);
		re->kind = TLOB_REACTION_WINDOW;
		re->rec = *r;
	}
	raw_spin_unlock_irqrestore(&tlob_react_lock, flags);
	if (re)
		irq_work_queue(&tlob_react_iw);
}

/*
 * The same for an alive cycle: the instance keeps no task, so the signal
 * goes to the pid of the record (the task, or the process's tgid), found
 * under RCU; a process or task already gone gets no signal.
 */
void tlob_react_alive(const struct tlob_alive_record *r)
{
	int reactor = READ_ONCE(tlob_reactor);
	struct tlob_reaction *re;
	unsigned long flags;

	if (reactor == TLOB_REACT_NOP)
		return;
	raw_spin_lock_irqsave(&tlob_react_lock, flags);
	re = tlob_react_slot(reactor);
	if (re) {
		rcu_read_lock();
		re->pid = get_pid(find_pid_ns(r->pid, &init_pid_ns));
		rcu_read_unlock();
		re->kind = TLOB_REACTION_ALIVE;
		re->arec = *r;
	}
	raw_spin_unlock_irqrestore(&tlob_react_lock, flags);
	if (re)
		irq_work_queue(&tlob_react_iw);
}

/*
 * The same for a logical binding's violation (ORDER or INCOMPLETE): the
 * signal goes to the pid of the record, found under RCU; the names of
 * @model, @state and @event (the binding's table's) are copied.
 */
void tlob_react_logic(const struct tlob_logic_record *r, const char *model,
		      const char *state, const char *event)
{
	int reactor = READ_ONCE(tlob_reactor);
	struct tlob_reaction *re;
	unsigned long flags;

	if (reactor == TLOB_REACT_NOP)
		return;
	raw_spin_lock_irqsave(&tlob_react_lock, flags);
	re = tlob_react_slot(reactor);
	if (re) {
		rcu_read_lock();
		re->pid = get_pid(find_pid_ns(r->pid, &init_pid_ns));
		rcu_read_unlock();
		re->kind = TLOB_REACTION_LOGIC;
		re->lrec.rec = *r;
		strscpy(re->lrec.model, model, sizeof(re->lrec.model));
		strscpy(re->lrec.state, state, sizeof(re->lrec.state));
		strscpy(re->lrec.event, event, sizeof(re->lrec.event));
	}
	raw_spin_unlock_irqrestore(&tlob_react_lock, flags);
	if (re)
		irq_work_queue(&tlob_react_iw);
}

/* "nop", "printk", "panic", "signal" or "signal:N". */
int tlob_reactor_set(const char *name)
{
	int i, sig = SIGXCPU;
	size_t len = strcspn(name, ":");

	for (i = 0; i < TLOB_REACT_MAX; i++)
		if (len == strlen(tlob_reactor_names[i]) &&
		    !strncmp(name, tlob_reactor_names[i], len))
			break;
	if (i == TLOB_REACT_MAX)
		return -EINVAL;
	if (name[len]) {
		if (i != TLOB_REACT_SIGNAL || kstrtoint(name + len + 1, 10, &sig))
			return -EINVAL;
		if (sig <= 0 || !valid_signal(sig))
			return -EINVAL;
	}
	WRITE_ONCE(tlob_signal, sig);
	WRITE_ONCE(tlob_reactor, i);
	return 0;
}

int tlob_reactor_show(char *buf, size_t size)
{
	int cur = READ_ONCE(tlob_reactor);
	int i, n = 0;

	for (i = 0; i < TLOB_REACT_MAX; i++)
		n += scnprintf(buf + n, size - n, i == cur ? "%s[%s]" : "%s%s",
			       i ? " " : "", tlob_reactor_names[i]);
	n += scnprintf(buf + n, size - n, "\n");
	return n;
}

/* Module exit: no reaction still queued or running. */
void tlob_reactor_sync(void)
{
	irq_work_sync(&tlob_react_iw);
	tlob_react_work(&tlob_react_iw);
	/* in case that run left some for another */
	irq_work_sync(&tlob_react_iw);
}

u64 tlob_reactions_lost(void)
{
	return atomic64_read(&tlob_lost);
}
