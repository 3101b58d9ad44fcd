/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The diagnosis of a violation (struct tlob_diag, tlob_abi.h): the steps
 * the module (../module/) and the BPF programs (../bpf/) both take to fill
 * one, written once. Plain C on the struct: no lock, no kernel or BPF
 * call, loops with constant bounds the BPF verifier can follow. The
 * caller keeps the struct to itself while it calls these (the module
 * under the window's lock; a BPF program on the window it has claimed).
 *
 * The includer provides __always_inline (the kernel's; the BPF programs
 * and the unit tests define it).
 */
#ifndef TLOB_DIAG_H
#define TLOB_DIAG_H

#include "tlob_abi.h"

/* An index the BPF verifier must see bounded (as in tlob_engine.h). */
#ifndef barrier_var
#define barrier_var(var)	((void)(var))
#endif

/* A new window: nothing seen yet, the task starts on @cpu. */
static __always_inline void tlob_diag_open(struct tlob_diag *d, __u32 cpu)
{
	__builtin_memset(d, 0, sizeof(*d));
	d->cpu = cpu;
}

/*
 * The task was put on @cpu (switch-in): a CPU other than the one it was
 * last on is a migration. Counting at switch-in, not at the scheduler's
 * migration event, sees every move that made the task run elsewhere and
 * costs no extra tracepoint.
 */
static __always_inline void tlob_diag_on_cpu(struct tlob_diag *d, __u32 cpu)
{
	if (d->cpu != cpu)
		d->migrations++;
	d->cpu = cpu;
}

/*
 * A comm into @dst: up to its NUL, zero-filled, never read past it. An
 * includer whose every @src is a whole comm buffer of TLOB_COMM_LEN bytes
 * or more (a task's, or one of these tables') defines
 * TLOB_DIAG_COMM_WHOLE and gets a plain copy instead of the byte loop: the
 * module, where the loop costs every sched_waking of a task inside a
 * window about 75 instructions. The BPF programs keep the loop (their
 * sources are BTF char arrays the verifier checks byte by byte on 6.1),
 * and so do the host tests, which pass short literals.
 */
static __always_inline void tlob_diag_comm(char *dst, const char *src)
{
#ifdef TLOB_DIAG_COMM_WHOLE
	__builtin_memcpy(dst, src, TLOB_COMM_LEN - 1);
#else
	char c = 1;
	int i;

	for (i = 0; i < TLOB_COMM_LEN - 1; i++) {
		if (c)
			c = src[i];
		dst[i] = c;
	}
#endif
	dst[TLOB_COMM_LEN - 1] = '\0';
}

/* The task was woken by @pid (@comm): the last waker is the one kept. */
static __always_inline void tlob_diag_woken(struct tlob_diag *d, __u32 pid,
					    const char *comm)
{
	d->waker_pid = pid;
	tlob_diag_comm(d->waker_comm, comm);
}

/*
 * Task @pid ran @ns on the CPU the window's task waited on. The table
 * keeps the TLOB_DIAG_RAN tasks with the most time: a task already in it
 * adds up; a new one takes a free entry, or the entry with the least
 * time when it has more than that (the evicted task's time is dropped:
 * the table answers "who took the CPU", it is not a full account, and
 * its size stays fixed). Entries are not sorted here:
 * tlob_diag_ran_sort() does it once, when the diagnosis is sent.
 */
static __always_inline void tlob_diag_ran_add(struct tlob_diag *d, __u32 pid,
					      __u32 prio, __u8 policy,
					      const char *comm, __u64 ns)
{
	unsigned int i, min = 0;
	struct tlob_ran *r;

	for (i = 0; i < TLOB_DIAG_RAN; i++) {
		if (i < d->nr_ran && d->ran[i].pid == pid) {
			d->ran[i].ns += ns;
			d->ran[i].prio = prio;
			d->ran[i].policy = policy;
			return;
		}
	}
	if (d->nr_ran < TLOB_DIAG_RAN) {
		min = d->nr_ran++;
	} else {
		for (i = 1; i < TLOB_DIAG_RAN; i++)
			if (d->ran[i].ns < d->ran[min].ns)
				min = i;
		if (d->ran[min].ns >= ns)
			return;
	}
	barrier_var(min);
	if (min >= TLOB_DIAG_RAN)
		return;
	r = &d->ran[min];
	r->ns = ns;
	r->pid = pid;
	r->prio = prio;
	r->policy = policy;
	tlob_diag_comm(r->comm, comm);
}

/*
 * How much of a run from @from to @now counts for a window opened at
 * @start whose deadline is @deadline: the part inside the window and
 * before the deadline (the table says who took the CPU until the
 * overrun, not after). 0 when they do not overlap.
 */
static __always_inline __u64 tlob_diag_ran_span(__u64 from, __u64 now, __u64 start,
						__u64 deadline)
{
	__u64 lo = from > start ? from : start;
	__u64 hi = now < deadline ? now : deadline;

	return hi > lo ? hi - lo : 0;
}

/* Most time first: the order readers print. */
static __always_inline void tlob_diag_ran_sort(struct tlob_diag *d)
{
	unsigned int i, j;

	for (i = 0; i < TLOB_DIAG_RAN; i++) {
		for (j = 0; j + 1 < TLOB_DIAG_RAN - i; j++) {
			struct tlob_ran t;

			if (j + 1 >= d->nr_ran || d->ran[j].ns >= d->ran[j + 1].ns)
				continue;
			t = d->ran[j];
			d->ran[j] = d->ran[j + 1];
			d->ran[j + 1] = t;
		}
	}
}

#endif /* TLOB_DIAG_H */
