/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * tlob ABI: what the module (tlob.ko), the BPF backend (kernel/bpf/) and
 * the tool (user/) agree on. Everything a reader sees of a window comes
 * through struct tlob_record, whichever backend produced it: the module
 * emits the same fields as the tlob_window/tlob_violation trace events,
 * the BPF backend writes the struct itself into its ring buffer.
 *
 * Only fixed-size types, no pointers: the structs cross the kernel/user
 * boundary byte for byte and must have the same layout in the BPF target,
 * the kernel and userspace. The functions are plain C for all three.
 */
#ifndef TLOB_ABI_H
#define TLOB_ABI_H

#if defined(__KERNEL__)
#include <linux/compiler.h>
#include <linux/types.h>
#elif !defined(__VMLINUX_H__)
#include <linux/types.h>
#endif

#include "tlob_model.h"

/*
 * READ_ONCE()/WRITE_ONCE() for the statistics below: the kernel's, the
 * BPF programs' (../bpf/tlob_common.bpf.h), and in the tool plain accesses:
 * it sums copies it has read out of the kernel, which nothing changes.
 */
#ifndef READ_ONCE
#define READ_ONCE(x)		(x)
#define WRITE_ONCE(x, v)	((x) = (v))
#endif

/* Budgets accepted by every backend: 1 us .. 1 h, as upstream. */
#define TLOB_BUDGET_MIN_NS	1000ULL
#define TLOB_BUDGET_MAX_NS	3600000000000ULL

/*
 * Alive supervision (`a` lines): a reference cycle of 100 us .. 1 h (the
 * cycle's hard hrtimer fires once per period, so not much more often than a
 * scheduler tick), and up to TLOB_EXPECT_MAX checkpoints expected per cycle.
 */
#define TLOB_PERIOD_MIN_NS	100000ULL
#define TLOB_EXPECT_MAX		1000000U

/*
 * Logical supervision (`l` lines): a user's deterministic automaton of up
 * to TLOB_LOGIC_STATES_MAX states and TLOB_LOGIC_EVENTS_MAX events (each
 * event one uprobe), names of up to TLOB_LOGIC_NAME_MAX characters.
 */
#define TLOB_LOGIC_STATES_MAX	32
#define TLOB_LOGIC_EVENTS_MAX	16
#define TLOB_LOGIC_NAME_MAX	23
/*
 * A model's events may lie in up to TLOB_LOGIC_FILES_MAX files: the
 * line's PATH and file1= .. file3= (an application and its libraries).
 */
#define TLOB_LOGIC_FILES_MAX	4
#define TLOB_LOGIC_NONE		0xff	/* no state or event */

#define TLOB_COMM_LEN		16
#define TLOB_TAG_LEN		16

/* The sysfs control tree of the module and the tracefs one of in-kernel RV. */
#define TLOB_SYSFS_DIR		"/sys/kernel/tlob"
#define TLOB_RV_DIR		"/sys/kernel/tracing/rv/monitors/tlob"
/* The module's session device: one holder of bindings per open file. */
#define TLOB_SESSION_DEV	"/dev/tlob"
/* Where the BPF backend pins its maps and links when asked to persist. */
#define TLOB_BPF_PIN_DIR	"/sys/fs/bpf/tlob"

/* Which record this is. */
enum tlob_record_kind {
	/*
	 * A timing constraint of the model broke: the deadline passed while
	 * the task was still inside its window (verdict over_budget), or a
	 * guard did not hold on a transition (early: STOP before min=).
	 */
	TLOB_REC_VIOLATION = 1,
	/* A window ended (whatever its verdict); emitted exactly once. */
	TLOB_REC_WINDOW = 2,
	/*
	 * A START opened no window: none was free (the module's pool, the
	 * BPF backend's windows map or a task's nesting slots). Not a window:
	 * start_ns = end_ns = the START, no times, no verdict.
	 */
	TLOB_REC_DROPPED = 3,
};

