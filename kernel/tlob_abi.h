/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * tlob ABI: what the module (tlob.ko), the BPF backend (kernel/bpf/) and
 * the tool (user/) agree on. Everything a reader sees of a window comes
 * through struct tlob_record, whichever backend produced it: the module
 * emits the same fields as the tlob_window/tlob_violation trace events,
 * the BPF backend writes the struct itself into its ring buffer.
 *
 * Only fixed-size types, no pointers: the struct crosses the kernel/user
 * boundary byte for byte and must have the same layout in the BPF target,
 * the kernel and userspace.
 */
#ifndef TLOB_ABI_H
#define TLOB_ABI_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* Budgets accepted by every backend: 1 us .. 1 h, as upstream. */
#define TLOB_BUDGET_MIN_NS	1000ULL
#define TLOB_BUDGET_MAX_NS	3600000000000ULL

#define TLOB_COMM_LEN		16
#define TLOB_TAG_LEN		16

/* The sysfs control tree of the module and the tracefs one of in-kernel RV. */
#define TLOB_SYSFS_DIR		"/sys/kernel/tlob"
#define TLOB_RV_DIR		"/sys/kernel/tracing/rv/monitors/tlob"
/* Where the BPF backend pins its maps and links when asked to persist. */
#define TLOB_BPF_PIN_DIR	"/sys/fs/bpf/tlob"

/* Which record this is. */
enum tlob_record_kind {
	/* The deadline passed while the task was still inside its window. */
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
};

/*
 * One record, one window (or the moment its deadline passed). Times are
 * CLOCK_MONOTONIC nanoseconds (ktime_get_ns() in the module,
 * bpf_ktime_get_ns() in BPF), so records of both backends compare.
 */
struct tlob_record {
	__u64 start_ns;		/* when START was seen */
	__u64 end_ns;		/* STOP/abort (WINDOW), detection (VIOLATION) */
	__u64 budget_ns;
	__u64 elapsed_ns;	/* end_ns - start_ns */
	__u64 running_ns;	/* on a CPU */
	__u64 waiting_ns;	/* runnable, on a runqueue, not on a CPU */
	__u64 sleeping_ns;	/* blocked */
	/*
	 * Report time minus deadline (start_ns + budget_ns) of the first
	 * detection; 0 when the window was in budget.
	 */
	__s64 detect_latency_ns;
	__u32 pid;
	__u32 tgid;
	__u32 binding_id;	/* stable id of the binding (never reused) */
	__u32 preemptions;	/* switched out while runnable */
	__u32 sleeps;		/* switched out blocked */
	__u32 wakeups;		/* sched_wakeup seen for the task */
	__u8 kind;		/* enum tlob_record_kind */
	__u8 verdict;		/* enum tlob_verdict */
	__u8 abort_reason;	/* enum tlob_abort_reason */
	__u8 detector;		/* enum tlob_detector */
	__u8 state;		/* model state at end_ns (enum states_tlob) */
	__u8 event;		/* model event that ended it (enum events_tlob) */
	__u8 pad[2];
	char comm[TLOB_COMM_LEN];
	char tag[TLOB_TAG_LEN];	/* the binding's tag= or "" */
};

/*
 * What a `monitor` line can carry, checked by the module's parser and by
 * the tool (for both backends) with these two functions, so that a line
 * the tool writes reads back as exactly what was asked:
 * - a tag is 1..TLOB_TAG_LEN-1 characters of A-Z a-z 0-9 _ . -
 * - a path is absolute and has no whitespace and no control byte
 *   (0x00..0x20, 0x7f): the line is split at blanks and newlines. Any
 *   other byte (UTF-8 included) is taken as it is.
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
