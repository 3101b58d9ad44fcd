/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the BPF programs (tlob.bpf.c, tlob_timer.bpf.c) and their loader
 * (user/backend/bpf/backend_bpf.c) agree on besides struct tlob_record and struct
 * tlob_stats (../shared/tlob_abi.h, the value of the per-CPU statistics map,
 * whose copies the loader sums): the attach cookie, the binding map
 * value, the monitor's metadata.
 * Fixed-size types only: the same bytes are read on both sides.
 */
#ifndef TLOB_BPF_H
#define TLOB_BPF_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/*
 * A uprobe's attach cookie: the binding id in the low 32 bits, the kind of
 * probe (START, STOP, an alive binding's CHECKPOINT, a logical binding's
 * event) above. One program serves every binding; the cookie
 * says which binding and which end of its section fired.
 */
#define TLOB_COOKIE_START	1ULL
#define TLOB_COOKIE_STOP	2ULL
#define TLOB_COOKIE_CHECKPOINT	3ULL	/* an alive binding's checkpoint */
/* A logical binding's event @e (0 .. TLOB_LOGIC_EVENTS_MAX - 1): the table's index. */
#define TLOB_COOKIE_LOGIC(e)	(16ULL + (e))
#define TLOB_COOKIE_IS_LOGIC(k)	((k) >= 16 && (k) < 16 + TLOB_LOGIC_EVENTS_MAX)
#define TLOB_COOKIE(id, kind)	((__u64)(__u32)(id) | ((__u64)(kind) << 32))
#define TLOB_COOKIE_ID(c)	((__u32)(c))
#define TLOB_COOKIE_KIND(c)	((c) >> 32)

/*
 * Map sizes. TLOB_BPF_MAX_TASKS is the default size of the windows map
 * (tasks that have opened a window and not exited); the loader sets it
 * from tlob mon --bpf-tasks, 1..TLOB_BPF_TASKS_MAX, before load.
 */
#define TLOB_BPF_MAX_BINDINGS	256
#define TLOB_BPF_MAX_TASKS	1024
#define TLOB_BPF_TASKS_MAX	65536
/*
 * The sampling path's walk of the tasks with windows (tlob.bpf.c,
 * tlob_scan_due()): at most this many tasks per sample or scheduler event
 * (their TLOB_BPF_NEST windows each), the walk resumed at the next.
 */
#define TLOB_BPF_SCAN_CHUNK	64
/* Windows one task can have open at once (of as many bindings). */
#define TLOB_BPF_NEST		4	/* a power of two: slot indexes are masked */
/* Buckets of open-window counts by tid (tlob.bpf.c, tlob_open_at): 16 KiB */
#define TLOB_BPF_OPEN_MASK	4095
#define TLOB_BPF_PATH_MAX	4096
#define TLOB_BPF_RINGBUF	(1024 * 1024)	/* windows */
#define TLOB_BPF_RINGBUF_URGENT	(256 * 1024)	/* violations, their diagnoses, dropped STARTs */
/*
 * The per-CPU tables of the windows waiting on each CPU (tlob_diag.bpf.h):
 * the default size; the loader sizes the map to the possible CPUs.
 */
#define TLOB_BPF_CPUS		64
/*
 * Readers: the tlob processes reading records (tlob mon). One set of
 * programs and maps serves every reader of the system; each reader has
 * rings of its own (a BPF ring buffer has one consumer position, so two
 * readers of one ring would each get part of it), at its slot in the
 * arrays of rings, and gets the records of the bindings it holds (a bit
 * in struct tlob_bpf_binding.readers) or of every binding (a bit in
 * struct tlob_bpf_meta.all_readers).
 */
#define TLOB_BPF_READERS	16

/* Binding flags. */
#define TLOB_BIND_STOP_RET	1U	/* STOP = return of the START function */
#define TLOB_BIND_PERSIST	2U	/* held by the persistent holder (tlob bind) */
#define TLOB_BIND_ALIVE		4U	/* alive supervision: start is the checkpoint */
#define TLOB_BIND_PER_TASK	8U	/* alive, logic: per=task (else per process) */
#define TLOB_BIND_LOGIC		16U	/* logical supervision: its table in tlob_logic_tables */

/*
 * The bindings map value, keyed by binding id. The programs read only the
 * first members and the readers; the rest is there so that a later `tlob`
 * process (unbind, list, another session) finds the binding of a pinned
 * monitor. A binding is held by the persistent holder (TLOB_BIND_PERSIST)
 * and by reader sessions (their bits in readers), and goes with the last.
 */
struct tlob_bpf_binding {
	__u64 budget_ns;
	__u64 min_ns;		/* min=: 0 none */
	__u32 pid;		/* only this thread; 0 = any */
	__u32 tgid;		/* only this process; 0 = any */
	char tag[16];		/* TLOB_TAG_LEN */
	__u8 tol_k;		/* tolerance=K/W; 1/1: none */
	__u8 tol_w;
	__u8 pad[6];
	/* TLOB_BIND_ALIVE: the reference cycle and the checkpoints in one */
	__u64 period_ns;
	__u32 expect;
	__u32 margin;
	__u64 start;		/* ELF file offsets */
	__u64 stop;
	__u32 flags;		/* TLOB_BIND_* */
	__u32 readers;		/* reader slots holding it (1 << slot) */
	/* PATH; for a logical binding its files beyond PATH after it, each NUL-ended */
	char path[TLOB_BPF_PATH_MAX];
};

/*
 * The context of tlob_abort, run by the loader (BPF_PROG_TEST_RUN): end
 * the open windows of one binding, or of all, with this abort reason.
 */
struct tlob_bpf_abort {
	__u32 binding_id;	/* 0: every binding */
	__u32 reason;		/* enum tlob_abort_reason */
};

/*
 * Index of the tlob_lost map (per-CPU counters); after TLOB_LOST_MAX, one
 * per reader slot: records that did not fit in that reader's rings.
 */
enum tlob_lost_kind {
	TLOB_LOST_RINGBUF,	/* a record did not fit (a ring of a reader gone: none) */
	TLOB_LOST_NOSLOT,	/* a START found no free window (a dropped record says so) */
	TLOB_LOST_NOTIMER,	/* a window got no bpf_timer (map full, or no hrtimer) */
	TLOB_LOST_MAX,
};
#define TLOB_LOST_READER(slot)	(TLOB_LOST_MAX + (slot))
#define TLOB_LOST_NR		(TLOB_LOST_MAX + TLOB_BPF_READERS)

/*
 * The metadata map (one element): how the monitor detects overruns, so a
 * second reader can say which path the running monitor uses.
 */
struct tlob_bpf_meta {
	__u32 next_id;		/* last binding id handed out */
	__u32 detector;		/* TLOB_DETECT_BPF_TIMER or TLOB_DETECT_SAMPLE */
	__u64 sample_period_ns;	/* sampling path: period of the sampler */
	__u32 all_readers;	/* reader slots reading every binding (tlob mon without -b) */
	__u32 pad;
};

/*
 * The tlob_readers map value, at a reader's slot: who reads there, so
 * that a slot whose process is gone (SIGKILL) is found and freed by the
 * next tlob process. The programs never read it. pid 0: a free slot.
 */
struct tlob_bpf_reader {
	__u32 pid;		/* the reader's process (tgid) */
	__u32 pad;
	__u64 start_time;	/* its start time (/proc/PID/stat): the pid not reused */
	char comm[16];
};

#endif /* TLOB_BPF_H */