/* How a window ended. */
enum tlob_verdict {
	TLOB_VERDICT_OK = 0,		/* STOP within budget */
	TLOB_VERDICT_OVER_BUDGET = 1,	/* deadline passed (timer or at STOP) */
	TLOB_VERDICT_MODEL_ERROR = 2,	/* an event the model does not allow */
	TLOB_VERDICT_ABORTED = 3,	/* the window ended without STOP */
	/*
	 * STOP came before the section's minimum (min=): the model's guard
	 * on stop (clk_elapsed >= MIN_NS()) did not hold.
	 */
	TLOB_VERDICT_EARLY = 4,
	/*
	 * Alive supervision: a reference cycle ended with fewer checkpoints
	 * than expect - margin, or more than expect + margin (the model's
	 * guard on cycle_end, models/alive.dot, did not hold).
	 */
	TLOB_VERDICT_TOO_FEW = 5,
	TLOB_VERDICT_TOO_MANY = 6,
	/*
	 * Logical supervision (`l` lines, a user's model): an event the
	 * model does not allow in the instance's state (ORDER), or the
	 * process or task ended outside a final state (INCOMPLETE); an
	 * event the state has an edge for, at a time the edge's guard on
	 * the model's clock refuses (TIMING: too early or too late).
	 */
	TLOB_VERDICT_ORDER = 7,
	TLOB_VERDICT_INCOMPLETE = 8,
	TLOB_VERDICT_TIMING = 9,
};

/* Why an aborted window ended (TLOB_VERDICT_ABORTED only). */
enum tlob_abort_reason {
	TLOB_ABORT_NONE = 0,
	TLOB_ABORT_EXIT = 1,		/* the task exited */
	TLOB_ABORT_EXEC = 2,		/* the task exec'd another image */
	TLOB_ABORT_UNBIND = 3,		/* its binding was removed */
	TLOB_ABORT_DISABLE = 4,		/* the monitor was disabled/unloaded */
};

/*
 * Which path detected a violation: the hard hrtimer (module), the
 * bpf_timer (BPF, stock kernels), the timer-free sampling path (BPF on
 * PREEMPT_RT), or the check at STOP (any backend: a late timer never
 * hides an overrun).
 */
enum tlob_detector {
	TLOB_DETECT_NONE = 0,
	TLOB_DETECT_HRTIMER = 1,
	TLOB_DETECT_BPF_TIMER = 2,
	TLOB_DETECT_SAMPLE = 3,
	TLOB_DETECT_STOP = 4,
	TLOB_DETECT_SCHED = 5,		/* BPF timer-free path, at a sched event */
	/* Alive: a cycle's end found by its next checkpoint, not its timer. */
	TLOB_DETECT_CHECKPOINT = 6,
};

/*
 * One record, one window (or the moment its deadline passed). Times are
 * CLOCK_MONOTONIC nanoseconds (ktime_get_ns() in the module,
 * bpf_ktime_get_ns() in BPF), so records of both backends compare.
 *
 * Where the time went and what happened follow the model: time_ns[] is
 * indexed by enum states_tlob and count[] by enum events_tlob, both from
 * tlob_model.h, so a state or an event added to models/tlob.dot is in
 * every record of both backends without a line here. Readers name them
 * by the model's names (user/backend/names.c): the time of STATE is STATE_ns
 * (running_ns, ...) and the count of EVENT is EVENTs (sleeps, wakeups,
 * switch_ins), except preempt's, preemptions, as the record has always
 * called it; a reader shows the counts of the events that happen only
 * inside a window (preempt, sleep, switch_in, wakeup), and the times of
 * the states a window is open in (all but the final stopped, whose
 * time_ns is 0).
 */
struct tlob_record {
	__u64 start_ns;		/* when START was seen */
	__u64 end_ns;		/* STOP/abort (WINDOW), detection (VIOLATION) */
	__u64 budget_ns;
	__u64 min_ns;		/* the binding's min=, 0: none */
	__u64 elapsed_ns;	/* end_ns - start_ns */
	/*
	 * Report time minus deadline (start_ns + budget_ns) of the first
	 * detection; 0 when the window was in budget or ended early.
	 */
	__s64 detect_latency_ns;
	__u64 time_ns[state_max_tlob];	/* in each state; they add up to elapsed_ns */
	__u32 pid;
	__u32 tgid;
	__u32 binding_id;	/* stable id of the binding (never reused) */
	__u32 count[event_max_tlob];	/* transitions taken on each event */
	__u8 kind;		/* enum tlob_record_kind */
	__u8 verdict;		/* enum tlob_verdict */
	__u8 abort_reason;	/* enum tlob_abort_reason */
	__u8 detector;		/* enum tlob_detector */
	__u8 state;		/* model state at end_ns (enum states_tlob) */
	__u8 event;		/* model event that ended it (enum events_tlob) */
	/*
	 * 1: the window's violation passed the binding's tolerance=K/W and
	 * was reacted to (reactor, actions, triggers filtered on it); 0: no
	 * violation, or one tolerated (recorded all the same).
	 */
	__u8 react;
	/*
	 * To the next 8 bytes whatever the model's size (count[] may end
	 * half-way): the record has no implicit hole, so every byte a
	 * backend writes is one it set (tlob_trace.c checks the size).
	 */
	__u8 pad[1 + 4 * ((3 + event_max_tlob) % 2)];
	char comm[TLOB_COMM_LEN];
	char tag[TLOB_TAG_LEN];	/* the binding's tag= or "" */
};

/*
 * One reference cycle of an alive binding (`a` line, models/alive.dot),
 * judged at its end: how many times the checkpoint was hit against the
 * binding's expect - margin .. expect + margin. The module emits it as the
 * tlob:alive_cycle trace event, field for field. An instance is one
 * process (per=process, pid the tgid) or one task (per=task); it begins at
 * its first checkpoint and ends (verdict ABORTED, the cycle not judged)
 * when the process or task exits or execs, or the binding goes.
 */
struct tlob_alive_record {
	__u64 start_ns;		/* the cycle's start (CLOCK_MONOTONIC) */
	__u64 end_ns;		/* its end: start_ns + cycles * period_ns, or the abort */
	__u64 period_ns;
	/* When it was judged minus end_ns: the cycle timer's latency. */
	__s64 detect_latency_ns;
	__u32 pid;		/* per=task: the task; per=process: the tgid */
	__u32 tgid;
	__u32 binding_id;
	__u32 checkpoints;	/* in the cycle */
	__u32 expect_min;	/* expect - margin */
	__u32 expect_max;	/* expect + margin */
	/*
	 * Reference cycles the record covers: 1, except for cycles with no
	 * checkpoint that went by unjudged (the timer held off for longer
	 * than a period): those are one record, checkpoints 0.
	 */
	__u32 cycles;
	__u8 verdict;		/* OK, TOO_FEW, TOO_MANY or ABORTED */
	__u8 detector;		/* HRTIMER or CHECKPOINT (enum tlob_detector) */
	__u8 react;		/* passed the binding's tolerance=K/W, reacted to */
	__u8 abort_reason;	/* enum tlob_abort_reason (ABORTED only) */
	char comm[TLOB_COMM_LEN];	/* of the task that began the instance */
	char tag[TLOB_TAG_LEN];
};

/*
 * One record of a logical binding (`l` line, a user's model): a violation
 * (ORDER: @event is not allowed in @state; TIMING: it is, but not at
 * @clock_ns; INCOMPLETE: the instance ended in @state, not a final one)
 * or the end of an instance (OK: ended in a final state; ABORTED: its
 * binding or the monitor went). The module emits it as the tlob:logic
 * trace event, which carries the model's, state's and event's names as
 * well.
 */
struct tlob_logic_record {
	__u64 start_ns;		/* the instance's first event (CLOCK_MONOTONIC) */
	__u64 end_ns;		/* the event or end this record is about */
	__u64 events;		/* allowed events the instance took */
	/*
	 * The model's clock at end_ns: the time since the edge that last
	 * reset it, or since the instance's first event; 0 in a model with
	 * no clock.
	 */
	__u64 clock_ns;
	__u32 pid;		/* per=task: the task; per=process: the tgid */
	__u32 tgid;
	__u32 binding_id;
	__u8 verdict;		/* OK, ORDER, INCOMPLETE or ABORTED */
	__u8 state;		/* the instance's state (index into the table) */
	__u8 event;		/* the refused event; TLOB_LOGIC_NONE: none */
	__u8 react;		/* passed the binding's tolerance=K/W, reacted to */
	__u8 abort_reason;	/* tlob_abort_reason: EXIT/EXEC (OK, INCOMPLETE), UNBIND/DISABLE */
	__u8 pad[7];		/* to 8 bytes: no implicit hole */
	char comm[TLOB_COMM_LEN];	/* of the task that began the instance */
	char tag[TLOB_TAG_LEN];
};

/* A logical binding's statistics (the module's logic lock, tlob_logic.c). */
struct tlob_logic_stats {
	__u64 instances;	/* begun */
	__u64 events;		/* allowed events taken */
	__u64 completed;	/* instances ended in a final state */
	__u64 order;		/* ORDER violations */
	__u64 incomplete;	/* INCOMPLETE violations */
	__u64 timing;		/* TIMING violations */
	__u64 tolerated;	/* violations within tolerance=: no reaction */
	__u64 aborted;		/* instances ended by unbind/disable */
	__u64 dropped;		/* first events that found no free instance */
};

/*
 * An alive binding's statistics (the module keeps them under its alive
 * lock, tlob_alive.c): judged cycles and their checkpoints.
 */
struct tlob_alive_stats {
	__u64 cycles;		/* judged reference cycles */
	__u64 too_few;		/* of them, with too few checkpoints */
	__u64 too_many;		/* ... too many */
	__u64 tolerated;	/* violations within tolerance=: no reaction (cycles) */
	__u64 aborted;		/* instances ended by exit/exec/unbind/disable */
	__u64 errors;		/* events the model does not allow (none should be) */
	__u64 dropped;		/* first checkpoints that found no free instance */
	__u64 instances;	/* begun */
	__u64 min_checkpoints;	/* per judged cycle; 0 while none */
	__u64 max_checkpoints;
	__u64 sum_checkpoints;
};

/*
 * Why a window overran: what a backend captures at the deadline (the
 * timer, the sampler or the late check), without allocating and in a
 * bounded size, and hands to its readers as one struct tlob_diag after
 * the violation record of the same window (same pid, binding_id and
 * start_ns). The module emits it as the tlob:violation_detail trace event
 * (one field per member, the stacks as dynamic arrays of their nr_*
 * entries), the BPF backend writes the struct into its urgent ring, whose
 * reader tells it from a struct tlob_record by its size.
 */
#define TLOB_DIAG_USTACK	16	/* user frames kept, innermost first */
#define TLOB_DIAG_KSTACK	16	/* kernel frames kept, innermost first */
#define TLOB_DIAG_RAN		4	/* tasks that ran instead, most time first */

/* When the user stack was taken. */
enum tlob_stack_when {
	TLOB_STACK_NONE = 0,		/* not taken (say why: the backend could not) */
	/* At the deadline, the task on a CPU in user mode or in a syscall. */
	TLOB_STACK_DEADLINE = 1,
	/*
	 * Later, the first time the task was current after the deadline
	 * (its return to user mode, its next switch-out or its STOP): a task
	 * that slept or waited has not moved in user space since it left the
	 * CPU, so it is the same stack; a task running elsewhere may have.
	 */
	TLOB_STACK_DEFERRED = 2,
};

/* A task that had the CPU while the window waited on it. */
struct tlob_ran {
	__u64 ns;		/* how long, inside the window up to the deadline */
	__u32 pid;
	__u32 prio;		/* task_struct::prio: 0..99 real-time, 100..139 normal */
	__u8 policy;		/* SCHED_NORMAL, SCHED_FIFO, ... */
	__u8 pad[7];
	char comm[TLOB_COMM_LEN];
};

struct tlob_diag {
	__u64 start_ns;		/* the window's START: with pid and binding_id, which violation */
	/* When the user stack was taken (the deadline's check if at once). */
	__u64 capture_ns;
	__u32 pid;
	__u32 tgid;
	__u32 binding_id;
	__u32 cpu;		/* the CPU the task was last on */
	__u32 migrations;	/* CPU changes inside the window up to the deadline */
	__u32 waker_pid;	/* the task that last woke it inside the window; 0: none */
	__u8 state;		/* model state at the deadline (enum states_tlob) */
	__u8 ustack_when;	/* enum tlob_stack_when */
	__u8 nr_ustack;
	__u8 nr_kstack;		/* 0 unless sleeping or waiting at the deadline */
	__u8 nr_ran;
	__u8 pad[3];
	char waker_comm[TLOB_COMM_LEN];
	__u64 ustack[TLOB_DIAG_USTACK];	/* user return addresses; [0] the IP */
	__u64 kstack[TLOB_DIAG_KSTACK];	/* where it blocks or was preempted */
	struct tlob_ran ran[TLOB_DIAG_RAN];
};

/*
 * Per-binding statistics of ended windows: the one layout the module
 * (per CPU, tlob_stats.c), the BPF programs (a per-CPU map) and the tool
 * share, updated by tlob_stats_add() and summed by tlob_stats_merge().
 */
#define TLOB_HIST_BUCKETS	64

/*
 * A binding's tolerance=K/W (tlob_tolerance.h): 1 <= K <= W <= this, the
 * bits of its history word; none is 1/1.
 */
#define TLOB_TOLERANCE_MAX	64

struct tlob_stats {
	__u64 windows;		/* ended windows, whatever their verdict */
	__u64 violations;	/* windows whose deadline passed */
	__u64 errors;		/* model errors */
	__u64 aborted;		/* ended by exit/exec/unbind/disable */
	__u64 early;		/* STOP before the binding's min= */
	__u64 tolerated;	/* violations within tolerance=: no reaction */
	__u64 dropped;		/* STARTs that found no free window */
	__u64 min_ns;		/* elapsed of the ended windows; 0 while none */
	__u64 max_ns;
	__u64 sum_ns;
	__u64 hist[TLOB_HIST_BUCKETS];	/* [2^i, 2^(i+1)) ns; 0 ns in 0 */
};

/* The histogram bucket of @ns: floor(log2(ns)), 0 for 0. */
static inline unsigned int tlob_hist_bucket(__u64 ns)
{
	unsigned int b = 0;

	if (ns >> 32) {
		ns >>= 32;
		b += 32;
	}
	if (ns >> 16) {
		ns >>= 16;
		b += 16;
	}
	if (ns >> 8) {
		ns >>= 8;
		b += 8;
	}
	if (ns >> 4) {
		ns >>= 4;
		b += 4;
	}
	if (ns >> 2) {
		ns >>= 2;
		b += 2;
	}
	return b + (ns >> 1 ? 1 : 0);
}

/*
 * One ended window into this CPU's copy. The caller keeps the copy to
 * itself (IRQs off, or the one program running on this CPU); windows is
 * written last, so a reader that sees the window counted sees its
 * numbers. @tolerated: the window had a violation, not reacted to
 * (tolerance=K/W).
 */
static inline void tlob_stats_add(struct tlob_stats *st, unsigned int verdict,
				  unsigned int tolerated, __u64 elapsed_ns)
{
	if (!st->windows || elapsed_ns < st->min_ns)
		st->min_ns = elapsed_ns;
	if (elapsed_ns > st->max_ns)
		st->max_ns = elapsed_ns;
	st->sum_ns += elapsed_ns;
	st->hist[tlob_hist_bucket(elapsed_ns)]++;
	st->violations += verdict == TLOB_VERDICT_OVER_BUDGET;
	st->errors += verdict == TLOB_VERDICT_MODEL_ERROR;
	st->aborted += verdict == TLOB_VERDICT_ABORTED;
	st->early += verdict == TLOB_VERDICT_EARLY;
	st->tolerated += !!tolerated;
	WRITE_ONCE(st->windows, st->windows + 1);
}

/* Add one CPU's copy @c to @sum, which starts zeroed. */
static inline void tlob_stats_merge(struct tlob_stats *sum,
				    const struct tlob_stats *c)
{
	__u64 windows = READ_ONCE(c->windows);
	unsigned int i;

	/* A CPU may have dropped STARTs and ended no window. */
	sum->dropped += READ_ONCE(c->dropped);
	if (!windows)
		return;
	if (!sum->windows || c->min_ns < sum->min_ns)
		sum->min_ns = c->min_ns;
	if (c->max_ns > sum->max_ns)
		sum->max_ns = c->max_ns;
	sum->windows += windows;
	sum->violations += c->violations;
	sum->errors += c->errors;
	sum->aborted += c->aborted;
	sum->early += c->early;
	sum->tolerated += c->tolerated;
	sum->sum_ns += c->sum_ns;
	for (i = 0; i < TLOB_HIST_BUCKETS; i++)
		sum->hist[i] += c->hist[i];
}

/*
 * A judged record of an alive binding (@cycles reference cycles with
 * @checkpoints, verdict OK, TOO_FEW or TOO_MANY; @react: a violation that
 * passed tolerance=K/W) into @st, the module's copy under its alive lock
 * or this CPU's copy of the BPF backend's. cycles is written last, as a
 * window's windows is.
 */
static inline void tlob_alive_stats_add(struct tlob_alive_stats *st,
					unsigned int verdict, __u32 cycles,
					__u32 checkpoints, unsigned int react)
{
	if (verdict != TLOB_VERDICT_OK) {
		if (verdict == TLOB_VERDICT_TOO_FEW)
			st->too_few += cycles;
		else
			st->too_many += cycles;
		if (!react)
			st->tolerated += cycles;
	}
	if (!st->cycles || checkpoints < st->min_checkpoints)
		st->min_checkpoints = checkpoints;
	if (checkpoints > st->max_checkpoints)
		st->max_checkpoints = checkpoints;
	st->sum_checkpoints += checkpoints;
	WRITE_ONCE(st->cycles, st->cycles + cycles);
}

/* Add one CPU's copy @c of an alive binding's statistics to @sum (zeroed first). */
static inline void tlob_alive_stats_merge(struct tlob_alive_stats *sum,
					  const struct tlob_alive_stats *c)
{
	__u64 cycles = READ_ONCE(c->cycles);

	/* Counted whether or not a cycle ended on that CPU. */
	sum->aborted += c->aborted;
	sum->errors += c->errors;
	sum->dropped += c->dropped;
	sum->instances += c->instances;
	if (!cycles)
		return;
	if (!sum->cycles || c->min_checkpoints < sum->min_checkpoints)
		sum->min_checkpoints = c->min_checkpoints;
	if (c->max_checkpoints > sum->max_checkpoints)
		sum->max_checkpoints = c->max_checkpoints;
	sum->cycles += cycles;
	sum->too_few += c->too_few;
	sum->too_many += c->too_many;
	sum->tolerated += c->tolerated;
	sum->sum_checkpoints += c->sum_checkpoints;
}

/* Add one CPU's copy @c of a logical binding's statistics to @sum: all counts. */
static inline void tlob_logic_stats_merge(struct tlob_logic_stats *sum,
					  const struct tlob_logic_stats *c)
{
	sum->instances += c->instances;
	sum->events += c->events;
	sum->completed += c->completed;
	sum->order += c->order;
	sum->incomplete += c->incomplete;
	sum->timing += c->timing;
	sum->tolerated += c->tolerated;
	sum->aborted += c->aborted;
	sum->dropped += c->dropped;
}

/*
 * What a `monitor` line can carry, checked by the module's parser and by
 * the tool (for both backends) with these two functions, so that a line
 * the tool writes reads back as exactly what was asked:
 * - a tag is 1..TLOB_TAG_LEN-1 characters of A-Z a-z 0-9 _ . -
 * - a path is absolute and has no whitespace and no control byte
 *   (0x00..0x20, 0x7f): the line is split at blanks and newlines. Any
 *   other byte (UTF-8 included) is taken as it is.
 */
/*
 * The same section, for the module, the BPF backend and the tool alike:
 * two sections are one when their START offsets are equal and
 * their paths are the same text or name the same file (device and inode,
 * symlinks followed). The module compares the inode it holds for the
 * binding, which stays the bound file when a new file replaces it under
 * its path; the BPF backend, which keeps only the path, compares the file
 * that path names now. Where a path names two bindings so (a file replaced
 * under a bound path and the new file bound under another name), the one
 * written with that text is meant.
 *
 * The same binding (the module): the same section on the same file, and
 * the same terms: STOP, budget, minimum, tag and pid/tgid filter. The module's
 * bindings are shared by their holders (the monitor file, and each open
 * file of TLOB_SESSION_DEV): a holder holds at most one binding per
 * section, so adding a section the holder already holds is -EEXIST and a
 * removal (-PATH:START) names the holder's binding at that section by the
 * rule above; a line whose binding another holder holds takes a
 * reference on it; other terms on a section make a binding of its own.
 * A binding goes with its last reference. The BPF backend, until it
 * shares bindings too, has one holder (its pin) and refuses a section it
 * holds (-EEXIST).
 */

static inline int tlob_tag_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

static inline int tlob_path_char_ok(char c)
{
	unsigned char u = (unsigned char)c;

	return u > 0x20 && u != 0x7f;
}

#endif /* TLOB_ABI_H */
